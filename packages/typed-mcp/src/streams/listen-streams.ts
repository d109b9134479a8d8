/**
 * Folder `streams/`: bounded lasting streams (docs/security.md "Streams") — the `streams` option
 * and 2026-07-28 `subscriptions/listen` quotas (this file), the stdio listen rules, and
 * `serveHttp`'s write timeout.
 *
 * Bounded streams (docs/security.md "Streams"): the per-caller quota of 2026-07-28
 * `subscriptions/listen` streams on `server.fetch`, the URI-count cap of a listen filter, the byte
 * ceiling of each listen stream's outbound queue, and the options of all of them (with the 2025-era
 * `resources/subscribe` cap and `serveHttp`'s write timeout).
 *
 * The SDK's `createMcpHandler` serves `subscriptions/listen` itself (its listen router) with one
 * server-wide limit (`maxSubscriptions`, answered `-32603 Subscription limit reached` to everyone
 * once one client holds them all) and writes every notification into the stream's queue whether or
 * not the peer reads. It offers no hook for either, so this module wraps it: a listen request is
 * checked here before it is handed to the SDK (`ListenStreams.serve`), and the SSE body the SDK
 * answers is piped through {@link boundedStream}.
 *
 * @module
 */
import type { Failure } from "../calls/pipeline.js";
import { ProtocolError } from "@modelcontextprotocol/server";
import type { AuthInfo, ServerContext } from "@modelcontextprotocol/server";
import { listenContext, runChain } from "../calls/middleware.js";
import type { Middleware } from "../calls/middleware.js";
import { ANONYMOUS_BUCKET, callerOf } from "../transports/caller.js";
import type { CallerKey } from "../transports/caller.js";

/** The `streams` option group of `McpServerOptions` (docs/security.md "Limits"). Every value is a positive integer. */
export interface StreamOptions {
  /**
   * Most open `subscriptions/listen` streams one caller (caller.ts: a token owner, a session, or an
   * anonymous bucket split by `callerKey`) may hold on `server.fetch` / `serveHttp`. Default 16.
   * One more is answered JSON-RPC `-32000` naming this option; other callers are not affected.
   */
  maxListenStreamsPerCaller?: number;
  /**
   * Most open listen streams all anonymous callers together may hold while `callerKey` does not
   * split them (the shared `"anonymous"` bucket). Default 256, below the server-wide ceiling so
   * that anonymous callers can never take every stream.
   */
  maxAnonymousListenStreams?: number;
  /**
   * Most open listen streams on one `McpServer`'s `server.fetch`, all callers together (the
   * server-wide ceiling above the per-caller quotas). Default 1,024 (the SDK's own limit).
   */
  maxListenStreams?: number;
  /**
   * Most URIs one listen filter's `resourceSubscriptions` may name. Default 1,000. A longer list
   * is answered `-32602` naming this option (HTTP and stdio), before any stream is opened.
   */
  maxListenUris?: number;
  /**
   * Most URIs one lasting connection (stdio) may hold subscribed with the 2025-era
   * `resources/subscribe`. Default 1,000. One more (a URI not yet subscribed) is answered `-32000`
   * naming this option; re-subscribing a subscribed URI always succeeds.
   */
  maxSubscribedUris?: number;
  /**
   * Byte ceiling of one listen stream's outbound queue: the encoded SSE bytes the server has
   * produced and the peer has not read yet. Default 1 MiB (1,048,576). A stream that passes it is
   * closed — its queue discarded — and a notice is published on the `typed-mcp:stream-closed`
   * diagnostics channel; the client sees the stream end and re-listens (a silently dropped
   * `list_changed` would leave it stale).
   */
  maxQueuedBytes?: number;
  /**
   * `serveHttp` only: milliseconds a response may wait with unsent output and no progress (no
   * byte leaves the send buffer) before its connection is closed, freeing its buffers, and a
   * notice is published on `typed-mcp:stream-closed`. Default 30,000. Covers any response — a
   * large JSON answer as well as an SSE stream — to a peer that stopped reading.
   */
  writeTimeoutMs?: number;
}

/** {@link StreamOptions} with every default applied. */
export type StreamLimits = Readonly<Required<StreamOptions>>;

