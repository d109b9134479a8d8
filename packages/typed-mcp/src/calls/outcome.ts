/**
 * What the one bounded pipeline (pipeline.ts `runCall`) tells the middleware chain about how a
 * `tools/call`, `resources/read` or `prompts/get` ended (docs/observability.md "Outcomes"): the
 * chain opens a record for the request's signal, the pipeline notes the outcome on it. Without a
 * chain (no `server.use`, no `typed-mcp/otel`) nothing is opened and noting costs one `WeakMap`
 * lookup.
 *
 * @module
 */

/**
 * How one run of the pipeline ended:
 *
 * - `ok`: the function's value was written;
 * - `invalid_argument`: the reader refused an argument (spec §5), or a `tools/call`'s raw arguments
 *   were over a bound;
 * - `tool_error`: the function threw a `ToolError` (spec §7);
 * - `protocol_error`: the function threw the SDK's `ProtocolError` (sent as that JSON-RPC error);
 * - `failed`: an unexpected exception from reader, function or writer (reported to `onError`);
 * - `timeout`: `requestTimeoutMs` elapsed first;
 * - `cancelled`: the client cancelled the request (nothing is sent), also when the function
 *   returned a value after that.
 */
export type CallOutcome =
  | "ok"
  | "invalid_argument"
  | "tool_error"
  | "protocol_error"
  | "failed"
  | "timeout"
  | "cancelled";

/** The records the chain opened, by the request's signal (`ctx.mcpReq.signal`, one per request). */
const OPEN = new WeakMap<AbortSignal, { outcome: CallOutcome | undefined }>();

/** Opens the record of the request whose signal is `signal`; `record.outcome` is then set by {@link noteOutcome}. */
export function openOutcome(signal: AbortSignal, record: { outcome: CallOutcome | undefined }): void {
  OPEN.set(signal, record);
}

/** Notes how the run of the request with `signal` ended, when a record was opened for it (else nothing). */
export function noteOutcome(signal: AbortSignal, outcome: CallOutcome): void {
  const record = OPEN.get(signal);
  if (record !== undefined) record.outcome = outcome;
}
