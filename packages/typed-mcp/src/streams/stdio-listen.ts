/**
 * The listen rules of streams/listen-streams.ts on a lasting connection (`serveStdio`; docs/security.md
 * "Streams"): the SDK's `serveStdio` serves 2026-07-28 `subscriptions/listen` itself, before any
 * handler of ours runs, so the URI cap of a listen filter and the middleware chain are applied on
 * the transport's inbound side. The number of listen streams of the connection (one caller) is the
 * SDK's own per-connection `maxSubscriptions`, set to `streams.maxListenStreamsPerCaller` by
 * `serveStdio`; its refusal (`-32603` `Subscription limit reached`) is answered as the HTTP quota
 * is, `-32000` naming the option (streams/listen-streams.ts `listenQuotaError`).
 *
 * @module
 */
import type { AuthInfo, JSONRPCMessage, ServerContext, Transport } from "@modelcontextprotocol/server";
import { listenContext, runChain } from "../calls/middleware.js";
import { callerOf } from "../transports/caller.js";
import { type ListenStreams, listenQuotaError, listenRequest, listenUriCapError, refusalOf } from "./listen-streams.js";

/** The middleware chain of one connection's listens (see {@link applyListenRules}). */
export interface ListenChain {
  /** The server's listen streams: their `chain` and `report` (server.ts `LISTEN_STREAMS`). */
  readonly streams: ListenStreams;
  /** The connection's id, as its SDK instance has it (server.ts `SDK_FACTORY`). */
  readonly connection: string;
  /** The verified token every message of the connection carries (`serveTransport`), if any. */
  readonly authInfo?: AuthInfo | undefined;
}

/** The SDK's meta key of the subscription id on a listen stream's notifications (2.4.0). */
const SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId";

/** The SDK's (2.4.0) error text when a connection's `maxSubscriptions` is full (guarded by test/runtime/streams-sdk.test.ts). */
const SDK_LIMIT_TEXT = "Subscription limit reached";

/**
 * Applies the listen rules to one connection's `transport`:
 * - a `subscriptions/listen` request whose filter names more than `maxUris` URIs is answered with
 *   the `-32602` error naming `streams.maxListenUris` (sent on `transport` itself) instead of being
 *   handed on; every other message reaches the `onmessage` handler its user (the SDK's
 *   `serveStdio`) sets, unchanged and in order;
 * - with `chain` and a middleware registered, a listen request passes the chain first, as on
 *   `server.fetch` (streams/listen-streams.ts): `next()` hands it to the SDK and resolves with `{}`
 *   once the SDK answered (the acknowledgement, or its error); a middleware's `ProtocolError` is
 *   that JSON-RPC error, any other exception `-32603`, nothing opened (a stream the SDK opened
 *   before the refusal is cancelled). Messages after it are not held back meanwhile; a
 *   `notifications/cancelled` of a listen still in the chain aborts its `ctx.signal`, and it is
 *   then neither opened nor answered;
 * - the SDK's refusal of a listen request past its `maxSubscriptions` (`maxStreams`) is sent as
 *   the `-32000` quota error naming `streams.maxListenStreamsPerCaller` instead.
 *
 * @param maxStreams The SDK's `maxSubscriptions` for this connection.
 * @param chain The middleware chain of the connection's listens; none: they do not pass one.
 * @returns `transport`, its `onmessage` property replaced by an accessor and its `send` wrapped.
 */
