/**
 * Folder `calls/`: answering one request — the bounded pipeline (this file), `tools/call`, the
 * client view, `RequestContext`, the 2026-07-28 `input_required` flow, the back channel, and the
 * errors and diagnostics a failure produces.
 *
 * The one bounded pipeline of `tools/call`, `resources/read` and `prompts/get` (spec §5–§8;
 * docs/runtime.md "Rules decided here"): read the arguments with the generated reader, run the
 * function (bounded by `requestTimeoutMs`, aborted on cancellation), write the value with the
 * generated writer, and report every failure to the error hooks. What each outcome answers is
 * the caller's (tool-call.ts: `isError` results; resource-handlers.ts: JSON-RPC errors).
 *
 * @module
 */
import { ProtocolError } from "@modelcontextprotocol/server";
import { publishToolError } from "./diagnostics.js";
import { isToolError } from "./errors.js";
import { isInputRequiredSignal } from "./input-required.js";
import { noteOutcome } from "./outcome.js";
import { setLongTimeout } from "../protocol/timers.js";
import type { LongTimer } from "../protocol/timers.js";

/** What runs through the pipeline. */
export type CallKind = "tool" | "resource" | "prompt";

/**
 * One failure, as `McpServerOptions.onError` receives it: `name` is the tool name, the prompt
 * name, or the resource's URI or URI template exactly as registered (the key `removeResource` takes);
 * for `kind` `"middleware"` (an exception a `server.use` middleware threw, calls/middleware.ts),
 * the request's method.
 */
export interface Failure {
  readonly kind: CallKind | "middleware";
  readonly name: string;
  readonly error: unknown;
}

/** The error hooks of a server: `onError` and its deprecated tool-named alias `onToolError`. */
export interface ErrorHooks {
  readonly onError?: ((failure: Failure) => void) | undefined;
  readonly onToolError?: ((error: unknown, info: { tool: string }) => void) | undefined;
}

/** The server options the pipeline follows. */
export interface CallPolicy {
  /** `McpServerOptions.requestTimeoutMs`: the longest run, in milliseconds; `undefined`: no limit. */
  readonly timeoutMs: number | undefined;
  /** Told about every failure ({@link reportFailure} with the server's hooks). */
  readonly report: (failure: Failure) => void;
}

/** The answer texts of a timed-out run (spec §7; docs/runtime.md "Timeout"). */
const TIMED_OUT_TEXT: Readonly<Record<CallKind, string>> = {
  tool: "The tool timed out.",
  resource: "The resource read timed out.",
  prompt: "The prompt timed out.",
};

/** The answer texts of a failed run (spec §7): nothing about the exception is sent. */
const FAILED_TEXT: Readonly<Record<CallKind, string>> = {
  tool: "The tool failed.",
  resource: "The resource failed.",
  prompt: "The prompt failed.",
};

/** The three steps of one run. */
export interface CallSteps<R> {
  /** The generated reader, given the signal the function will see: the arguments, or the §5 text of a bad one. */
  read(signal: AbortSignal): unknown[] | string;
  /** Calls the function with the read arguments. */
  call(args: unknown[]): unknown;
  /** The generated writer: the answer for the function's value. */
  write(value: unknown): R;
}

/** How one kind answers each outcome (return the answer, or throw the JSON-RPC error). */
export interface CallAnswers<R> {
  /** The reader refused an argument with `text` (`Argument '<path>' is not valid. …`). */
  invalid(text: string): R;
  /** Failed or timed out: `text` is {@link FAILED_TEXT} or {@link TIMED_OUT_TEXT} of the kind. */
  refuse(text: string): R;
  /** The function threw `error`: its answer when `error` is not a failure (ToolError, ProtocolError, …), else `undefined`. */
  thrown(error: unknown): R | undefined;
}

