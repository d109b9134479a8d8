/**
 * `pnpm bench --quick` runs end to end (scripts/bench.mjs), so the benchmark code cannot rot: every
 * row of issue 26's table is measured and written, with its goal. No timing is asserted — only
 * that each row holds a measured figure (the speeds themselves are for BENCHMARKS.md, never for
 * a test). It runs in the full tier only (test/helpers/tier.ts `FULL_ONLY`), as `--quick
 * --every-row`: both project shapes at two sizes and watched, so every row is measured in
 * `test:all`.
 */
import { expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

/** Runs `node args…` in the repository root and asserts it ended cleanly (exit 0, no error on stderr); its stdout. */
function runNode(args: string[]): string {
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
  expect(run.stderr).not.toMatch(/Error/);
  expect(run.status).toBe(0);
  return run.stdout;
}

it("writes the report with every row of the table measured", { timeout: 600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "typed-mcp-bench-"));
  try {
    const out = join(dir, "BENCHMARKS.md");
    runNode([join(ROOT, "scripts/bench.mjs"), "--quick", "--every-row", "--out", out]);
    const report = readFileSync(out, "utf8");
    const table = report
      .split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("| figure") && !l.startsWith("|---"));
    // Issue 26's rows; those of a project shape appear once per shape.
    const figures: [string, number][] = [
      ["reader vs ajv 8", 1],
      ["reader vs typia", 1],
      ["reader vs zod 4", 1],
      ["reader vs a hand-written reader", 1],
      ["2026-07-28 tools/call vs the SDK's own floor", 1],
      ["tools/call with typed-mcp/otel", 1],
      ["string-heavy read", 1],
      ["generated code per added tool", 2],
      ["Vite bundle at N", 2],
      ["cold `vite build`", 2],
      ["warm-cache `vite build`", 2],
      ["`vite build --watch`", 2],
      ["IPC round trips per tool", 1],
      ["Worker bundle (5 tools)", 1],
      ["Node cold start", 1],
      ["workerd cold start", 1],
    ];
    for (const [figure, count] of figures) {
      const found = table.filter((l) => l.startsWith(`| ${figure}`));
      expect(found, figure).toHaveLength(count);
      for (const row of found) {
        const [, , now, goal] = row.split("|").map((c) => c.trim());
        expect(goal, figure).toMatch(/[≤≥]/);
        // A measured figure: a number with its unit or ratio.
        expect(now, figure).toMatch(/\d+(\.\d+)?( KB| MB| ms|×| on 7\.| %)|×\d+\.\d+/);
      }
    }
    // Issue 22's overhead with the SDK is reported, with no goal: a time per call.
    expect(table.find((l) => l.startsWith("| tools/call overhead with the OTel SDK"))).toMatch(/-?\d+\.\d µs per call/);
    // Per payload: generated, hand-written, ajv, zod and typia all measured (positive ops/s).
    for (const payload of ["flat scalars", "order with 50 items", "strings with patterns and formats"]) {
      const row = report.split("\n").find((l) => l.startsWith(`| ${payload} |`))!;
      const cells = row
        .split("|")
        .slice(2, 7)
        .map((c) => Number(c.trim().replaceAll(",", "")));
      expect(cells, payload).toHaveLength(5);
      expect(
        cells.every((c) => c > 0),
        payload,
      ).toBe(true);
    }
    // The Worker bundles by source: typed-mcp's runtime files and the SDK's modules in both, no
    // auth code in either (neither server has the auth option: docs/runtimes.md "Bundle size").
    const section = report.slice(report.indexOf("## Worker bundle by source"));
    const sources = section
      .split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("| source"))
      .map((l) => l.split("|").map((c) => c.trim()));
    const bytes = (name: string) => sources.find((c) => c[1] === name)?.slice(2, 4);
    expect(bytes("typed-mcp/server")?.[1]).toBe("–");
    expect(Number(bytes("typed-mcp/server")?.[0])).toBeGreaterThan(0);
    expect(
      sources.some((c) => c[1]!.startsWith("@modelcontextprotocol/server/") && Number(c[2]) > 0 && Number(c[3]) > 0),
    ).toBe(true);
    expect(
      sources.filter((c) =>
        /^(?:jose|oauth4webapi|typed-mcp\/auth(?:\/(?:oauth|verify|scopes|jwt|token|introspection))?)$/.test(c[1]!),
      ),
    ).toEqual([]);
    expect(report).toContain("## Method");
    expect(report).toContain("## Machine and versions");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The scripts only a full `pnpm bench` runs (or a user runs alone), which `--quick` leaves out:
 * they run too, so they cannot rot unseen (a task tool's descriptor without the tasks runtime
 * stopped both once). No timing is asserted, only that each prints its measured line.
 */
it.each([
  // The scale-out rows (issue 20; redis-server is installed in the full tier).
  [["scripts/bench/store.mjs", "--quick"], /^tools\/call calls\/s: memory \d+, redis \d+ \(×\d+\.\d+\)$/m],
  // docs/security.md "Tasks": the heap held by finished task results.
  [
    ["--expose-gc", "scripts/bench/task-memory.mjs", "5"],
    /^5 results of 1 MiB kept by one caller: heap \+-?\d+\.\d MB after GC$/m,
  ],
])("node %j runs and prints its figure", { timeout: 300_000 }, (args, line) => {
  expect(runNode(args)).toMatch(line);
});
