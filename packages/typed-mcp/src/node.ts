/**
 * Node HTTP transport (spec §0): `serveHttp(server, { port, hostname })` from `typed-mcp/node`,
 * serving `server.fetch` on `node:http` through the SDK's Node adapter (`@modelcontextprotocol/node`).
 *
 * @packageDocumentation
 */
import { createServer } from "node:http";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "@modelcontextprotocol/node";
import type { McpServer } from "./server.js";

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** TCP port; `0` (the default) picks a free one — read it from the result. */
  port?: number;
  /** Interface to listen on; default `"127.0.0.1"` (use `"0.0.0.0"` or `"::"` to accept remote clients). */
  hostname?: string;
  /** Largest request body read, in bytes; larger ones are answered 413. Default 4 MiB. */
  maxRequestBodySize?: number;
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
 * MCP is answered on every path. No Origin/Host validation is applied: put a reverse proxy or
 * your own `node:http` handler in front when exposing it beyond localhost.
 *
 * @param server The typed-mcp server.
 * @param options `port` (default 0 = any free port), `hostname` (default `127.0.0.1`).
 * @returns The bound address, once listening.
 * @throws (rejects) the `listen` error, e.g. `EADDRINUSE`.
 */
export function serveHttp(server: McpServer, options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  const handler = toNodeHandler(
    { fetch: server.fetch },
    options.maxRequestBodySize === undefined ? undefined : { maxRequestBodySize: options.maxRequestBodySize },
  );
  const httpServer = createServer((req, res) => {
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