const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * Runs one tool, resource or prompt:
 *
 * - reader throws, or the writer throws: {@link reportFailure}, then `refuse(FAILED_TEXT)`;
 * - reader returns a string: `invalid(text)`;
 * - function throws: `thrown(error)` when it answers; else, when the request was cancelled,
 *   `refuse(FAILED_TEXT)` unreported (the SDK sends nothing for an aborted request); else reported
 *   and `refuse(FAILED_TEXT)`;
 * - `policy.timeoutMs` elapses first: the function's signal is aborted with a `TimeoutError`
 *   `DOMException`, its later outcome ignored, and `refuse(TIMED_OUT_TEXT)` answers at once.
 *
 * Each outcome is noted for the middleware chain (outcome.ts `noteOutcome`; a 2026-07-28 input
 * request signal is none: its round ends in `input_required`).
 *
 * Without a timeout the function gets `upstream` itself (aborted only by cancellation; no
 * `AbortController` made per call); with one, a linked signal that the timeout aborts too.
 *
 * @param upstream The request's signal (`ctx.mcpReq.signal`).
 */
export async function runCall<R>(
  kind: CallKind,
  name: string,
  upstream: AbortSignal,
  policy: CallPolicy,
  steps: CallSteps<R>,
  answers: CallAnswers<R>,
): Promise<R> {
  const controller = policy.timeoutMs === undefined ? undefined : new AbortController();
  const onUpstreamAbort = (): void => controller?.abort(upstream.reason);
  if (upstream.aborted) onUpstreamAbort();
  else if (controller !== undefined) upstream.addEventListener("abort", onUpstreamAbort, { once: true });
  const failed = (error: unknown): R => {
    noteOutcome(upstream, "failed");
    policy.report({ kind, name, error });
    return answers.refuse(FAILED_TEXT[kind]);
  };
  try {
    let args: unknown[] | string;
    try {
      args = steps.read(controller?.signal ?? upstream);
    } catch (error) {
      return failed(error);
    }
    if (typeof args === "string") {
      noteOutcome(upstream, "invalid_argument");
      return answers.invalid(args);
    }

    let value: unknown;
    try {
      value = await runBounded(() => steps.call(args), policy.timeoutMs);
    } catch (error) {
      const thrownOutcome = outcomeOfThrown(error);
      if (thrownOutcome !== undefined) noteOutcome(upstream, thrownOutcome);
      const answer = answers.thrown(error);
      if (answer !== undefined) return answer;
      if (upstream.aborted) {
        noteOutcome(upstream, "cancelled");
        return answers.refuse(FAILED_TEXT[kind]);
      }
      return failed(error);
    }
    if (value === TIMED_OUT) {
      noteOutcome(upstream, "timeout");
      controller?.abort(new DOMException(TIMED_OUT_TEXT[kind], "TimeoutError"));
      return answers.refuse(TIMED_OUT_TEXT[kind]);
    }

    try {
      const written = steps.write(value);
      // A value after the client cancelled: the SDK sends nothing, so the call counts as cancelled.
      noteOutcome(upstream, upstream.aborted ? "cancelled" : "ok");
      return written;
    } catch (error) {
      return failed(error);
    }
  } finally {
    if (controller !== undefined) upstream.removeEventListener("abort", onUpstreamAbort);
  }
}

/** The outcome of an exception the function threw that answers on its own (`ToolError`, `ProtocolError`). */
function outcomeOfThrown(error: unknown): "tool_error" | "protocol_error" | undefined {
  if (isToolError(error)) return "tool_error";
  return error instanceof ProtocolError && !isInputRequiredSignal(error) ? "protocol_error" : undefined;
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
 * Reports a failure (spec §7): publishes `{ tool: name, error }` on the diagnostics channel,
 * calls `hooks.onError({ kind, name, error })` and `hooks.onToolError(error, { tool: name })`.
 * Whatever a hook throws is ignored. 2026-07-28 input-required signals are not failures and are
 * not reported.
 */
export function reportFailure(failure: Failure, hooks: ErrorHooks): void {
  const { name, error } = failure;
  if (isInputRequiredSignal(error)) return;
  publishToolError(name, error);
  try {
    hooks.onError?.(failure);
  } catch {
    // The answer stays the same whatever the callback does.
  }
  if (failure.kind === "middleware") return; // not a tool's, resource's or prompt's: the deprecated alias never had it
  try {
    hooks.onToolError?.(error, { tool: name });
  } catch {
    // Likewise.
  }
}
