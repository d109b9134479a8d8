/**
 * `nextHandler(server, options?)`: the route handlers of a Next.js App Router route
 * (`app/api/mcp/route.ts`) in one line, on the Node.js and the edge runtime alike
 * (docs/nextjs.md "The route"):
 *
 * ```ts
 * export const { GET, POST, DELETE, OPTIONS, HEAD } = nextHandler(server, { cors: { origins: ["https://app.example.com"] } });
 * ```
 *
 * Each handler is `(request: Request) => Promise<Response>` serving `server.fetch(request,
 * options)`; Next.js's second argument (`{ params }`) is not passed on. Every method is the
 * server's to answer, as on every runtime: `POST` carries MCP; `GET`, `DELETE`, `HEAD` and
 * (without `cors`) `OPTIONS` get the SDK's HTTP 405 with `Allow: POST` (the server is
 * stateless); with `cors`, `OPTIONS` answers the preflight. A `GET`/`HEAD`/`OPTIONS` with the
 * query parameter `oauth-protected-resource` (what `withTypedMcp`'s rewrite of
 * `/.well-known/oauth-protected-resource/<route>` sends) is served as that well-known URL, so the
 * server's `auth` gate answers its RFC 9728 document (docs/nextjs.md "Auth").
 *
 * The server sees the URL the client sent the request to: the `Host` header's host when it is a
 * loopback one, and the app's `basePath` in front of the path (Next.js hands a route
 * `http://localhost:<port>` without it).
 * With a `basePath`, the document is served inside it and the 401/403 names it there.
 *
 * @module
 */
import type { FetchOptions } from "./fetch-entry.js";
import { checkCors } from "./cors.js";
import { isLoopback } from "./origin.js";

/** A route handler of the App Router: Next.js calls it with the web-standard `Request`. */
export type RouteHandler = (request: Request) => Promise<Response>;

/** The route handlers {@link nextHandler} returns, one per HTTP method Next.js routes. */
export interface NextRouteHandlers {
  GET: RouteHandler;
  POST: RouteHandler;
  DELETE: RouteHandler;
  OPTIONS: RouteHandler;
  HEAD: RouteHandler;
}

/**
 * Node.js's `process`, as far as {@link nextBasePath} reads it — declared here, not from
 * `@types/node`, because this module runs on the edge runtime and Workers too. The text must stay
 * `process.env.TYPED_MCP_NEXT_BASE_PATH`: that is what Next.js's `env` option replaces at build time.
 */
declare const process: { env: Record<string, string | undefined> };

/** RFC 9728 §3.1's prefix of a protected resource's metadata path. */
const METADATA_PREFIX = "/.well-known/oauth-protected-resource";

/**
 * The request at the RFC 9728 well-known URL that `withTypedMcp`'s rewrite (`@typed-mcp/unplugin/next`)
 * sent to this route: a `GET`, `HEAD` or `OPTIONS` that Next.js hands over either as
 * `<route>?oauth-protected-resource=1` (the rewrite's destination) or with the path it came with,
 * `<basePath>/.well-known/oauth-protected-resource<route>` (measured with a `basePath`: the query is
 * not passed on). Both become `/.well-known/oauth-protected-resource<basePath><route>`, the
 * document's path that the server's auth gate answers (RFC 9728 §3.1 of the resource
 * `<basePath><route>`). `undefined` for every other request (served as it came).
 *
 * @param request The request, its URL already the client's ({@link publicRequest}).
 * @param basePath The app's `basePath` ({@link nextBasePath}), `""` for none.
 */
function metadataRequest(request: Request, basePath: string): Request | undefined {
  if (!["GET", "HEAD", "OPTIONS"].includes(request.method)) return undefined;
  const url = new URL(request.url);
  const inApp = `${basePath}${METADATA_PREFIX}/`;
  if (url.pathname.startsWith(inApp)) {
    url.pathname = `${METADATA_PREFIX}${basePath}/${url.pathname.slice(inApp.length)}`;
  } else if (url.searchParams.has("oauth-protected-resource")) {
    if (!url.pathname.startsWith(`${METADATA_PREFIX}/`)) url.pathname = `${METADATA_PREFIX}${url.pathname}`;
  } else {
    return undefined;
  }
  url.searchParams.delete("oauth-protected-resource");
  return new Request(url, { method: request.method, headers: request.headers });
}

/**
 * The request with the URL the client sent it to. Under `next start` and `next dev`, Next.js
 * gives a route handler `request.url` as `http://localhost:<port><path>` whatever `Host` the client
 * named, and without the config's `basePath` (measured on Next.js 16.4.6: `Host: 127.0.0.1:3000`,
 * basePath `/base`, `GET /base/api/mcp` → `http://localhost:3000/api/mcp`). The server reads its
 * URL for the same-host `Origin` rule (a page at `http://127.0.0.1:3000` was refused HTTP 403)
 * and the auth gate's well-known path (which includes `basePath`): so the host is the `Host`
 * header's when that names a loopback host ({@link hostOf}) and the path
 * is prefixed with the app's `basePath` ({@link nextBasePath}). A request whose
 * URL already has both (a plain `Request`) is passed on as it came; a `Host` that is no
 * URL host keeps the URL's.
 */
