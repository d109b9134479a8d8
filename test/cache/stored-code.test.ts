/**
 * The disk layer keeps a module's generated code with its model (docs/bundlers.md "The cache"):
 * a new session that answers a module from the disk splices it without generating code again,
 * with the output of a splice without any memo; an extracted model is written once, with its
 * code, when its splice is planned — or at `close()`, without code, when no splice came. Real
 * extractor (TypeScript 7 sidecar) over the watch fixture, the `Driver` as the plugins use it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Driver, planSplice, spliceModule } from "../../packages/transform/src/index.js";

const root = mkdtempSync(join(tmpdir(), "typed-mcp-stored-code-"));
cpSync(join(import.meta.dirname, "../watch/fixture"), root, { recursive: true });
const cacheDir = join(root, ".cache");
const drivers: Driver[] = [];
afterAll(() => {
  for (const d of drivers) d.close();
  rmSync(root, { recursive: true, force: true });
});

const file = join(root, "src/a.ts").replaceAll("\\", "/");
const text = readFileSync(file, "utf8");

/** A new session (as a new build process makes) on the cache directory, with its events. */
function session() {
  const events: string[] = [];
  const driver = new Driver({ cache: { dir: cacheDir }, cwd: root, onEvent: (e) => events.push(e.type) });
  drivers.push(driver);
  return { driver, events };
}

/** The cache's entries (parsed), in no particular order. */
function entries(): { file: string; code?: { codes: unknown[] } }[] {
  if (!existsSync(cacheDir)) return [];
  return readdirSync(cacheDir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(cacheDir, f), "utf8")));
}

describe("generated code in the disk layer", () => {
  it("a cache hit splices with the stored code: nothing generated, the output of a splice without memo", () => {
    const cold = session();
    const model = cold.driver.model(file, text);
    expect(model.diagnostics).toEqual([]);
    expect(entries()).toEqual([]); // not written before its splice
    const first = spliceModule(text, file, model.tools, model, cold.driver.memory)!;
    expect(cold.driver.memory.counts).toEqual({ generated: 1, reused: 0 });
    const [entry] = entries();
    expect(entry?.code?.codes).toHaveLength(1);

    const warm = session();
    const hit = warm.driver.model(file, text);
    expect(warm.events).toEqual(["cache-hit"]);
    const again = spliceModule(text, file, hit.tools, hit, warm.driver.memory)!;
    expect(warm.driver.memory.counts).toEqual({ generated: 0, reused: 1 });
    expect(again.code).toBe(first.code);
    expect(again.code).toBe(spliceModule(text, file, hit.tools, hit)!.code);
    expect(again.map.toString()).toBe(first.map.toString());
  });

  it("an extracted model no splice asked for is stored without code at close(); its first splice adds the code", () => {
    const edited = text.replace("export class Greeter {", "// edited\nexport class Greeter {");
    const before = entries().length;
    const s = session();
    s.driver.model(file, edited);
    expect(s.events).toContain("extract");
    expect(entries()).toHaveLength(before);
    s.driver.close();
    expect(entries()).toHaveLength(before + 1);
    expect(entries().filter((e) => e.code === undefined)).toHaveLength(1);

    const next = session();
    const model = next.driver.model(file, edited);
    expect(next.events).toEqual(["cache-hit"]);
    spliceModule(edited, file, model.tools, model, next.driver.memory);
    expect(next.driver.memory.counts).toEqual({ generated: 1, reused: 0 });
    expect(entries().filter((e) => e.code === undefined)).toEqual([]);
  });

  it("a module named as Babel names it (a path with '#') gets its code stored too", () => {
    const hashed = join(root, "src/a#copy.ts").replaceAll("\\", "/");
    copyFileSync(file, hashed);
    const s = session();
    const model = s.driver.model(hashed, text);
    expect(model.tools.map((t) => t.name)).toEqual(["greet"]);
    // @typed-mcp/babel plans the splice under Babel's filename, as given to `model`.
    expect(planSplice(model.tools, { ...model, share: "hoist" }, s.driver.memory.module(hashed))).toBeDefined();
    const [entry] = entries().filter((e) => e.file === hashed);
    expect(entry?.code?.codes).toHaveLength(1);
  });
});