export function applyListenRules<T extends Transport>(
  transport: T,
  maxUris: number,
  maxStreams: number,
  chain?: ListenChain,
): T {
  let inner: Transport["onmessage"];
  /** Ids of the listen requests handed to the SDK and not answered yet (at most its open streams and the requests in flight). */
  const listening = new Set<string | number>();
  /** The listens in the middleware chain, by id. */
  const chained = new Map<string | number, Chained>();
  const reply = (id: string | number, error: { code: number; message: string }) =>
    void transport.send({ jsonrpc: "2.0", id, error } as unknown as JSONRPCMessage).catch(() => {});
  const handOn = (message: JSONRPCMessage, extra: Parameters<NonNullable<Transport["onmessage"]>>[1]) => {
    const id = (message as { id?: string | number }).id;
    if (id !== undefined) listening.add(id);
    inner?.(message, extra);
  };
  const outer: NonNullable<Transport["onmessage"]> = (message, extra) => {
    const listen = listenRequest(message);
    if (listen !== undefined) {
      const error = listenUriCapError(listen.params, maxUris);
      if (error !== undefined) return reply(listen.id, error);
      if (chain !== undefined && chain.streams.chain().length > 0) {
        const entry: Chained = { abort: new AbortController() };
        chained.set(listen.id, entry);
        const open = () => {
          const answered = new Promise<void>((resolve) => {
            entry.answered = resolve;
          });
          handOn(message, extra);
          return answered;
        };
        void chainListen(
          chain,
          listen,
          entry.abort.signal,
          open,
          (e) => reply(listen.id, e),
          () => {
            chained.delete(listen.id);
            inner?.(cancelOf(listen.id), extra);
          },
        ).finally(() => chained.delete(listen.id));
        return;
      }
      return handOn(message, extra);
    }
    const cancelled = (message as { method?: unknown; params?: { requestId?: unknown } }).params?.requestId;
    const pending =
      (message as { method?: unknown }).method === "notifications/cancelled" && chained.get(cancelled as never);
    if (pending && pending.answered === undefined) return pending.abort.abort(new Error("cancelled by the client"));
    inner?.(message, extra);
  };
  wrapSend(transport, listening, chained, maxStreams);
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => (inner === undefined ? undefined : outer),
    set: (handler: Transport["onmessage"]) => {
      inner = handler;
    },
  });
  return transport;
}

/** A listen in the middleware chain: aborted on the client's cancellation; `answered` once the SDK answered it. */
interface Chained {
  readonly abort: AbortController;
  answered?: () => void;
}

/**
 * Wraps `transport.send`: tells a chained listen that the SDK answered it (its acknowledgement,
 * stamped with its id, or its error), and sends the SDK's refusal of a listen past its
 * `maxSubscriptions` (`maxStreams`) as the `-32000` quota error instead.
 */
function wrapSend(
  transport: Transport,
  listening: Set<string | number>,
  chained: Map<string | number, Chained>,
  maxStreams: number,
): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const answer = message as {
      id?: unknown;
      error?: { code?: unknown; message?: unknown };
      params?: { _meta?: Record<string, unknown> };
    };
    const subscription = answer.id ?? answer.params?._meta?.[SUBSCRIPTION_ID_KEY];
    if (typeof subscription === "string" || typeof subscription === "number") chained.get(subscription)?.answered?.();
    if (
      (typeof answer.id === "string" || typeof answer.id === "number") &&
      listening.delete(answer.id) &&
      answer.error?.code === -32603 &&
      answer.error.message === SDK_LIMIT_TEXT
    ) {
      const error = listenQuotaError("maxListenStreamsPerCaller", maxStreams, maxStreams, "this connection");
      return send({ jsonrpc: "2.0", id: answer.id, error } as unknown as JSONRPCMessage, options);
    }
    return send(message, options);
  };
}

/** A `notifications/cancelled` of the listen `id` (the SDK's router then drops its subscription). */
function cancelOf(id: string | number): JSONRPCMessage {
  return { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } } as unknown as JSONRPCMessage;
}

/**
 * Runs `chain` around one listen (see {@link applyListenRules}): `open` hands it to the SDK and
 * resolves once the SDK answered; `refuse` sends a JSON-RPC error; `close` cancels a stream
 * opened before a refusal.
 */
async function chainListen(
  chain: ListenChain,
  listen: { id: string | number; params: Record<string, unknown> | undefined },
  signal: AbortSignal,
  open: () => Promise<void>,
  refuse: (error: { code: number; message: string }) => void,
  close: () => void,
): Promise<void> {
  const caller = callerOf({ http: { authInfo: chain.authInfo } } as unknown as ServerContext, chain.connection);
  const source = {
    authInfo: chain.authInfo,
    caller: caller.bucket,
    transport: "stdio" as const,
    session: chain.connection,
    signal,
    httpRequest: undefined,
  };
  let opened = false;
  try {
    await runChain(
      chain.streams.chain(),
      listenContext(listen, source),
      async () => {
        if (signal.aborted) throw signal.reason;
        opened = true;
        await open();
        return {};
      },
      chain.streams.report,
    );
    if (!opened) refuse({ code: -32603, message: "Internal error" });
  } catch (error) {
    if (signal.aborted && !opened) return;
    if (opened) close();
    refuse(refusalOf(error));
  }
}
