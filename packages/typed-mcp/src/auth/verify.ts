/**
 * Access-token verification for the OAuth 2.1 resource server (docs/auth.md "What is verified
 * where"): authorization server metadata discovery (RFC 8414, OpenID Connect Discovery 1.0)
 * through `oauth4webapi`, then JWT access tokens (RFC 9068) against the issuer's JWKS through
 * `jose` (auth/jwt.ts) or RFC 7662 introspection (auth/introspection.ts). Nothing here parses a
 * token by hand.
 *
 * Every verifier implements the SDK's `OAuthTokenVerifier`: it resolves to the verified
 * `AuthInfo` or throws the SDK's `OAuthError` (`invalid_token`), or {@link AuthUnavailableError}
 * when the authorization server cannot be reached (the gate answers 503, failing closed).
 *
 * @module
 */
import type { OAuthTokenVerifier } from "@modelcontextprotocol/server";
import type { JWTVerifyGetKey } from "jose";
import * as oauth from "oauth4webapi";
import { createIntrospector } from "./introspection.js";
import { remoteKeys, verifyJwt } from "./jwt.js";
import { AuthUnavailableError, messageOf, requestOptions } from "./token.js";
import type { VerifierSettings } from "./token.js";

export { AuthUnavailableError };
export type { VerifierSettings };
export { ACCESS_TOKEN_TYPE } from "./jwt.js";

/** How long discovered metadata is kept before it is fetched again, in milliseconds. */
const METADATA_MAX_AGE_MS = 3_600_000;

/**
 * A verifier for `settings`: introspection (RFC 7662) when `settings.introspection` is set, else
 * JWT verification against the JWKS named by the issuer's metadata (`jwks_uri`). Metadata is
 * discovered on first use (RFC 8414 `/.well-known/oauth-authorization-server`, then OpenID
 * Connect `/.well-known/openid-configuration`), kept for an hour, and discovered again after a
 * failure; the JWKS is cached for `jwksCacheMaxAgeMs` and fetched again at once (at most every
 * 30 s) when a token names an unknown `kid` — key rotation (auth/jwt.ts `remoteKeys`).
 */
export function createVerifier(settings: VerifierSettings): OAuthTokenVerifier {
  const metadata = cachedMetadata(settings);
  if (settings.introspection !== undefined) {
    const introspect = createIntrospector(settings, settings.introspection);
    return { verifyAccessToken: async (token) => introspect(await metadata(), token) };
  }
  let jwks: { uri: string; keys: JWTVerifyGetKey } | undefined;
  return {
    async verifyAccessToken(token) {
      const as = await metadata();
      if (as.jwks_uri === undefined)
        throw new AuthUnavailableError(
          `The authorization server ${settings.issuer.href} publishes no jwks_uri; configure auth.introspection.`,
        );
      if (jwks?.uri !== as.jwks_uri) jwks = { uri: as.jwks_uri, keys: remoteKeys(as.jwks_uri, settings) };
      return verifyJwt(token, as.issuer, jwks.keys, settings);
    },
  };
}

/** The issuer's metadata, discovered on first use and cached ({@link createVerifier}). */
function cachedMetadata(settings: VerifierSettings): () => Promise<oauth.AuthorizationServer> {
  let cached: { at: number; value: Promise<oauth.AuthorizationServer> } | undefined;
  return () => {
    if (cached === undefined || Date.now() - cached.at > METADATA_MAX_AGE_MS) {
      const value = discover(settings);
      cached = { at: Date.now(), value };
      // A failed discovery is not kept: the next request tries again.
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    }
    return cached.value;
  };
}

/** RFC 8414 discovery, then OpenID Connect Discovery 1.0 (the order MCP 2025-11-25 clients use). */
async function discover(settings: VerifierSettings): Promise<oauth.AuthorizationServer> {
  let last: unknown;
  for (const algorithm of ["oauth2", "oidc"] as const) {
    try {
      const response = await oauth.discoveryRequest(settings.issuer, {
        algorithm,
        ...requestOptions<"GET", undefined>(settings),
      });
      return await oauth.processDiscoveryResponse(settings.issuer, response);
    } catch (error) {
      last = error;
    }
  }
  throw new AuthUnavailableError(
    `The authorization server metadata of ${settings.issuer.href} could not be read: ${messageOf(last)}`,
  );
}
