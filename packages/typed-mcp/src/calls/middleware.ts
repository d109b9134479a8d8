/**
 * The middleware chain (`McpServer.use`; docs/observability.md "Middleware"): functions run around
 * every request typed-mcp answers — `tools/call`, `resources/read`, `prompts/get`,
 * `completion/complete`, the lists, `resources/subscribe` / `unsubscribe`, `tasks/*` — in
 * registration order, each deciding whether to call `next()` or to answer itself; and 2026-07-28
 * `subscriptions/listen` (served by the SDK's listen routers before any handler: run by
 * streams/listen-streams.ts on `server.fetch` and streams/stdio-listen.ts on `serveStdio`,
 * {@link listenContext}). `initialize`, `ping` and `logging/setLevel` (answered by the SDK
 * itself) do not pass it.
 *
 * On 2026-07-28, a list answer that a middleware built or replaced (not the handler's own) gets
 * `cacheScope: "private"` unless it has one (spec §11: it may differ per caller).
 *
 * It is installed on the one place every handler is installed through (sdk-patches.ts
 * `wrapRequestHandlers`), outside the 2026-07-28 `input_required` wrapper, so each round of a
 * call passes it once and `next()` returns that round's answer. The bounded pipeline (pipeline.ts
 * `runCall`) notes the outcome of a tool, resource or prompt on the context (outcome.ts).
 *
 * @module
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { AuthInfo, ClientCapabilities, Implementation, Server, ServerContext } from "@modelcontextprotocol/server";
import type { Failure } from "./pipeline.js";
import { openOutcome } from "./outcome.js";
import type { CallOutcome } from "./outcome.js";
import { LISTEN_REVISION, isStateless } from "../protocol/revisions.js";
import { wrapRequestHandlers } from "../protocol/sdk-patches.js";
import { TaskCreated } from "../tasks/created.js";
import type { TaskRecord } from "../tasks/store.js";

/** A result as a handler answers it: `CallToolResult`, `ReadResourceResult`, a list, a `CreateTaskResult`, … */
export type MiddlewareResult = Record<string, unknown>;

/** Runs the rest of the chain and the handler; resolves with the answer, rejects with the JSON-RPC error (a `ProtocolError`). */
export type Next = () => Promise<MiddlewareResult>;

/**
 * One middleware: called with the request's {@link MiddlewareContext} and `next`. Return
 * `await next()` (or a result built from it) to pass the request on; return a result of the
 * method's shape without calling `next()` to answer instead (for `tools/call` an `isError`
 * result, spec §7), or throw the SDK's `ProtocolError` (re-exported by `typed-mcp`) to answer
 * with that JSON-RPC error. Any other exception a middleware throws is answered `-32603`
 * `Internal error` (JSON-RPC 2.0 §5.1; its message is never sent) and handed to
 * `McpServerOptions.onError` as `{ kind: "middleware", name: method, error }`; what `next()`
 * rejects with passes through unchanged. `next()` may be called at most once (a second call
 * rejects with an `Error`, itself answered as such an exception). Nothing bounds a middleware's
 * own time: `requestTimeoutMs` bounds the tool, resource or prompt inside `next()`.
 */
export type Middleware = (ctx: MiddlewareContext, next: Next) => MiddlewareResult | Promise<MiddlewareResult>;

/** How a task created by a `tools/call` ended ({@link TaskHandle.ended}). */
export interface TaskEnd {
  /** The task's terminal status. */
  readonly status: "completed" | "failed" | "cancelled";
  /** Whether a completed task's `CallToolResult` has `isError: true`. */
  readonly isError: boolean;
}

/** The task a `tools/call` became (MCP tasks; docs/runtime.md "Tasks"). */
export interface TaskHandle {
  /** The task id the client was given. */
  readonly taskId: string;
  /** Resolves when the task reaches a terminal status or is dropped at expiry (then `cancelled`). Never rejects. */
  readonly ended: Promise<TaskEnd>;
}

