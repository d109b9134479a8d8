/**
 * The `typed-mcp/stdio` entry: `serveStdio(server)`, serving an `McpServer` over stdin/stdout
 * (spec §0; implemented in transports/stdio.ts).
 *
 * @packageDocumentation
 */
export * from "./transports/stdio.js";
