/**
 * JWT access tokens (RFC 9068) against the issuer's JWKS, through `jose` (docs/auth.md "What is
 * verified where"): the signature (asymmetric algorithms only, RFC 8725 §3.1), the key chosen by
 * `kid` or — without one — each JWKS key of the token's `kty`/`alg` in turn, `iss`, `aud`, `exp`,
 * `nbf`, `iat`, the `typ` header (`at+jwt`, RFC 9068 §4 and RFC 8725 §3.11) and the claims RFC 9068
 * §2.2 requires (`sub`, `client_id`). A JWKS that cannot be fetched or read is
 * {@link AuthUnavailableError} (503), never a token error.
 *
 * @module
 */
import { OAuthError, OAuthErrorCode } from "@modelcontextprotocol/server";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { cutEchoed } from "../codegen-support/argument-errors.js";
import { createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify } from "jose";
import type { JWTPayload, JWTVerifyGetKey, JWTVerifyOptions, JWTVerifyResult } from "jose";
import { AuthUnavailableError, authInfoOf, checkIssuedAt, mediaType, messageOf } from "./token.js";
import type { VerifierSettings } from "./token.js";

/** JWS algorithms accepted for access tokens: asymmetric only (`none` and HMAC are refused, so no algorithm confusion). */
const ACCEPTED_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

/** The `typ` every RFC 9068 access token carries (§2.1), as {@link mediaType} gives it. */
export const ACCESS_TOKEN_TYPE = "application/at+jwt";

/**
 * The issuer's JWKS at `uri` as a jose key getter: cached for `jwksCacheMaxAgeMs`, fetched again
 * at once (at most every 30 s) when a token names an unknown `kid` — key rotation. Whatever
 * fetching or reading the set throws (a refused connection, a timeout, a status other than 200,
 * a body that is not JSON or not a JWK Set, a key that cannot be imported) becomes
 * {@link AuthUnavailableError}; what says the token names no single key (`JWKSNoMatchingKey`,
 * `JWKSMultipleMatchingKeys`) is passed on as jose threw it. (The token's `alg` is checked against
 * {@link ACCEPTED_ALGORITHMS} before the getter is called, so nothing else here is the token's fault.)
 */
export function remoteKeys(uri: string, settings: VerifierSettings): JWTVerifyGetKey {
  const remote = createRemoteJWKSet(new URL(uri), {
    cacheMaxAge: settings.jwksCacheMaxAgeMs,
    cooldownDuration: Math.min(30_000, settings.jwksCacheMaxAgeMs),
    timeoutDuration: settings.timeoutMs,
    [customFetch]: settings.fetch,
  });
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWKSMultipleMatchingKeys)
        throw error;
      throw new AuthUnavailableError(
        `The authorization server's JWKS at ${uri} could not be used: ${messageOf(error)}`,
      );
    }
  };
}

/**
 * Verifies `token` as an RFC 9068 access token of `issuer` for `settings.audiences`, its key from
 * `keys` ({@link remoteKeys}), and returns its `AuthInfo` (auth/token.ts `authInfoOf`).
 * @throws OAuthError `invalid_token` for a bad token (the description says which check failed and,
 *   for `typ`, `sub` and `client_id`, which option accepts the issuer's own practice);
 *   {@link AuthUnavailableError} when the JWKS cannot be used.
 */
export async function verifyJwt(
  token: string,
  issuer: string,
  keys: JWTVerifyGetKey,
  settings: VerifierSettings,
): Promise<AuthInfo> {
  const options: JWTVerifyOptions = {
    issuer,
    audience: settings.audiences,
    algorithms: ACCEPTED_ALGORITHMS,
    clockTolerance: settings.clockTolerance,
    requiredClaims: [
      "exp",
      ...(["iat", "sub", "client_id"] as const).filter((claim) => !settings.optionalClaims.has(claim)),
    ],
  };
  let verified: JWTVerifyResult;
  try {
    verified = await jwtVerify(token, keys, options).catch((error: unknown) => eachCandidate(token, error, options));
  } catch (error) {
    throw tokenError(error);
  }
  checkTokenType(verified.protectedHeader.typ, settings);
  checkIssuedAt(verified.payload, settings);
  checkClaimTypes(verified.payload);
  return authInfoOf(token, verified.payload, settings, "jwt");
}

/**
 * A token without `kid` when the JWKS holds several keys of its `kty`/`alg` (normal during key
 * rotation): jose throws `JWKSMultipleMatchingKeys`, an async iterable of the candidate keys, and
 * documents verifying with each in turn (jose docs, `createRemoteJWKSet`). The first whose
 * signature checks wins; when none does, the signature is not valid. Any other error is rethrown.
 */
