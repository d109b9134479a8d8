// The whole `tools/call` row of `pnpm bench` (issue 12 "tools/call calls/s on 2026-07-28 vs the
// SDK's McpServer + zod"): one 2026-07-28 POST (the `_meta` envelope, MCP-Protocol-Version and
// Mcp-Method headers) through each server's web-standard handler — typed-mcp's `server.fetch`
// with the generated `place_order` descriptor (the quick path as the plugin writes it), and the
// official SDK's `McpServer.registerTool` + zod 4 schema behind `createMcpHandler` — reading the
// order with 50 items and answering one text block; two references show what is the SDK's own
// cost (see runCall). Every answer is checked before timing.
//
// `node scripts/bench/call.mjs` (after `pnpm build`) runs this row alone and prints its figures.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { interleavedRounds, median } from "./rounds.mjs";
import { generatedTools, payloads, zodSchemas } from "../../packages/codegen/bench/readers.mjs";

/**
 * A 2026-07-28 POST of `method` with `params` (also cold-start.mjs's and store.mjs's): the `_meta`
 * envelope (client `bench`, `capabilities` its client capabilities), MCP-Protocol-Version,
 * Mcp-Method and, from `params.name` or `params.taskId`, Mcp-Name; to `url` (default
 * `http://127.0.0.1/mcp`, for a server's own `fetch`).
 */
export function request2026(method, params, { url = "http://127.0.0.1/mcp", capabilities = {} } = {}) {
  const name = params.name ?? params.taskId;
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name !== undefined && { "mcp-name": name }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } }),
  });
}

/** A 2026-07-28 `tools/call` request for `name` with `args` (also otel.mjs's). */
export const callRequest = (name, args) => request2026("tools/call", { name, arguments: args });

/** The JSON-RPC result of a response (JSON or one SSE `data:` line). */
export async function resultOf(response) {
  const text = await response.text();
  const json = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6);
  return JSON.parse(json ?? "null")?.result;
}

/** Reads the body of `request` ahead, as an SDK user may do, and hands it to `fetch` as `parsedBody` (the SDK's documented escape hatch). */
const withParsedBody = (fetch) => async (request) => fetch(request, { parsedBody: JSON.parse(await request.text()) });

/**
 * Runs the whole-call benchmark; returns the median calls/s of each contestant over interleaved
 * rounds (each round runs every contestant once, in turn, with tinybench):
 * - `typed-mcp`: `server.fetch` with the generated descriptor;
 * - `sdk`: the SDK's `McpServer.registerTool` + zod 4 behind `createMcpHandler`, as its docs write it;
 * - `sdk-parsed-body`: the same handler given the body read ahead as `parsedBody` (what
 *   `server.fetch` does itself, docs/runtime.md "Request bodies"), so no request clone;
 * - `sdk-floor`: the SDK's low-level `Server` with a `tools/call` handler that validates nothing,
 *   behind the same handler, given `parsedBody` — the SDK's own per-request cost, which every
 *   contestant pays (typed-mcp's overhead is its time per call minus this one's).
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
    server.registerTool("place_order", { inputSchema: zodSchemas.place_order }, async ({ order }) => ({
      content: [{ type: "text", text: answer(order) }],
    }));
    return server;
  });
  const floor = sdk.createMcpHandler(() => {
    const server = new sdk.Server({ name: "bench", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/call", (request) => ({
      content: [{ type: "text", text: answer(request.params.arguments.order) }],
    }));
    return server;
  });
  const contestants = {
    "typed-mcp": ours.fetch,
    sdk: theirs.fetch,
    "sdk-parsed-body": withParsedBody(theirs.fetch),
    "sdk-floor": withParsedBody(floor.fetch),
  };
  const args = payloads.place_order.valid;
  const expected = answer(args.order);
  for (const [label, fetch] of Object.entries(contestants)) {
    const result = await resultOf(await fetch(callRequest("place_order", args)));
    if (result?.isError || result?.content?.[0]?.text !== expected)
      throw new Error(`${label}: unexpected tools/call result ${JSON.stringify(result)}`);
  }
  const samples = await interleavedRounds(calls(contestants, args), {
    rounds: quick ? 2 : 15,
    quick,
    name: "tools/call",
  });
  return Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
}

/** The contestants of a tools/call row: label → one `place_order` call through that handler, its body read. */
export const calls = (contestants, args) =>
  Object.fromEntries(
    Object.entries(contestants).map(([label, fetch]) => [
      label,
      async () => void (await (await fetch(callRequest("place_order", args))).text()),
    ]),
  );

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
  const { createExtractor } = await import(pathToFileURL(join(root, "packages/extract/dist/index.js")).href);
  const { generateTool } = await import(pathToFileURL(join(root, "packages/codegen/dist/index.js")).href);
  mkdirSync(join(root, ".tmp"), { recursive: true });
  const tmp = mkdtempSync(join(root, ".tmp", "bench-call-"));
  try {
    const call = await runCall({
      root,
      quick: process.argv.includes("--quick"),
      generated: await generatedTools({ root, tmp, createExtractor, generateTool }),
    });
    for (const [k, hz] of Object.entries(call))
      console.log(
        `${k.padEnd(16)} ${Math.round(hz).toString().padStart(6)} calls/s  ${(1e6 / hz).toFixed(1).padStart(6)} µs/call  ×${(call["typed-mcp"] / hz).toFixed(2)} typed-mcp`,
      );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
