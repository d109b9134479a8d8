/**
 * The options of `McpServer` (spec §0) and their checks at construction: the one place that says
 * what a server can be configured with and which values are refused.
 *
 * @module
 */
import type { ServerAuth } from "../auth/option.js";
import type { CallerKey } from "../transports/caller.js";
import type { Failure } from "../calls/pipeline.js";
import { checkRequestStateOptions } from "../calls/input-required.js";
import type { RequestStateOptions } from "../calls/input-required.js";
import { resolveLimits } from "../protocol/limits.js";
import type { ArgumentLimits, LimitOptions } from "../protocol/limits.js";
import type { TaskOptions } from "../tasks/store.js";
import type { StoreOption } from "../store/shared.js";
import { resolveStreamLimits } from "../streams/listen-streams.js";
import type { StreamLimits, StreamOptions } from "../streams/listen-streams.js";
import { checkLifecycleHooks } from "./lifecycle.js";
import type { LifecycleHooks } from "./lifecycle.js";

/** Options of `McpServer` (spec §0). */
export interface McpServerOptions extends LimitOptions {
  /** `serverInfo.name` sent to clients. */
  name: string;
  /** `serverInfo.version` sent to clients. */
  version: string;
  /** `serverInfo.title`: a human-readable name. */
  title?: string;
  /** `instructions` sent in the `initialize` / `server/discover` result. */
  instructions?: string;
  /**
   * Longest time a tool call (`tools/call`), resource read (`resources/read`) or prompt
   * (`prompts/get`) may run, in milliseconds (a positive finite number). When it elapses the
   * function's `AbortSignal` is aborted (reason: a `TimeoutError` `DOMException`) and the request
   * is answered at once: a tool `isError` with text `The tool timed out.` (spec §7), a resource
   * JSON-RPC `-32603` `The resource read timed out.`, a prompt `-32603` `The prompt timed out.`.
   * Unset: no limit.
   */
  requestTimeoutMs?: number;
  /**
   * Pages `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list` (MCP
   * "Pagination"; docs/runtime.md "Paginated lists"): each answer holds at most `pageSize`
   * entries (a positive integer) and an opaque `nextCursor` while more follow; a cursor this
   * server did not give out for that list is `-32602` `Invalid cursor: <cursor>`. Unset: every
   * list is one page (a `cursor` is not read). `tasks/list` has its own pages of 50.
   */
  pageSize?: number;
  /**
   * Called with every failure (docs/runtime.md "What counts as a failure"): an exception other
   * than a `ToolError` or the SDK's `ProtocolError` thrown by a tool, resource, prompt or
   * completion hook, or by its generated reader/writer — the client only sees `The tool failed.`
   * (`The resource failed.`, `The prompt failed.`; spec §7). `kind` says which; `name` is the tool
   * name, the prompt name, or the resource's URI or URI template exactly as registered. Whatever
   * it returns or throws does not change the answer.
   */
  onError?: (failure: Failure) => void;
  /**
   * @deprecated Use {@link onError}. Called with the same failures, as `(error, { tool: name })`
   * (`name` as in `onError`, for resources and prompts too). Whatever it returns or throws does
   * not change the answer.
   */
  onToolError?: (error: unknown, info: { tool: string }) => void;
  /**
   * Lifecycle hooks (docs/runtime.md "Lifecycle hooks"): `initialized(session)` after the client's
   * `notifications/initialized`, `rootsListChanged(session)` on `notifications/roots/list_changed`.
   * A session is a stdio connection or a stateless 2025-era HTTP session id (`session.id`, also
   * `RequestContext.sessionId`); on 2026-07-28 nothing fires. A hook that is not a function is a
   * `TypeError` at construction.
   */
  lifecycle?: LifecycleHooks;
  /**
   * How the 2026-07-28 `input_required` flow seals its `requestState` (HMAC key, lifetime): see
   * {@link RequestStateOptions} and docs/runtime.md, RequestContext. Default: a random key per
   * `McpServer` (one process serves every round of a call), 600 s.
   * @throws RangeError (from the constructor) when `key` is shorter than 32 bytes.
   */
  requestState?: RequestStateOptions;
  /**
   * Makes the server an OAuth 2.1 resource server (MCP "Authorization"; docs/auth.md): every HTTP
   * request (`server.fetch`, `serveHttp`) needs a bearer access token issued by `issuer` for
   * `audience`, and `scopes` options of tools, resources and prompts are enforced (403
   * `insufficient_scope`). The verified token reaches tools as `RequestContext.authInfo`. stdio is
   * not affected. The value is `oauth({ issuer, audience, … })` from `typed-mcp/auth`, so that
   * servers without it bundle no auth code (docs/runtimes.md "Bundle size").
   * @throws TypeError (from the constructor) for a value not made by `oauth()` (the plain options
   *   object of earlier versions included), and as `oauth`'s options checks (docs/auth.md).
   */
  auth?: ServerAuth;
  /**
   * Lists that change while serving (docs/runtime.md "Dynamic lists"; MCP "List Changed
   * Notification"). `true`: the capabilities `tools`, `resources` and `prompts` (and
   * `completions`) are advertised with `listChanged: true` — even while none of that kind is
   * registered, so one can be added later — and every registration or removal
   * (`McpServer.removeTool`, …) sends `notifications/{tools,resources,prompts}/list_changed`
   * to connected clients (stdio; 2026-07-28 `subscriptions/listen` streams on any transport;
   * not stateless 2025-era HTTP, which has no stream). Default `false`: no `listChanged`, no
   * notifications (registering and removing still change what later requests see).
   */
  dynamic?: boolean;
  /**
   * Tells anonymous HTTP callers apart for per-caller quotas (caller.ts, docs/security.md
   * "Callers"): called with the request of a caller that has no verified token, no connection and
   * no `Mcp-Session-Id`; a non-empty string puts it in its own anonymous bucket, anything else (or
   * a throw) in the shared one. Typically the client address from a header your trusted proxy
   * sets. It never makes one caller's tasks visible to another. Default: one shared bucket.
   */
  callerKey?: CallerKey;
  /**
   * Retention of tasks and their per-caller quotas under server-wide ceilings ({@link TaskOptions};
   * docs/runtime.md "Tasks", docs/security.md "Tasks" and "Limits").
   * @throws RangeError (from the constructor) naming the option when a value is not a positive
   *   integer or a quota exceeds its ceiling; TypeError when `perCaller` or `anonymous` is not an object.
   */
  tasks?: TaskOptions;
  /**
   * The browser origins allowed to call `server.fetch` (and `serveHttp`, which serves through it)
   * on every runtime, as the Streamable HTTP "Security Warning" requires (servers MUST validate
   * `Origin`; docs/security.md "Origin"; origin.ts). Each entry is an origin as a browser sends
   * it, RFC 6454: `scheme://host[:port]`, e.g. `"https://app.example.com"`,
   * `"http://localhost:5173"`; compared exactly (scheme, host, port). A request with another
   * `Origin` — the opaque `null` included — is HTTP 403 with a JSON-RPC error (`-32000`, no id)
   * and reaches nothing else; a request without `Origin` (non-browser clients) is served.
   * Default (unset): same host only — the `Origin`'s hostname must equal the request URL's.
   * Meant to be shared by a CORS option.
   * @throws TypeError (from the constructor) when not an array of strings; RangeError for an
   *   entry that is not a bare origin (a path, query, fragment or user info; no host), naming it.
   */
  allowedOrigins?: readonly string[];
  /**
   * Bounds on lasting streams and subscriptions ({@link StreamOptions}; docs/security.md "Limits"
   * and "Streams"): per-caller and server-wide quotas of 2026-07-28 `subscriptions/listen` streams,
   * the URI cap of a listen filter and of 2025-era `resources/subscribe`, each listen stream's
   * outbound byte ceiling, and `serveHttp`'s write timeout.
   * @throws RangeError (from the constructor) for a value that is not a positive integer, or a
   *   per-caller quota above `maxListenStreams`.
   */
  streams?: StreamOptions;
  /**
   * A store shared by every instance of this server (docs/scaling.md): tasks, running-task
   * leases, `resources/updated` and `list_changed` fan-out and the cancellation of calls then
   * cross instances behind a balancer. A {@link StateStore} (e.g. `await connectRedisStore(url)`
   * from `typed-mcp/redis`, or a `MemoryStateStore` shared by servers in one process), or
   * `{ state, leaseMs?, prefix?, eventTtlMs? }`. Default: none — everything stays in this process, as before.
   * @throws RangeError (from the constructor) when `leaseMs` or `eventTtlMs` is not an integer of at least 1,000.
   */
  store?: StoreOption;
}

