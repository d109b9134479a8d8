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
 * The hook that sets the header on the SDK's per-request transport is `installSessionHook` in
 * sdk-patches.ts (it wraps SDK internals).
 *
 * @module
 */
import type { ClientCapabilities, Implementation } from "@modelcontextprotocol/server";
import { fromBase64url, toBase64url } from "../codegen-support/base64.js";
import { isLegacyRevision } from "./revisions.js";

/** Prefix (and format version) of typed-mcp session ids. */
const SESSION_PREFIX = "tmcp1.";
/** Longest header value decoded; longer ones are ignored. */
const MAX_TOKEN_LENGTH = 4096;
/** Longest JSON payload in UTF-8 bytes (its base64url then stays under {@link MAX_TOKEN_LENGTH}); see {@link encodeSession}. */
const MAX_PAYLOAD = 2048;

/** What `initialize` negotiated, as carried by the session id. */
export interface SessionState {
  /** The revision the server answered `initialize` with. */
  readonly protocolVersion: string;
  /** The client's `clientInfo` (name, version, title only). */
  readonly clientInfo: Implementation | undefined;
  /** The client's capabilities (possibly reduced to the MCP Apps extension when large). */
  readonly clientCapabilities: ClientCapabilities | undefined;
}

/** Longest `clientInfo.name` / `version` kept in the last, smallest form of the payload (UTF-16 code units). */
const MAX_INFO_LENGTH = 64;

/**
 * Encodes the state negotiated by `initialize` as an `Mcp-Session-Id` value: visible ASCII
 * (`A–Z a–z 0–9 - _ .`), normally under 300 characters and never longer than the 4,096 that
 * {@link decodeSession} reads (docs/security.md "Session id"). The JSON payload is the first of
 * these forms that fits in 2 KiB: the full capabilities and `clientInfo` (name, version, title);
 * the capabilities reduced to their `extensions[uiExtension]` entry; that entry reduced to `{}`
 * (the gating only needs its presence, spec §9); finally also `clientInfo` without `title` and its
 * `name` and `version` cut to 64 code units. The revision is always carried whole.
 *
 * @param state What `initialize` negotiated.
 * @param uiExtension The MCP Apps extension id (`io.modelcontextprotocol/ui`, spec §9), kept when capabilities are reduced.
 */
export function encodeSession(state: SessionState, uiExtension: string): string {
  const info = state.clientInfo;
  const clientInfo =
    info === undefined
      ? undefined
      : { name: info.name, version: info.version, ...(typeof info.title === "string" && { title: info.title }) };
  const shortInfo =
    info === undefined ? undefined : { name: cut(String(info.name)), version: cut(String(info.version)) };
  const ui = (state.clientCapabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[
    uiExtension
  ];
  const uiOnly = ui === undefined ? {} : { extensions: { [uiExtension]: ui } };
  const uiPresent = ui === undefined ? {} : { extensions: { [uiExtension]: {} } };
  const nonce = toBase64url(crypto.getRandomValues(new Uint8Array(9)));
  const forms: Array<[unknown, unknown]> = [
    [clientInfo, state.clientCapabilities],
    [clientInfo, uiOnly],
    [clientInfo, uiPresent],
    [shortInfo, uiPresent],
  ];
  let payload = "";
  for (const [i, c] of forms) {
    payload = JSON.stringify({ v: state.protocolVersion, i, c, n: nonce });
    if (new TextEncoder().encode(payload).byteLength <= MAX_PAYLOAD) break;
  }
  return SESSION_PREFIX + toBase64url(new TextEncoder().encode(payload));
}

/** `text` cut to {@link MAX_INFO_LENGTH} code units, never splitting a surrogate pair. */
function cut(text: string): string {
  if (text.length <= MAX_INFO_LENGTH) return text;
  const end = /[\ud800-\udbff]/.test(text[MAX_INFO_LENGTH - 1]!) ? MAX_INFO_LENGTH - 1 : MAX_INFO_LENGTH;
  return text.slice(0, end);
}

/**
 * Decodes an `Mcp-Session-Id` made by {@link encodeSession}. Returns `undefined` for anything
 * else (missing, another server's id, malformed, too long, an unknown revision): the request is
 * then served as one without a session.
 */
export function decodeSession(header: string | null | undefined): SessionState | undefined {
  if (typeof header !== "string" || !header.startsWith(SESSION_PREFIX) || header.length > MAX_TOKEN_LENGTH)
    return undefined;
  try {
    const bytes = fromBase64url(header.slice(SESSION_PREFIX.length));
    if (bytes === undefined) return undefined;
    const data = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as Record<string, unknown>;
    if (typeof data !== "object" || data === null || typeof data.v !== "string" || !isLegacyRevision(data.v))
      return undefined;
    const i = data.i as Record<string, unknown> | undefined;
    const clientInfo =
      typeof i === "object" && i !== null && typeof i.name === "string" && typeof i.version === "string"
        ? (i as unknown as Implementation)
        : undefined;
    const c = data.c;
    const clientCapabilities =
      typeof c === "object" && c !== null && !Array.isArray(c) ? (c as ClientCapabilities) : undefined;
    return { protocolVersion: data.v, clientInfo, clientCapabilities };
  } catch {
    return undefined;
  }
}
