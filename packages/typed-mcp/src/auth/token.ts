/**
 * What the access-token verifiers share (docs/auth.md "What is verified where"): their settings,
 * the failure that means "the authorization server cannot be used" (503), the request options for
 * oauth4webapi, the claim rules both JWT (RFC 9068) and introspected (RFC 7662) tokens follow
 * (`iat` not in the future), and the `AuthInfo` of verified claims with its owner (caller.ts).
 *
 * @module
 */
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import type { AuthInfo } from "@modelcontextprotocol/server";
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

/** A JWT access token claim an issuer may be declared to leave out (RFC 9068 §2.2 requires both). */
export type OptionalClaim = "sub" | "client_id" | "iat";

/** What the verifiers need, already checked by auth.ts. */
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
  /**
   * The accepted JWT `typ` header values as {@link mediaType} gives them (`application/at+jwt`
   * always), `null` when a token without `typ` is accepted (RFC 9068 §4, `acceptTokenTypes`).
   */
  tokenTypes: ReadonlySet<string | null>;
  /** The JWT access token claims the issuer is declared to leave out (`optionalClaims`). */
  optionalClaims: ReadonlySet<OptionalClaim>;
  /** RFC 7662 introspection client credentials, when tokens are introspected instead of verified as JWTs. */
  introspection?: { clientId: string; clientSecret: string };
  /** Longest time an introspection answer is reused, in milliseconds (0: never cached). */
  introspectionCacheMaxAgeMs: number;
  /** Most introspection answers kept at once (0: never cached); past it the oldest is evicted. */
  introspectionCacheMaxEntries: number;
  /** The `fetch` used for the authorization server (default: the global one). */
  fetch: typeof fetch;
}

/**
 * A JWT `typ` header value as the media type it names (RFC 7515 §4.1.9): lower-cased (media
 * types compare case-insensitively, RFC 9110 §8.3.1), with `application/` put in front of a value
 * without a `/` — so `at+JWT`, `application/at+jwt` and `Application/AT+JWT` are one type.
 */
export function mediaType(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.includes("/") ? lower : `application/${lower}`;
}

/** Request options for oauth4webapi: a timeout, the configured fetch, plain HTTP only for a loopback issuer. */
export function requestOptions<M, B>(settings: VerifierSettings): oauth.HttpRequestOptions<M, B> {
  return {
    signal: () => AbortSignal.timeout(settings.timeoutMs),
    [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<M, B>) =>
      settings.fetch(url, init as RequestInit),
    ...(settings.issuer.protocol === "http:" && { [oauth.allowInsecureRequests]: true }),
  };
}

/**
 * Refuses a token issued in the future: `iat` (when present, a number — jose and oauth4webapi
 * check its type) more than `clockTolerance` seconds after now (RFC 7519 §4.1.6, RFC 9068 §4: the
 * resource server may reject tokens whose `iat` is unreasonable).
 * @throws OAuthError `invalid_token` "The token was issued in the future".
 */
export function checkIssuedAt(claims: JWTPayload, settings: VerifierSettings): void {
  if (typeof claims.iat === "number" && claims.iat - settings.clockTolerance > Date.now() / 1000) {
    throw new OAuthError(OAuthErrorCode.InvalidToken, "The token was issued in the future");
  }
}

/**
 * The `AuthInfo` of verified claims: `clientId` from `client_id` (RFC 9068 §2.2, RFC 7662), else
 * `azp` (read only where `client_id` may be missing: introspection, or `optionalClaims:
 * ["client_id"]`), else `""`; `scopes` from `scope` (space-separated) or an `scp` array;
 * `expiresAt` from `exp`; `resource` the configured resource identifier; `extra.subject` (`sub`),
 * `extra.issuer` (`iss`), `extra.claims` (every claim) and `extra.owner`, the caller the token
 * stands for (caller.ts, docs/security.md "Callers"): issuer + `sub` + `client_id` for a JWT access
 * token (RFC 9068 §2.2; a `sub` the issuer is declared to omit counts as `""`), issuer + (`sub` ??
 * `client_id`) for an introspected one (RFC 7662 makes both optional).
 */
export function authInfoOf(
  token: string,
  claims: JWTPayload,
  settings: VerifierSettings,
  via: "jwt" | "introspection",
): AuthInfo {
  const scope = claims["scope"];
  const scp = claims["scp"];
  const scopes =
    typeof scope === "string"
      ? scope.split(" ").filter((s) => s !== "")
      : Array.isArray(scp)
        ? scp.filter((s): s is string => typeof s === "string")
        : [];
  const clientId =
    typeof claims["client_id"] === "string"
      ? claims["client_id"]
      : typeof claims["azp"] === "string"
        ? claims["azp"]
        : "";
  const issuer = claims.iss ?? settings.issuer.href;
  const subject = typeof claims.sub === "string" ? claims.sub : undefined;
  // Introspection: the subject, else the client, each tagged, so a user whose `sub` equals a client's id is not that client's caller.
  const owner =
    via === "jwt"
      ? [issuer, subject ?? "", clientId]
      : [issuer, subject !== undefined ? `sub:${subject}` : `client:${clientId}`];
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

/** The message of a thrown value, for the server-side cause of a 503. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