/**
 * Checks `options` as the `McpServer` constructor does, before anything is built, and resolves
 * the limits with their defaults (limits.ts, docs/security.md "Limits").
 *
 * @returns The `tools/call` argument bounds, the HTTP body limit in bytes and the `streams` limits with their defaults.
 * @throws RangeError when `requestTimeoutMs` is given and is not a positive finite number of
 *   milliseconds, or `pageSize` not a positive integer; from `resolveLimits` when `maxRequestBodySize`, `maxArgumentDepth` or
 *   `maxArgumentValues` is invalid; from `checkRequestStateOptions` when `requestState.key` is
 *   shorter than 32 bytes or `requestState.ttlSeconds` is not a positive number; from
 *   `resolveStreamLimits` when a `streams` value is invalid. (`tasks` and
 *   `auth` are checked by the task store and the auth gate the constructor builds next.)
 */
export function checkServerOptions(options: McpServerOptions): {
  arguments: ArgumentLimits;
  maxRequestBodySize: number;
  streams: StreamLimits;
} {
  const { requestTimeoutMs } = options;
  if (requestTimeoutMs !== undefined && !(Number.isFinite(requestTimeoutMs) && requestTimeoutMs > 0)) {
    throw new RangeError(
      `requestTimeoutMs must be a positive finite number of milliseconds, got ${String(requestTimeoutMs)}`,
    );
  }
  const { pageSize } = options;
  if (pageSize !== undefined && !(Number.isSafeInteger(pageSize) && pageSize > 0)) {
    throw new RangeError(`pageSize must be a positive integer, got ${String(pageSize)}`);
  }
  if (options.callerKey !== undefined && typeof options.callerKey !== "function") {
    throw new TypeError(
      `callerKey must be a function (request) => string | undefined, got ${typeof options.callerKey}`,
    );
  }
  const limits = resolveLimits(options);
  checkRequestStateOptions(options.requestState);
  checkLifecycleHooks(options.lifecycle);
  return { ...limits, streams: resolveStreamLimits(options.streams) };
}
