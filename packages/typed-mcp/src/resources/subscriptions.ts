/**
 * Resource subscriptions (MCP spec, server / resources "Subscriptions"): `resources/subscribe`,
 * `resources/unsubscribe` (up to 2025-11-25) and delivery of `notifications/resources/updated`
 * announced with `McpServer.resourceUpdated(uri)`. From 2026-07-28 clients subscribe with
 * `subscriptions/listen`, which the SDK's serving entries (`createMcpHandler`, `serveStdio`)
 * implement; this module only feeds them (docs/resources.md "Subscriptions").
 *
 * @module
 */
import { ProtocolError } from "@modelcontextprotocol/server";
import type { ProtocolErrorCode, Server, ServerContext } from "@modelcontextprotocol/server";
import { subscribesWithListen } from "../protocol/revisions.js";

/** What the subscription handlers need from the resource registry. */
export interface SubscriptionTarget {
  /** Whether `uri` is a registered fixed URI or matches a registered template (as `resources/read` would). */
  matches(uri: string): boolean;
  /** Throws the revision's resource-not-found error for `uri` (as `resources/read` does: `-32002` up to 2025-11-25). */
  notFound(uri: string, ctx: ServerContext): never;
}

/**
 * The subscriptions of one `McpServer`: per lasting connection (stdio, or any transport connected
 * with `serveStdio`), the URIs a 2025-era client subscribed to.
 */
export class Subscriptions {
  /** The SDK instances of lasting connections → the URIs subscribed on them (2025-era `resources/subscribe`). */
  readonly #connections = new Map<Server, Set<string>>();

  /**
   * @param maxSubscribedUris Most URIs one connection may hold subscribed (the server option
   *   `streams.maxSubscribedUris`, default 1,000; docs/security.md "Limits").
   */
  constructor(readonly maxSubscribedUris: number = 1000) {}

  /**
   * Installs `resources/subscribe` and `resources/unsubscribe` on one SDK `Server` (which must
   * advertise `resources.subscribe`).
   *
   * - subscribe: a URI that is neither a fixed resource nor matches a template → the
   *   resource-not-found error of `resources/read` (`-32002` with `data: { uri }` up to
   *   2025-11-25); a URI not yet subscribed while the instance already holds
   *   {@link maxSubscribedUris} → `-32000` naming `streams.maxSubscribedUris` with
   *   `data: { limit, max }`; otherwise `{}`. Subscribing twice is one subscription.
   * - unsubscribe: always `{}` (also for a URI that was not subscribed: the end state is the one asked for).
   *
   * @param connection Whether `sdk` serves a connection that outlives one request (stdio): only
   *   then are its subscriptions kept and served by {@link resourceUpdated}; a stateless HTTP
   *   request's instance answers `{}` and forgets (it has no stream to deliver on).
   */
  install(sdk: Server, connection: boolean, target: SubscriptionTarget): void {
    const uris = new Set<string>();
    sdk.setRequestHandler("resources/subscribe", (request, ctx) => {
      const uri = request.params.uri;
      if (!target.matches(uri)) target.notFound(uri, ctx);
      if (!uris.has(uri) && uris.size >= this.maxSubscribedUris) throw tooManySubscriptions(this.maxSubscribedUris);
      uris.add(uri);
      return {};
    });
    sdk.setRequestHandler("resources/unsubscribe", (request) => {
      uris.delete(request.params.uri);
      return {};
    });
    if (!connection) return;
    this.#connections.set(sdk, uris);
    const previous = sdk.onclose;
    sdk.onclose = () => {
      this.#connections.delete(sdk);
      previous?.();
    };
  }

  /**
   * The URIs some lasting 2025-era connection is subscribed to (`resources/subscribe` and no
   * `resources/unsubscribe` since), each once, in first-subscription order per connection.
   * 2026-07-28 `subscriptions/listen` streams are the SDK's and not included.
   */
  subscribed(): string[] {
    const all = new Set<string>();
    for (const uris of this.#connections.values()) for (const uri of uris) all.add(uri);
    return [...all];
  }

  /**
   * Sends `notifications/resources/updated` `{ uri }` on every lasting connection that asked for it:
   * a 2025-era connection that subscribed to exactly `uri`; a 2026-07-28 connection always hands
   * it to the SDK's `subscriptions/listen` router, which delivers it on the open listen streams
   * whose `resourceSubscriptions` contain `uri` and drops it otherwise. A connection that fails to
   * send is skipped (the failure is not thrown).
   */
  async resourceUpdated(uri: string): Promise<void> {
    const sends: Promise<void>[] = [];
    for (const [sdk, uris] of this.#connections) {
      const version = sdk.getNegotiatedProtocolVersion();
      if (version === undefined) continue;
      if (!subscribesWithListen(version) && !uris.has(uri)) continue;
      sends.push(sdk.sendResourceUpdated({ uri }).catch(() => {}));
    }
    await Promise.all(sends);
  }
}

/** The `-32000` error of a `resources/subscribe` past `streams.maxSubscribedUris` (docs/security.md "Limits"). */
function tooManySubscriptions(max: number): ProtocolError {
  const message = `Too many resource subscriptions: this connection already holds ${max}, the most streams.maxSubscribedUris allows; unsubscribe one first`;
  return new ProtocolError(-32000 as ProtocolErrorCode, message, { limit: "streams.maxSubscribedUris", max });
}
