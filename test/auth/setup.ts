// Shared parts of the auth tests: the plugin-built notes fixture (test/auth/fixtures), the
// authorization server set up for key rotation, signing keys and hand-signed access tokens, the
// public client's OAuth provider, and raw HTTP requests that carry a bearer token.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SignJWT, exportJWK, generateKeyPair, type JWK, type JWTHeaderParameters, type JWTPayload } from "jose";
import * as oauth from "oauth4webapi";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { AuthOptions, McpServer } from "typed-mcp";
import type { HttpServerHandle, ServeHttpOptions } from "typed-mcp/node";
import { rpcRequest } from "../helpers/raw-http.ts";
import { buildFixture, type Built, type Target } from "../runtimes/build.js";
import { freePort } from "../runtimes/helpers.js";
import { APP, startAuthorizationServer, type AuthorizationServer } from "./authorization-server.js";

const here = dirname(fileURLToPath(import.meta.url));
const AUTH_FIXTURE = join(here, "fixtures");

/** The Node bundle's exports. */
export interface NotesModule {
  createServer(auth: AuthOptions): McpServer;
  serveHttp(server: McpServer, options?: ServeHttpOptions): Promise<HttpServerHandle>;
}

/** A temporary folder with the fixture's entries built by Vite with the typed-mcp plugin. */
export async function buildNotes(
  entries: [string, Target][],
): Promise<{ dir: string; built: Record<string, Built>; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "typed-mcp-auth-"));
  const built: Record<string, Built> = {};
  for (const [entry, target] of entries)
    built[entry] = await buildFixture(entry, target, join(dir, entry), AUTH_FIXTURE);
  return { dir, built, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Imports the built Node entry. */
export async function importNotes(built: Built): Promise<NotesModule> {
  return (await import(pathToFileURL(built.file).href)) as NotesModule;
}

/** Serves `createServer({ issuer, audience, ...extra })` on a port chosen first, so that `audience` is its own URL. */
export async function serveNotes(
  notes: NotesModule,
  issuer: string,
  extra: Partial<AuthOptions> = {},
): Promise<HttpServerHandle & { audience: string }> {
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  const handle = await notes.serveHttp(notes.createServer({ issuer, audience, ...extra }), { port });
  return Object.assign(handle, { audience });
}

/**
 * An access token from the authorization server's token endpoint (RFC 6749 §4.4 client
 * credentials, RFC 8707 `resource`), through oauth4webapi.
 */
export async function clientCredentialsToken(
  issuer: string,
  client: { clientId: string; clientSecret: string },
  resource: string,
  scope: string,
): Promise<string> {
  const issuerUrl = new URL(issuer);
  const insecure = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, insecure));
  const response = await oauth.clientCredentialsGrantRequest(
    as,
    { client_id: client.clientId },
    oauth.ClientSecretBasic(client.clientSecret),
    new URLSearchParams({ scope, resource }),
    insecure,
  );
  const tokens = await oauth.processClientCredentialsResponse(as, { client_id: client.clientId }, response);
  return tokens.access_token;
}

/** RFC 7009: revokes `token` at the authorization server, as the client it was issued to (through oauth4webapi). */
export async function revokeToken(
  issuer: string,
  client: { clientId: string; clientSecret: string },
  token: string,
): Promise<void> {
  const issuerUrl = new URL(issuer);
  const insecure = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, insecure));
  const response = await oauth.revocationRequest(
    as,
    { client_id: client.clientId },
    oauth.ClientSecretBasic(client.clientSecret),
    token,
    insecure,
  );
  await oauth.processRevocationResponse(response);
}