/** What a middleware knows about one request (read-only; `outcome` and `task` are set by the time `next()` resolves). */
export interface MiddlewareContext {
  /** The JSON-RPC method, e.g. `tools/call`. */
  readonly method: string;
  /**
   * What the request is about: the tool or prompt name (`tools/call`, `prompts/get`), the
   * resource URI (`resources/read`, `resources/subscribe`, `resources/unsubscribe`), the
   * reference's name or URI template (`completion/complete`), the task id (`tasks/*`); `undefined`
   * for the lists. As the client sent it (not checked against what is registered).
   */
  readonly target: string | undefined;
  /** The request's `params` after the SDK's parse (client data: treat as untrusted). */
  readonly params: Readonly<Record<string, unknown>> | undefined;
  /** The JSON-RPC request id. */
  readonly requestId: string | number;
  /** The verified access token (the `auth` option or `FetchOptions.authInfo`); `undefined` on stdio and without a token. */
  readonly authInfo: AuthInfo | undefined;
  /**
   * The session the request belongs to: a stdio connection's id (random, made when it opened),
   * or a 2025-era HTTP request's `Mcp-Session-Id`; `undefined` on 2026-07-28 and sessionless HTTP.
   * A session id scopes that session's tasks: do not log or export it as it is.
   */
  readonly session: string | undefined;
  /**
   * Who is calling, for per-caller limits (docs/security.md "Callers"): the token's issuer +
   * subject + client, else the stdio connection, else the anonymous bucket (split by the
   * `callerKey` option). Opaque; may hold NUL characters.
   */
  readonly caller: string;
  /** `stdio` (a lasting connection) or `http` (`server.fetch`, `serveHttp`). */
  readonly transport: "stdio" | "http";
  /** The request's MCP revision (client-view.ts `viewOf`). */
  readonly protocolVersion: string;
  /** The client's `clientInfo`, when known. */
  readonly clientInfo: Implementation | undefined;
  /** The client's declared capabilities, when known. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** The request's `params._meta` (without the 2026-07-28 `io.modelcontextprotocol/*` envelope keys). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /**
   * `true` for a 2026-07-28 round that carries `inputResponses` or `requestState`: the retry of a
   * call answered `input_required` before. Count a call once by counting only rounds where it is `false`.
   */
  readonly inputRetry: boolean;
  /** Aborted when the client cancels the request. */
  readonly signal: AbortSignal;
  /** The HTTP request (`server.fetch`, `serveHttp`); `undefined` on stdio. */
  readonly httpRequest: Request | undefined;
  /** Set before `next()` resolves for `tools/call`, `resources/read`, `prompts/get`: how the function's run ended (outcome.ts). */
  readonly outcome: CallOutcome | undefined;
  /** Set before `next()` resolves when the `tools/call` became a task (`next()` then resolves with the `CreateTaskResult`). */
  readonly task: TaskHandle | undefined;
}

/** What the server knows about the connection or request a context is built for. */
export interface ChainSource {
  /** The chain, read at each request (middleware added later is seen by later requests). */
  chain(): readonly Middleware[];
  /** The stdio connection's id, `undefined` for an HTTP instance. */
  readonly connection: string | undefined;
  /** The revision and client of a request (client-view.ts). */
  view(ctx: ServerContext): {
    protocolVersion: string;
    clientInfo: Implementation | undefined;
    clientCapabilities: ClientCapabilities | undefined;
  };
  /** The caller's bucket (caller.ts `callerOf`). */
  caller(ctx: ServerContext): string;
  /** Hands an exception a middleware threw to `McpServerOptions.onError` (pipeline.ts `reportFailure`). */
  report(failure: Failure): void;
}

/** The methods that do not pass the chain (answered by the SDK itself: installed before any wrap). */
const UNCHAINED = new Set(["initialize", "ping"]);
const CHAINED = { has: (method: string) => !UNCHAINED.has(method) };

/**
 * Makes every request handler installed on `sdk` after this call (every method but
 * `initialize` and `ping`) run through `source.chain` (see the module comment).
 */
