// Heap held by finished task results (docs/security.md "Tasks"): one caller (a real client on its
// own 2025-11-25 session over serveHttp on 127.0.0.1) runs COUNT tasks that each return a 1 MiB
// text and never reads them; prints the heap growth after GC while the results are kept.
// Run after the build: `node --expose-gc scripts/bench/task-memory.mjs [count]` (default 200).
import { Client, StreamableHTTPClientTransport, specTypeSchemas } from "@modelcontextprotocol/client";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import * as __tmcp from "../../packages/typed-mcp/dist/internal.js";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";

if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
const COUNT = Number(process.argv[2] ?? 200);
const MIB = 1024 * 1024;
const server = new McpServer({ name: "task-memory", version: "1.0.0" });
// A flat string on the V8 heap: "x".repeat() alone is a small rope until something reads it, and a
// Buffer's toString() of 1 MiB is an external string (not in heapUsed); JSON.parse makes a flat copy.
server.tool(
  "big_result",
  (chars) => JSON.parse(JSON.stringify("x".repeat(chars))),
  __tmcp.generated({
    listing: {
      name: "big_result",
      inputSchema: {
        type: "object",
        properties: { chars: { type: "number" } },
        required: ["chars"],
        additionalProperties: false,
      },
      execution: { taskSupport: "optional" },
    },
    // A task tool's descriptor references the tasks runtime, as the plugin writes it.
    tasks: __tmcp.installTasks,
    read: (args) => [args.chars],
    write: (value) => ({ content: [{ type: "text", text: value }] }),
  }),
);
const http = await serveHttp(server, { port: 0 });
const client = new Client({ name: "task-memory", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(http.url));
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const before = heap();
for (let i = 0; i < COUNT; i++) {
  const { task } = await client.request(
    { method: "tools/call", params: { name: "big_result", arguments: { chars: MIB }, task: {} } },
    specTypeSchemas.CreateTaskResult,
  );
  while (
    (await client.request({ method: "tasks/get", params: { taskId: task.taskId } }, specTypeSchemas.GetTaskResult))
      .status === "working"
  );
}
const after = heap();
console.log(`${COUNT} results of 1 MiB kept by one caller: heap +${((after - before) / 1e6).toFixed(1)} MB after GC`);
await client.close();
await http.close();
