/**
 * IPC round trips per tool, cold (issue 12 "Fewer IPC round trips"; docs/extraction.md
 * "Measurements"): on a generated project of 100 tools over 10 modules (scripts/bench/project.mjs,
 * the project `pnpm bench` measures), a new extractor needs at most 5 requests per tool on both
 * 7.x backends — the parameters of all of a module's tools are asked in one batch, and an object
 * type is asked only what it can need. The API's own request count (`BackendStats.roundTrips`);
 * a count, not a timing.
 */
import { afterAll, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExtractor } from "../../packages/extract/src/index.js";
import { writeProject } from "../../scripts/bench/project.mjs";
import { ROOT, TYPESCRIPT71 } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "typed-mcp-round-trips-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const files: string[] = writeProject(ROOT, dir, "typed", 100);

for (const [label, typescript] of [
  ["7.0", "7.0"],
  ["7.1", TYPESCRIPT71],
]) {
  it(`${label}: at most 5 round trips per tool, cold, with every tool listed`, () => {
    const ex = createExtractor({ cwd: dir, typescript });
    try {
      let tools = 0;
      for (const f of files) {
        const model = ex.extract(f, readFileSync(f, "utf8"));
        expect(model.diagnostics).toEqual([]);
        tools += model.tools.length;
      }
      expect(tools).toBe(100);
      const stats = ex.stats();
      expect(stats.backend).toBe(label);
      expect(stats.roundTrips / tools).toBeLessThanOrEqual(5);
    } finally {
      ex.close();
    }
  });
}