async function eachCandidate(token: string, error: unknown, options: JWTVerifyOptions): Promise<JWTVerifyResult> {
  if (!(error instanceof joseErrors.JWKSMultipleMatchingKeys)) throw error;
  for await (const key of error) {
    try {
      return await jwtVerify(token, key, options);
    } catch (inner) {
      if (inner instanceof joseErrors.JWSSignatureVerificationFailed) continue;
      throw inner;
    }
  }
  throw new joseErrors.JWSSignatureVerificationFailed();
}

/**
 * RFC 9068 §4: the `typ` header must be `at+jwt` (`application/at+jwt`, compared as a media type),
 * so that an ID token or another JWT of the same issuer is not taken for an access token (RFC 8725
 * §3.11) — unless the issuer is declared to send another value, or none (`acceptTokenTypes`).
 * @throws OAuthError `invalid_token` naming the value found and the option.
 */
function checkTokenType(typ: unknown, settings: VerifierSettings): void {
  const type = typeof typ === "string" ? mediaType(typ) : typ === undefined ? null : undefined;
  if (type !== undefined && settings.tokenTypes.has(type)) return;
  const quoted = typeof typ === "string" ? `'${cutEchoed(typ)}'` : undefined;
  const found =
    typ === undefined ? "The token has no typ header" : `The token's typ header is ${quoted ?? "not a string"}`;
  const accept = quoted ?? (typ === undefined ? "null" : undefined);
  throw new OAuthError(
    OAuthErrorCode.InvalidToken,
    `${found}, not at+jwt (RFC 9068 section 4)${accept === undefined ? "" : `; if the issuer sends that, accept it with oauth({ acceptTokenTypes: [${accept}] })`}`,
  );
}

/**
 * `sub` and `client_id`, when present, are non-empty strings (RFC 7519 §4.1.2, RFC 9068 §2.2):
 * anything else — an empty one included, which would silently make every such token one caller
 * with the tokens that omit the claim — would blur the owner.
 */
function checkClaimTypes(claims: JWTPayload): void {
  for (const claim of ["sub", "client_id"]) {
    if (claims[claim] !== undefined && (typeof claims[claim] !== "string" || claims[claim] === ""))
      throw new OAuthError(OAuthErrorCode.InvalidToken, `The token's ${claim} claim is not a non-empty string`);
  }
}

/**
 * Maps a jose failure to the answer: a bad token (signature, algorithm, `iss`, `aud`, `exp`,
 * `nbf`, a missing claim, malformed) → `OAuthError` `invalid_token` with the reason; an
 * {@link AuthUnavailableError} of {@link remoteKeys} as it is.
 */
function tokenError(error: unknown): Error {
  if (error instanceof AuthUnavailableError) return error;
  if (error instanceof joseErrors.JWTExpired)
    return new OAuthError(OAuthErrorCode.InvalidToken, "The token has expired");
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    const missing = error.reason === "missing" ? MISSING_CLAIM_ERRORS[error.claim] : undefined;
    // "invalid": the claim is of the wrong type (RFC 7519 §2 NumericDate), not a failed time check.
    const invalid = error.reason === "invalid" ? `The token's ${error.claim} claim is not a NumericDate` : undefined;
    return new OAuthError(
      OAuthErrorCode.InvalidToken,
      missing ?? invalid ?? CLAIM_ERRORS[error.claim] ?? "The token's claims are not valid",
    );
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey)
    return new OAuthError(OAuthErrorCode.InvalidToken, "The token is not signed by a key of the authorization server");
  if (error instanceof joseErrors.JOSEAlgNotAllowed)
    return new OAuthError(OAuthErrorCode.InvalidToken, "The token's signature algorithm is not accepted");
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return new OAuthError(OAuthErrorCode.InvalidToken, "The token's signature is not valid");
  if (error instanceof joseErrors.JOSEError)
    return new OAuthError(OAuthErrorCode.InvalidToken, "The token is not a valid JWT");
  return new AuthUnavailableError(`The authorization server's JWKS could not be used: ${messageOf(error)}`);
}

/** The answer when a claim check fails (RFC 7519 §4.1; RFC 8707 for `aud`). */
const CLAIM_ERRORS: Record<string, string> = {
  aud: "The token was not issued for this resource",
  iss: "The token was issued by another authorization server",
  nbf: "The token is not valid yet",
  iat: "The token was issued in the future",
  exp: "The token has no expiration time",
};

/** The answer when a required claim is missing (RFC 9068 §2.2), naming the option for issuers that omit it. */
const MISSING_CLAIM_ERRORS: Record<string, string> = {
  exp: "The token has no expiration time",
  iat: "The token has no iat claim (RFC 9068 section 2.2 requires it); if the issuer omits it, set oauth({ optionalClaims: ['iat'] })",
  sub: "The token has no sub claim (RFC 9068 section 2.2 requires it); if the issuer omits it, set oauth({ optionalClaims: ['sub'] })",
  client_id:
    "The token has no client_id claim (RFC 9068 section 2.2 requires it); if the issuer omits it, set oauth({ optionalClaims: ['client_id'] })",
};
