/**
 * Folder `auth/`: the OAuth 2.1 resource server (docs/auth.md) — the gate (this file), the `auth`
 * option's contract with `McpServer`, token verification (JWT, introspection), token parsing, and
 * scopes.
 *
 * The OAuth 2.1 resource server in front of `server.fetch` (MCP 2025-06-18 and later,
 * "Authorization"; docs/auth.md): RFC 9728 protected resource metadata, RFC 6750 bearer
 * tokens with `WWW-Authenticate` challenges, RFC 8707 audience-bound tokens, and per-tool,
 * per-resource and per-prompt scopes. The protocol parts are the SDK's
 * (`verifyBearerToken`, `bearerAuthChallengeResponse`, `oauthMetadataResponse`,
 * `buildOAuthProtectedResourceMetadata`); tokens are verified in auth/verify.ts (jose,
 * oauth4webapi). stdio never passes through here (MCP: stdio servers take credentials from the
 * environment).
 *
 * The `typed-mcp/auth` entry: `auth: oauth({ issuer, audience, … })`. Only servers that import it
 * bundle this module, auth/verify.ts, jose and oauth4webapi (docs/runtimes.md "Bundle size").
 *
 * @module
 */
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  oauthMetadataResponse,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import type { AuthInfo, AuthMetadataOptions, OAuthMetadata, OAuthTokenVerifier } from "@modelcontextprotocol/server";
import { SCOPE_TOKEN } from "@typed-mcp/model";
import { ACCESS_TOKEN_TYPE, AuthUnavailableError, createVerifier } from "./verify.js";
import { mediaType } from "./token.js";
import type { OptionalClaim } from "./token.js";
import { mayUse, missingScopes, requiredScopes } from "./scopes.js";
import { readJsonBody } from "../transports/request-body.js";
import { isStateless } from "../protocol/revisions.js";
import { MAX_TIMER_DELAY_MS } from "../protocol/timers.js";
import type { ScopeSource } from "./scopes.js";
import type { AuthHandler, GatedServe, ServerAuth } from "./option.js";

export { AuthUnavailableError };
export type { OptionalClaim, ServerAuth };

/**
 * The `auth` option of `McpServer` (docs/auth.md): `new McpServer({ …, auth: oauth({ issuer,
 * audience }) })` makes the server an OAuth 2.1 resource server (MCP 2025-06-18 and later,
 * "Authorization"). The options are checked when the server is made (see {@link AuthGate}'s
 * constructor for what is thrown); nothing is fetched until the first request.
 * @param options The resource server's options ({@link AuthOptions}).
 */
export function oauth(options: AuthOptions): ServerAuth {
  return { gate: (source) => new AuthGate(options, source) };
}

/**
 * The options of {@link oauth} (docs/auth.md "The `auth` option"): make every HTTP request (`server.fetch` on
 * every runtime, and `serveHttp`) need a valid bearer access token for this resource.
 */
