/**
 * RFC 7662 token introspection through `oauth4webapi` (docs/auth.md "What is verified where",
 * "Introspection cache"): the introspection endpoint is asked about a token, its answer checked
 * (`active`, `iss`, `aud`, `exp`, `nbf`, `iat`) — and an active answer reused until the token's
 * `exp`, at most `introspectionCacheMaxAgeSeconds`, so a revoked token is refused at the latest
 * that long after its revocation. The cache holds at most `introspectionCacheMaxEntries` answers
 * (default 10,000; the oldest is evicted) and is keyed by the SHA-256 of the token (Web Crypto): no
 * raw token is kept.
 *
 * @module
 */
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { JWTPayload } from "jose";
import * as oauth from "oauth4webapi";
import { AuthUnavailableError, authInfoOf, checkIssuedAt, messageOf, requestOptions } from "./token.js";
import type { VerifierSettings } from "./token.js";

/** An active introspection answer kept until `until` (milliseconds since the epoch). */
interface Cached {
  answer: oauth.IntrospectionResponse;
  until: number;
}

/**
 * The introspecting verifier of `settings` (with `settings.introspection` set): resolves to the
 * token's `AuthInfo` (auth/token.ts `authInfoOf`).
 * @throws OAuthError `invalid_token` for an inactive, foreign, expired or not-yet-valid token;
 *   {@link AuthUnavailableError} when the introspection endpoint fails, times out or is not published.
 */
export function createIntrospector(
  settings: VerifierSettings,
  credentials: { clientId: string; clientSecret: string },
): (as: oauth.AuthorizationServer, token: string) => Promise<AuthInfo> {
  const cache = new Map<string, Cached>();
  return async (as, token) => {
    const key =
      settings.introspectionCacheMaxAgeMs > 0 && settings.introspectionCacheMaxEntries > 0
        ? await tokenDigest(token)
        : undefined;
    const hit = key === undefined ? undefined : cache.get(key);
    const fresh = hit !== undefined && Date.now() < hit.until;
    if (hit !== undefined && !fresh) cache.delete(key!);
    const answer = fresh ? hit.answer : await askEndpoint(settings, credentials, as, token);
    checkAnswer(answer, as, settings);
    if (key !== undefined && !fresh) remember(cache, key, answer, settings);
    return authInfoOf(token, answer as JWTPayload, settings, "introspection");
  };
}

/** The SHA-256 of `token`, hex (the cache key: the token itself is never kept). */
async function tokenDigest(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Keeps a checked, active answer until its `exp` or `introspectionCacheMaxAgeMs` from now,
 * whichever is first; past `introspectionCacheMaxEntries` answers the oldest (first stored) is evicted.
 */
function remember(
  cache: Map<string, Cached>,
  key: string,
  answer: oauth.IntrospectionResponse,
  settings: VerifierSettings,
): void {
  cache.set(key, {
    answer,
    until: Math.min(Date.now() + settings.introspectionCacheMaxAgeMs, (answer.exp as number) * 1000),
  });
  while (cache.size > settings.introspectionCacheMaxEntries) cache.delete(cache.keys().next().value!);
}

/** One RFC 7662 request (`client_secret_basic`); any failure of the endpoint is {@link AuthUnavailableError}. */
async function askEndpoint(
  settings: VerifierSettings,
  credentials: { clientId: string; clientSecret: string },
  as: oauth.AuthorizationServer,
  token: string,
): Promise<oauth.IntrospectionResponse> {
  if (as.introspection_endpoint === undefined)
    throw new AuthUnavailableError(
      `The authorization server ${settings.issuer.href} publishes no introspection_endpoint.`,
    );
  const client = { client_id: credentials.clientId };
  try {
    const response = await oauth.introspectionRequest(
      as,
      client,
      oauth.ClientSecretBasic(credentials.clientSecret),
      token,
      requestOptions<"POST", URLSearchParams>(settings),
    );
    return await oauth.processIntrospectionResponse(as, client, response);
  } catch (error) {
    throw new AuthUnavailableError(`Token introspection at ${as.introspection_endpoint} failed: ${messageOf(error)}`);
  }
}

/**
 * RFC 7662 §2.2: `active`, then `iss` (when given) equal to the issuer, `aud` naming the resource,
 * `exp` present and not passed, `nbf` and `iat` within the clock tolerance. Run on every use, also
 * of a cached answer (its `exp` may have passed since).
 * @throws OAuthError `invalid_token` naming the failed check.
 */
function checkAnswer(
  answer: oauth.IntrospectionResponse,
  as: oauth.AuthorizationServer,
  settings: VerifierSettings,
): void {
  if (!answer.active) throw new OAuthError(OAuthErrorCode.InvalidToken, "The token is not active");
  if (answer.iss !== undefined && answer.iss !== as.issuer)
    throw new OAuthError(OAuthErrorCode.InvalidToken, "The token was issued by another authorization server");
  const aud = answer.aud === undefined ? [] : Array.isArray(answer.aud) ? answer.aud : [answer.aud];
  if (!aud.some((a) => settings.audiences.includes(a)))
    throw new OAuthError(OAuthErrorCode.InvalidToken, "The token was not issued for this resource");
  const now = Date.now() / 1000;
  if (typeof answer.exp !== "number")
    throw new OAuthError(OAuthErrorCode.InvalidToken, "The token has no expiration time");
  if (answer.exp + settings.clockTolerance <= now)
    throw new OAuthError(OAuthErrorCode.InvalidToken, "The token has expired");
  if (typeof answer.nbf === "number" && answer.nbf - settings.clockTolerance > now)
    throw new OAuthError(OAuthErrorCode.InvalidToken, "The token is not valid yet");
  checkIssuedAt(answer as JWTPayload, settings);
}
