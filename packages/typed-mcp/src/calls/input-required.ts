/**
 * The 2026-07-28 *input required* flow (multi round-trip requests, SEP-2322) behind
 * `RequestContext.elicit` / `sample` / `listRoots` (spec §0).
 *
 * Revision 2026-07-28 has no server→client requests. A `tools/call`, `prompts/get` or
 * `resources/read` that needs input from the client answers with an `input_required` result
 * naming the requests (`inputRequests`, keyed by server-chosen keys); the client fulfils them and
 * retries the same request with `inputResponses` (the bare results, by key) and the echoed
 * `requestState`. typed-mcp maps that onto the same awaitable `RequestContext` calls a tool uses
 * on 2025-era connections:
 *
 * - each call has a key (`options.key`, else `elicit-1`, `sample-1`, `roots-1`, … counted per kind
 *   within one run). When the request (or the verified `requestState`) carries an answer of the
 *   right kind for that key, the call resolves with it;
 * - otherwise the call is recorded and its promise rejects with an internal signal; when the
 *   function ends (however it ends) with recorded requests, the runtime answers the request with
 *   `inputRequired({ inputRequests, requestState })` instead of its outcome. Calls made before the
 *   function gives up (e.g. `Promise.all([ctx.elicit(…), ctx.sample(…)])`) share one result.
 *
 * On the retry the function runs again **from the start**, so it must be idempotent up to its
 * input requests (as with the SDK's own `inputRequired` handlers). The answers it used travel
 * in `requestState` from round to round (the client sends only the latest round's
 * `inputResponses`), sealed by the SDK's HMAC codec (`createRequestStateCodec`) and bound to the
 * method, the tool/prompt name or resource URI, the arguments and the authenticated client: a
 * tampered, expired or replayed state is answered with JSON-RPC `-32602`
 * `Invalid or expired requestState` before the function runs.
 *
 * @module
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
} from "@modelcontextprotocol/server";
import type {
  InputRequest,
  InputRequests,
  InputRequiredResult,
  RequestStateCodec,
  Server,
  ServerContext,
} from "@modelcontextprotocol/server";
import { inputRequiredFlow } from "../protocol/revisions.js";
import { wrapRequestHandlers } from "../protocol/sdk-patches.js";
import type { RequestContext } from "../types.js";

/** The parameters and results of the three input requests, as `RequestContext` declares them (types.ts). */
type ElicitParams = Parameters<RequestContext["elicit"]>[0];
type SampleParams = Parameters<RequestContext["sample"]>[0];

/** The methods whose results may be `input_required` on 2026-07-28. */
const CAPABLE_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

/** Options of {@link McpServerOptions.requestState} (2026-07-28 `input_required` flow). */
export interface RequestStateOptions {
  /**
   * HMAC-SHA256 key sealing `requestState` (at least 32 bytes; a string is UTF-8 encoded).
   * Default: 32 random bytes per `McpServer` instance — enough when one process serves every
   * round of a call; give every instance the same secret when several processes (serverless
   * isolates, replicas) may receive the retry. A shorter key throws a `RangeError` when the
   * server is constructed.
   */
  key?: string | Uint8Array;
  /** How long a minted `requestState` stays valid, in seconds (default 600). */
  ttlSeconds?: number;
}

/** Per-call options of `RequestContext.elicit` / `sample` / `listRoots` (spec §0). */
export interface InputRequestOptions {
  /**
   * The key of this input request in the 2026-07-28 `inputRequests` / `inputResponses` maps.
   * Default: `elicit-<n>`, `sample-<n>` or `roots-<n>`, the n-th call of that kind without a key
   * in this run of the function. A key names one input: calls in one run with the same key share
   * it (one request is sent, with the first call's params; all get the same answer); using it
   * for two kinds (e.g. `elicit` and `listRoots`) rejects the later call with a `TypeError`. A
   * function that wants to ask again after an answer it did not like must use a new key: a key
   * that was answered keeps its answer for the rest of the call. Ignored on 2025-era
   * connections, which send real server→client requests.
   */
  key?: string;
}

