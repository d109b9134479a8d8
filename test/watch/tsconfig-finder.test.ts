/**
 * One tsconfig finder (issue 19): the driver's cache key and the file it hands the bundler to
 * watch come from the extractor's own rule (extract's `findTsconfig`), so a relative `tsconfig`
 * option resolves against the driver's `cwd` everywhere — before, the cache resolved it against
 * `process.cwd()` while the extractor used `cwd`, and the two could name different files.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { findTsconfig } from "../../packages/extract/src/index.js";
import { Driver } from "../../packages/transform/src/index.js";

const root = mkdtempSync(join(tmpdir(), "typed-mcp-tsfind-")).replaceAll("\\", "/");
cpSync(join(import.meta.dirname, "fixture"), root, { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("a relative tsconfig option resolves against the driver's cwd, not the process's", () => {
  expect(process.cwd()).not.toBe(root);
  const driver = new Driver({ cache: false, cwd: root, tsconfig: "tsconfig.json" });
  try {
    expect(driver.tsconfigOf(`${root}/src/a.ts`)).toBe(`${root}/tsconfig.json`);
  } finally {
    driver.close();
  }
});

it("without the option, the nearest tsconfig.json above the module, as the extractor finds it", () => {
  const driver = new Driver({ cache: false, cwd: root });
  try {
    expect(driver.tsconfigOf(`${root}/src/a.ts`)).toBe(`${root}/tsconfig.json`);
    expect(driver.tsconfigOf(`${root}/src/a.ts`)).toBe(findTsconfig({ cwd: root }, `${root}/src/a.ts`));
  } finally {
    driver.close();
  }
});
