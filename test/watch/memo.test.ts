/**
 * Watch rebuilds reuse generated code (issue 12; docs/bundlers.md "Watch mode and cache"): the
 * driver's {@link ModuleMemory} answers a module's splice from its previous splice for every
 * tool whose model is unchanged, and generates the changed ones again — with output identical to
 * a splice without the memo. Real extractor (TypeScript 7 sidecar) over the watch fixture.
 */
import { afterAll, expect, it } from "vitest";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Driver, spliceModule } from "../../packages/transform/src/index.js";

const root = mkdtempSync(join(tmpdir(), "typed-mcp-memo-"));
cpSync(join(import.meta.dirname, "fixture"), root, { recursive: true });
const driver = new Driver({ cache: false, cwd: root });
afterAll(() => {
  driver.close();
  rmSync(root, { recursive: true, force: true });
});

const file = join(root, "src/a.ts").replaceAll("\\", "/");
const splice = (code: string, memo = true) => {
  const model = driver.model(file, code);
  expect(model.diagnostics).toEqual([]);
  return spliceModule(code, file, model.tools, model, memo ? driver.memory : undefined)!;
};

it("reuses the code of an unchanged model, and the output is the one generated afresh", () => {
  const code = readFileSync(file, "utf8");
  const first = splice(code);
  expect(driver.memory.counts).toEqual({ generated: 1, reused: 0 });
  // An edit that moves the tool (a comment above it) keeps its model up to the site's offsets.
  const moved = code.replace("export class Greeter {", "// moved\nexport class Greeter {");
  const again = splice(moved);
  expect(driver.memory.counts).toEqual({ generated: 1, reused: 1 });
  expect(again.code).toBe(splice(moved, false).code);
  expect(again.code).toContain('"name":"greet"');
  expect(first.code.length).toBeLessThan(again.code.length);
});

it("gives an unchanged module (same text, same models) its previous output, source map included", () => {
  const code = readFileSync(file, "utf8");
  const first = splice(code);
  const before = { ...driver.memory.counts };
  const again = splice(code);
  expect(driver.memory.counts).toEqual({ generated: before.generated, reused: before.reused + 1 });
  const fresh = splice(code, false);
  expect(again.code).toBe(fresh.code);
  expect(again.map.toString()).toBe(fresh.map.toString());
  expect(again.map).not.toBe(first.map); // a copy: the host may change it
  // Source map v3 (ECMA-426): the module is its one source, with its content.
  expect(again.map.sources).toEqual([file]);
  expect(again.map.sourcesContent).toEqual([code]);
});

it("generates again when the model changed (an imported interface edited)", () => {
  const types = join(root, "src/types.ts");
  writeFileSync(types, readFileSync(types, "utf8").replace("name: string;", "name: number;"));
  driver.changed(types.replaceAll("\\", "/"), false);
  const before = { ...driver.memory.counts };
  const out = splice(readFileSync(file, "utf8"));
  expect(driver.memory.counts).toEqual({ generated: before.generated + 1, reused: before.reused });
  // Spec §4: a `number` property is `{"type":"number"}` in the listing.
  expect(out.code).toContain('"name":{"type":"number"');
});
