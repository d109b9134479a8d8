// A real authorization server for the auth tests: oidc-provider (a certified OpenID provider) on
// 127.0.0.1 with RFC 8707 resource indicators, the client credentials grant, RFC 7662
// introspection and its development login/consent pages (driven headlessly by `authorize`).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import makeFetchCookie from "fetch-cookie";

/** The scopes every resource server of this authorization server knows. */
export const RESOURCE_SCOPES = "notes:read notes:write admin";
/** A confidential client allowed every scope (client credentials). */
export const M2M = { clientId: "m2m", clientSecret: "m2m-secret-0123456789abcdef0123456789" };
/** A confidential client allowed only `notes:read` (client credentials). */
export const READER = { clientId: "reader", clientSecret: "reader-secret-0123456789abcdef012345" };
/** The resource server's own credentials, for RFC 7662 introspection. */
export const RESOURCE_SERVER = { clientId: "notes-rs", clientSecret: "rs-secret-0123456789abcdef0123456789" };
/** A public client using the authorization code grant with PKCE. */
export const APP = { clientId: "app", redirectUri: "http://127.0.0.1:9/callback" };

export interface AuthorizationServerOptions {
  /** Port to listen on (default: any free one). */
  port?: number;
  /** Signing keys (private JWKs); default: oidc-provider's development key. */
  jwks?: { keys: object[] };
  /** Access token lifetime in seconds (default 300). */
  accessTokenTTL?: number;
  /** Access token format (default `jwt`). */
  format?: "jwt" | "opaque";
}

export interface AuthorizationServer {
  /** The issuer identifier, `http://127.0.0.1:<port>`. */
  issuer: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts oidc-provider on 127.0.0.1. */
export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<AuthorizationServer> {
  const http: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const noRedirect = { redirect_uris: [], response_types: [] };
  const provider = new Provider(issuer, {
    clients: [
      { client_id: M2M.clientId, client_secret: M2M.clientSecret, grant_types: ["client_credentials"], ...noRedirect },
      { client_id: READER.clientId, client_secret: READER.clientSecret, grant_types: ["client_credentials"], scope: "notes:read", ...noRedirect },
      { client_id: RESOURCE_SERVER.clientId, client_secret: RESOURCE_SERVER.clientSecret, grant_types: [], ...noRedirect },
      {
        client_id: APP.clientId,
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        redirect_uris: [APP.redirectUri],
      },
    ],
    ...(options.jwks && { jwks: options.jwks as never }),
    scopes: ["openid", "offline_access", ...RESOURCE_SCOPES.split(" ")],
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as never,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resourceIndicator: string) => ({
          scope: RESOURCE_SCOPES,
          audience: resourceIndicator,
          accessTokenTTL: options.accessTokenTTL ?? 300,
          accessTokenFormat: options.format ?? "jwt",
          ...((options.format ?? "jwt") === "jwt" && { jwt: { sign: { alg: "RS256" } } }),
        }),
      },
    },
  } as never);
  http.on("request", provider.callback());
  return {
    issuer,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/**
 * Drives the development login and consent pages of oidc-provider headlessly, from the
 * authorization URL the MCP client's OAuth support produced to the `code` sent to the redirect
 * URI: the callback's query (the user agent's part of RFC 6749 §4.1, with cookies kept by fetch-cookie).
 */
export async function authorize(authorizationUrl: URL, login = "alice"): Promise<URLSearchParams> {
  const browser = makeFetchCookie(fetch);
  let url = authorizationUrl.href;
  for (let step = 0; step < 10; step++) {
    const response = await browser(url, { redirect: "manual" });
    const location = response.headers.get("location");
    if (location !== null) {
      const next = new URL(location, url);
      if (next.href.startsWith(APP.redirectUri)) {
        if (!next.searchParams.has("code")) throw new Error(`authorization failed: ${next.search}`);
        return next.searchParams;
      }
      url = next.href;
      continue;
    }
    const page = await response.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (response.status !== 200 || prompt === undefined) throw new Error(`unexpected page ${response.status} at ${url}: ${page.slice(0, 300)}`);
    const form = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt });
    const submitted = await browser(url, { method: "POST", body: form, redirect: "manual" });
    const after = submitted.headers.get("location");
    if (after === null) throw new Error(`the ${prompt} form did not redirect: ${submitted.status} ${await submitted.text()}`);
    url = new URL(after, url).href;
  }
  throw new Error("too many redirects");
}