/** What the sealed `requestState` carries from round to round. */
interface StatePayload {
  /** Format version. */
  v: 1;
  /** Method, name or URI, and arguments the state was minted for (see {@link targetOf}). */
  t: string;
  /** The answers the function used so far, by key (bare results). */
  r: Record<string, unknown>;
}

/** The internal signal a pending input request rejects with. Never reaches the client. */
class InputRequiredSignal extends Error {
  constructor(key: string) {
    super(
      `typed-mcp: input '${key}' is required from the client; the request is answered with input_required (protocol revision 2026-07-28).`,
    );
    this.name = "InputRequiredSignal";
  }
}

/** Whether `error` is the signal of a pending 2026-07-28 input request (never a failure of the function). */
export function isInputRequiredSignal(error: unknown): boolean {
  return error instanceof InputRequiredSignal;
}

/** The kind of an input request: `elicitation/create`, `sampling/createMessage` or `roots/list`. */
export type Kind = "elicit" | "sample" | "roots";

/**
 * The SEP-2322 `InputRequest` of one `RequestContext` call (the SDK's `inputRequired.*` builders;
 * URL-mode elicitation without `mode` / `elicitationId`, which the builder sets).
 * @throws as the SDK's builders do for malformed params.
 */
export function inputRequestOf(kind: Kind, params: ElicitParams | SampleParams | undefined): InputRequest {
  if (kind === "roots") return { method: "roots/list", params: {} } as InputRequest;
  if (kind === "sample") return inputRequired.createMessage(params as SampleParams);
  const elicit = params as ElicitParams;
  if (elicit.mode === "url") {
    const { mode: _mode, elicitationId: _id, ...rest } = elicit;
    return inputRequired.elicitUrl(rest);
  }
  return inputRequired.elicit(elicit);
}

/** Whether the bare answer `responses[key]` is of `kind` (the SDK's `inputResponse` view). */
export function answerMatches(kind: Kind, responses: Record<string, unknown>, key: string): boolean {
  const view = inputResponse(responses, key);
  return (
    (kind === "elicit" && view.kind === "elicit") ||
    (kind === "sample" && view.kind === "sampling") ||
    (kind === "roots" && view.kind === "roots")
  );
}

/** Where `RequestContext.elicit` / `sample` / `listRoots` of a 2026-07-28 request get their answers: an {@link InputRound}, or a task's inputs (tasks/input.ts). */
export type InputSource = Pick<InputRound, "elicit" | "sample" | "listRoots">;

/**
 * One run of a function on a 2026-07-28 request that may answer `input_required`: the answers
 * available to it and the input requests it made without an answer.
 */
class InputRound {
  /** The answers available to this run, by key (bare results). */
  readonly answers: Record<string, unknown>;
  readonly #counters: Record<Kind, number> = { elicit: 0, sample: 0, roots: 0 };
  /** The kind each key was asked as in this run (a key names one input; calls sharing it share the answer). */
  readonly #kinds = new Map<string, Kind>();
  /** Answers read during this run: what the next `requestState` carries. */
  readonly used: Record<string, unknown> = {};
  /** Input requests made without an answer, by key. */
  readonly pending: InputRequests = {};

  /** @param answers The answers available to this run, by key: the verified `requestState`'s over the request's `inputResponses`. */
  constructor(answers: Record<string, unknown>) {
    this.answers = answers;
  }

  /** Whether the run made input requests that have no answer yet. */
  get hasPending(): boolean {
    return Object.keys(this.pending).length > 0;
  }

  /** `elicitation/create`: the client's `ElicitResult` for the key, or the signal. */
  elicit(params: ElicitParams, options?: InputRequestOptions): ReturnType<RequestContext["elicit"]> {
    return this.#ask("elicit", options, () => inputRequestOf("elicit", params)) as ReturnType<RequestContext["elicit"]>;
  }

  /** `sampling/createMessage`: the client's `CreateMessageResult` for the key, or the signal. */
  sample(params: SampleParams, options?: InputRequestOptions): ReturnType<RequestContext["sample"]> {
    return this.#ask("sample", options, () => inputRequestOf("sample", params)) as ReturnType<RequestContext["sample"]>;
  }

