/**
 * What a span and a metric point of `typed-mcp/otel` record (docs/observability.md "What is
 * recorded"), following the OpenTelemetry MCP semantic conventions
 * (open-telemetry/semantic-conventions-genai `docs/gen-ai/mcp.md`, status Development, at commit
 * 0393513; {@link SEMCONV_SOURCE}): the span name, the attributes of a request, and how its end
 * maps to `error.type` and `rpc.response.status_code`.
 *
 * @module
 */
import type { Attributes } from "@opentelemetry/api";
import type { MiddlewareContext, MiddlewareResult } from "../calls/middleware.js";

/** The conventions document and revision followed (named in the docs and in every test). */
export const SEMCONV_SOURCE = "open-telemetry/semantic-conventions-genai docs/gen-ai/mcp.md @ 0393513";

/** The conventions' `ExplicitBucketBoundaries` of both duration histograms, in seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** typed-mcp's own attribute: how the function's run ended (calls/outcome.ts), on `tools/call`, `resources/read`, `prompts/get`. */
export const OUTCOME_ATTRIBUTE = "typed_mcp.outcome";
/** typed-mcp's own attribute: `input_required` (a 2026-07-28 round asking for input) or `task` (the call became a task). */
export const RESULT_TYPE_ATTRIBUTE = "typed_mcp.result_type";
/** typed-mcp's own attribute: the round is a 2026-07-28 retry carrying `inputResponses` / `requestState`. */
const INPUT_RETRY_ATTRIBUTE = "typed_mcp.input_retry";

/** The `network.transport` of a transport (conventions, "Recording MCP transport"): stdio is `pipe`, HTTP `tcp`. */
export function networkTransport(transport: "stdio" | "http"): Attributes {
  return transport === "stdio"
    ? { "network.transport": "pipe" }
    : { "network.transport": "tcp", "network.protocol.name": "http" };
}

/**
 * The span name `{mcp.method.name} {target}`: the target is the tool or prompt name; a resource
 * URI only with `uriInName` (the conventions: not by default, high cardinality); else the method.
 */
export function spanName(ctx: MiddlewareContext, uriInName: boolean): string {
  const { method, target } = ctx;
  if (target === undefined) return method;
  if (method === "tools/call" || method === "prompts/get") return `${method} ${target}`;
  if (uriInName && method === "resources/read") return `${method} ${target}`;
  return method;
}

/**
 * The attributes of a request known when it starts (span and metric; `mcp.session.id` and
 * `jsonrpc.request.id` are the span's only, added by the caller): `mcp.method.name`,
 * `gen_ai.tool.name` + `gen_ai.operation.name` `execute_tool` (`tools/call`),
 * `gen_ai.prompt.name` (`prompts/get`), `mcp.resource.uri` (`resources/read`, `subscribe`,
 * `unsubscribe`; on the span only, as the conventions make it opt-in on the metric),
 * `mcp.protocol.version`, `network.transport` (+ `network.protocol.name` `http`).
 */
export function requestAttributes(ctx: MiddlewareContext): { span: Attributes; metric: Attributes } {
  const metric: Attributes = {
    "mcp.method.name": ctx.method,
    "mcp.protocol.version": ctx.protocolVersion,
    ...networkTransport(ctx.transport),
  };
  const span: Attributes = { ...metric, "jsonrpc.request.id": String(ctx.requestId) };
  const target = ctx.target;
  if (target !== undefined) {
    if (ctx.method === "tools/call") {
      metric["gen_ai.tool.name"] = span["gen_ai.tool.name"] = target;
      metric["gen_ai.operation.name"] = span["gen_ai.operation.name"] = "execute_tool";
    } else if (ctx.method === "prompts/get") metric["gen_ai.prompt.name"] = span["gen_ai.prompt.name"] = target;
    else if (ctx.method.startsWith("resources/")) span["mcp.resource.uri"] = target;
  }
  if (ctx.inputRetry) span[INPUT_RETRY_ATTRIBUTE] = true;
  return { span, metric };
}

