/**
 * Dynamic lists (docs/runtime.md "Dynamic lists"; MCP spec, server / tools, resources, prompts
 * "List Changed Notification"): with `new McpServer({ dynamic: true })` the server advertises
 * `listChanged: true` for tools, resources and prompts, and every registration or removal while
 * serving sends `notifications/tools/list_changed` (`resources/`, `prompts/`) to the clients that
 * can receive one:
 *
 * - lasting connections (stdio, or any transport served with `serveStdio`), 2025-era or
 *   2026-07-28 — on 2026-07-28 the SDK's `subscriptions/listen` router delivers it on the open
 *   listen streams whose filter asked for it (`toolsListChanged`, …);
 * - `server.fetch` / `serveHttp`, 2026-07-28: the open `subscriptions/listen` streams, through the
 *   handler's `notify` bus;
 * - stateless 2025-era HTTP: nobody — each request is served by a fresh instance and there is no
 *   stream to deliver on; such a client sees the new lists on its next list request.
 *
 * The same lasting connections receive the server's own log messages (`McpServer.log`, MCP
 * "Logging": `notifications/message` outside any request), on any server.
 *
 * @module
 */
import type { LoggingMessageNotificationParams, McpHttpHandler, Server } from "@modelcontextprotocol/server";
import { assertNever } from "@typed-mcp/model";
import { isLegacyRevision } from "../protocol/revisions.js";

/** Which list changed. */
export type ListKind = "tools" | "resources" | "prompts";

/**
 * The lasting connections of one `McpServer`, and the announcing of list changes and log messages
 * to them. A lasting connection is an SDK instance that serves one client for many requests
 * (stdio), unlike a stateless HTTP request, which gets a fresh instance and has no channel after
 * its answer.
 */
export class ListChanges {
  /** The SDK instances of the lasting connections (stdio). */
  readonly #connections = new Set<Server>();
  /** The server's HTTP handler once `server.fetch` served a request (its `notify` bus feeds 2026-07-28 listen streams). */
  handler: McpHttpHandler | undefined;

  /** @param enabled The server option `dynamic`: without it no `list_changed` is sent. */
  constructor(readonly enabled: boolean) {}

  /**
   * Tracks `sdk`, an instance serving a lasting connection, until it closes (its `onclose`,
   * chained with any handler already set).
   */
  track(sdk: Server): void {
    this.#connections.add(sdk);
    const previous = sdk.onclose;
    sdk.onclose = () => {
      this.#connections.delete(sdk);
      previous?.();
    };
  }

  /**
   * Sends the `list_changed` notification of each kind in `kinds` (once per kind) to every lasting
   * connection that finished its handshake, and publishes it on the HTTP handler's bus. Does
   * nothing unless {@link enabled}. A connection that fails to send is skipped: the failure is
   * not thrown, and registration never waits for a client.
   */
  announce(kinds: readonly ListKind[]): void {
    if (!this.enabled) return;
    for (const kind of new Set(kinds)) {
      for (const sdk of this.#connections) {
        if (sdk.getNegotiatedProtocolVersion() === undefined) continue;
        send(sdk, kind).catch(() => {});
      }
      if (this.handler !== undefined) publish(this.handler, kind);
    }
  }

  /**
   * Sends `notifications/message` with `params` to every lasting 2025-era connection whose
   * `logging/setLevel` lets `params.level` through (the SDK's `sendLoggingMessage` filter; no level
   * set: everything). A 2026-07-28 connection gets nothing: that revision logs only within a
   * request, at the request's own log level. Send failures are ignored.
   *
   * @returns A promise settled when the messages were handed to the transports.
   */
  async log(params: LoggingMessageNotificationParams): Promise<void> {
    const sends: Promise<void>[] = [];
    for (const sdk of this.#connections) {
      const version = sdk.getNegotiatedProtocolVersion();
      if (version === undefined || !isLegacyRevision(version)) continue;
      sends.push(sdk.sendLoggingMessage(params).catch(() => {}));
    }
    await Promise.all(sends);
  }
}

/** `sdk.send{Tool,Resource,Prompt}ListChanged()`. */
function send(sdk: Server, kind: ListKind): Promise<void> {
  switch (kind) {
    case "tools":
      return sdk.sendToolListChanged();
    case "resources":
      return sdk.sendResourceListChanged();
    case "prompts":
      return sdk.sendPromptListChanged();
    default:
      return assertNever(kind);
  }
}

/** `handler.notify.{tools,resources,prompts}Changed()`. */
function publish(handler: McpHttpHandler, kind: ListKind): void {
  switch (kind) {
    case "tools":
      return handler.notify.toolsChanged();
    case "resources":
      return handler.notify.resourcesChanged();
    case "prompts":
      return handler.notify.promptsChanged();
    default:
      return assertNever(kind);
  }
}
