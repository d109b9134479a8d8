/**
 * Which test files vitest.config.ts runs in a process of their own (test/helpers/isolation.ts,
 * docs/contributing.md "Shared and isolated files"): the rule, on the suite's own files and on
 * files written for it here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { isolatedTestFiles } from "../helpers/isolation.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the suite's own files", () => {
  const isolated = isolatedTestFiles(ROOT);
  it("isolates a file that replaces a module (vi.mock), one that spies on console, one with fake timers", () => {
    expect(isolated).toContain("test/extract/one-parse.test.ts");
    expect(isolated).toContain("test/babel/profile.test.ts");
    expect(isolated).toContain("test/runtime/tasks-quotas.test.ts");
  });
  it("isolates files that count child processes directly, through a helper, or through /proc/self/task", () => {
    expect(isolated).toContain("test/cli/usage.test.ts"); // ../helpers/processes.ts
    expect(isolated).toContain("test/watch/webpack.test.ts"); // ./scenario.ts → ./helpers.ts (sidecarPids)
    expect(isolated).toContain("test/bundlers/bundlers.test.ts"); // reads /proc/self/task/*/children
  });
  it("shares the files with none of that", () => {
    for (const f of [
      "test/codegen/read.test.ts",
      "test/runtime/hostile.test.ts",
      "test/revisions/gates.test.ts",
      "test/cli/list.test.ts", // its helper keeps one warm extractor per process, no hook
    ])
      expect(isolated).not.toContain(f);
  });
});

describe("files written for the rule", () => {
  const root = mkdtempSync(join(tmpdir(), "typed-mcp-isolation-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write("test/a/plain.test.ts", 'import { x } from "./util.js";\nit("x", () => x);\n');
  write("test/a/util.ts", "export const x = 1;\n");
  write("test/a/deep.test.ts", 'import { y } from "./mid.ts";\n');
  write("test/a/mid.ts", 'export { y } from "../b/leaf";\n');
  write("test/b/leaf.ts", "export const y = () => vi.spyOn(console, 'log');\n");
  write("test/a/hooked.test.ts", 'import { z } from "./hooks.js";\n');
  write("test/a/hooks.ts", "afterAll(() => {});\nexport const z = 1;\n");
  write("test/a/own-hook.test.ts", "afterAll(() => {});\n");
  write("test/a/cycle.test.ts", 'import "./c1.ts";\n');
  write("test/a/c1.ts", 'import "./c2.ts";\n');
  write("test/a/c2.ts", 'import { q } from "./c1.ts";\n');
  write("test/fixtures/in-fixture.test.ts", "vi.mock('x');\n");

  it("follows ./ and ../ imports (.js naming .ts, no extension) to a marker; a test file's own hooks do not count", () => {
    expect(isolatedTestFiles(root)).toEqual(["test/a/deep.test.ts", "test/a/hooked.test.ts"]);
  });
});
