/**
 * The `Origin` rule of `server.fetch` on every runtime (and so of `serveHttp`, which serves
 * through it): MCP Streamable HTTP, "Security Warning" (2025-06-18 and later): "Servers MUST
 * validate the `Origin` header on all incoming connections to prevent DNS rebinding attacks";
 * "If the `Origin` header is present and invalid, servers MUST respond with HTTP 403 Forbidden.
 * The HTTP response body MAY comprise a JSON-RPC error response that has no `id`."
 * docs/security.md "Origin".
 *
 * - No `Origin` header (non-browser clients send none): served.
 * - `McpServerOptions.allowedOrigins` given: the `Origin` must be one of them — an origin as a
 *   browser sends it (RFC 6454 §6.2: `scheme://host[:port]`, the default port left out), compared
 *   exactly: a header that is not itself such a serialization (a trailing `/`, upper case, user
 *   info) matches no entry.
 * - Unset: same host only — the `Origin`'s hostname must equal the request URL's (scheme and
 *   port are not compared, so a TLS-terminating proxy or a dev server on another port is the same
 *   host; on Workers the request URL is the deployment's own).
 * - Anything else, an unparsable value and the opaque origin `null` included: HTTP 403 with
 *   `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Forbidden: Origin <origin> is not allowed
 *   (McpServerOptions.allowedOrigins)"},"id":null}` — the code and shape the SDK's own Origin
 *   and Host guards answer (`originValidationResponse`); the echoed value cut by `cutEchoed`.
 *
 * @module
 */
import { cutEchoed } from "../codegen-support/argument-errors.js";

/**
 * Checks `allowedOrigins` as the `McpServer` constructor does and returns them as RFC 6454
 * serializations (`new URL(entry).origin`: scheme and host lower-cased, the default port dropped).
 *
 * @throws TypeError when it is not an array of strings.
 * @throws RangeError for an entry that is not an origin (a path, query or fragment; no scheme or
 *   host; an opaque origin), naming it.
 */
export function checkAllowedOrigins(allowedOrigins: unknown): ReadonlySet<string> | undefined {
  if (allowedOrigins === undefined) return undefined;
  if (!Array.isArray(allowedOrigins) || !allowedOrigins.every((o) => typeof o === "string")) {
    throw new TypeError(
      `allowedOrigins must be an array of origins such as "https://app.example.com", got ${typeof allowedOrigins}`,
    );
  }
  const origins = new Set<string>();
  for (const entry of allowedOrigins as string[]) {
    const origin = bareOrigin(entry);
    if (origin === undefined) {
      throw new RangeError(
        `allowedOrigins: ${JSON.stringify(cutEchoed(entry))} is not an origin; write scheme://host[:port] with nothing after it, e.g. "https://app.example.com"`,
      );
    }
    origins.add(origin);
  }
  return origins;
}

/** The origin `text` names when it is nothing but an origin (no user info, path, query or fragment), else `undefined`. */
function bareOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const bare =
    url.pathname === "/" &&
    url.search === "" &&
    url.hash === "" &&
    url.username === "" &&
    url.password === "" &&
    !text.endsWith("?") &&
    !text.endsWith("#");
  return bare && url.origin !== "null" ? url.origin : undefined;
}

/** The RFC 6454 serialization of `text` parsed as a URL, or `undefined` when it is not a URL with a tuple origin. */
function originOf(text: string): string | undefined {
  try {
    const origin = new URL(text).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The 403 answer for `request` when its `Origin` is not allowed (see the module comment), or
 * `undefined` when the request may be served.
 *
 * @param request The incoming request (`request.url` is the URL it was sent to).
 * @param allowed The checked `allowedOrigins` ({@link checkAllowedOrigins}), `undefined` for the same-host default.
 */
export function originRefusal(request: Request, allowed: ReadonlySet<string> | undefined): Response | undefined {
  const header = request.headers.get("origin");
  if (header === null || header === "") return undefined;
  const origin = originOf(header);
  if (origin !== undefined) {
    // A listed origin matches only the RFC 6454 serialization browsers send (no path, user info,
    // upper case: `https://APP.example.com/` is not `https://app.example.com`); the same-host
    // default compares hostnames, which URL parsing lower-cases.
    if (
      allowed !== undefined
        ? origin === header && allowed.has(origin)
        : new URL(origin).hostname === new URL(request.url).hostname
    )
      return undefined;
  }
  const body = {
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message: `Forbidden: Origin ${cutEchoed(header)} is not allowed (McpServerOptions.allowedOrigins)`,
    },
    id: null,
  };
  return new Response(JSON.stringify(body), { status: 403, headers: { "content-type": "application/json" } });
}

/**
 * Whether `hostname` is a loopback name: `localhost`, `127.0.0.0/8` or `::1` (bracketed or not).
 * Used by `serveHttp`'s default DNS-rebinding allow list and by `nextHandler`, which takes a
 * request's host from its `Host` header only when it names one.
 */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || h === "::1" || h === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(h);
}