/** An RS256 signing key: the private JWK (with `kid`, `alg`, `use`) an authorization server is started with, and the key to hand-sign with. */
export async function signingKey(kid: string): Promise<{ jwk: JWK; privateKey: CryptoKey }> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { jwk: { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" }, privateKey };
}

/**
 * The authorization server as during a key rotation: two RS256 keys (`k1`, `k2`) in its JWKS and
 * access tokens whose header leaves `kid` out, signed with the key `signWith` chose last (`k1`
 * first), so the resource server must try the JWKS keys in turn. `keys` are the same keys, for
 * hand-signing.
 */
export async function startRotatingAuthorizationServer(): Promise<{
  as: AuthorizationServer;
  keys: { jwk: JWK; privateKey: CryptoKey }[];
  signWith(kid: "k1" | "k2"): void;
}> {
  const keys = [await signingKey("k1"), await signingKey("k2")];
  let signingKid = "k1";
  const as = await startAuthorizationServer({
    jwks: { keys: keys.map((k) => k.jwk) },
    signingKid: () => signingKid,
    accessTokenHeader: { kid: undefined },
  });
  return { as, keys, signWith: (kid) => void (signingKid = kid) };
}

/**
 * The claims RFC 9068 §2.2 requires of a JWT access token, for `audience`, issued now by `issuer`
 * to the client `m2m` for the user `alice` with the scope `notes:read`, valid five minutes; `extra`
 * adds or replaces claims.
 */
export function accessTokenClaims(issuer: string, audience: string, extra: Record<string, unknown> = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: issuer,
    aud: audience,
    sub: "alice",
    client_id: "m2m",
    scope: "notes:read",
    iat: now,
    exp: now + 300,
    jti: crypto.randomUUID(),
    ...extra,
  };
}

/**
 * A hand-signed RS256 access token (for the malformed cases): `header` is the whole protected
 * header besides `alg` (so `{}` has no `typ` and no `kid`), `claims` the whole claims set.
 */
export function handSigned(
  privateKey: CryptoKey,
  header: Omit<JWTHeaderParameters, "alg">,
  claims: JWTPayload,
): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: "RS256", ...header }).sign(privateKey);
}

/**
 * An OAuthClientProvider for the pre-registered public client `app` (authorization code + PKCE):
 * it keeps the authorization URL the client sent the user to, the code verifier and the tokens
 * in memory. `clientName` and `scope` go into its client metadata.
 */
export class AppProvider implements OAuthClientProvider {
  /** The authorization URL of the last redirect to the authorization server. */
  authorizationUrl: URL | undefined;
  /** The access token of the tokens saved last (`""` before). */
  accessToken = "";
  readonly #metadata: { clientName: string; scope?: string };
  #tokens: unknown;
  #verifier = "";
  constructor(metadata: { clientName: string; scope?: string }) {
    this.#metadata = metadata;
  }
  get redirectUrl() {
    return APP.redirectUri;
  }
  get clientMetadata() {
    return {
      client_name: this.#metadata.clientName,
      redirect_uris: [APP.redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(this.#metadata.scope !== undefined && { scope: this.#metadata.scope }),
    };
  }
  clientInformation() {
    return { client_id: APP.clientId };
  }
  tokens() {
    return this.#tokens as never;
  }
  saveTokens(tokens: { access_token: string }) {
    this.#tokens = tokens;
    this.accessToken = tokens.access_token;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
}

/** The JSON-RPC requests the raw tests send (2025-11-25, stateless HTTP). */
export const RPC = {
  callTool: (name: string, args: Record<string, unknown> = {}) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: args },
  }),
  readResource: (uri: string) => ({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } }),
  getPrompt: (name: string) => ({ jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name } }),
};

/** POSTs one JSON-RPC message to `url` with `headers` (e.g. `Authorization`). */
export function post(url: string | URL, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(rpcRequest(body, { url, headers }));
}

/** The JSON-RPC answer of a Streamable HTTP response: a JSON body, or the first `message` event of an SSE stream. */
export async function rpcAnswer(
  response: Response,
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const body = await response.text();
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const data = /^data: (.*)$/m.exec(body);
    if (data === null) throw new Error(`no message in the stream: ${body}`);
    return JSON.parse(data[1]!);
  }
  return JSON.parse(body);
}