export function installMiddleware(sdk: Server, source: ChainSource): void {
  wrapRequestHandlers(sdk, CHAINED, (method, handler, paramsOnly) => (request, ctx) => {
    const chain = source.chain();
    if (chain.length === 0) return handler(request, ctx);
    const params = paramsOnly ? request : (request as { params?: unknown }).params;
    return runChain(
      chain,
      contextOf(method, params as Params, ctx, source),
      () => handler(request, ctx),
      source.report,
    );
  });
}

/** A request's params as a handler gets them. */
type Params = Record<string, unknown> | undefined;

/** A {@link MiddlewareContext} under construction (outcome and task are written by the chain). */
export type Writable = { -readonly [K in keyof MiddlewareContext]: MiddlewareContext[K] };

/** The {@link MiddlewareContext} of one request. */
function contextOf(method: string, params: Params, ctx: ServerContext, source: ChainSource): Writable {
  const view = source.view(ctx);
  const req = (ctx.http as { req?: Request } | undefined)?.req;
  const header = req?.headers.get("mcp-session-id");
  return {
    method,
    target: targetOf(method, params),
    params,
    requestId: ctx.mcpReq.id,
    authInfo: ctx.http?.authInfo,
    session: source.connection ?? (header === null || header === "" ? undefined : header),
    caller: source.caller(ctx),
    transport: source.connection === undefined ? "http" : "stdio",
    protocolVersion: view.protocolVersion,
    clientInfo: view.clientInfo,
    clientCapabilities: view.clientCapabilities,
    meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
    inputRetry: ctx.mcpReq.inputResponses !== undefined || ctx.mcpReq.requestState() !== undefined,
    signal: ctx.mcpReq.signal,
    httpRequest: req,
    outcome: undefined,
    task: undefined,
  };
}

/** The {@link MiddlewareContext.target} of a request. */
function targetOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  let target: unknown;
  if (method === "tools/call" || method === "prompts/get") target = params?.["name"];
  else if (method.startsWith("resources/") && !method.endsWith("/list")) target = params?.["uri"];
  else if (method.startsWith("tasks/")) target = params?.["taskId"];
  else if (method === "completion/complete") {
    const ref = params?.["ref"] as { name?: unknown; uri?: unknown } | undefined;
    target = ref?.name ?? ref?.uri;
  }
  return typeof target === "string" ? target : undefined;
}

/**
 * Runs `chain` around `inner` for one request. A created task (the handler's `TaskCreated`
 * signal, tasks/created.ts) reaches `next()`'s caller as its `CreateTaskResult`, and leaves the
 * chain as the signal again when the chain answered with that very result.
 */
export async function runChain(
  chain: readonly Middleware[],
  ctx: Writable,
  inner: () => unknown,
  report: (failure: Failure) => void,
): Promise<unknown> {
  openOutcome(ctx.signal, ctx);
  let created: TaskCreated | undefined;
  let handled: unknown;
  const innermost = async (): Promise<MiddlewareResult> => {
    try {
      return (handled = (await inner()) as MiddlewareResult);
    } catch (error) {
      if (!(error instanceof TaskCreated)) throw error;
      created = error;
      ctx.task = taskHandle(error.record);
      return error.result;
    }
  };
  // What next() rejected with, so that a middleware rethrowing it passes it on unchanged.
  const passed = new WeakSet<object>();
  const dispatch = async (i: number): Promise<MiddlewareResult> => {
    if (i === chain.length) return innermost();
    let called = false;
    try {
      const answer: unknown = await chain[i]!(ctx, () => {
        if (called) return Promise.reject(new Error("typed-mcp: a middleware called next() twice."));
        called = true;
        return dispatch(i + 1).catch((error: unknown) => {
          if (typeof error === "object" && error !== null) passed.add(error);
          throw error;
        });
      });
      return resultObject(answer, ctx.method);
    } catch (error) {
      throw maskedMiddlewareError(error, passed, ctx.method, report);
    }
  };
  const result = await dispatch(0);
  if (created !== undefined && result === created.result) throw created;
  // A list a middleware answered or changed may differ per caller: never cacheable as shared (spec §11).
  if (
    result !== handled &&
    ctx.method.endsWith("/list") &&
    isStateless(ctx.protocolVersion) &&
    !("cacheScope" in result)
  )
    return { ...result, cacheScope: "private" };
  return result;
}

