/**
 * Public types of `typed-mcp`: the integer type, validation type tags (spec §4), the
 * `RequestContext` parameter (spec §0) and the result types a tool may return as-is (spec §6).
 *
 * Type tags are phantom: `number & Minimum<1>` accepts any number at compile time and carries
 * the constraint for the build plugin, which writes it into the schema and the reader.
 *
 * @packageDocumentation
 */
import type { ContentBlock as SdkContentBlock, CallToolResult as SdkCallToolResult } from "@modelcontextprotocol/server";

/** An integer: listed as `{"type":"integer"}`; the reader refuses non-integers (spec §4). */
export type Int = number & { readonly "typed-mcp:int"?: true };

/** `minimum` (spec §4 validation tags): `qty: Int & Minimum<1>`. */
export type Minimum<N extends number> = { readonly "typed-mcp:minimum"?: N };
/** `maximum` (spec §4 validation tags). */
export type Maximum<N extends number> = { readonly "typed-mcp:maximum"?: N };
/** `minLength` on strings, `minItems` on arrays and sets (spec §4); lengths count code points. */
export type MinLength<N extends number> = { readonly "typed-mcp:minLength"?: N };
/** `maxLength` on strings, `maxItems` on arrays and sets (spec §4); lengths count code points. */
export type MaxLength<N extends number> = { readonly "typed-mcp:maxLength"?: N };
/** `pattern`: an ECMAScript regular expression compiled with the `u` flag, unanchored (spec §4). */
export type Pattern<P extends string> = { readonly "typed-mcp:pattern"?: P };
/** `format` (spec §4): `"email"` or `"uri"`. */
export type Format<F extends "email" | "uri"> = { readonly "typed-mcp:format"?: F };

/** A content block of a tool result (MCP `ContentBlock`). */
export type ContentBlock = SdkContentBlock;
/** A full tool result, passed through as is when a tool returns it (spec §6). */
export type CallToolResult = SdkCallToolResult;

/** Logging levels of MCP `notifications/message`. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/**
 * The per-call context (spec §0). Declare one parameter of this type on a tool, resource or
 * prompt to receive it; it is filled by the runtime and never listed.
 */
export interface RequestContext {
  /** Aborted on `notifications/cancelled` and when `requestTimeoutMs` elapses (spec §7). */
  readonly signal: AbortSignal;
  /** The JSON-RPC id of the request. */
  readonly requestId: string | number;
  /** The negotiated protocol revision, e.g. `"2025-11-25"`. */
  readonly protocolVersion: string;
  /** The client's `clientInfo` (name, version), when it sent one. */
  readonly clientInfo: { name: string; version: string; [k: string]: unknown } | undefined;
  /** The client's capabilities. */
  readonly clientCapabilities: Record<string, unknown> | undefined;
  /** Authentication information handed to the HTTP handler, if any. */
  readonly authInfo: unknown;
  /** The request's `_meta`. */
  readonly meta: Record<string, unknown> | undefined;
  /** Sends `notifications/progress` — only when the client gave a progress token; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends `notifications/message` at `level`. */
  log(level: LogLevel, data: unknown): Promise<void>;
  /** `elicitation/create`, delegated to the SDK (needs the client capability). */
  elicit(params: Record<string, unknown>): Promise<unknown>;
  /** `sampling/createMessage`, delegated to the SDK (needs the client capability). */
  sample(params: Record<string, unknown>): Promise<unknown>;
  /** `roots/list`, delegated to the SDK (needs the client capability). */
  listRoots(): Promise<unknown>;
}