/** The defaults of {@link StreamOptions} (docs/security.md "Limits"). */
const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxListenStreamsPerCaller: 16,
  maxAnonymousListenStreams: 256,
  maxListenStreams: 1024,
  maxListenUris: 1000,
  maxSubscribedUris: 1000,
  maxQueuedBytes: 1024 * 1024,
  writeTimeoutMs: 30_000,
};

/**
 * Checks `options` (the `streams` server option) and applies the defaults.
 * @throws RangeError naming the option and value when one is not a positive safe integer, or when
 *   `maxListenStreamsPerCaller` or `maxAnonymousListenStreams` exceeds `maxListenStreams` (a
 *   per-caller quota above the server-wide ceiling would let one caller take every stream).
 */
export function resolveStreamLimits(options: StreamOptions | undefined): StreamLimits {
  const limits = { ...DEFAULT_STREAM_LIMITS };
  for (const name of Object.keys(DEFAULT_STREAM_LIMITS) as (keyof StreamOptions)[]) {
    const value = options?.[name];
    if (value === undefined) continue;
    if (!(Number.isSafeInteger(value) && value > 0))
      throw new RangeError(`streams.${name} must be a positive integer, got ${String(value)}`);
    limits[name] = value;
  }
  for (const name of ["maxListenStreamsPerCaller", "maxAnonymousListenStreams"] as const) {
    if (limits[name] > limits.maxListenStreams) {
      throw new RangeError(
        `streams.${name} (${limits[name]}) must not exceed streams.maxListenStreams (${limits.maxListenStreams})`,
      );
    }
  }
  return limits;
}

/** Name of the diagnostics channel on which closed streams are published as {@link StreamClosedNotice}. */
export const STREAM_CLOSED_CHANNEL = "typed-mcp:stream-closed";

/** What is published on {@link STREAM_CLOSED_CHANNEL} when the server closes a stream itself. */
export interface StreamClosedNotice {
  /** `"queue-full"`: a listen stream passed `maxQueuedBytes`; `"write-timeout"`: a `serveHttp` response made no progress for `writeTimeoutMs`. */
  readonly reason: "queue-full" | "write-timeout";
  /** The limit that was hit: bytes for `queue-full`, milliseconds for `write-timeout`. */
  readonly limit: number;
  /** Bytes waiting unsent when the stream was closed. */
  readonly queuedBytes: number;
}

interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

/** Held from load on, as diagnostics.ts does (Bun drops unreferenced channels); `null` where `node:diagnostics_channel` is missing. */
const closedChannel: Channel | null = (() => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const dc = proc?.getBuiltinModule?.("node:diagnostics_channel") as
      | { channel?: (name: string) => Channel }
      | undefined;
    return dc?.channel?.(STREAM_CLOSED_CHANNEL) ?? null;
  } catch {
    return null;
  }
})();

/** Publishes `notice` on {@link STREAM_CLOSED_CHANNEL} when anyone listens; never throws. */
export function publishStreamClosed(notice: StreamClosedNotice): void {
  try {
    if (closedChannel?.hasSubscribers === true) closedChannel.publish(notice);
  } catch {
    // A subscriber's exception never reaches the stream being closed.
  }
}

/**
 * `body` re-streamed with a byte ceiling on what waits unread: `body` is read as fast as it
 * produces (so the SDK's own queue stays empty) and its chunks wait in the returned stream's queue
 * until the consumer reads them. When that queue holds more than `maxBytes` bytes, the returned
 * stream is errored (its queue discarded at once), `body` is cancelled (the SDK tears the listen
 * stream down and unsubscribes it) and `onOverflow(queuedBytes)` is called. `onEnd` is called once
 * when the stream ends for any reason (done, cancelled by the consumer, overflowed, errored).
 * The first chunk — the listen acknowledgement, which repeats the filter (bounded by the request
 * body limit and `maxListenUris`) — is not counted: a legal filter larger than `maxBytes` must
 * not close its own stream before any notification.
 */
function boundedStream(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  onOverflow: (queuedBytes: number) => void,
  onEnd: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  /** Bytes of the first chunk (the acknowledgement), allowed above `maxBytes`. */
  let allowance: number | undefined;
  const pump = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (ended) return;
        if (done) return controller.close();
        allowance ??= value.byteLength;
        controller.enqueue(value);
        const queued = maxBytes - (controller.desiredSize ?? maxBytes);
        if (queued > maxBytes + allowance) {
          controller.error(new RangeError(`the stream's outbound queue passed ${maxBytes} bytes`));
          reader.cancel().catch(() => {});
          onOverflow(queued);
          return;
        }
      }
    } catch (error) {
      if (!ended) controller.error(error);
    } finally {
      end();
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        void pump(controller);
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: maxBytes }),
  );
}