/**
 * `answer` when it is a result object (what a JSON-RPC result is, JSON-RPC 2.0 §5); anything else
 * a middleware returned (`undefined`, a number, an array …) is its failure, answered `-32603` by
 * the caller like a throw (and reported), never passed to the SDK or the outer middleware.
 *
 * @throws Error naming `method` and what was returned.
 */
function resultObject(answer: unknown, method: string): MiddlewareResult {
  if (typeof answer === "object" && answer !== null && !Array.isArray(answer)) return answer as MiddlewareResult;
  const got = Array.isArray(answer) ? "an array" : answer === null ? "null" : typeof answer;
  throw new Error(
    `typed-mcp: a middleware answered ${method} with ${got}; return next()'s result or a result object, or throw a ProtocolError.`,
  );
}

/**
 * What leaves a middleware that threw `error`: unchanged when it is a `ProtocolError` (the
 * middleware's answer), a created task's signal, or what `next()` rejected with; else `-32603`
 * `Internal error`, `error` going to `report` — its message is the server's, not the client's.
 */
function maskedMiddlewareError(
  error: unknown,
  passed: WeakSet<object>,
  method: string,
  report: (failure: Failure) => void,
): unknown {
  if (error instanceof ProtocolError || error instanceof TaskCreated) return error;
  if (typeof error === "object" && error !== null && passed.has(error)) return error;
  report({ kind: "middleware", name: method, error });
  return new ProtocolError(ProtocolErrorCode.InternalError, "Internal error");
}

/** The {@link TaskHandle} of a created task. */
function taskHandle(record: TaskRecord): TaskHandle {
  return {
    taskId: record.taskId,
    ended: record.settled.then(() => ({
      status: record.status === "completed" || record.status === "failed" ? record.status : "cancelled",
      isError: record.result?.isError === true,
    })),
  };
}

/**
 * The chain of a request: `instrumentation`'s middleware first while it is enabled (it records
 * only then, calls/instrumentation.ts), then `server.use`'s as they are now.
 */
export function chainOf(
  instrumentation: () => { enabled(): boolean; readonly middleware: Middleware } | undefined,
  chain: readonly Middleware[],
): () => readonly Middleware[] {
  return () => {
    const outer = instrumentation();
    return outer?.enabled() === true ? [outer.middleware, ...chain] : chain;
  };
}

/** Where a `subscriptions/listen` came from, for {@link listenContext}. */
export interface ListenSource {
  readonly authInfo: AuthInfo | undefined;
  /** The caller's bucket (caller.ts `callerOf`). */
  readonly caller: string;
  /** `http`: `server.fetch`; `stdio`: a lasting connection (`serveStdio`). */
  readonly transport: "http" | "stdio";
  /** A lasting connection's id; `undefined` over HTTP (2026-07-28 has no session). */
  readonly session: string | undefined;
  readonly signal: AbortSignal;
  readonly httpRequest: Request | undefined;
}

/**
 * The {@link MiddlewareContext} of a 2026-07-28 `subscriptions/listen`, built from the request
 * before the SDK's listen router serves it (streams/listen-streams.ts on `server.fetch`,
 * streams/stdio-listen.ts on a lasting connection): the revision, client and capabilities from
 * the request's `_meta` envelope.
 */
export function listenContext(
  listen: { id: string | number; params: Record<string, unknown> | undefined },
  source: ListenSource,
): Writable {
  const meta = listen.params?.["_meta"] as Record<string, unknown> | undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  return {
    method: "subscriptions/listen",
    target: undefined,
    params: listen.params,
    requestId: listen.id,
    authInfo: source.authInfo,
    session: source.session,
    caller: source.caller,
    transport: source.transport,
    protocolVersion: typeof version === "string" ? version : LISTEN_REVISION,
    clientInfo: meta?.[CLIENT_INFO_META_KEY] as Implementation | undefined,
    clientCapabilities: meta?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined,
    meta,
    inputRetry: false,
    signal: source.signal,
    httpRequest: source.httpRequest,
    outcome: undefined,
    task: undefined,
  };
}
