import { mcpDurableObject, mcpWorker } from "typed-mcp/durable-objects";
import { createServer } from "./server.js";

// --store durable-objects (typed-mcp docs/scaling.md "Durable Objects"): every request goes to one
// Durable Object, McpObject, which runs the server made by createServer({ store }) — its tasks
// (started from the object's alarm), subscriptions and cancellations are shared by every isolate.
// The class must be exported from this module and bound as STORE (config.capnp, wrangler.toml).
export const McpObject = mcpDurableObject((store) => createServer({ store }));
export default mcpWorker();