/** The `params` of a JSON-RPC request body, when `body` is a `subscriptions/listen` request with a string or number id. */
export function listenRequest(
  body: unknown,
): { id: string | number; params: Record<string, unknown> | undefined } | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const message = body as Record<string, unknown>;
  if (message["method"] !== "subscriptions/listen") return undefined;
  const id = message["id"];
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  const params = message["params"];
  return {
    id,
    params: typeof params === "object" && params !== null ? (params as Record<string, unknown>) : undefined,
  };
}

/**
 * The `-32602` answer for a listen filter naming more than `max` URIs, or `undefined` when
 * `params.notifications.resourceSubscriptions` is absent, not an array, or within the cap (the
 * SDK then checks the filter's shape itself).
 */
export function listenUriCapError(
  params: Record<string, unknown> | undefined,
  max: number,
): { code: number; message: string; data: Record<string, unknown> } | undefined {
  const notifications = params?.["notifications"];
  if (typeof notifications !== "object" || notifications === null) return undefined;
  const uris = (notifications as Record<string, unknown>)["resourceSubscriptions"];
  if (!Array.isArray(uris) || uris.length <= max) return undefined;
  return {
    code: -32602,
    message: `Invalid params: notifications.resourceSubscriptions names ${uris.length} URIs; at most ${max} are accepted (streams.maxListenUris)`,
    data: { limit: "streams.maxListenUris", max },
  };
}

/** The JSON-RPC error of a middleware's refusal: a `ProtocolError`'s code and message, else `-32603`. */
export function refusalOf(error: unknown): { code: number; message: string; data?: Record<string, unknown> } {
  if (!(error instanceof ProtocolError)) return { code: -32603, message: "Internal error" };
  const data = error.data as Record<string, unknown> | undefined;
  return {
    code: error.code,
    message: error.message.replace(/^MCP error -?\d+: /, ""),
    ...(data !== undefined && { data }),
  };
}

/** An in-band JSON-RPC error answer to a listen request (HTTP 200, as the SDK's own listen errors). */
function errorResponse(
  id: string | number,
  error: { code: number; message: string; data?: Record<string, unknown> },
): Response {
  return Response.json({ jsonrpc: "2.0", id, error });
}

/**
 * The `-32000` answer to a `subscriptions/listen` past a full quota (docs/security.md "Limits"):
 * `Too many subscriptions/listen streams: <whose> already hold(s) <open> open, the most
 * streams.<option> allows; close one first`, `data: { limit: "streams.<option>", max }`.
 *
 * @param option The full quota's option name under `streams`.
 * @param whose `"this caller"`, `"this connection"`, `"anonymous callers"` or `"this server"`.
 */
export function listenQuotaError(
  option: string,
  max: number,
  open: number,
  whose: string,
): { code: number; message: string; data: Record<string, unknown> } {
  return {
    code: -32000,
    message: `Too many subscriptions/listen streams: ${whose} already ${whose === "anonymous callers" ? "hold" : "holds"} ${open} open, the most streams.${option} allows; close one first`,
    data: { limit: `streams.${option}`, max },
  };
}

/**
 * The open `subscriptions/listen` streams of one `McpServer`'s `server.fetch`, counted per caller
 * (caller.ts `callerOf(...).bucket`) and in all; see the module comment.
 */
export class ListenStreams {
  /** Open (or being opened) streams per quota bucket. */
  readonly #open = new Map<string, number>();
  #total = 0;

  /**
   * @param limits The resolved `streams` option.
   * @param callerKey The server's `callerKey` option (splits the anonymous bucket).
   * @param chain The server's middleware chain, read at each listen (calls/middleware.ts `chainOf`).
   */
  constructor(
    readonly limits: StreamLimits,
    readonly callerKey: CallerKey | undefined,
    readonly chain: () => readonly Middleware[] = () => [],
    readonly report: (failure: Failure) => void = () => {},
  ) {}