export interface AuthOptions {
  /**
   * The authorization server's issuer identifier (RFC 8414 §2 `issuer`, e.g.
   * `https://auth.example.com`). Its metadata is discovered from
   * `/.well-known/oauth-authorization-server`, else `/.well-known/openid-configuration`. Must be
   * `https` except on `localhost` / `127.0.0.1`.
   */
  issuer: string | URL;
  /**
   * This server's resource identifier (RFC 8707 §2, RFC 9728 `resource`): its public MCP URL,
   * e.g. `https://mcp.example.com/mcp`. Tokens must name it in `aud` (compared without a
   * fragment and ignoring one trailing slash). It also places the metadata document:
   * `/.well-known/oauth-protected-resource/mcp` (and `/.well-known/oauth-protected-resource`).
   */
  audience: string | URL;
  /** Scopes every request needs (HTTP 403 `insufficient_scope` without them). Default: none. */
  scopes?: readonly string[];
  /**
   * RFC 9728 `scopes_supported`. Default: {@link scopes} with every `scopes` option of the
   * registered tools, resources and prompts, as the server is first asked for the document.
   */
  scopesSupported?: readonly string[];
  /** RFC 9728 `resource_name`. */
  resourceName?: string;
  /**
   * Verify tokens by RFC 7662 introspection at the issuer's `introspection_endpoint`,
   * authenticating as this client (`client_secret_basic`), instead of as JWTs against its JWKS.
   */
  introspection?: { clientId: string; clientSecret: string };
  /**
   * A verifier of your own (the SDK's `OAuthTokenVerifier`), replacing the JWT / introspection
   * verification. It must set `expiresAt` and `resource` (checked against `audience`) and throw
   * the SDK's `OAuthError` `invalid_token` for a bad token.
   */
  verify?: OAuthTokenVerifier;
  /**
   * `tools/list` leaves out the tools whose `scopes` the caller's token lacks (the answer then
   * depends on the caller: `cacheScope: "private"` on 2026-07-28). Default `false`: every tool is
   * listed, and calling one without its scopes is 403.
   */
  hideUnauthorizedTools?: boolean;
  /**
   * JWT `typ` header values accepted besides `at+jwt` (RFC 9068 §4 requires `at+jwt` or
   * `application/at+jwt`; RFC 8725 §3.11: it keeps an ID token or another JWT of the issuer from
   * being taken for an access token). List what your issuer sends when it is not `at+jwt`: e.g.
   * `["JWT"]`, and `null` for a token without `typ` (`[null]`, `["JWT", null]`). Compared as media
   * types: case-insensitive, `application/` optional. Default: none — any other `typ` is 401
   * `invalid_token` whose `error_description` names this option.
   * @throws TypeError (from the constructor) for a value that is neither a non-empty string nor `null`.
   */
  acceptTokenTypes?: readonly (string | null)[];
  /**
   * JWT access token claims your issuer leaves out although RFC 9068 §2.2 requires them: `"sub"`
   * (the caller's owner is then issuer + `""` + `client_id`: every token of one client is one
   * caller, docs/security.md "Callers") and/or `"client_id"` (`clientId` is then `azp` when given,
   * else `""`) and/or `"iat"`. Default: none — a token without any of them is 401 `invalid_token`
   * naming this option.
   * Introspected tokens (RFC 7662, where both are optional) are not affected.
   * @throws TypeError (from the constructor) for another value.
   */
  optionalClaims?: readonly OptionalClaim[];
  /**
   * With {@link introspection}: how long an active introspection answer is reused, in seconds —
   * never past the token's `exp`. A token revoked at the authorization server is refused at the
   * latest this long after (the revocation window). `0`: ask the endpoint on every request.
   * Default 60. Answers are keyed by the token's SHA-256 (no raw token is kept as a key).
   */
  introspectionCacheMaxAgeSeconds?: number;
  /**
   * With {@link introspection}: most introspection answers kept at once; past it the oldest is
   * evicted (and asked about again on its next use). A fraction is rounded down; `0`: none kept.
   * Default 10,000.
   */
  introspectionCacheMaxEntries?: number;
  /** Clock skew allowed on `nbf`/`iat`, in seconds (RFC 7519 §4.1.5). Default 30. `exp` itself is checked without skew. */
  clockToleranceSeconds?: number;
  /** How long the issuer's JWKS is cached, in seconds; a token with an unknown `kid` refetches it sooner (at most every 30 s). Default 600. */
  jwksCacheMaxAgeSeconds?: number;
  /** Longest wait for the authorization server (metadata, JWKS, introspection), in milliseconds, at most 2³¹ − 1 (the longest timer). Default 5000. */
  timeoutMs?: number;
  /** Longest `Authorization` header accepted, in bytes (longer: HTTP 431). Default 8192. */
  maxAuthorizationHeaderBytes?: number;
  /** The `fetch` used to reach the authorization server. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/** Where RFC 9728 puts the metadata of a resource whose path is `/`. */
const ROOT_METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * The resource-server gate of one `McpServer` (docs/auth.md "What is verified where"). Made by
 * the constructor; does no I/O until the first request (Workers forbid it at global scope).
 */
export class AuthGate implements AuthHandler {
  readonly #audience: URL;
  readonly #metadataUrl: string;
  readonly #metadata: Omit<AuthMetadataOptions, "scopesSupported">;
  readonly #options: AuthOptions;
  readonly #verifier: OAuthTokenVerifier;
  readonly #source: ScopeSource;
  readonly #maxHeader: number;

