/**
 * Carrying what a 2025-era client negotiated across stateless HTTP requests, without a server-side
 * store (spec §9 gating for legacy HTTP clients; docs/apps.md "Stateless HTTP").
 *
 * The SDK's `createMcpHandler` serves 2025-era HTTP traffic statelessly (`legacy: "stateless"`):
 * every POST gets a fresh SDK `Server` that never saw `initialize`, so the client's capabilities
 * (MCP Apps), `clientInfo` and negotiated revision are forgotten after the first request. The
 * Streamable HTTP transport (MCP 2025-03-26 and later, "Session Management") lets a server answer
 * `initialize` with an `Mcp-Session-Id` header, which the client MUST send back on every later
 * request. typed-mcp puts the negotiated state itself into that header:
 *
 *   `tmcp1.` + base64url(JSON `{ "v": revision, "i": clientInfo, "c": capabilities, "n": nonce }`)
 *
 * and reads it back per request. Nothing is stored on the server, so serverless instances that
 * share nothing still agree. The token only repeats the client's own claims (what it sent in
 * `initialize`) plus the revision the server chose for them; a client that edits it can only
 * claim other capabilities for itself, which it could have claimed in `initialize` anyway, so it
 * is not signed. `n` is 72 random bits so that ids are unique per `initialize` (the transport
 * spec asks for globally unique session ids). A header that is missing, foreign or malformed is
 * ignored: such requests are served exactly as before (never rejected).
 *
 * @module
 */
import type { ClientCapabilities, Implementation } from "@modelcontextprotocol/server";

/** Prefix (and format version) of typed-mcp session ids. */
export const SESSION_PREFIX = "tmcp1.";
/** Longest header value decoded; longer ones are ignored. */
const MAX_TOKEN_LENGTH = 4096;
/** Longest JSON payload encoded with the full capabilities; past it only the MCP Apps entry is kept. */
const MAX_PAYLOAD = 2048;
/** The 2025-era revisions a token may name (those negotiated by `initialize`). */
const LEGACY_REVISIONS = new Set(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]);

/** What `initialize` negotiated, as carried by the session id. */
export interface SessionState {
  /** The revision the server answered `initialize` with. */
  readonly protocolVersion: string;
  /** The client's `clientInfo` (name, version, title only). */
  readonly clientInfo: Implementation | undefined;
  /** The client's capabilities (possibly reduced to the MCP Apps extension when large). */
  readonly clientCapabilities: ClientCapabilities | undefined;
}

/**
 * Encodes the state negotiated by `initialize` as an `Mcp-Session-Id` value: visible ASCII
 * (`A–Z a–z 0–9 - _ .`), normally under 300 characters. Capabilities whose JSON makes the payload
 * longer than 2 KiB are reduced to their `extensions["io.modelcontextprotocol/ui"]` entry.
 */
export function encodeSession(state: SessionState, uiExtension: string): string {
  const info = state.clientInfo;
  const clientInfo =
    info === undefined
      ? undefined
      : { name: info.name, version: info.version, ...(typeof info.title === "string" && { title: info.title }) };
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(9)));
  let payload = JSON.stringify({ v: state.protocolVersion, i: clientInfo, c: state.clientCapabilities, n: nonce });
  if (payload.length > MAX_PAYLOAD) {
    const ui = (state.clientCapabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[uiExtension];
    const reduced = ui === undefined ? {} : { extensions: { [uiExtension]: ui } };
    payload = JSON.stringify({ v: state.protocolVersion, i: clientInfo, c: reduced, n: nonce });
  }
  return SESSION_PREFIX + base64url(new TextEncoder().encode(payload));
}

/**
 * Decodes an `Mcp-Session-Id` made by {@link encodeSession}. Returns `undefined` for anything
 * else (missing, another server's id, malformed, too long, an unknown revision): the request is
 * then served as one without a session.
 */