  /**
   * Serves `body` (the parsed JSON-RPC body of `request`) with `next` (the SDK handler), applying
   * the listen rules when it is a `subscriptions/listen` request; any other body goes to `next`
   * unchanged.
   *
   * - more URIs in the filter than `maxListenUris`: `-32602` naming the option, nothing opened;
   * - the server-wide `maxListenStreams`, or the caller's quota (`maxListenStreamsPerCaller`, or
   *   `maxAnonymousListenStreams` for the shared anonymous bucket) already open: `-32000` naming the
   *   option that is full, with `data: { limit, max }`;
   * - the middleware chain (calls/middleware.ts `listenContext`): a middleware that throws a
   *   `ProtocolError` refuses the listen with that JSON-RPC error (any other exception: `-32603`),
   *   nothing opened; `next()` resolves with `{}` once the SDK's answer is there;
   * - otherwise the SDK's answer; when that is the SSE stream, its body is bounded by
   *   `maxQueuedBytes` ({@link boundedStream}) and counted until it ends.
   */
  async serve(
    request: Request,
    body: unknown,
    authInfo: AuthInfo | undefined,
    next: () => Promise<Response>,
  ): Promise<Response> {
    const listen = listenRequest(body);
    if (listen === undefined) return next();
    const tooMany = listenUriCapError(listen.params, this.limits.maxListenUris);
    if (tooMany !== undefined) return errorResponse(listen.id, tooMany);
    // callerOf reads only ctx.http (authInfo, req): the one caller rule, applied before the SDK builds a context.
    const caller = callerOf(
      { http: { authInfo, req: request } } as unknown as ServerContext,
      undefined,
      this.callerKey,
    );
    const full = this.#full(caller.bucket);
    if (full !== undefined) return errorResponse(listen.id, full);
    const chain = this.chain();
    if (chain.length > 0) {
      let answered: Response | undefined;
      try {
        await runChain(
          chain,
          listenContext(listen, {
            authInfo,
            caller: caller.bucket,
            transport: "http",
            session: undefined,
            signal: request.signal,
            httpRequest: request,
          }),
          async () => {
            answered = await this.#open_(caller.bucket, next);
            return {};
          },
          this.report,
        );
      } catch (error) {
        if (answered !== undefined) void answered.body?.cancel().catch(() => {});
        return errorResponse(listen.id, refusalOf(error));
      }
      return answered ?? errorResponse(listen.id, { code: -32603, message: "Internal error" });
    }
    return this.#open_(caller.bucket, next);
  }

  /** Opens the stream with `next`, counted for `bucket` while it lasts. */
  async #open_(bucket: string, next: () => Promise<Response>): Promise<Response> {
    const caller = { bucket };
    this.#add(caller.bucket, 1);
    let response: Response;
    try {
      response = await next();
    } catch (error) {
      this.#add(caller.bucket, -1);
      throw error;
    }
    if (response.body === null || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      this.#add(caller.bucket, -1);
      return response;
    }
    const limit = this.limits.maxQueuedBytes;
    const bounded = boundedStream(
      response.body,
      limit,
      (queuedBytes) => publishStreamClosed({ reason: "queue-full", limit, queuedBytes }),
      () => this.#add(caller.bucket, -1),
    );
    return new Response(bounded, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** The number of open listen streams of `bucket` (all buckets when omitted). */
  openCount(bucket?: string): number {
    return bucket === undefined ? this.#total : (this.#open.get(bucket) ?? 0);
  }

  /** The `-32000` error for the first full ceiling a new stream of `bucket` would pass, or `undefined`. */
  #full(bucket: string): { code: number; message: string; data: Record<string, unknown> } | undefined {
    const { maxListenStreams, maxAnonymousListenStreams, maxListenStreamsPerCaller } = this.limits;
    const [option, max, whose] =
      this.#total >= maxListenStreams
        ? (["maxListenStreams", maxListenStreams, "this server"] as const)
        : bucket === ANONYMOUS_BUCKET
          ? (["maxAnonymousListenStreams", maxAnonymousListenStreams, "anonymous callers"] as const)
          : (["maxListenStreamsPerCaller", maxListenStreamsPerCaller, "this caller"] as const);
    const open = option === "maxListenStreams" ? this.#total : this.openCount(bucket);
    return open < max ? undefined : listenQuotaError(option, max, open, whose);
  }

  #add(bucket: string, delta: 1 | -1): void {
    this.#total += delta;
    const count = (this.#open.get(bucket) ?? 0) + delta;
    if (count <= 0) this.#open.delete(bucket);
    else this.#open.set(bucket, count);
  }
}
