/**
 * Node HTTP transport (spec §0): `serveHttp(server, { port, hostname })` from `typed-mcp/node`,
 * serving `server.fetch` on `node:http` through the SDK's Node adapter (`@modelcontextprotocol/node`).
 *
 * @packageDocumentation
 */
import { createServer } from "node:http";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { hostHeaderValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { isLoopback } from "./origin.js";
import { checkRequestTarget, dropHopByHopHeaders, lingerAfter413 } from "./http-guards.js";
import type { McpServer } from "../server.js";
import { applyWriteTimeout } from "../streams/write-timeout.js";
import { checkCors, type CorsOptions } from "./cors.js";

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** TCP port; `0` (the default) picks a free one — read it from the result. */
  port?: number;
  /** Interface to listen on; default `"127.0.0.1"` (use `"0.0.0.0"` or `"::"` to accept remote clients). */
  hostname?: string;
  /**
   * @deprecated Set `McpServerOptions.maxRequestBodySize`, the one body limit that
   * `server.fetch` and `serveHttp` both honour. Given here, it must equal the server's (else
   * `serveHttp` throws a `RangeError`).
   */
  maxRequestBodySize?: number;
  /**
   * DNS-rebinding protection (MCP 2025-11-25 "Security Best Practices", Streamable HTTP
   * security warning): the hostnames (no port; IPv6 in brackets) a request's `Host` header may
   * name. Other requests are answered HTTP 403 with a JSON-RPC error and never reach the server.
   * Its `Origin` is checked by `server.fetch` (`McpServerOptions.allowedOrigins`, default same
   * host — so with this check an allowed host too). Default: `["localhost", "127.0.0.1", "[::1]"]`
   * when `hostname` is a loopback address or `localhost` (the default `127.0.0.1` is), else no
   * check. `false` turns the check off.
   */
  allowedHosts?: readonly string[] | false;
  /**
   * CORS for browser apps on other origins: `server.fetch`'s `cors` option (cors.ts, docs/security.md
   * "CORS"), passed on every request. Default: none.
   */
  cors?: CorsOptions;
}

/** A running HTTP server, as resolved by {@link serveHttp}. */
export interface HttpServerHandle {
  /** The port actually bound. */
  readonly port: number;
  /** The address actually bound, e.g. `"127.0.0.1"` or `"::1"`. */
  readonly hostname: string;
  /** `http://<hostname>:<port>/mcp` (MCP is served on every path; `/mcp` is the conventional one). */
  readonly url: URL;
  /** The underlying `node:http` server. */
  readonly httpServer: HttpServer;
  /** Stops accepting connections, closes open ones, and resolves once the server is closed. */
  close(): Promise<void>;
}

/**
 * Serves `server.fetch` (Streamable HTTP, every MCP revision the SDK serves) on Node's `http`.
 * MCP is answered on every path. On a loopback address (the default) requests whose `Host`
 * header names another host are refused with HTTP 403 (DNS-rebinding protection, see
 * {@link ServeHttpOptions.allowedHosts}); on other addresses pass `allowedHosts` or put a
 * reverse proxy in front. A foreign `Origin` is refused by `server.fetch` itself (403;
 * `McpServerOptions.allowedOrigins`).
 *
 * Malformed requests (no or several `Host` headers, an invalid `Host`, a request target that is
 * neither a path nor an absolute http URL) are answered HTTP 400 (RFC 9112 §3.2, http-guards.ts);
 * bodies over `McpServerOptions.maxRequestBodySize` HTTP 413, read by the client even while it is
 * still sending. A response whose peer stops reading is closed after
 * `McpServerOptions.streams.writeTimeoutMs` (default 30 s) without progress (write-timeout.ts).
 *
 * @param server The typed-mcp server.
 * @param options `port` (default 0 = any free port), `hostname` (default `127.0.0.1`),
 *   `allowedHosts`, `cors`, the deprecated `maxRequestBodySize`.
 * @returns The bound address, once listening.
 * @throws RangeError when `options.maxRequestBodySize` differs from the server's.
 * @throws TypeError / RangeError for an invalid `options.cors`.
 * @throws (rejects) the `listen` error, e.g. `EADDRINUSE`.
 */
export function serveHttp(server: McpServer, options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  if (options.maxRequestBodySize !== undefined && options.maxRequestBodySize !== server.maxRequestBodySize) {
    throw new RangeError(
      `serveHttp: maxRequestBodySize ${String(options.maxRequestBodySize)} differs from the server's ${server.maxRequestBodySize}; set it once, as new McpServer({ maxRequestBodySize }), so server.fetch honours it too`,
    );
  }
  const cors = options.cors;
  if (cors !== undefined) checkCors(cors);
  const fetch = cors === undefined ? server.fetch : (r: Request) => server.fetch(r, { cors });
  const handler = toNodeHandler({ fetch }, { maxRequestBodySize: server.maxRequestBodySize });
  const allowed = allowedHostsFor(options);
  const checkHost = allowed === undefined ? undefined : hostHeaderValidation(allowed);
  const httpServer = createServer((req, res) => {
    // A peer that stops reading is disconnected after McpServerOptions.streams.writeTimeoutMs without progress (write-timeout.ts).
    applyWriteTimeout(res, server.streamLimits.writeTimeoutMs);
    if (!checkRequestTarget(req, res)) return;
    lingerAfter413(req, res);
    dropHopByHopHeaders(res);
    // The SDK's guard answers 403 (JSON-RPC error -32000) itself when it returns false. Origin is
    // checked by server.fetch (origin.ts, McpServerOptions.allowedOrigins), the one rule on every runtime.
    if (checkHost !== undefined && !checkHost(req, res)) return;
    void handler(req, res);
  });
  return new Promise((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, options.hostname ?? "127.0.0.1", () => {
      httpServer.off("error", reject);
      const address = httpServer.address() as AddressInfo;
      const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve({
        port: address.port,
        hostname: address.address,
        url: new URL(`http://${host}:${address.port}/mcp`),
        httpServer,
        close: () =>
          new Promise<void>((done, fail) => {
            httpServer.close((error) => (error ? fail(error) : done()));
            httpServer.closeAllConnections();
          }),
      });
    });
  });
}

/** The hostnames DNS-rebinding protection allows for these options, or `undefined` for no check. */
function allowedHostsFor(options: ServeHttpOptions): string[] | undefined {
  if (options.allowedHosts === false) return undefined;
  if (options.allowedHosts !== undefined) return [...options.allowedHosts];
  return isLoopback(options.hostname ?? "127.0.0.1") ? ["localhost", "127.0.0.1", "[::1]"] : undefined;
}
