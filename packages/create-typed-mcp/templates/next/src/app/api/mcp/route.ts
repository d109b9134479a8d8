// The MCP endpoint: Streamable HTTP at /api/mcp (every MCP revision the SDK serves).
// On the edge runtime instead of Node.js, add: export const runtime = "edge";
import { nextHandler } from "typed-mcp";
import { createServer } from "../../../server";

export const { GET, POST, DELETE, OPTIONS, HEAD } = nextHandler(createServer());
