/**
 * stdio transport (spec §0): `serveStdio(server)` from `typed-mcp/stdio`.
 *
 * @packageDocumentation
 */
import { serveStdio as sdkServeStdio } from "@modelcontextprotocol/server/stdio";
import type { ServeStdioOptions, StdioServerHandle } from "@modelcontextprotocol/server/stdio";
import { SDK_FACTORY } from "./server.js";
import type { McpServer } from "./server.js";

export type { ServeStdioOptions, StdioServerHandle };

/**
 * Serves `server` over the process's stdin/stdout with the SDK's `serveStdio`: one connection,
 * opened by a 2025-era `initialize` or a 2026-07-28 `server/discover`, served by one SDK server
 * instance built from `server`'s registry. stdout carries only protocol messages: log to stderr.
 *
 * @param server The typed-mcp server.
 * @param options The SDK's stdio options (`legacy: "serve" | "reject"`, `transport`, `onerror`, …).
 * @returns A handle whose `close()` ends the connection.
 */
export function serveStdio(server: McpServer, options?: ServeStdioOptions): StdioServerHandle {
  return sdkServeStdio((ctx) => server[SDK_FACTORY](ctx), options);
}
