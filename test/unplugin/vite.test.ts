/**
 * The plugin inside a real Vite build (spec §1, §4 Objects): both declaration paths list
 * byte-identical tools for the same signature, and classes used as parameter types are
 * constructed by the generated reader — also when the class is declared in the tool's own
 * module, exported or not. (Two tools of one name in one file are OMCG0002, so the quick path
 * lives in its own module.)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build } from "vite";
import typedMcp from "../../packages/unplugin/dist/vite.js";
import { messagesOf } from "../runtime/helpers.ts";

const fixture = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/same-module");
let out: string;
let mod: Record<string, any>;
let quick: Record<string, any>;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), "typed-mcp-vite-"));
  await build({
    root: fixture,
    configFile: false,
    logLevel: "silent",
    plugins: [typedMcp()],
    ssr: { noExternal: true },
    build: {
      ssr: true,
      outDir: out,
      target: "node20",
      rollupOptions: {
        input: { tools: join(fixture, "tools.ts"), quick: join(fixture, "quick.ts") },
        output: { entryFileNames: "[name].js" },
      },
    },
  });
  mod = await import(pathToFileURL(join(out, "tools.js")).href);
  quick = await import(pathToFileURL(join(out, "quick.js")).href);
});

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

const TOOLS = Symbol.for("typed-mcp.tools");
const ctx = { signal: new AbortController().signal } as never;

/** `tools/list` over the server's web-standard handler, as raw response text. */
async function rawList(server: { fetch(r: Request): Promise<Response> }): Promise<string> {
  const response = await server.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  );
  return response.text();
}

const MOVE_POINT =
  '{"name":"move_point","description":"Moves a point.","inputSchema":{"type":"object","properties":{' +
  '"p":{"type":"object","description":"The point to move.","properties":{"label":{"type":"string","description":"A label for the point."},"x":{"type":"integer"},"y":{"type":"integer"}},"required":["x"]},' +
  '"dx":{"type":"integer","description":"How far to move it.","default":1}},"required":["p"],"additionalProperties":false}}';

it("lists the decorated method exactly as the spec derives it", () => {
  const [move] = mod.Geometry[TOOLS];
  expect(JSON.stringify(move.listing)).toBe(MOVE_POINT);
});

it("lists the quick path byte-identically to the decorator path", async () => {
  const body = await rawList(quick.quick);
  const [message] = messagesOf(body);
  expect(JSON.stringify(message!.result.tools)).toBe(`[${MOVE_POINT}]`);
});

it("constructs an exported class declared in the tool's module", async () => {
  const [move] = mod.Geometry[TOOLS];
  const args = move.read({ p: { x: 2, label: "home", extra: true } }, ctx);
  expect(Array.isArray(args)).toBe(true);
  expect(await new mod.Geometry().movePoint(...args)).toBe("true 3,0 home");
});

it("constructs a class that is not exported", async () => {
  const measure = mod.Geometry[TOOLS][1];
  expect(JSON.stringify(measure.listing)).toBe(
    '{"name":"measure_box","description":"Measures a box.","inputSchema":{"type":"object","properties":{"box":{"type":"object","properties":{"width":{"type":"number"}},"required":["width"]}},"required":["box"],"additionalProperties":false}}',
  );
  const args = measure.read({ box: { width: 3 } }, ctx);
  expect(new mod.Geometry().measureBox(...args)).toBe("true 9");
});
