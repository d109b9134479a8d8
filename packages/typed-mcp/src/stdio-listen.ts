/**
 * The listen rules of streams.ts on a lasting connection (`serveStdio`; docs/security.md
 * "Streams"): the SDK's `serveStdio` serves 2026-07-28 `subscriptions/listen` itself, before any
 * handler of ours runs, so the URI cap of a listen filter is applied on the transport's inbound
 * side. The number of listen streams of the connection (one caller) is the SDK's own per-connection
 * `maxSubscriptions`, set to `streams.maxListenStreamsPerCaller` by `serveStdio`.
 *
 * @module
 */
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { listenUriCapError } from "./streams.js";

/**
 * Makes `transport` answer a `subscriptions/listen` request whose filter names more than `maxUris`
 * URIs with the `-32602` error naming `streams.maxListenUris` (sent on `transport` itself), instead
 * of handing it on; every other message reaches the `onmessage` handler its user (the SDK's
 * `serveStdio`) sets, unchanged and in order.
 *
 * @returns `transport`, its `onmessage` property replaced by an accessor.
 */
export function capListenUris<T extends Transport>(transport: T, maxUris: number): T {
  let inner: Transport["onmessage"];
  const outer: NonNullable<Transport["onmessage"]> = (message, extra) => {
    const request = message as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    const id = request.id;
    if (request.method === "subscriptions/listen" && (typeof id === "string" || typeof id === "number")) {
      const error = listenUriCapError(request.params, maxUris);
      if (error !== undefined) {
        transport.send({ jsonrpc: "2.0", id, error } as unknown as JSONRPCMessage).catch(() => {});
        return;
      }
    }
    inner?.(message, extra);
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
