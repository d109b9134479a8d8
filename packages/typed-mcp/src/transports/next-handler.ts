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
 * stateless); with `cors`, `OPTIONS` answers the preflight.
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
  const handler: RouteHandler = (request) => server.fetch(request, options);
  return { GET: handler, POST: handler, DELETE: handler, OPTIONS: handler, HEAD: handler };
}
