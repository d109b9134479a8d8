/**
 * Access-token verification for the OAuth 2.1 resource server (docs/auth.md "What is verified
 * where"): authorization server metadata discovery (RFC 8414, OpenID Connect Discovery 1.0) and
 * RFC 7662 introspection through `oauth4webapi`; JWT access tokens (RFC 9068) against the
 * issuer's JWKS through `jose`. Nothing here parses a token by hand.
 *
 * Every verifier implements the SDK's `OAuthTokenVerifier`: it resolves to the verified
 * `AuthInfo` or throws the SDK's `OAuthError` (`invalid_token`), or {@link AuthUnavailableError}
 * when the authorization server cannot be reached (the gate answers 503, failing closed).
 *
 * @module
 */
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import type { AuthInfo, OAuthTokenVerifier } from "@modelcontextprotocol/server";
import { createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify } from "jose";
import type { JWTPayload } from "jose";
import * as oauth from "oauth4webapi";

/**
 * The authorization server could not be reached or answered something unusable (metadata
 * discovery, the JWKS, or the introspection endpoint failed or timed out). The request is
 * refused with HTTP 503 — never let through.
 */
export class AuthUnavailableError extends Error {
  override readonly name = "AuthUnavailableError";
}

/** What {@link createVerifier} needs, already checked by auth.ts. */
export interface VerifierSettings {
  /** The issuer identifier (RFC 8414 `issuer`; the JWT `iss`). */
  issuer: URL;
  /** The accepted `aud` values: the resource identifier (RFC 8707), with and without a trailing slash. */
  audiences: string[];
  /** Seconds of clock skew allowed on `nbf` and `iat` (and `exp` for introspection answers). */
  clockTolerance: number;
  /** Milliseconds a JWKS stays cached before it is fetched again (jose `cacheMaxAge`). */
  jwksCacheMaxAgeMs: number;
  /** Milliseconds each request to the authorization server may take. */
  timeoutMs: number;
  /** RFC 7662 introspection client credentials, when tokens are introspected instead of verified as JWTs. */
  introspection?: { clientId: string; clientSecret: string };
  /** The `fetch` used for the authorization server (default: the global one). */
  fetch: typeof fetch;
}

/** JWS algorithms accepted for access tokens: asymmetric only (`none` and HMAC are refused, so no algorithm confusion). */
export const ACCEPTED_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

/** How long discovered metadata is kept before it is fetched again, in milliseconds. */
const METADATA_MAX_AGE_MS = 3_600_000;

/**
 * A verifier for `settings`: introspection (RFC 7662) when `settings.introspection` is set, else
 * JWT verification against the JWKS named by the issuer's metadata (`jwks_uri`). Metadata is
 * discovered on first use (RFC 8414 `/.well-known/oauth-authorization-server`, then OpenID
 * Connect `/.well-known/openid-configuration`), kept for an hour, and discovered again after a
 * failure; the JWKS is cached for `jwksCacheMaxAgeMs` and fetched again at once (at most every
 * 30 s) when a token names an unknown `kid` — key rotation.
 */