export function decodeSession(header: string | null | undefined): SessionState | undefined {
  if (typeof header !== "string" || !header.startsWith(SESSION_PREFIX) || header.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const bytes = fromBase64url(header.slice(SESSION_PREFIX.length));
    if (bytes === undefined) return undefined;
    const data = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as Record<string, unknown>;
    if (typeof data !== "object" || data === null || typeof data.v !== "string" || !LEGACY_REVISIONS.has(data.v)) return undefined;
    const i = data.i as Record<string, unknown> | undefined;
    const clientInfo =
      typeof i === "object" && i !== null && typeof i.name === "string" && typeof i.version === "string" ? (i as unknown as Implementation) : undefined;
    const c = data.c;
    const clientCapabilities = typeof c === "object" && c !== null && !Array.isArray(c) ? (c as ClientCapabilities) : undefined;
    return { protocolVersion: data.v, clientInfo, clientCapabilities };
  } catch {
    return undefined;
  }
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let k = 0; k < binary.length; k++) out[k] = binary.charCodeAt(k);
  return out;
}

/** A transport as the legacy fallback hands it to `Server.connect`: the parts typed-mcp wraps. */
interface LegacyTransport {
  handleRequest(request: Request, options?: unknown): Promise<Response>;
  send(message: unknown, options?: unknown): Promise<void>;
  onmessage?: ((message: unknown, extra?: unknown) => void) | undefined;
}

/** What the session hook needs from the SDK `Server` of one legacy request. */
interface NegotiatedSource {
  connect(transport: never): Promise<void>;
  getNegotiatedProtocolVersion(): string | undefined;
  getClientVersion(): Implementation | undefined;
  getClientCapabilities(): ClientCapabilities | undefined;
}

/**
 * Installs the session hook on the SDK `Server` built for one stateless 2025-era HTTP request
 * (the SDK's legacy fallback connects it to a fresh per-request transport, then calls the
 * transport's `handleRequest`). When that request is `initialize` and is answered with a result,
 * the response gets `Mcp-Session-Id: <encodeSession(...)>` built from what the SDK's `Server`
 * itself negotiated (`getNegotiatedProtocolVersion`, `getClientCapabilities`,
 * `getClientVersion`). Every other request passes through untouched.
 */
export function installSessionHook(sdk: NegotiatedSource, uiExtension: string): void {
  const connect = sdk.connect.bind(sdk) as unknown as (transport: LegacyTransport) => Promise<void>;
  (sdk as unknown as { connect: (transport: LegacyTransport) => Promise<void> }).connect = async (transport) => {
    await connect(transport);
    let initId: unknown;
    let answered: (() => void) | undefined;
    const initAnswered = new Promise<void>((resolve) => (answered = resolve));
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as { method?: unknown; id?: unknown };
      if (m.method === "initialize" && m.id !== undefined) initId = m.id;
      onmessage?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const m = message as { id?: unknown; result?: unknown; error?: unknown };
      if (initId !== undefined && m.id === initId) answered?.();
      return send(message, options);
    };
    const handleRequest = transport.handleRequest.bind(transport);
    transport.handleRequest = async (request, options) => {
      const response = await handleRequest(request, options);
      if (initId === undefined) return response;
      // The SDK answers `initialize` synchronously; the timeout only guards against a handler that never answers.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([initAnswered, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)))]);
      clearTimeout(timer);
      const protocolVersion = sdk.getNegotiatedProtocolVersion();
      if (protocolVersion === undefined || !response.ok) return response;
      const token = encodeSession(
        { protocolVersion, clientInfo: sdk.getClientVersion(), clientCapabilities: sdk.getClientCapabilities() },
        uiExtension,
      );
      try {
        response.headers.set("mcp-session-id", token);
        return response;
      } catch {
        // Immutable headers: copy the response.
        const headers = new Headers(response.headers);
        headers.set("mcp-session-id", token);
        return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
      }
    };
  };
}
