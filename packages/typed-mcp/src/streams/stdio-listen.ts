/**
 * The listen rules of streams/listen-streams.ts on a lasting connection (`serveStdio`; docs/security.md
 * "Streams"): the SDK's `serveStdio` serves 2026-07-28 `subscriptions/listen` itself, before any
 * handler of ours runs, so the URI cap of a listen filter is applied on the transport's inbound
 * side. The number of listen streams of the connection (one caller) is the SDK's own per-connection
 * `maxSubscriptions`, set to `streams.maxListenStreamsPerCaller` by `serveStdio`; its refusal
 * (`-32603` `Subscription limit reached`) is answered as the HTTP quota is, `-32000` naming the
 * option (streams/listen-streams.ts `listenQuotaError`).
 *
 * @module
 */
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { listenQuotaError, listenUriCapError } from "./listen-streams.js";

/** The SDK's (2.4.0) error text when a connection's `maxSubscriptions` is full (guarded by test/runtime/streams-sdk.test.ts). */
const SDK_LIMIT_TEXT = "Subscription limit reached";

/**
 * Applies the listen rules to one connection's `transport`:
 * - a `subscriptions/listen` request whose filter names more than `maxUris` URIs is answered with
 *   the `-32602` error naming `streams.maxListenUris` (sent on `transport` itself) instead of being
 *   handed on; every other message reaches the `onmessage` handler its user (the SDK's
 *   `serveStdio`) sets, unchanged and in order;
 * - the SDK's refusal of a listen request past its `maxSubscriptions` (`maxStreams`) is sent as
 *   the `-32000` quota error naming `streams.maxListenStreamsPerCaller` instead.
 *
 * @param maxStreams The SDK's `maxSubscriptions` for this connection.
 * @returns `transport`, its `onmessage` property replaced by an accessor and its `send` wrapped.
 */
export function applyListenRules<T extends Transport>(transport: T, maxUris: number, maxStreams: number): T {
  let inner: Transport["onmessage"];
  /** Ids of the listen requests handed to the SDK and not answered yet (at most its open streams and the requests in flight). */
  const listening = new Set<string | number>();
  const outer: NonNullable<Transport["onmessage"]> = (message, extra) => {
    const request = message as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    const id = request.id;
    if (request.method === "subscriptions/listen" && (typeof id === "string" || typeof id === "number")) {
      const error = listenUriCapError(request.params, maxUris);
      if (error !== undefined) {
        transport.send({ jsonrpc: "2.0", id, error } as unknown as JSONRPCMessage).catch(() => {});
        return;
      }
      listening.add(id);
    }
    inner?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const answer = message as { id?: unknown; error?: { code?: unknown; message?: unknown } };
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
