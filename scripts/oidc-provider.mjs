// A local OAuth 2.1 / OpenID authorization server for trying typed-mcp's `auth` option
// (docs/auth.md): oidc-provider (a certified OpenID provider) on 127.0.0.1 with RFC 8707
// resource indicators (JWT access tokens whose `aud` is the requested resource), the client
// credentials grant, RFC 7591 dynamic client registration (what MCP clients use to register),
// RFC 7662 introspection, RFC 7009 revocation, and oidc-provider's development login and consent pages (any user
// name and password are accepted).
//
//   node scripts/oidc-provider.mjs            # issuer http://127.0.0.1:4000 (AUTH_PORT to change)
//
// The test suite starts the same server (test/auth/authorization-server.ts). For development
// only: the signing keys and the login page are oidc-provider's quick-start ones.
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import Provider from "oidc-provider";

/** The scopes every resource server of this authorization server knows. */
export const RESOURCE_SCOPES = "notes:read notes:write admin memory:read memory:write";
/** A confidential client allowed every scope (client credentials). */
export const M2M = { clientId: "m2m", clientSecret: "m2m-secret-0123456789abcdef0123456789" };
/** A confidential client allowed only `notes:read` (client credentials). */
export const READER = { clientId: "reader", clientSecret: "reader-secret-0123456789abcdef012345" };
/** A resource server's own credentials, for RFC 7662 introspection. */
export const RESOURCE_SERVER = { clientId: "notes-rs", clientSecret: "rs-secret-0123456789abcdef0123456789" };
/** A public client using the authorization code grant with PKCE (RFC 7636). */
export const APP = { clientId: "app", redirectUri: "http://127.0.0.1:9/callback" };

/**
 * Starts oidc-provider on 127.0.0.1.
 *
 * @param {{ port?: number, jwks?: { keys: object[] }, accessTokenTTL?: number, format?: "jwt" | "opaque", signingKid?: () => string | undefined, accessTokenHeader?: Record<string, unknown> }} [options]
 *   `port` (default: any free one), signing `jwks` (private JWKs; default: oidc-provider's
 *   development key), access token lifetime in seconds (default 300), token `format` (default `jwt`),
 *   `signingKid`: asked for each JWT access token, the `kid` of the `jwks` key that signs it
 *   (default: the first key), `accessTokenHeader`: fields laid over each JWT access token's
 *   protected header (e.g. `{ kid: undefined }` to leave `kid` out, `{ typ: "JWT" }`).
 * @returns {Promise<{ issuer: string, port: number, stop(): Promise<void> }>} The issuer is `http://127.0.0.1:<port>`.
 */
export async function startAuthorizationServer(options = {}) {
  const http = createServer();
  await new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => resolve(undefined));
  });
  const port = /** @type {import("node:net").AddressInfo} */ (http.address()).port;
  const issuer = `http://127.0.0.1:${port}`;
  const format = options.format ?? "jwt";
  const noRedirect = { redirect_uris: [], response_types: [] };
  const provider = new Provider(issuer, {
    clients: [
      { client_id: M2M.clientId, client_secret: M2M.clientSecret, grant_types: ["client_credentials"], ...noRedirect },
      {
        client_id: READER.clientId,
        client_secret: READER.clientSecret,
        grant_types: ["client_credentials"],
        scope: "notes:read",
        ...noRedirect,
      },
      {
        client_id: RESOURCE_SERVER.clientId,
        client_secret: RESOURCE_SERVER.clientSecret,
        grant_types: [],
        ...noRedirect,
      },
      {
        client_id: APP.clientId,
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        redirect_uris: [APP.redirectUri],
      },
    ],
    ...(options.jwks && { jwks: options.jwks }),
    scopes: ["openid", "offline_access", ...RESOURCE_SCOPES.split(" ")],
    ...(options.accessTokenHeader && {
      formats: {
        customizers: {
          jwt: (_ctx, _token, jwt) => {
            jwt.header = { ...jwt.header, ...options.accessTokenHeader };
          },
        },
      },
    }),
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      // RFC 7009: a client may revoke its own tokens.
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope: RESOURCE_SCOPES,
          audience: resourceIndicator,
          accessTokenTTL: options.accessTokenTTL ?? 300,
          accessTokenFormat: format,
          ...(format === "jwt" && {
            jwt: { sign: { alg: "RS256", ...(options.signingKid && { kid: options.signingKid() }) } },
          }),
        }),
      },
    },
  });
  http.on("request", provider.callback());
  return {
    issuer,
    port,
    stop: () =>
      new Promise((resolve) => {
        http.close(() => resolve(undefined));
        http.closeAllConnections();
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { issuer } = await startAuthorizationServer({ port: Number(process.env.AUTH_PORT ?? 4000) });
  console.error(`oidc-provider (development only) listening: issuer ${issuer}`);
  console.error(
    `  client credentials: client_id ${M2M.clientId}, client_secret ${M2M.clientSecret}; scopes: ${RESOURCE_SCOPES}`,
  );
  console.error(`  dynamic client registration: ${issuer}/reg; any user name and password log in.`);
  console.error(`Serve the playground with it: AUTH_ISSUER=${issuer} npm run playground`);
}
