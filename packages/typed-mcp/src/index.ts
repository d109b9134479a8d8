/**
 * typed-mcp: typed TypeScript functions and class methods as MCP tools (spec §0).
 *
 * @packageDocumentation
 */
export * from "./types.js";
export { McpServer } from "./server.js";
export type { McpServerOptions, FetchOptions } from "./server.js";
export type { TaskOptions, TaskQuota } from "./tasks/store.js";
export type { CallerKey } from "./transports/caller.js";
export type { CallKind, Failure } from "./calls/pipeline.js";
export type { StreamClosedNotice, StreamOptions } from "./streams/listen-streams.js";
export { STREAM_CLOSED_CHANNEL } from "./streams/listen-streams.js";
export type { AuthOptions } from "./auth/oauth.js";
export type { ServerAuth } from "./auth/option.js";
export { ToolError, ServerRequestUnavailableError } from "./calls/errors.js";
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
