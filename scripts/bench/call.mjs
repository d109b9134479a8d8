// The whole `tools/call` row of `pnpm bench` (issue 12 "tools/call calls/s on 2026-07-28 vs the
// SDK's McpServer + zod"): one 2026-07-28 POST (the `_meta` envelope, MCP-Protocol-Version and
// Mcp-Method headers) through each server's web-standard handler — typed-mcp's `server.fetch`
// with the generated `place_order` descriptor (the quick path as the plugin writes it), and the
// official SDK's `McpServer.registerTool` + zod 4 schema behind `createMcpHandler` — reading the
// order with 50 items and answering one text block. Both answers are checked before timing.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { payloads, zodSchemas } from "../../packages/codegen/bench/readers.mjs";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A 2026-07-28 `tools/call` request for `name` with `args`. */
function callRequest(name, args) {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: ENVELOPE } }),
  });
}

/** The JSON-RPC result of a response (JSON or one SSE `data:` line). */
async function resultOf(response) {
  const text = await response.text();
  const json = text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data: "))?.slice(6);
  return JSON.parse(json ?? "null")?.result;
}

/**
 * Runs the whole-call benchmark; returns calls/s of each server.
 * @param {{ root: string, quick: boolean, generated: Record<string, object> }} env
 */
export async function runCall({ root, quick, generated }) {
  const typed = await import(pathToFileURL(join(root, "packages/typed-mcp/dist/index.js")).href);
  const internal = await import(pathToFileURL(join(root, "packages/typed-mcp/dist/internal.js")).href);
  const sdkPath = createRequire(join(root, "packages/typed-mcp/package.json")).resolve("@modelcontextprotocol/server");
  const sdk = await import(pathToFileURL(sdkPath).href);
  const answer = (order) => `${order.id}: ${order.items.length} items`;

  const ours = new typed.McpServer({ name: "bench", version: "1.0.0" });
  ours.tool("place_order", (order) => answer(order), internal.generated({ ...generated.place_order }));
  const theirs = sdk.createMcpHandler(() => {
    const server = new sdk.McpServer({ name: "bench", version: "1.0.0" });
    server.registerTool("place_order", { inputSchema: zodSchemas.place_order }, async ({ order }) => ({ content: [{ type: "text", text: answer(order) }] }));
    return server;
  });
  const args = payloads.place_order.valid;
  const expected = answer(args.order);
  for (const [label, fetch] of [["typed-mcp", ours.fetch], ["sdk", theirs.fetch]]) {
    const result = await resultOf(await fetch(callRequest("place_order", args)));
    if (result?.isError || result?.content?.[0]?.text !== expected) throw new Error(`${label}: unexpected tools/call result ${JSON.stringify(result)}`);
  }
  const bench = new Bench({ name: "tools/call", time: quick ? 100 : 2000, warmupTime: quick ? 20 : 300 });
  bench
    .add("typed-mcp", async () => void (await (await ours.fetch(callRequest("place_order", args))).text()))
    .add("sdk", async () => void (await (await theirs.fetch(callRequest("place_order", args))).text()));
  await bench.run();
  return Object.fromEntries(bench.tasks.map((t) => [t.name, t.result.throughput?.mean ?? t.result.hz]));
}