function publicRequest(request: Request, basePath: string): Request {
  const url = new URL(request.url);
  const host = hostOf(request.headers.get("host"), url.protocol);
  const prefix = basePath !== "" && !url.pathname.startsWith(`${basePath}/`) ? basePath : "";
  if ((host === undefined || host === url.host) && prefix === "") return request;
  if (host !== undefined) url.host = host;
  url.pathname = `${prefix}${url.pathname}`;
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(hasBody && { body: request.body, duplex: "half" }),
  } as RequestInit);
}

/**
 * The app's `basePath`: `process.env.TYPED_MCP_NEXT_BASE_PATH`, which `withTypedMcp` sets through
 * Next.js's `env` option (inlined at build time in every bundle, edge included) — Next.js gives a
 * route handler no other way to know it (`request.nextUrl.basePath` is `""`, measured). `""` when
 * unset, outside Next.js, or where there is no `process` (Workers); a value that is no path prefix
 * (`/x`, no trailing `/`) is ignored.
 */
function nextBasePath(): string {
  let basePath: unknown;
  try {
    basePath = process.env.TYPED_MCP_NEXT_BASE_PATH;
  } catch {
    return "";
  }
  return typeof basePath === "string" && /^\/[^?#\s]*[^/?#\s]$/.test(basePath) ? basePath : "";
}

/**
 * With a `basePath`, Next.js serves nothing outside it, so the RFC 9728 §3.1 well-known URL of the
 * resource `https://host<basePath>/api/mcp` (`https://host/.well-known/oauth-protected-resource<basePath>/api/mcp`)
 * is a 404, and Next.js refuses a rewrite from there to the app. `withTypedMcp`'s rewrite serves the
 * document inside the app, at `https://host<basePath>/.well-known/oauth-protected-resource/api/mcp`;
 * this names that URL in the `resource_metadata` of a 401/403 answer's `WWW-Authenticate`
 * (RFC 9728 §5.1: the client fetches the document from there), so the official client's OAuth
 * discovery works. Every other answer is returned as it came.
 */
function withMovedMetadata(response: Response, basePath: string): Response {
  const header = response.headers.get("www-authenticate");
  if (basePath === "" || header === null) return response;
  const at = `/.well-known/oauth-protected-resource${basePath}/`;
  const moved = header.replace(
    /(resource_metadata="https?:\/\/[^/"]+)([^"]*)"/,
    (whole, origin: string, path: string) =>
      path.startsWith(at) ? `${origin}${basePath}${METADATA_PREFIX}/${path.slice(at.length)}"` : whole,
  );
  if (moved === header) return response;
  const headers = new Headers(response.headers);
  headers.set("www-authenticate", moved);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * `header` (a `Host` value) as a URL host (`hostname[:port]`, lower case) when it names a loopback
 * host (`127.0.0.1`, `[::1]`, `localhost`), `undefined` otherwise. Only those: for any other name
 * the URL keeps Next.js's `localhost`, so a DNS-rebinding page (`Host: evil.example`,
 * `Origin: http://evil.example`) stays refused by the same-host `Origin` rule, as `serveHttp`'s
 * `Host` check refuses it (docs/security.md "DNS-rebinding protection"); a public host behind a
 * proxy names its origins in `allowedOrigins`.
 */
function hostOf(header: string | null, protocol: string): string | undefined {
  if (header === null || header === "" || /[/?#@\\\s]/.test(header)) return undefined;
  try {
    const url = new URL(`${protocol}//${header}`);
    return isLoopback(url.hostname) ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The App Router route handlers serving `server` (see the module comment).
 *
 * @param server Anything with `server.fetch`'s signature (a typed-mcp `McpServer`).
 * @param options Passed to every `server.fetch` call: `cors`, `authInfo` (without the server's `auth`).
 * @returns `{ GET, POST, DELETE, OPTIONS, HEAD }`, all the same handler.
 * @throws TypeError / RangeError for an invalid `options.cors` (cors.ts).
 */
export function nextHandler(
  server: { fetch(request: Request, options?: FetchOptions): Promise<Response> },
  options?: FetchOptions,
): NextRouteHandlers {
  if (options?.cors !== undefined) checkCors(options.cors);
  const basePath = nextBasePath();
  const handler: RouteHandler = async (request) => {
    const sent = publicRequest(request, basePath);
    return withMovedMetadata(await server.fetch(metadataRequest(sent, basePath) ?? sent, options), basePath);
  };
  return { GET: handler, POST: handler, DELETE: handler, OPTIONS: handler, HEAD: handler };
}
