/**
 * typed-mcp: typed TypeScript functions and class methods as MCP tools (spec §0).
 *
 * @packageDocumentation
 */
export * from "./types.js";
export { McpServer } from "./server.js";
export type { McpServerOptions, FetchOptions } from "./server.js";
export type { TaskOptions, TaskQuota } from "./task-store.js";
export type { CallerKey } from "./caller.js";
export type { CallKind, Failure } from "./pipeline.js";
export type { StreamClosedNotice, StreamOptions } from "./streams.js";
export { STREAM_CLOSED_CHANNEL } from "./streams.js";
export type { AuthOptions } from "./auth.js";
export type { ServerAuth } from "./auth-option.js";
export { ToolError, ServerRequestUnavailableError } from "./errors.js";
export type { ServerRequestMethod } from "./errors.js";
export type { CompletionHook, CompletionRef, TemplateVariables } from "./completion.js";
export { tool } from "./decorators.js";
export type { ToolDecorator, ToolOptions, QuickToolOptions } from "./decorators.js";
export { TOOL_ERROR_CHANNEL } from "./diagnostics.js";
export { resource, prompt, complete } from "./resource-decorators.js";
export { UI_MIME_TYPE } from "./apps.js";
export type {
  UiResourceOptions,
  UiResourceMeta,
  UiResourceCsp,
  UiResourcePermissions,
  UiResourceHtml,
} from "./apps.js";
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
export * from "./sdk.js";
