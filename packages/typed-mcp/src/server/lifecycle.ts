/**
 * Lifecycle hooks (docs/runtime.md "Lifecycle hooks"; MCP 2025-11-25 "Lifecycle", "Roots"): the
 * `lifecycle` option's `initialized` runs after the client's `notifications/initialized`, and
 * `rootsListChanged` on `notifications/roots/list_changed`, each with the {@link ClientSession}
 * they concern, so a server can cache per client what it would otherwise ask on every call (a
 * filesystem server's roots). A session is one stdio connection (an id made when it starts) or,
 * on stateless 2025-era HTTP, one typed-mcp `Mcp-Session-Id` (session.ts: what `initialize`
 * negotiated travels in it); `RequestContext.sessionId` is the same id, so a tool finds what a hook
 * cached. A request without a session (2026-07-28, a foreign or missing session id) fires nothing.
 *
 * @module
 */
import type { ClientCapabilities, Implementation, McpRequestContext, Server } from "@modelcontextprotocol/server";
import { decodeSession } from "../protocol/session.js";
import { isLegacyHttpRequest, servesConnection } from "../protocol/sdk-patches.js";

/** The client a lifecycle hook is about (docs/runtime.md "Lifecycle hooks"). */
export interface ClientSession {
  /**
   * The scope to cache under: a random id per stdio connection, or the `Mcp-Session-Id` of a
   * stateless 2025-era HTTP client (the same for every request of that client's session). Equal to
   * `RequestContext.sessionId` of that client's requests.
   */
  readonly id: string;
  /** `"stdio"` (one lasting connection) or `"http"` (stateless 2025-era HTTP, per session id). */
  readonly transport: "stdio" | "http";
  /** The revision `initialize` negotiated. */
  readonly protocolVersion: string;
  /** The client's `clientInfo` from `initialize`, when it sent one. */
  readonly clientInfo: Implementation | undefined;
  /** The client's capabilities from `initialize` (over HTTP possibly reduced, session.ts). */
  readonly clientCapabilities: ClientCapabilities | undefined;
}

/**
 * The `lifecycle` option of `McpServer`. Each hook may be async; what it returns is ignored, and
 * an error it throws or rejects with goes to the SDK server's `onerror` (a notification has no
 * answer). Hooks of one session run in the order the notifications arrive, not awaited one by one.
 */
export interface LifecycleHooks {
  /** After `notifications/initialized`: the client is ready (its info and capabilities are known). */
  initialized?: (session: ClientSession) => void | Promise<void>;
  /** On `notifications/roots/list_changed`: the client's roots changed; re-read them (`ctx.listRoots()`) when next needed. */
  rootsListChanged?: (session: ClientSession) => void | Promise<void>;
}

/** The stdio connection id of each SDK `Server` built for a lasting connection. */
const connectionIds = new WeakMap<Server, string>();

/**
 * The session a request belongs to ({@link ClientSession.id}): the stdio connection's id, or the
 * decodable typed-mcp `Mcp-Session-Id` of a 2025-era HTTP request; `undefined` otherwise.
 */
export function sessionIdOf(sdk: Server, headers: Headers | undefined): string | undefined {
  const own = connectionIds.get(sdk);
  if (own !== undefined) return own;
  const header = headers?.get("mcp-session-id") ?? undefined;
  return decodeSession(header) !== undefined ? header : undefined;
}

/**
 * Installs the hooks on one SDK `Server` (sdk-server.ts): for a lasting connection (stdio) it gets
 * its connection id; for a stateless 2025-era HTTP request the session comes from the request's
 * `Mcp-Session-Id`. Nothing is installed when `hooks` has none.
 *
 * @param ctx The SDK's factory context (none on stdio; `requestInfo` for an HTTP request).
 * @throws TypeError when a hook is set but is not a function (checked at construction too).
 */
export function installLifecycleHooks(sdk: Server, hooks: LifecycleHooks | undefined, ctx?: McpRequestContext): void {
  const lasting = servesConnection(ctx);
  if (lasting) connectionIds.set(sdk, crypto.randomUUID());
  if (hooks?.initialized === undefined && hooks?.rootsListChanged === undefined) return;
  const request = isLegacyHttpRequest(ctx) ? (ctx!.requestInfo as Request) : undefined;
  if (!lasting && request === undefined) return; // 2026-07-28: no initialize, no session (docs/runtime.md)
  const session = (): ClientSession | undefined => {
    if (lasting) {
      const protocolVersion = sdk.getNegotiatedProtocolVersion();
      if (protocolVersion === undefined) return undefined;
      return {
        id: connectionIds.get(sdk)!,
        transport: "stdio",
        protocolVersion,
        clientInfo: sdk.getClientVersion(),
        clientCapabilities: sdk.getClientCapabilities(),
      };
    }
    const header = request!.headers.get("mcp-session-id") ?? undefined;
    const state = decodeSession(header);
    if (state === undefined) return undefined;
    return { id: header!, transport: "http", ...state };
  };
  const fire = async (hook: ((s: ClientSession) => void | Promise<void>) | undefined) => {
    const s = hook === undefined ? undefined : session();
    if (s !== undefined) await hook!(s);
  };
  if (hooks.initialized !== undefined) sdk.oninitialized = () => void fire(hooks.initialized).catch(reportTo(sdk));
  if (hooks.rootsListChanged !== undefined)
    sdk.setNotificationHandler("notifications/roots/list_changed", () => fire(hooks.rootsListChanged));
}

/** Hands a hook's error to the SDK server's `onerror`, as the SDK does for a notification handler's. */
function reportTo(sdk: Server): (error: unknown) => void {
  return (error) => sdk.onerror?.(error instanceof Error ? error : new Error(String(error)));
}

/** Checks the `lifecycle` option at construction. @throws TypeError naming the hook that is not a function. */
export function checkLifecycleHooks(hooks: LifecycleHooks | undefined): void {
  if (hooks === undefined) return;
  for (const name of ["initialized", "rootsListChanged"] as const) {
    const h = hooks[name];
    if (h !== undefined && typeof h !== "function")
      throw new TypeError(`lifecycle.${name} must be a function (session) => void | Promise<void>, got ${typeof h}`);
  }
}
