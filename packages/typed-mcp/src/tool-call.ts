/**
 * The `tools/call` pipeline (spec §5–§7; docs/runtime.md "Rules decided here"): read the
 * arguments with the generated reader, run the function (bounded by `requestTimeoutMs`, aborted
 * on cancellation), write the value with the generated writer, and map every failure to the
 * answer the contract gives it.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { cutEchoed } from "@typed-mcp/model";
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
import { setLongTimeout } from "./timers.js";
import type { LongTimer } from "./timers.js";

/** Called with every exception reported as a failure (`McpServerOptions.onToolError`). */
export type FailureListener = (error: unknown, info: { tool: string }) => void;

/** The server options the pipeline follows. */
export interface CallPolicy {
  /** `McpServerOptions.requestTimeoutMs`: the longest run, in milliseconds; `undefined`: no limit. */
  readonly timeoutMs: number | undefined;
  /** `McpServerOptions.onToolError`. */
  readonly onToolError: FailureListener | undefined;
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
 * - arguments over the `ArgumentLimits` (limits.ts; `capture.refused`, the whole §5 text naming the
 *   bound): `isError` with it, before the reader runs;
 * - an own `__proto__` argument the SDK's parse dropped (`capture.proto`): put back as an own data
 *   property, so the reader treats it like `constructor` or `prototype` (spec §5);
 * - reader returns a string: `isError` with it, `Argument '<path>' is not valid. <sentence>` (spec §5);
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
 * @param capture What the raw-message hook saw in this request's arguments (sdk-patches.ts `patchRawMessages`).
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
  if (entry === undefined)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${cutEchoed(params.name)} not found`);
  if (capture !== undefined && "refused" in capture) return errorResult(capture.refused);
  const raw = capture === undefined ? params.arguments : defineOwn({ ...params.arguments }, "__proto__", capture.proto);
  const upstream = ctx.mcpReq.signal;
  // Without a timeout the tool gets the request's own signal (aborted only by cancellation); with
  // one, a linked controller that the timeout aborts too (no AbortController made per call without).
  const controller = policy.timeoutMs === undefined ? undefined : new AbortController();
  const onUpstreamAbort = (): void => controller?.abort(upstream.reason);
  if (upstream.aborted) onUpstreamAbort();
  else if (controller !== undefined) upstream.addEventListener("abort", onUpstreamAbort, { once: true });
  const failed = (error: unknown): CallToolResult => {
    reportFailure(entry.name, error, policy.onToolError);
    return errorResult(FAILED_TEXT);
  };
  try {
    let args: unknown[] | string;
    try {
      args = entry.descriptor.read(raw, requestContext(sdk, ctx, view, controller?.signal ?? upstream));
    } catch (error) {
      return failed(error);
    }
    if (typeof args === "string") return errorResult(args);

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
      controller?.abort(new DOMException(TIMED_OUT_TEXT, "TimeoutError"));
      return errorResult(TIMED_OUT_TEXT);
    }

    try {
      return shapeResult(entry.descriptor.write(value), view);
    } catch (error) {
      return failed(error);
    }
  } finally {
    if (controller !== undefined) upstream.removeEventListener("abort", onUpstreamAbort);
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
  let timer: LongTimer | undefined;
  try {
    // setLongTimeout: a requestTimeoutMs above 2^31 - 1 ms would make setTimeout fire in 1 ms.
    const value = await Promise.race([
      pending,
      new Promise<typeof TIMED_OUT>((resolve) => (timer = setLongTimeout(() => resolve(TIMED_OUT), timeoutMs))),
    ]);
    if (value === TIMED_OUT) pending.catch(() => {});
    return value;
  } finally {
    timer?.clear();
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
