/**
 * The `tools/call` pipeline (spec §5–§7; docs/runtime.md "Rules decided here"): read the
 * arguments with the generated reader, run the function (bounded by `requestTimeoutMs`, aborted
 * on cancellation), write the value with the generated writer, and map every failure to the
 * answer the contract gives it.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { shapeResult } from "./client-view.js";
import { defineOwn } from "./codegen-support.js";
import type { ClientView } from "./client-view.js";
import { publishToolError } from "./diagnostics.js";
import { isToolError } from "./errors.js";
import { isInputRequiredSignal } from "./input-required.js";
import type { ToolEntry } from "./registry.js";
import { isMissingCapabilityAnswer, requestContext } from "./request-context.js";
import type { RawArgumentsCapture } from "./sdk-patches.js";
import type { CallToolResult } from "./types.js";

/** Called with every exception reported as a failure (`McpServerOptions.onToolError`). */
export type FailureListener = (error: unknown, info: { tool: string }) => void;

/** The server options the pipeline follows. */
export interface CallPolicy {
  /** `McpServerOptions.requestTimeoutMs`: the longest run, in milliseconds; `undefined`: no limit. */
  readonly timeoutMs: number | undefined;
  /** `McpServerOptions.onToolError`. */
  readonly onToolError: FailureListener | undefined;
}

/**
 * Bounds on the `arguments` of one `tools/call`, checked before the SDK's parse and the
 * generated reader (`McpServerOptions.maxArgumentDepth` / `maxArgumentValues`;
 * docs/security.md "Limits").
 */
export interface ArgumentLimits {
  /** Deepest nesting of arrays and objects, an argument's own value being level 1. Default {@link DEFAULT_ARGUMENT_LIMITS}. */
  readonly maxDepth: number;
  /** Most JSON values in all arguments together (every object, array, string, number, boolean, null counts 1). */
  readonly maxValues: number;
}

/**
 * The defaults of {@link ArgumentLimits}: depth 64 (a TypeScript parameter type nests far less:
 * the reader never looks deeper than the type), 100,000 values (a 4 MiB body can hold ~1 million).
 */
export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = { maxDepth: 64, maxValues: 100_000 };

/**
 * Checks `args` (a raw `arguments` object, as `JSON.parse` made it) against `limits` without
 * recursion (an explicit stack), in argument order. Returns `undefined` when within the bounds,
 * else the §5 path of the top-level argument being walked when a bound was crossed (the call is
 * then answered `Argument '<path>' is not valid.`). Own `__proto__` keys are read as data.
 */