export function createVerifier(settings: VerifierSettings): OAuthTokenVerifier {
  const metadata = cachedMetadata(settings);
  if (settings.introspection !== undefined) {
    const credentials = settings.introspection;
    return { verifyAccessToken: async (token) => introspect(settings, credentials, await metadata(), token) };
  }
  let jwks: { uri: string; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;
  return {
    async verifyAccessToken(token) {
      const as = await metadata();
      if (as.jwks_uri === undefined) throw new AuthUnavailableError(`The authorization server ${settings.issuer.href} publishes no jwks_uri; configure auth.introspection.`);
      if (jwks?.uri !== as.jwks_uri) {
        jwks = {
          uri: as.jwks_uri,
          keys: createRemoteJWKSet(new URL(as.jwks_uri), {
            cacheMaxAge: settings.jwksCacheMaxAgeMs,
            cooldownDuration: Math.min(30_000, settings.jwksCacheMaxAgeMs),
            timeoutDuration: settings.timeoutMs,
            [customFetch]: settings.fetch,
          }),
        };
      }
      try {
        const { payload } = await jwtVerify(token, jwks.keys, {
          issuer: as.issuer,
          audience: settings.audiences,
          algorithms: ACCEPTED_ALGORITHMS,
          clockTolerance: settings.clockTolerance,
          requiredClaims: ["exp"],
        });
        return authInfoOf(token, payload, settings, "jwt");
      } catch (error) {
        throw tokenError(error);
      }
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
      const response = await oauth.discoveryRequest(settings.issuer, { algorithm, ...requestOptions<"GET", undefined>(settings) });
      return await oauth.processDiscoveryResponse(settings.issuer, response);
    } catch (error) {
      last = error;
    }
  }
  throw new AuthUnavailableError(`The authorization server metadata of ${settings.issuer.href} could not be read: ${messageOf(last)}`);
}

/** Request options for oauth4webapi: a timeout, the configured fetch, plain HTTP only for a loopback issuer. */
function requestOptions<M, B>(settings: VerifierSettings): oauth.HttpRequestOptions<M, B> {
  return {
    signal: () => AbortSignal.timeout(settings.timeoutMs),
    [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<M, B>) => settings.fetch(url, init as RequestInit),
    ...(settings.issuer.protocol === "http:" && { [oauth.allowInsecureRequests]: true }),
  };
}

/** RFC 7662: asks the introspection endpoint about `token` and checks `active`, `iss`, `aud`, `exp`, `nbf`. */
async function introspect(
  settings: VerifierSettings,
  credentials: { clientId: string; clientSecret: string },
  as: oauth.AuthorizationServer,
  token: string,
): Promise<AuthInfo> {
  if (as.introspection_endpoint === undefined) throw new AuthUnavailableError(`The authorization server ${settings.issuer.href} publishes no introspection_endpoint.`);
  const client = { client_id: credentials.clientId };
  let answer: oauth.IntrospectionResponse;
  try {
    const response = await oauth.introspectionRequest(as, client, oauth.ClientSecretBasic(credentials.clientSecret), token, requestOptions<"POST", URLSearchParams>(settings));
    answer = await oauth.processIntrospectionResponse(as, client, response);
  } catch (error) {
    throw new AuthUnavailableError(`Token introspection at ${as.introspection_endpoint} failed: ${messageOf(error)}`);
  }
  if (!answer.active) throw new OAuthError(OAuthErrorCode.InvalidToken, "The token is not active");
  if (answer.iss !== undefined && answer.iss !== as.issuer) throw new OAuthError(OAuthErrorCode.InvalidToken, "The token was issued by another authorization server");
  const aud = answer.aud === undefined ? [] : Array.isArray(answer.aud) ? answer.aud : [answer.aud];
  if (!aud.some((a) => settings.audiences.includes(a))) throw new OAuthError(OAuthErrorCode.InvalidToken, "The token was not issued for this resource");
  const now = Date.now() / 1000;
  if (typeof answer.exp !== "number") throw new OAuthError(OAuthErrorCode.InvalidToken, "The token has no expiration time");
  if (answer.exp + settings.clockTolerance <= now) throw new OAuthError(OAuthErrorCode.InvalidToken, "The token has expired");
  if (typeof answer.nbf === "number" && answer.nbf - settings.clockTolerance > now) throw new OAuthError(OAuthErrorCode.InvalidToken, "The token is not valid yet");
  return authInfoOf(token, answer as JWTPayload, settings, "introspection");
}

/**
 * The `AuthInfo` of verified claims: `clientId` from `client_id` (RFC 9068 §2.2, RFC 7662),
 * else `azp`, else `""`; `scopes` from `scope` (space-separated) or an `scp` array; `expiresAt`
 * from `exp`; `resource` the configured resource identifier; `extra.subject` (`sub`),
 * `extra.issuer` (`iss`), `extra.claims` (every claim) and `extra.owner`, the caller the token
 * stands for (caller.ts, docs/security.md "Callers"): issuer + `sub` + `client_id` for a JWT access
 * token (RFC 9068 §2.2 requires both), issuer + (`sub` ?? `client_id`) for an introspected one
 * (RFC 7662 makes both optional).
 */
function authInfoOf(token: string, claims: JWTPayload, settings: VerifierSettings, via: "jwt" | "introspection"): AuthInfo {
  const scope = claims["scope"];
  const scp = claims["scp"];
  const scopes = typeof scope === "string" ? scope.split(" ").filter((s) => s !== "") : Array.isArray(scp) ? scp.filter((s): s is string => typeof s === "string") : [];
  const clientId = typeof claims["client_id"] === "string" ? claims["client_id"] : typeof claims["azp"] === "string" ? claims["azp"] : "";
  const issuer = claims.iss ?? settings.issuer.href;
  const subject = typeof claims.sub === "string" ? claims.sub : undefined;
  const owner = via === "jwt" ? [issuer, subject ?? "", clientId] : [issuer, subject ?? clientId];
  return {
    token,
    clientId,
    scopes,
    ...(typeof claims.exp === "number" && { expiresAt: claims.exp }),
    resource: new URL(settings.audiences[0]!),
    extra: {
      ...(claims.sub !== undefined && { subject: claims.sub }),
      issuer,
      claims: { ...claims },
      owner: `token\0${owner.join("\0")}`,
    },
  };
}

/**
 * Maps a jose failure to the answer: a bad token (signature, algorithm, `iss`, `aud`, `exp`,
 * `nbf`, malformed) → `OAuthError` `invalid_token` with jose's reason; an unreachable or broken
 * JWKS → {@link AuthUnavailableError}.
 */
function tokenError(error: unknown): Error {
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid || error instanceof joseErrors.JWKSMultipleMatchingKeys) {
    return new AuthUnavailableError(`The authorization server's JWKS could not be used: ${error.message}`);
  }
  if (error instanceof joseErrors.JWTExpired) return new OAuthError(OAuthErrorCode.InvalidToken, "The token has expired");
  if (error instanceof joseErrors.JWTClaimValidationFailed) return new OAuthError(OAuthErrorCode.InvalidToken, CLAIM_ERRORS[error.claim] ?? "The token's claims are not valid");
  if (error instanceof joseErrors.JWKSNoMatchingKey) return new OAuthError(OAuthErrorCode.InvalidToken, "The token is not signed by a key of the authorization server");
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return new OAuthError(OAuthErrorCode.InvalidToken, "The token's signature algorithm is not accepted");
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return new OAuthError(OAuthErrorCode.InvalidToken, "The token's signature is not valid");
  if (error instanceof joseErrors.JOSEError) return new OAuthError(OAuthErrorCode.InvalidToken, "The token is not a valid JWT");
  // Anything else came from fetching the JWKS (a refused connection, a TypeError from fetch).
  return new AuthUnavailableError(`The authorization server's JWKS could not be fetched: ${messageOf(error)}`);
}

/** The answer when a claim check fails (RFC 7519 §4.1; RFC 8707 for `aud`). */
const CLAIM_ERRORS: Record<string, string> = {
  aud: "The token was not issued for this resource",
  iss: "The token was issued by another authorization server",
  nbf: "The token is not valid yet",
  iat: "The token was issued in the future",
  exp: "The token has no expiration time",
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
