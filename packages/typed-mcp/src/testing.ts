/**
 * The `typed-mcp/testing` entry (docs/testing.md): `connect(server, options?)` gives the official
 * MCP client connected to `server` in memory, with typed calls — `client.call(handle, …)` for a
 * quick-path tool, `client.tools(target)` for the tools of a registered object — whose arguments
 * and results TypeScript checks against the tool functions' own types.
 *
 * Build the tests with the typed-mcp Vite plugin (a vitest config with `plugins: [typedMcp()]`):
 * the tools are compiled by the same plugin as the server.
 *
 * @packageDocumentation
 */
export { connect, type ConnectOptions } from "./testing/connect.js";
export type { TypedClient } from "./testing/typed-client.js";
export { ToolCallError } from "./testing/calls.js";
export type { CallValue, Json, ListedArguments, ToolArguments, TypedReads, TypedTools } from "./testing/types.js";
