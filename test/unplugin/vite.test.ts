/**
 * The plugin inside a real Vite build (spec §1, §4 Objects): both declaration paths list
 * byte-identical tools for the same signature, and classes used as parameter types are
 * constructed by the generated reader — also when the class is declared in the tool's own
 * module, exported or not. (Two tools of one name in one file are OMCG0002, so the quick path
 * lives in its own module.)
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { rpcRequest } from "../helpers/raw-http.ts";
import { buildWithPlugin, type PluginBuild } from "../helpers/vite-build.ts";
import { messagesOf } from "../runtime/helpers.ts";

const fixture = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/same-module");
let built: PluginBuild | undefined;
let mod: Record<string, any>;
let quick: Record<string, any>;

beforeAll(async () => {
  built = await buildWithPlugin(fixture, ["tools", "quick"], "typed-mcp-vite-");
  mod = await built.load("tools");
  quick = await built.load("quick");
});

afterAll(async () => {
  await built?.remove();
});

const TOOLS = Symbol.for("typed-mcp.tools");
const ctx = { signal: new AbortController().signal } as never;

/** `tools/list` over the server's web-standard handler, as raw response text. */
async function rawList(server: { fetch(r: Request): Promise<Response> }): Promise<string> {
  const response = await server.fetch(rpcRequest({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
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
