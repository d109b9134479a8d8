/**
 * A long-lived Babel process (babel-loader in webpack's watch mode, a dev server) keeps one warm
 * TypeScript sidecar across files, but Babel never says that a file changed. `@typed-mcp/babel`
 * checks the files an extraction consulted before each transform: an edit to an imported
 * interface (types.ts) must change the next listing of the module that uses it, although that
 * module's own text is the same. `closeAll()` ends the sidecar at once. Every file a module's
 * model depends on is reported with `api.addExternalDependency` (Babel's `externalDependencies`,
 * which babel-loader passes to the bundler's `addDependency`), so a host re-runs Babel on the
 * module when an imported interface is edited.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { transformFileAsync } from "@babel/core";
import typedMcpBabel, { closeAll } from "@typed-mcp/babel";
import { childCommandLines } from "../helpers/processes.ts";
import { propertySchemaText } from "./listing-text.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "../..");
const fixture = join(repo, "test/bundlers/fixtures/server");
const root = mkdtempSync(join(tmpdir(), "typed-mcp-babel-changes-"));
cpSync(join(fixture, "src"), join(root, "src"), { recursive: true });
cpSync(join(fixture, "tsconfig.json"), join(root, "tsconfig.json"));
symlinkSync(join(repo, "node_modules"), join(root, "node_modules"), "dir");
afterAll(() => {
  closeAll();
  rmSync(root, { recursive: true, force: true });
});

const sidecars = () => childCommandLines().filter((c) => /typescript/.test(c) && / --api( |$)/.test(c));

/** Babel ≥ 7.17's result field (not in @types/babel__core 7.20). */
type WithDependencies = { code?: string | null; externalDependencies: Set<string> };
const transformFile = async (file: string) =>
  (await transformFileAsync(join(root, file), {
    configFile: false,
    babelrc: false,
    presets: ["@babel/preset-typescript"],
    plugins: [[typedMcpBabel, { idleTimeoutMs: 60_000 }]],
  })) as WithDependencies | null;
const transformTools = async () => (await transformFile("src/tools.ts"))!.code!;

it("reports the files earlier models depended on as external dependencies", async () => {
  // Babel takes dependencies only while it creates the plugin, before it names the file: the first
  // compilation of tools.ts (which imports its types from types.ts with `import type` only)
  // reports nothing, every later one in the process the files the models so far depended on.
  const first = await transformFile("src/tools.ts");
  expect([...first!.externalDependencies]).toEqual([]);
  const second = await transformFile("src/tools.ts");
  expect([...second!.externalDependencies].sort()).toEqual([join(root, "src/types.ts"), join(root, "tsconfig.json")]);
});

it("reads an edited imported interface on the next transform, and closeAll() ends the sidecar", async () => {
  const before = await transformTools();
  // types.ts: `/** Latitude in degrees. */ lat: number;` is the description of `place.lat` (JSDoc, spec §3).
  expect(before).toContain('"description": "Latitude in degrees."');

  const types = join(root, "src/types.ts");
  writeFileSync(types, readFileSync(types, "utf8").replace("Latitude in degrees.", "Latitude, north positive."));
  const later = new Date(Date.now() + 5000);
  utimesSync(types, later, later);

  const after = await transformTools();
  expect(after).toContain('"description": "Latitude, north positive."');
  expect(after).not.toContain("Latitude in degrees.");

  expect(sidecars().length).toBeGreaterThan(0); // still warm: the idle timeout is a minute
  closeAll();
  const until = Date.now() + 3000;
  while (sidecars().length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  expect(sidecars()).toEqual([]);
});

it("reads the module's own edit on disk on its next transform (a long-lived process, no watcher)", async () => {
  const tools = join(root, "src/tools.ts");
  const rewrite = (from: string, to: string, seconds: number) => {
    writeFileSync(tools, readFileSync(tools, "utf8").replace(from, to));
    const later = new Date(Date.now() + seconds * 1000);
    utimesSync(tools, later, later);
  };
  // A text of tools.ts no model of the session has: extracted by the (warm) sidecar.
  rewrite("Counts down to zero.", "Counts down to zero, step by step.", 10);
  expect(await transformTools()).toContain('"description": "Counts down to zero, step by step."');
  // Then an edit only the checker sees: `from` becomes the alias `Unit` of types.ts (spec §4: a string enum).
  rewrite("countdown(from: Int,", "countdown(from: Unit,", 20);
  expect(propertySchemaText(await transformTools(), "from")).toMatch(
    /^\{\s*"type": "string",\s*"description": "Where to start\.",\s*"enum": \["celsius", "fahrenheit"\]/,
  );
});
