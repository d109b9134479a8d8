/**
 * The `typed-mcp/node` entry: `serveHttp(server, { port, hostname })`, serving `server.fetch` on
 * `node:http` (spec §0; implemented in transports/node-http.ts).
 *
 * @packageDocumentation
 */
export * from "./transports/node-http.js";