  /** `roots/list`: the client's `ListRootsResult` for the key, or the signal. */
  listRoots(options?: InputRequestOptions): ReturnType<RequestContext["listRoots"]> {
    return this.#ask("roots", options, () => inputRequestOf("roots", undefined)) as ReturnType<
      RequestContext["listRoots"]
    >;
  }

  #ask(kind: Kind, options: InputRequestOptions | undefined, build: () => InputRequest): Promise<unknown> {
    const key = options?.key ?? `${kind}-${++this.#counters[kind]}`;
    if (typeof key !== "string" || key === "")
      return Promise.reject(new TypeError("typed-mcp: an input request key must be a non-empty string."));
    const earlier = this.#kinds.get(key);
    if (earlier !== undefined && earlier !== kind) {
      return Promise.reject(
        new TypeError(`typed-mcp: input request key '${key}' is used for both ${earlier} and ${kind} in one call.`),
      );
    }
    this.#kinds.set(key, kind);
    if (answerMatches(kind, this.answers, key)) {
      const answer = this.answers[key];
      this.used[key] = answer;
      return Promise.resolve(answer);
    }
    if (this.pending[key] === undefined) {
      try {
        this.pending[key] = build();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return Promise.reject(new InputRequiredSignal(key));
  }
}

/** The rounds of the requests being served, by their SDK context (one object per request). */
const ROUNDS = new WeakMap<object, InputSource>();

/** The {@link InputRound} of a request served by {@link installInputRequired}, if it may answer `input_required`. */
export function inputRoundOf(ctx: ServerContext): InputSource | undefined {
  return ROUNDS.get(ctx);
}

/** The answers (verified `requestState`'s over `inputResponses`, by key) of the 2026-07-28 round whose context is `ctx`; `{}` outside one. */
export function roundAnswersOf(ctx: ServerContext): Record<string, unknown> {
  const round = ROUNDS.get(ctx);
  return round instanceof InputRound ? round.answers : {};
}

/** Makes `source` answer the input requests of the request (or task run) whose context is `ctx` (tasks/input.ts). */
export function bindInputSource(ctx: ServerContext, source: InputSource): void {
  ROUNDS.set(ctx, source);
}

/**
 * Checks {@link RequestStateOptions} when the `McpServer` is constructed (the codec itself is made
 * when serving starts: Workers forbid generating random values at global scope).
 * @throws RangeError when `key` is shorter than 32 bytes (UTF-8 for a string) or `ttlSeconds` is
 *   not a positive finite number.
 */
export function checkRequestStateOptions(options: RequestStateOptions | undefined): void {
  const key = options?.key;
  if (key !== undefined) {
    const length = typeof key === "string" ? new TextEncoder().encode(key).byteLength : key.byteLength;
    if (length < 32) throw new RangeError(`requestState.key must be at least 32 bytes, got ${length}`);
  }
  const ttl = options?.ttlSeconds;
  if (ttl !== undefined && !(Number.isFinite(ttl) && ttl > 0))
    throw new RangeError(`requestState.ttlSeconds must be a positive number of seconds, got ${String(ttl)}`);
}

/** The HMAC codec sealing `requestState`; bound to the method and the authenticated client. */
export function requestStateCodec(options: RequestStateOptions | undefined): RequestStateCodec<StatePayload> {
  return createRequestStateCodec({
    key: options?.key ?? crypto.getRandomValues(new Uint8Array(32)),
    ...(options?.ttlSeconds !== undefined && { ttlSeconds: options.ttlSeconds }),
    bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ""}`,
  }) as RequestStateCodec<StatePayload>;
}

/**
 * Makes `sdk`'s `tools/call`, `prompts/get` and `resources/read` handlers (those installed after
 * this call) answer `input_required` on requests with {@link inputRequiredFlow} whose function
 * left input requests pending (the handlers are wrapped with `wrapRequestHandlers`,
 * sdk-patches.ts). `revisionOf(ctx)` gives the request's revision. The `requestState` itself is
 * verified by the SDK before the handler runs (pass `codec.verify` as
 * `ServerOptions.requestState.verify`); this checks that it was minted for this very request
 * (method, name/URI, arguments).
 *
 * @throws ProtocolError `-32602` `Invalid or expired requestState` (from the wrapped handler)
 *   for a state minted for another request.
 */
export function installInputRequired(
  sdk: Server,
  codec: RequestStateCodec<StatePayload>,
  revisionOf: (ctx: ServerContext) => string,
): void {
  wrapRequestHandlers(sdk, CAPABLE_METHODS, (method, handler) => async (request, ctx) => {
    if (!inputRequiredFlow(revisionOf(ctx))) return handler(request, ctx);
    const params = (request as { params?: Record<string, unknown> }).params;
    // The digest of the arguments is computed only when a requestState is verified or minted (lazy).
    let target: Promise<string> | undefined;
    const targetOnce = (): Promise<string> => (target ??= targetOf(method, params));
    // Without a requestState (every first round) nothing is awaited before the handler runs.
    const state = ctx.mcpReq.requestState<StatePayload | string>();
    const verified = state === undefined ? undefined : await verifiedAnswers(state, targetOnce);
    const responses = ctx.mcpReq.inputResponses;
    const round = new InputRound(
      verified === undefined && responses === undefined ? {} : { ...(responses ?? {}), ...verified },
    );
    ROUNDS.set(ctx, round);
    let outcome: { value: unknown } | { error: unknown };
    try {
      outcome = { value: await handler(request, ctx) };
    } catch (error) {
      outcome = { error };
    } finally {
      ROUNDS.delete(ctx);
    }
    if (round.hasPending)
      return inputRequiredResult(round, await codec.mint({ v: 1, t: await targetOnce(), r: round.used }, ctx));
    if ("error" in outcome) throw outcome.error;
    return outcome.value;
  });
}

/**
 * The answers carried by the request's `requestState` `state` (already verified by the SDK's codec).
 * @throws ProtocolError `-32602` `Invalid or expired requestState` when it was minted for another target.
 */
async function verifiedAnswers(
  state: StatePayload | string,
  target: () => Promise<string>,
): Promise<Record<string, unknown>> {
  if (
    typeof state !== "object" ||
    state === null ||
    state.v !== 1 ||
    state.t !== (await target()) ||
    typeof state.r !== "object" ||
    state.r === null
  ) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState", {
      reason: "invalid_request_state",
    });
  }
  return state.r;
}

function inputRequiredResult(round: InputRound, requestState: string): InputRequiredResult {
  return inputRequired({ inputRequests: round.pending, requestState });
}

/** What a `requestState` is bound to: the method, the name or URI and a digest of the arguments. */
async function targetOf(method: string, params: Record<string, unknown> | undefined): Promise<string> {
  const subject = method === "resources/read" ? params?.["uri"] : params?.["name"];
  const args = method === "resources/read" ? undefined : params?.["arguments"];
  const bytes = new TextEncoder().encode(canonicalJson(args ?? {}));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const b of digest.subarray(0, 16)) hex += b.toString(16).padStart(2, "0");
  return `${method}\0${String(subject)}\0${hex}`;
}

/**
 * JSON with object keys sorted (UTF-16 code unit order), so that the same arguments in another key
 * order bind the same. Iterative — an explicit stack, never recursion — so arguments nested
 * arbitrarily deep (client data, bounded only by the request body size) cannot overflow the call
 * stack. Values are JSON-parsed data: strings, numbers, booleans, null, arrays and plain objects.
 */
function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Each frame: a value still to write, or a literal piece of text (punctuation, a written key).
  const stack: Array<{ value: unknown } | string> = [{ value }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (typeof top === "string") {
      out.push(top);
      continue;
    }
    const v = top.value;
    if (Array.isArray(v)) {
      stack.push("]");
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i] });
        if (i > 0) stack.push(",");
      }
      out.push("[");
    } else if (typeof v === "object" && v !== null) {
      const keys = Object.keys(v).sort();
      stack.push("}");
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ value: (v as Record<string, unknown>)[key] });
        stack.push(`${i > 0 ? "," : ""}${JSON.stringify(key)}:`);
      }
      out.push("{");
    } else {
      out.push(JSON.stringify(v) ?? "null");
    }
  }
  return out.join("");
}
