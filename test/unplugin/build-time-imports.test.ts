/**
 * What a build loads: every build-time entry (each `@typed-mcp/unplugin` entry, `@typed-mcp/babel`,
 * and the modules of `@typed-mcp/cli`'s bin) is imported in a fresh Node process with a resolve hook
 * (`module.register`, test/unplugin/fixtures/record-imports.mjs) that writes down every module it
 * resolves. None may be the runtime's (`typed-mcp`'s own modules, but the argument-error rule
 * code generation shares with generated code, `typed-mcp/internal/argument-errors`) or one of its
 * dependencies (the MCP SDK, zod, jose, oauth4webapi): the build needs none of them, and loading
 * them cost every build process ≈ 250 ms (docs/architecture.md, the argument-error row).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "../..");
const hooks = pathToFileURL(join(here, "fixtures/record-imports.mjs")).href;
const work = mkdtempSync(join(tmpdir(), "typed-mcp-imports-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The modules of the runtime's dependency tree a build must not load (resolved URLs). */
const RUNTIME_ONLY =
  /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:@modelcontextprotocol\/|zod\/|jose\/|oauth4webapi\/)|\/packages\/typed-mcp\/dist\/(?!codegen-support\/argument-errors\.js$)/;

/** The URLs `specifiers` (imported from packages/unplugin) resolve, transitively, in one new process. */
function importedBy(specifiers: string[]): string[] {
  const log = join(work, "resolved.log");
  const run = spawnSync(
    process.execPath,
    ["--import", hooks, "--input-type=module", "-e", `for (const s of ${JSON.stringify(specifiers)}) await import(s);`],
    { cwd: join(repo, "packages/unplugin"), env: { ...process.env, RECORD_IMPORTS: log }, encoding: "utf8" },
  );
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return [...new Set(readFileSync(log, "utf8").split("\n").filter(Boolean))];
}

const ENTRIES = [
  ...["", "/vite", "/rollup", "/rolldown", "/esbuild", "/webpack", "/rspack", "/loader", "/next"].map(
    (sub) => `@typed-mcp/unplugin${sub}`,
  ),
  "@typed-mcp/babel",
  // The CLI's modules (its bin runs on import: index.js is `list` and `check`, dev.js `dev`).
  ...["index.js", "dev.js"].map((f) => pathToFileURL(join(repo, "packages/cli/dist", f)).href),
];

describe("build-time entries", () => {
  // One process for all of them (a process each would cost ≈ 0.5 s apiece).
  let urls: string[] = [];
  beforeAll(() => {
    urls = importedBy(ENTRIES);
  });

  it("were all loaded, with the stages they run on", () => {
    for (const dir of ["unplugin", "babel", "cli", "transform", "codegen", "extract"])
      expect(urls.some((u) => u.includes(`/packages/${dir}/dist/`))).toBe(true);
  });

  it("load none of the runtime's modules or dependencies (the MCP SDK, zod, jose, oauth4webapi)", () => {
    expect(urls.filter((u) => RUNTIME_ONLY.test(u))).toEqual([]);
  });

  it("load one runtime module, the argument-error rule code generation shares with generated code", () => {
    expect(urls.filter((u) => u.includes("/packages/typed-mcp/dist/"))).toEqual([
      expect.stringMatching(/\/packages\/typed-mcp\/dist\/codegen-support\/argument-errors\.js$/),
    ]);
  });
});
