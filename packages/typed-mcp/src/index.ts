/**
 * typed-mcp: typed TypeScript functions and class methods as MCP tools (spec §0).
 *
 * The top of `src/` is the public surface: the package entries (`index`, `internal`, `stdio`,
 * `node`, `auth`, the targets of package.json `exports`), `McpServer` (server.ts), the public
 * types (types.ts) and the decorators. They stay directly in `src/` (so in `dist/`): the build
 * plugin recognizes typed-mcp's own declarations — `McpServer` for the quick path,
 * `RequestContext` — by their file being there (`@typed-mcp/extract` `isTypedMcpFile`). Everything
 * else lives in one folder per capability, each saying its job at the top of its main file
 * (docs/runtime.md "Module layout").
 *
 * @packageDocumentation
 */
export * from "./types.js";
export { McpServer } from "./server.js";
export { withContent, type WithContent } from "./with-content.js";
export type { ClientSession, LifecycleHooks } from "./server/lifecycle.js";
export type { PromptHandle, ResourceHandle, ToolHandle } from "./server/handles.js";
export type { McpServerOptions, FetchOptions } from "./server.js";
export type { CorsOptions } from "./transports/cors.js";
export { nextHandler, type NextRouteHandlers, type RouteHandler } from "./transports/next-handler.js";
export type { TaskOptions, TaskQuota } from "./tasks/store.js";
export type { CallerKey } from "./transports/caller.js";
export { MemoryStateStore } from "./store/state-store.js";
export type { StateStore, Unsubscribe } from "./store/state-store.js";
export type { StoreOption, StoreSettings } from "./store/shared.js";
export type { CallKind, Failure } from "./calls/pipeline.js";
export type { Middleware, MiddlewareContext, MiddlewareResult, Next, TaskEnd, TaskHandle } from "./calls/middleware.js";
export type { CallOutcome } from "./calls/outcome.js";
export type { StreamClosedNotice, StreamOptions } from "./streams/listen-streams.js";
export { STREAM_CLOSED_CHANNEL } from "./streams/listen-streams.js";
export type { AuthOptions } from "./auth/oauth.js";
export type { ServerAuth } from "./auth/option.js";
export { ToolError, ServerRequestError, ServerRequestUnavailableError } from "./calls/errors.js";
export type { ServerRequestMethod } from "./calls/errors.js";
export type { CompletionHook, CompletionRef, TemplateVariables } from "./resources/completion.js";
export { tool } from "./decorators.js";
export type { ToolDecorator, ToolOptions, QuickToolOptions } from "./decorators.js";
export { TOOL_ERROR_CHANNEL } from "./calls/diagnostics.js";
export { resource, prompt, complete } from "./resource-decorators.js";
export { UI_MIME_TYPE } from "./server/apps.js";
export type {
  UiResourceOptions,
  UiResourceMeta,
  UiResourceCsp,
  UiResourcePermissions,
  UiResourceHtml,
} from "./server/apps.js";
export type {
  ResourceOptions,
  QuickResourceOptions,
  PromptOptions,
  QuickPromptOptions,
  ReadResourceResult,
  ResourceContents,
  TextResourceContents,
  BlobResourceContents,
  PromptMessage,
  GetPromptResult,
  CompletionMethod,
  CompleteDecorator,
} from "./resource-decorators.js";
export * from "./protocol/sdk.js";
