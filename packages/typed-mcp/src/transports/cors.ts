/**
 * CORS for `server.fetch` (and so `serveHttp` and `nextHandler`, which serve through it): lets
 * a browser app on another origin call the MCP endpoint (docs/security.md "CORS"; Fetch
 * standard, "CORS protocol").
 *
 * - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is
 *   answered here, HTTP 204: `Access-Control-Allow-Origin` (the request's origin, or `*`),
 *   `Access-Control-Allow-Methods: GET, POST, DELETE, OPTIONS`, `Access-Control-Allow-Headers`
 *   (the requested ones MCP uses: `Content-Type`, `Accept`, `Authorization`, `Last-Event-ID`
 *   and every `Mcp-*` header such as `Mcp-Session-Id`, `Mcp-Protocol-Version`, `Mcp-Method`,
 *   `Mcp-Name`, `Mcp-Param-*`), `Access-Control-Max-Age` and `Vary: Origin`. A preflight from
 *   another origin gets HTTP 403 with the Origin refusal's JSON-RPC body (origin.ts).
 * - Every other answer to an allowed origin carries `Access-Control-Allow-Origin`,
 *   `Access-Control-Expose-Headers: Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate`
 *   (so the app can read the session id and the OAuth challenge) and `Vary: Origin`.
 * - An origin CORS allows also passes the `Origin` check (origin.ts): allowing it is the same
 *   decision. No `Access-Control-Allow-Credentials`: MCP authenticates with the `Authorization`
 *   header, never with cookies.
 *
 * @module
 */
import { checkAllowedOrigins, originRefusal } from "./origin.js";

/** The `cors` option of `server.fetch`, `serveHttp` and `nextHandler` (see the module comment). */
export interface CorsOptions {
  /**
   * The browser origins allowed to call (`scheme://host[:port]`, as `McpServerOptions.allowedOrigins`),
   * or `"*"` for any origin (a public server; answers `Access-Control-Allow-Origin: *`).
   */
  origins: readonly string[] | "*";
  /** Seconds a browser may cache a preflight's answer (`Access-Control-Max-Age`). Default `600`. */
  maxAgeSeconds?: number;
}

/** The response headers a browser script may read (`Access-Control-Expose-Headers`). */
const EXPOSED = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate";
const METHODS = "GET, POST, DELETE, OPTIONS";
/** The request headers a preflight is granted: MCP's own (`mcp-*`) and the ones its transport uses. */
const ALLOWED_HEADER = /^(?:content-type|accept|authorization|last-event-id|mcp-[a-z0-9-]+)$/;

/** A checked {@link CorsOptions}: the origins (`"*"` or a set of serializations) and the preflight max age. */
export interface CheckedCors {
  any: boolean;
  origins: ReadonlySet<string>;
  maxAge: string;
}

const checked = new WeakMap<CorsOptions, CheckedCors>();

/**
 * `cors` checked once per options object (`serveHttp` and `nextHandler` check it when called, so
 * a mistake fails at start-up rather than on the first request).
 * @throws TypeError / RangeError for origins that are not `"*"` or a list of origins (as
 *   `allowedOrigins`), or a `maxAgeSeconds` that is not a non-negative integer.
 */
export function checkCors(cors: CorsOptions): CheckedCors {
  let c = checked.get(cors);
  if (c) return c;
  const maxAge = cors.maxAgeSeconds ?? 600;
  if (!Number.isInteger(maxAge) || maxAge < 0)
    throw new RangeError(`cors.maxAgeSeconds must be a non-negative integer, got ${String(maxAge)}`);
  const any = cors.origins === "*";
  c = { any, origins: any ? new Set() : checkAllowedOrigins(cors.origins)!, maxAge: String(maxAge) };
  checked.set(cors, c);
  return c;
}

/** The `Access-Control-Allow-Origin` value for `request` under `c`, or `undefined` when its origin is not allowed (or it has none). */
function allowOrigin(request: Request, c: CheckedCors): string | undefined {
  const origin = request.headers.get("origin");
  if (origin === null || origin === "") return undefined;
  if (c.any) return "*";
  // The listed-origins rule of origin.ts: exact RFC 6454 serializations only.
  return originRefusal(request, c.origins) === undefined ? origin : undefined;
}

/**
 * Serves `request` with CORS (see the module comment): answers a preflight itself, lets an
 * allowed origin past the `Origin` check, and adds the CORS headers to `serve`'s answer.
 *
 * @param request The HTTP request.
 * @param cors The `cors` option; `undefined`: no CORS, `serve(true)` is the answer.
 * @param serve Serves the request; `checkOrigin` false when CORS allowed its origin already.
 * @throws TypeError / RangeError for an invalid `cors` option (see {@link checkCors}).
 */
export async function withCors(
  request: Request,
  cors: CorsOptions | undefined,
  serve: (checkOrigin: boolean) => Promise<Response>,
): Promise<Response> {
  if (cors === undefined) return serve(true);
  const c = checkCors(cors);
  const allowed = allowOrigin(request, c);
  if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
    if (allowed === undefined) return originRefusal(request, c.origins) ?? serve(true);
    const headers = new Headers({
      "access-control-allow-origin": allowed,
      "access-control-allow-methods": METHODS,
      "access-control-max-age": c.maxAge,
      vary: "Origin",
    });
    const asked = (request.headers.get("access-control-request-headers") ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter((h) => ALLOWED_HEADER.test(h));
    if (asked.length > 0) headers.set("access-control-allow-headers", asked.join(", "));
    return new Response(null, { status: 204, headers });
  }
  const answer = await serve(allowed === undefined);
  if (allowed === undefined) return answer;
  const headers = new Headers(answer.headers);
  headers.set("access-control-allow-origin", allowed);
  headers.set("access-control-expose-headers", EXPOSED);
  headers.append("vary", "Origin");
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}