/** How a request ended, for the span status and `error.type` (docs/observability.md "Errors"). */
export interface Ending {
  /** `error.type`, when the request failed. */
  readonly errorType?: string;
  /** `rpc.response.status_code`: the JSON-RPC error code answered, as a string. */
  readonly statusCode?: string;
  /** The span status description: the JSON-RPC error message, or the `isError` result's text. */
  readonly message?: string;
  /** `typed_mcp.result_type`. */
  readonly resultType?: string;
}

/**
 * The {@link Ending} of a request answered with `result`: a 2026-07-28 `input_required` round and
 * a created task are no failures; a `tools/call` `isError` result is `error.type` `tool_error`
 * (the conventions), except after a timeout (`timeout`) or a cancellation (`cancelled`, the
 * client asked for it; nothing was sent).
 */
export function endingOfResult(ctx: MiddlewareContext, result: MiddlewareResult): Ending {
  if (ctx.outcome === "cancelled" || ctx.signal.aborted)
    return { errorType: "cancelled", message: "The request was cancelled." };
  if (result.resultType === "input_required") return { resultType: "input_required" };
  if (ctx.task !== undefined) return { resultType: "task" };
  if (result.isError !== true) return {};
  return { errorType: ctx.outcome === "timeout" ? "timeout" : "tool_error", message: firstText(result) };
}

/**
 * The {@link Ending} of a request answered with a JSON-RPC error (`error` thrown by the handler or
 * a middleware): `error.type` and `rpc.response.status_code` are its code as a string (the
 * conventions), `error.type` `timeout` for a timed-out resource or prompt (`-32603`), and `-32603`
 * for an exception without a code (the SDK answers it so).
 */
export function endingOfError(ctx: MiddlewareContext, error: unknown): Ending {
  if (ctx.outcome === "cancelled") return { errorType: "cancelled", message: "The request was cancelled." };
  const code = (error as { code?: unknown } | null)?.code;
  const statusCode = typeof code === "number" && Number.isInteger(code) ? String(code) : "-32603";
  const message = statusCode === "-32603" && typeof code !== "number" ? "Internal error" : messageOf(error);
  return { errorType: ctx.outcome === "timeout" ? "timeout" : statusCode, statusCode, message };
}

/** The message of a JSON-RPC error as the SDK sends it (without its `MCP error <code>: ` prefix). */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^MCP error -?\d+: /, "");
}

/** The first text block of a `CallToolResult`. */
function firstText(result: MiddlewareResult): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  const block = content.find((b) => (b as { type?: unknown }).type === "text") as { text?: unknown } | undefined;
  return typeof block?.text === "string" ? block.text : undefined;
}

/** Session ids hashed so far (bounded: the oldest is dropped past {@link HASHED_MAX}). */
const HASHED = new Map<string, string>();
const HASHED_MAX = 1024;

/** `node:crypto`'s synchronous `createHash`, where the runtime has it (Node, Bun, Deno, workerd with `nodejs_compat`). */
const createHash = (() => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const nodeCrypto = proc?.getBuiltinModule?.("node:crypto") as
      | { createHash?: (algorithm: string) => { update(data: string): { digest(encoding: "hex"): string } } }
      | undefined;
    return nodeCrypto?.createHash;
  } catch {
    return undefined;
  }
})();

/**
 * `mcp.session.id`: the first 16 bytes of the SHA-256 of the session id, as 32 lowercase hex
 * digits — never the id itself (it scopes the session's tasks). Synchronous for an id hashed
 * before and where `node:crypto` is there; else a promise (WebCrypto digests are asynchronous).
 */
export function sessionHash(session: string): string | Promise<string> {
  const known = HASHED.get(session);
  if (known !== undefined) return known;
  if (createHash !== undefined)
    return remember(session, createHash("sha256").update(session).digest("hex").slice(0, 32));
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(session)).then((digest) => {
    let hex = "";
    for (const b of new Uint8Array(digest).subarray(0, 16)) hex += b.toString(16).padStart(2, "0");
    return remember(session, hex);
  });
}

function remember(session: string, hex: string): string {
  if (HASHED.size >= HASHED_MAX) HASHED.delete(HASHED.keys().next().value as string);
  HASHED.set(session, hex);
  return hex;
}
