/**
 * Public types of `typed-mcp`: the integer type, validation type tags (spec §4), the
 * `RequestContext` parameter (spec §0) and the result types a tool may return as-is (spec §6).
 *
 * Type tags are phantom: `number & Minimum<1>` accepts any number at compile time and carries
 * the constraint for the build plugin, which writes it into the schema and the reader.
 *
 * @packageDocumentation
 */
import type {
  AuthInfo,
  CallToolResult as SdkCallToolResult,
  ClientCapabilities,
  ContentBlock as SdkContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
} from "@modelcontextprotocol/server";
import type { InputRequestOptions } from "./calls/input-required.js";

export type { InputRequestOptions, RequestStateOptions } from "./calls/input-required.js";

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
  /** Aborted on `notifications/cancelled` (or a closed HTTP exchange) and when `requestTimeoutMs` elapses (spec §7). */
  readonly signal: AbortSignal;
  /** The JSON-RPC id of the request. */
  readonly requestId: string | number;
  /**
   * The negotiated protocol revision, e.g. `"2025-11-25"` or `"2026-07-28"`. On a stateless
   * 2025-era HTTP request it is the `MCP-Protocol-Version` header (`"2025-03-26"` when absent).
   */
  readonly protocolVersion: string;
  /** The client's `clientInfo` (name, version), when known (not on stateless 2025-era HTTP requests). */
  readonly clientInfo: Implementation | undefined;
  /** The client's capabilities, when known (not on stateless 2025-era HTTP requests). */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Authentication information handed to `server.fetch(request, { authInfo })`, if any. */
  readonly authInfo: AuthInfo | undefined;
  /** The request's `_meta` (without the reserved `io.modelcontextprotocol/*` envelope keys). */
  readonly meta: Record<string, unknown> | undefined;
  /**
   * The client session this request belongs to (docs/runtime.md "Lifecycle hooks"): the stdio
   * connection's id, or the typed-mcp `Mcp-Session-Id` of a stateless 2025-era HTTP request — the
   * `session.id` the `lifecycle` hooks got. `undefined` on 2026-07-28 and without a session id.
   */
  readonly sessionId: string | undefined;
  /**
   * Sends `notifications/progress` for this request — only when the client gave a progress token
   * (`_meta.progressToken`); otherwise resolves without sending anything.
   * @param progress Progress so far (should increase with every call).
   * @param total The total, when known.
   * @param message A human-readable status.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends `notifications/message` at `level` (respecting the client's `logging/setLevel` or, on
   * 2026-07-28, the request's log level; nothing is sent when the client asked for none).
   */
  log(level: LogLevel, data: unknown): Promise<void>;
  /**
   * Sets the human-readable `statusMessage` of the task this call runs as (MCP 2025-11-25
   * "Tasks" `Task.statusMessage`; SEP-2663 on 2026-07-28), e.g. `await ctx.taskStatus("Gathering
   * sources...")`, and its `lastUpdatedAt`; the `status` stays as typed-mcp keeps it. Clients see
   * it in `tasks/get` (and `tasks/list`, `tasks/cancel`); on a 2025-11-25 connection (stdio) a
   * `notifications/tasks/status` carries it — a message set in the same event-loop turn as a
   * status change (just before `ctx.elicit`, which makes the task `input_required`, or right after
   * its answer) goes out in that change's notification. The message
   * stays until the next call (a finished task keeps its last one; `tasks/cancel` sets its own).
   * Outside a task (an ordinary call, a resource, a prompt) and once the task is cancelled or
   * expired, it does nothing. Resolves at once (docs/runtime.md "Tasks", Status messages).
   * @param message The status message (plain text).
   * @throws TypeError (rejection) when `message` is not a string.
   */
  taskStatus(message: string): Promise<void>;
  /**
   * Asks the client for input with `elicitation/create` (form or URL mode) and resolves with its
   * `ElicitResult` (`{ action: "accept" | "decline" | "cancel", content? }`).
   *
   * - 2025-era connections: a real server→client request, delegated to the SDK (`options` is
   *   ignored). Needs the client's `elicitation` capability as the SDK sees it.
   * - 2026-07-28 (`input_required` flow, SEP-2322): resolves with the client's answer when the
   *   retried request (or its `requestState`) carries one for this input's key
   *   ({@link InputRequestOptions.key}); otherwise the call ends and the request is answered with
   *   an `input_required` result asking for it — the promise rejects with an internal signal that
   *   the runtime turns into that result (never `The tool failed.`), and the function runs again
   *   from the start on the retry, so it must be idempotent up to its input requests. Requests
   *   made before the function gives up (`Promise.all([...])`) are asked together. Works in tools,
   *   prompts and resources.
   * - 2026-07-28 without the `elicitation` capability in the request's client capabilities:
   *   rejects with the SDK's `MissingRequiredClientCapabilityError` (`-32021`, SEP-2575).
   * @throws TypeError (rejection) on 2026-07-28 when `options.key` is empty or was used for another kind of input in this call.
   */
  elicit(
    params: ElicitRequestFormParams | ElicitRequestURLParams,
    options?: InputRequestOptions,
  ): Promise<ElicitResult>;
  /**
   * Asks the client's model with `sampling/createMessage`; resolves with its `CreateMessageResult`.
   * Same eras, keys and errors as {@link elicit} (capability `sampling`).
   */
  sample(
    params: CreateMessageRequestParams,
    options?: InputRequestOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /**
   * Asks the client for its roots with `roots/list`; resolves with its `ListRootsResult`
   * (`{ roots: [{ uri, name? }] }`). Same eras, keys and errors as {@link elicit} (capability `roots`).
   */
  listRoots(options?: InputRequestOptions): Promise<ListRootsResult>;
  /**
   * Ends this request's SSE response stream now while the call goes on — the 2025-era polling
   * style (Streamable HTTP "Resumability and Redelivery"; SEP-1699): the client reconnects with
   * `GET` and `Last-Event-ID`, on any instance, and receives what was sent since and, once there,
   * the response. Only a `tools/call` of a 2025-11-25 client over HTTP with a shared `store` has
   * such a stream (docs/scaling.md "After a stream is cut"); anywhere else (stdio, 2026-07-28, no
   * `store`, an older revision, `resources/read`, `prompts/get`) it does nothing. Called before
   * anything was sent, the stream ends after its priming event.
   * @returns `true` when this request's stream is resumable (and is closed now, or already was), else `false`.
   */
  closeStream(): boolean;
}
