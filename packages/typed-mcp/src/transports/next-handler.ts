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
 * @module
 */
import type { FetchOptions } from "./fetch-entry.js";
import { checkCors } from "./cors.js";

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

/** RFC 9728 §3.1's prefix of a protected resource's metadata path. */
const METADATA_PREFIX = "/.well-known/oauth-protected-resource";

/**
 * The request at the RFC 9728 well-known URL that `withTypedMcp`'s rewrite (`@typed-mcp/unplugin/next`)
 * sent to this route as `<route>?oauth-protected-resource=1`: a `GET`, `HEAD` or `OPTIONS` of
 * `/.well-known/oauth-protected-resource<route>`, which the server's auth gate answers with the
 * document. `undefined` for every other request (served as it came).
 */
function metadataRequest(request: Request): Request | undefined {
  if (!["GET", "HEAD", "OPTIONS"].includes(request.method)) return undefined;
  const url = new URL(request.url);
  if (!url.searchParams.has("oauth-protected-resource")) return undefined;
  url.searchParams.delete("oauth-protected-resource");
  if (!url.pathname.startsWith(`${METADATA_PREFIX}/`)) url.pathname = `${METADATA_PREFIX}${url.pathname}`;
  return new Request(url, { method: request.method, headers: request.headers });
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
  const handler: RouteHandler = (request) => server.fetch(metadataRequest(request) ?? request, options);
  return { GET: handler, POST: handler, DELETE: handler, OPTIONS: handler, HEAD: handler };
}
