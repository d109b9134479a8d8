// typed-mcp benchmarks: `pnpm bench` (after `pnpm build`). Every row of issue 26's table, side by
// side in one run, as ratios against baselines measured on the same machine in the same run —
// never absolute targets — written to BENCHMARKS.md (table, raw figures, method, machine, versions):
//   1. readers (packages/codegen/bench/readers.mjs): generated vs hand-written vs ajv vs zod 4 vs
//      typia 12, and the share of each format check in the string-heavy read;
//   2. a whole tools/call on 2026-07-28 vs the SDK's McpServer + zod (scripts/bench/call.mjs);
//   3. generated 10/100/1,000-tool projects of two shapes (the simple one, scripts/bench/project.mjs,
//      and the real-shaped one, scripts/bench/project-real.mjs) with and without the plugin: bundle
//      sizes (unminified and minified), cold and warm-cache
//      build wall time and peak RSS, the watch edit loop, IPC round trips, the Worker bundle
//      (scripts/bench/projects.mjs; `node scripts/bench/projects.mjs worker` runs the Worker row alone);
//   4. typed-mcp/otel: tools/call with @opentelemetry/api and no SDK vs without, with an SDK and a
//      batch exporter, and the hook's share of a CPU profile (scripts/bench/otel.mjs);
//   5. Node and workerd cold starts, spawn → first `tools/list`, vs the SDK + zod
//      (scripts/bench/cold-start.mjs);
//   6. full runs only: the playground's writer and extraction, the backend comparison
//      (scripts/bench/extraction.mjs);
//   7. full runs only, when redis-server is installed: the scale-out store rows of issue 20 —
//      tools/call and task round trips with the Redis store vs none, resources/updated fan-out
//      latency across instances (scripts/bench/store.mjs).
//
// Options: `--quick` (or BENCH_QUICK=1): small projects and short timings, for the test that keeps
// this code working (test/bench/bench.test.ts) — its figures are not to be quoted (its Vite builds run
// in this process, not one process each: scripts/bench/projects.mjs); the real-shaped
// project is built at one size and not watched, so its growth and watch rows say "not measured"
// (scripts/bench/projects.mjs `projectPlan`); `--every-row` (with `--quick`, the test's full tier):
// both shapes at two sizes with the watch loop, every row measured; `--out FILE`:
// where to write the report (default BENCHMARKS.md, or .tmp/BENCHMARKS.quick.md for --quick).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createExtractor } from "../packages/extract/dist/index.js";
import { generateTool } from "../packages/codegen/dist/index.js";
import { formatShares, generatedTools, runReaders } from "../packages/codegen/bench/readers.mjs";
import { runCall } from "./bench/call.mjs";
import { runOtel } from "./bench/otel.mjs";
import { runProjects } from "./bench/projects.mjs";
import { runColdStart } from "./bench/cold-start.mjs";
import { runExtraction } from "./bench/extraction.mjs";
import { runStore } from "./bench/store.mjs";
import { renderReport } from "./bench/report.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    "every-row": { type: "boolean", default: false },
    out: { type: "string" },
  },
});
const quick = values.quick || process.env.BENCH_QUICK === "1";
const outFile = resolve(values.out ?? (quick ? join(root, ".tmp/BENCHMARKS.quick.md") : join(root, "BENCHMARKS.md")));
// Inside the repository, so the generated projects resolve zod and the workspace packages.
const tmp = join(root, ".tmp", `bench-${process.pid}`);
mkdirSync(tmp, { recursive: true });
const log = (s) => console.log(s);
const startedAt = new Date();

try {
  const env = { root, tmp, quick, createExtractor, generateTool };
  log("readers…");
  const readers = await runReaders(env);
  const formats = await formatShares(env, await generatedTools(env));
  log("tools/call…");
  const call = await runCall({ root, quick, generated: await generatedTools(env) });
  log("typed-mcp/otel…");
  const otel = await runOtel({ root, quick, generated: await generatedTools(env) });
  log("projects…");
  const projects = await runProjects({ ...env, everyRow: values["every-row"], log });
  log("cold starts (Node stdio, workerd)…");
  const coldStart = await runColdStart({ root, tmp, quick });
  let extraction;
  let store;
  if (!quick) {
    log("playground and backends…");
    extraction = await runExtraction(env);
    log("shared store (redis-server)…");
    store = await runStore({ root, quick });
  }
  const seconds = (Date.now() - startedAt.getTime()) / 1000;
  const report = renderReport({
    root,
    quick,
    readers,
    formats,
    call,
    otel,
    projects,
    coldStart,
    extraction,
    store,
    startedAt,
    seconds,
  });
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, report);
  log(`\n${report}\nwritten to ${outFile}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