export function checkArgumentBounds(args: Record<string, unknown>, limits: ArgumentLimits): string | undefined {
  let values = 0;
  for (const key of Object.keys(args)) {
    const stack: Array<{ value: unknown; depth: number }> = [{ value: ownValue(args, key), depth: 1 }];
    while (stack.length > 0) {
      const { value, depth } = stack.pop()!;
      if (++values > limits.maxValues || depth > limits.maxDepth) return argumentPath(key);
      if (typeof value !== "object" || value === null) continue;
      if (Array.isArray(value)) {
        if (values + value.length > limits.maxValues) return argumentPath(key);
        for (const item of value) stack.push({ value: item, depth: depth + 1 });
      } else {
        const keys = Object.keys(value);
        if (values + keys.length > limits.maxValues) return argumentPath(key);
        for (const k of keys) stack.push({ value: ownValue(value as Record<string, unknown>, k), depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** `obj[key]`, reading an own `__proto__` key as the data property it is. */
function ownValue(obj: Record<string, unknown>, key: string): unknown {
  return key === "__proto__" ? Object.getOwnPropertyDescriptor(obj, key)?.value : obj[key];
}

/** The longest path written in an argument error, in UTF-16 code units (spec §5). */
const MAX_PATH_LENGTH = 200;

/**
 * A top-level argument name as a §5 path: as is when it matches `[A-Za-z_$][A-Za-z0-9_$-]*`,
 * else a bracketed JSON string with `'` and every character outside U+0020–U+007E written
 * `\uXXXX`; longer than 200 code units: its first 200 and `…`.
 */
export function argumentPath(name: string): string {
  let path = name;
  if (!/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(name)) {
    path = '["';
    for (const c of name) {
      if (c === '"' || c === "\\") path += `\\${c}`;
      else if (c === "'" || c.length > 1 || c < " " || c > "~") {
        for (let i = 0; i < c.length; i++) path += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
      } else path += c;
    }
    path += '"]';
  }
  // Only ASCII remains (everything else is escaped), so no surrogate pair can be split.
  return path.length <= MAX_PATH_LENGTH ? path : `${path.slice(0, MAX_PATH_LENGTH)}…`;
}

/** The answer of a call whose run timed out (spec §7). */
const TIMED_OUT_TEXT = "The tool timed out.";
/** The answer of a call that failed (spec §7): nothing about the exception is sent. */
const FAILED_TEXT = "The tool failed.";

const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * Answers one `tools/call` (spec §5–§7):
 *
 * - unknown tool: throws `ProtocolError` `-32602` `Tool <name> not found`;
 * - arguments over the {@link ArgumentLimits} (`capture.refused`): `isError` `Argument '<path>' is
 *   not valid.` before the reader runs;
 * - an own `__proto__` argument the SDK's parse dropped (`capture.proto`): put back as an own data
 *   property, so the reader treats it like `constructor` or `prototype` (spec §5);
 * - reader returns a path: `isError` `Argument '<path>' is not valid.`;
 * - {@link ToolError} (also from another copy of typed-mcp): `isError` with its message;
 * - timeout: `isError` `The tool timed out.` at once, the tool's signal aborted with a
 *   `TimeoutError` `DOMException`, its later outcome ignored;
 * - cancelled by the client: `The tool failed.` (the SDK sends nothing for an aborted request);
 * - a 2026-07-28 pending input request or missing client capability: rethrown, for the
 *   `input_required` wrapper (input-required.ts) and the SDK (`-32021`) to answer;
 * - the SDK's `ProtocolError` (any subclass, e.g. `UrlElicitationRequiredError` `-32042`) thrown
 *   by the function: rethrown, and sent by the SDK as that JSON-RPC error (spec §7);
 * - any other exception from reader, function or writer: {@link reportFailure}, then `isError`
 *   `The tool failed.`.
 *
 * The result is shaped for the client's revision ({@link shapeResult}).
 *
 * @param entry The registered tool, or `undefined` when `name` is unknown.
 * @param capture What the raw-message hook saw in this request's arguments (sdk-patches.ts `captureToolArguments`).
 * @throws ProtocolError for an unknown tool; the signals above.
 */
export async function callTool(
  sdk: Server,
  entry: ToolEntry | undefined,
  params: { name: string; arguments?: Record<string, unknown> | undefined },
  ctx: ServerContext,
  view: ClientView,
  policy: CallPolicy,
  capture?: RawArgumentsCapture,
): Promise<CallToolResult> {
  if (entry === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${params.name} not found`);
  if (capture !== undefined && "refused" in capture) return errorResult(`Argument '${capture.refused}' is not valid.`);
  const raw = capture === undefined ? params.arguments : defineOwn({ ...params.arguments }, "__proto__", capture.proto);
  const upstream = ctx.mcpReq.signal;
  const controller = new AbortController();
  const onUpstreamAbort = (): void => controller.abort(upstream.reason);
  if (upstream.aborted) onUpstreamAbort();
  else upstream.addEventListener("abort", onUpstreamAbort, { once: true });
  const failed = (error: unknown): CallToolResult => {
    reportFailure(entry.name, error, policy.onToolError);
    return errorResult(FAILED_TEXT);
  };
  try {
    let args: unknown[] | string;
    try {
      args = entry.descriptor.read(raw, requestContext(sdk, ctx, view, controller.signal));
    } catch (error) {
      return failed(error);
    }
    if (typeof args === "string") return errorResult(`Argument '${args}' is not valid.`);

    let value: unknown;
    try {
      value = await runBounded(() => entry.fn.apply(entry.thisArg, args), policy.timeoutMs);
    } catch (error) {
      if (isInputRequiredSignal(error) || isMissingCapabilityAnswer(error, view.protocolVersion)) throw error;
      // Spec §7: a protocol error thrown on purpose is that JSON-RPC error (the SDK rewrites -32042 on 2026-07-28).
      if (error instanceof ProtocolError) throw error;
      if (isToolError(error)) return errorResult(error.message);
      if (upstream.aborted) return errorResult(FAILED_TEXT);
      return failed(error);
    }
    if (value === TIMED_OUT) {
      controller.abort(new DOMException(TIMED_OUT_TEXT, "TimeoutError"));
      return errorResult(TIMED_OUT_TEXT);
    }

    try {
      return shapeResult(entry.descriptor.write(value), view);
    } catch (error) {
      return failed(error);
    }
  } finally {
    upstream.removeEventListener("abort", onUpstreamAbort);
  }
}

/**
 * Runs `run` (a synchronous throw becomes a rejection) and resolves with its awaited value, or
 * with {@link TIMED_OUT} once `timeoutMs` elapsed first (its later outcome is then ignored).
 */
async function runBounded(run: () => unknown, timeoutMs: number | undefined): Promise<unknown> {
  let pending: Promise<unknown>;
  try {
    pending = Promise.resolve(run());
  } catch (error) {
    pending = Promise.reject(error);
  }
  if (timeoutMs === undefined) return pending;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const value = await Promise.race([pending, new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(resolve, timeoutMs, TIMED_OUT)))]);
    if (value === TIMED_OUT) pending.catch(() => {});
    return value;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reports a failure of `tool` (spec §7): publishes `{ tool, error }` on the diagnostics channel
 * and calls `onToolError(error, { tool })`. Whatever the listener throws is ignored.
 * 2026-07-28 input-required signals are not failures and are not reported.
 */
export function reportFailure(tool: string, error: unknown, onToolError: FailureListener | undefined): void {
  if (isInputRequiredSignal(error)) return;
  publishToolError(tool, error);
  if (onToolError === undefined) return;
  try {
    onToolError(error, { tool });
  } catch {
    // The answer stays the same whatever the callback does.
  }
}

/** A `CallToolResult` with one text block and `isError: true` (spec §7 key order). */
function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