  /**
   * @param options The `auth` option.
   * @param source The scopes the registered tools, resources and prompts need.
   * @throws TypeError when `issuer` or `audience` is not an absolute URL, `audience` has a
   *   fragment, a number option is not positive (or `timeoutMs` above 2³¹ − 1 ms), a scope is not an RFC 6749 §3.3 scope token, or
   *   `acceptTokenTypes` / `optionalClaims` holds a value they do not take;
   *   Error (the SDK's) when the issuer is plain `http` on a host other than `localhost`/`127.0.0.1`.
   */
  constructor(options: AuthOptions, source: ScopeSource) {
    const issuer = absoluteUrl(options.issuer, "auth.issuer");
    this.#audience = absoluteUrl(options.audience, "auth.audience");
    if (this.#audience.hash !== "")
      throw new TypeError(`auth.audience must not have a fragment (RFC 8707 §2), got ${this.#audience.href}`);
    for (const scope of [...(options.scopes ?? []), ...(options.scopesSupported ?? [])])
      checkScopeToken(scope, "auth.scopes");
    this.#options = options;
    this.#source = source;
    this.#metadataUrl = getOAuthProtectedResourceMetadataUrl(this.#audience);
    // Only `issuer` is read for the protected resource document (the authorization server's own document is not served here).
    // RFC 8414 §3.3 / RFC 9728 §3: issuer identifiers are compared as strings, so the one configured is used exactly as written.
    const issuerId = typeof options.issuer === "string" ? options.issuer : options.issuer.href;
    this.#metadata = {
      oauthMetadata: { issuer: issuerId } as OAuthMetadata,
      resourceServerUrl: this.#audience,
      ...(options.resourceName !== undefined && { resourceName: options.resourceName }),
    };
    buildOAuthProtectedResourceMetadata(this.#metadata); // fail fast on an insecure issuer
    this.#maxHeader = positive(options.maxAuthorizationHeaderBytes, 8192, "auth.maxAuthorizationHeaderBytes");
    // AbortSignal.timeout and jose's timeoutDuration are setTimeout: a longer delay would fire after 1 ms (timers.ts).
    if (typeof options.timeoutMs === "number" && options.timeoutMs > MAX_TIMER_DELAY_MS)
      throw new TypeError(
        `auth.timeoutMs must be at most ${MAX_TIMER_DELAY_MS} ms (the longest timer), got ${options.timeoutMs}`,
      );
    const href = this.#audience.href;
    this.#verifier =
      options.verify ??
      createVerifier({
        issuer,
        audiences: href.endsWith("/") ? [href, href.slice(0, -1)] : [href, `${href}/`],
        clockTolerance: positive(options.clockToleranceSeconds, 30, "auth.clockToleranceSeconds", true),
        jwksCacheMaxAgeMs: positive(options.jwksCacheMaxAgeSeconds, 600, "auth.jwksCacheMaxAgeSeconds") * 1000,
        timeoutMs: positive(options.timeoutMs, 5000, "auth.timeoutMs"),
        tokenTypes: tokenTypes(options.acceptTokenTypes),
        optionalClaims: optionalClaims(options.optionalClaims),
        ...(options.introspection !== undefined && { introspection: options.introspection }),
        introspectionCacheMaxAgeMs:
          positive(options.introspectionCacheMaxAgeSeconds, 60, "auth.introspectionCacheMaxAgeSeconds", true) * 1000,
        introspectionCacheMaxEntries: Math.floor(
          positive(options.introspectionCacheMaxEntries, 10_000, "auth.introspectionCacheMaxEntries", true),
        ),
        fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      });
  }

  /**
   * The `tools/list` result for a caller: every tool; with {@link AuthOptions.hideUnauthorizedTools}
   * and a verified caller, only the tools whose `scopes` its token carries, and on 2026-07-28
   * `cacheScope: "private"` (the answer depends on the caller; docs/mapping.md §11).
   */
  listTools<T extends { name: string }>(
    tools: T[],
    authInfo: AuthInfo | undefined,
    protocolVersion: string,
  ): { tools: T[]; cacheScope?: "private" } {
    if (this.#options.hideUnauthorizedTools !== true || authInfo === undefined) return { tools };
    const visible = tools.filter((t) => mayUse(this.#source.toolScopes(t.name), authInfo));
    return { tools: visible, ...(isStateless(protocolVersion) && { cacheScope: "private" as const }) };
  }

  /**
   * Answers one HTTP request: the RFC 9728 document on its well-known paths (no token needed);
   * 400 `invalid_request` for a token in the query string (MCP "Access tokens MUST NOT be included
   * in the URI query string", RFC 6750 §2.3); 431 for an oversized `Authorization` header; 401
   * with `WWW-Authenticate: Bearer resource_metadata="…"` and no `error` for a request without a
   * bearer token (RFC 6750 §3.1, {@link noTokenChallenge}); 401 `invalid_token` with
   * `WWW-Authenticate: Bearer error="invalid_token", … resource_metadata="…"` for a bad token;
   * 503 `temporarily_unavailable` when the authorization server cannot be reached (fail closed);
   * 403 `insufficient_scope` naming the missing scopes; else `serve` with the verified `authInfo`
   * and the JSON body, read at most `maxBodyBytes` bytes (`McpServerOptions.maxRequestBodySize`)
   * by request-body.ts `readJsonBody`, as `parsedBody` (a body it cannot take is passed on
   * replayed, for the SDK's own answer: 413, 400 `-32700`).
   */
  async handle(request: Request, serve: GatedServe, maxBodyBytes: number): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.replace(/(.)\/$/, "$1");
    if (path === ROOT_METADATA_PATH || path === new URL(this.#metadataUrl).pathname) {
      // The SDK serves the document (GET/HEAD, CORS preflight, 405) on the resource's path-suffixed path; the root form is the same document.
      return oauthMetadataResponse(new Request(this.#metadataUrl, request), {
        ...this.#metadata,
        scopesSupported: this.#scopesSupported(),
      })!;
    }
    const challenge = { requiredScopes: [...(this.#options.scopes ?? [])], resourceMetadataUrl: this.#metadataUrl };
    if (url.searchParams.has("access_token")) {
      return queryTokenRefusal(challenge);
    }
    const header = request.headers.get("authorization");
    if (header !== null && new TextEncoder().encode(header).length > this.#maxHeader) {
      const error = new OAuthError(
        OAuthErrorCode.InvalidRequest,
        `The Authorization header is longer than ${this.#maxHeader} bytes`,
      );
      return Response.json(error.toResponseObject(), { status: 431 });
    }
    if (header === null || !/^bearer(?: |$)/i.test(header)) return noTokenChallenge(challenge);
    let authInfo: AuthInfo;
    try {
      authInfo = await verifyBearerToken(header, {
        ...challenge,
        verifier: this.#verifier,
        expectedResource: this.#audience,
      });
    } catch (error) {
      if (error instanceof AuthUnavailableError) return unavailable();
      return bearerAuthChallengeResponse(error, challenge);
    }
    // Read once, within the body limit (request-body.ts): the SDK's handler gets it as `parsedBody`.
    const read = await readJsonBody(request, maxBodyBytes);
    const body = "parsedBody" in read ? { value: read.parsedBody } : undefined;
    const missing = body === undefined ? undefined : missingScopes(requiredScopes(body.value, this.#source), authInfo);
    if (missing !== undefined) {
      const error = new OAuthError(
        OAuthErrorCode.InsufficientScope,
        `${missing.what} needs the scope ${missing.scopes.join(" ")}`,
      );
      return bearerAuthChallengeResponse(error, {
        requiredScopes: [...new Set([...challenge.requiredScopes, ...missing.required])],
        resourceMetadataUrl: this.#metadataUrl,
      });
    }
    return serve(read.request, { authInfo, ...(body !== undefined && { parsedBody: body.value }) });
  }

  /** RFC 9728 `scopes_supported`: the option, else the global scopes with every registered `scopes` option (`undefined` when none). */
  #scopesSupported(): string[] | undefined {
    const all = this.#options.scopesSupported ?? [
      ...new Set([...(this.#options.scopes ?? []), ...this.#source.allScopes()]),
    ];
    return all.length > 0 ? [...all] : undefined;
  }
}

/** 503 with the OAuth error `temporarily_unavailable` and `Retry-After` (RFC 9110 §10.2.3); the cause stays on the server. */
function unavailable(): Response {
  const error = new OAuthError(
    OAuthErrorCode.TemporarilyUnavailable,
    "The authorization server cannot be reached; try again later",
  );
  return Response.json(error.toResponseObject(), { status: 503, headers: { "Retry-After": "30" } });
}

/**
 * RFC 6750 §3.1: "If the request lacks any authentication information (e.g., the client was
 * unaware that authentication is necessary or attempted using an unsupported authentication
 * method), the resource server SHOULD NOT include an error code or other error information" — a
 * request without an `Authorization` header, or with another scheme than `Bearer`, is answered 401
 * with `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 9728 §5.1), `scope="…"` first when
 * `auth.scopes` is set, and an empty body. Both values are quoted as they are: a serialized URL
 * and RFC 6749 §3.3 scope tokens hold no `"` or `\`.
 */
function noTokenChallenge(challenge: { requiredScopes: string[]; resourceMetadataUrl: string }): Response {
  const scope = challenge.requiredScopes.length > 0 ? `scope="${challenge.requiredScopes.join(" ")}", ` : "";
  return new Response(null, {
    status: 401,
    headers: { "WWW-Authenticate": `Bearer ${scope}resource_metadata="${challenge.resourceMetadataUrl}"` },
  });
}

/**
 * A token in the query string (RFC 6750 §2.3; MCP: MUST NOT be in the URI): 400 `invalid_request`
 * with the RFC 6749 JSON body and, as RFC 6750 §3 asks of every error answer, the Bearer challenge
 * `WWW-Authenticate: Bearer error="invalid_request", error_description="…", resource_metadata="…"`
 * (the SDK's `bearerAuthChallengeResponse` sends none for `invalid_request`).
 */
function queryTokenRefusal(challenge: { requiredScopes: string[]; resourceMetadataUrl: string }): Response {
  const error = new OAuthError(
    OAuthErrorCode.InvalidRequest,
    "Access tokens must be sent in the Authorization header, not the query string",
  );
  const scope = challenge.requiredScopes.length > 0 ? `, scope="${challenge.requiredScopes.join(" ")}"` : "";
  const header = `Bearer error="invalid_request", error_description="${error.message}"${scope}, resource_metadata="${challenge.resourceMetadataUrl}"`;
  return Response.json(error.toResponseObject(), { status: 400, headers: { "WWW-Authenticate": header } });
}

/** The accepted `typ` values ({@link AuthOptions.acceptTokenTypes}) with `at+jwt`, as media types. */
function tokenTypes(accepted: readonly (string | null)[] | undefined): Set<string | null> {
  const types = new Set<string | null>([ACCESS_TOKEN_TYPE]);
  for (const typ of accepted ?? []) {
    if (typ !== null && (typeof typ !== "string" || typ === ""))
      throw new TypeError(
        `auth.acceptTokenTypes takes typ header values (strings) and null (no typ), got ${JSON.stringify(typ) ?? String(typ)}`,
      );
    types.add(typ === null ? null : mediaType(typ));
  }
  return types;
}

/** {@link AuthOptions.optionalClaims}, checked. */
function optionalClaims(claims: readonly OptionalClaim[] | undefined): Set<OptionalClaim> {
  for (const claim of claims ?? []) {
    if (claim !== "sub" && claim !== "client_id" && claim !== "iat")
      throw new TypeError(
        `auth.optionalClaims takes "sub", "client_id" and "iat", got ${JSON.stringify(claim) ?? String(claim)}`,
      );
  }
  return new Set(claims);
}

function absoluteUrl(value: string | URL, option: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new TypeError(`${option} must be an absolute URL, got ${JSON.stringify(String(value))}`);
  }
}

function positive(value: number | undefined, fallback: number, option: string, zeroAllowed = false): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (!zeroAllowed && value === 0))
    throw new TypeError(
      `${option} must be a ${zeroAllowed ? "non-negative" : "positive"} number, got ${String(value)}`,
    );
  return value;
}

/** @throws TypeError unless `scope` is an RFC 6749 §3.3 scope token ({@link SCOPE_TOKEN}). */
function checkScopeToken(scope: string, option: string): void {
  if (typeof scope !== "string" || !SCOPE_TOKEN.test(scope))
    throw new TypeError(`${option}: ${JSON.stringify(scope)} is not an OAuth scope token (RFC 6749 §3.3)`);
}
