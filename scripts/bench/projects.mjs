// The whole-build rows of `pnpm bench` (issues 12 and 26), on generated projects of two shapes
// (scripts/bench/project.mjs "simple", scripts/bench/project-real.mjs "real"):
// bundle size and growth per tool, warm-cache `vite build` wall time and peak RSS (GNU time, one
// process per build, flavours interleaved, medians of the rounds), the `vite build --watch` edit
// loop (p50), IPC round trips per tool cold (per 7.x backend), and the Worker bundle (5 tools,
// minified) — each typed-mcp (with the plugin) against the SDK + zod version. With `--quick` the
// Vite runs happen in the bench's own process instead (no process start and Vite import per run):
// the wall time is then the run's `performance.now()` span and the peak RSS the process's own so
// far — not per-build figures, one more reason a quick run's figures are not to be quoted.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProject } from "./project.mjs";
import { median } from "./rounds.mjs";
import { runVite } from "./vite-run.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, "vite-child.mjs");
const TIME = "/usr/bin/time";

/** Runs the Vite child under GNU time: its JSON answer, wall seconds and peak RSS (KiB, the largest process of its tree). */
function child(args) {
  const r = spawnSync(TIME, ["-f", "TIME %e %M", process.execPath, CHILD, ...args], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const timing = /TIME ([\d.]+) (\d+)\s*$/.exec(r.stderr ?? "");
  if (r.status !== 0 || !timing) throw new Error(`vite ${args.join(" ")} failed (${r.status}):\n${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split("\n").pop());
  return { ...out, wallS: Number(timing[1]), rssKiB: Number(timing[2]) };
}

/**
 * One Vite run (scripts/bench/vite-run.mjs modes): in its own process under GNU time, or with
 * `quick` in this process (wall seconds by `performance.now()`, `rssKiB` this process's peak so far).
 * @returns {Promise<object>} the run's answer with `wallS` and `rssKiB`.
 */
async function vite(args, quick) {
  if (!quick) return child(args);
  const t0 = performance.now();
  const out = await runVite(args);
  return { ...out, wallS: (performance.now() - t0) / 1000, rssKiB: process.resourceUsage().maxRSS };
}

/**
 * Builds every project size in both flavours; `rounds` warm-cache builds each (after one that
 * fills the cache), interleaved typed/zod. With `rounds` 0 (`--quick`) the cache-filling build is
 * the only one, and its wall time and RSS stand for the warm figures.
 * @returns per size and flavour: bundle bytes, median wall seconds, median peak RSS (KiB).
 */
async function builds(root, tmp, sizes, rounds, shape, quick) {
  const out = {};
  for (const n of sizes) {
    out[n] = {};
    const dirs = {};
    for (const flavor of ["typed", "zod"]) {
      dirs[flavor] = join(tmp, `project-${shape}-${flavor}-${n}`);
      rmSync(dirs[flavor], { recursive: true, force: true });
      writeProject(root, dirs[flavor], flavor, n, shape);
      // The first build fills the plugin's cache: the cold build.
      out[n][flavor] = { first: await vite(["build", dirs[flavor], flavor, "node", "0"], quick), runs: [] };
    }
    for (let r = 0; r < rounds; r++)
      for (const flavor of ["typed", "zod"])
        out[n][flavor].runs.push(await vite(["build", dirs[flavor], flavor, "node", "0"], quick));
    for (const flavor of ["typed", "zod"]) {
      const f = out[n][flavor];
      if (f.runs.length === 0) f.runs.push(f.first);
      f.bytes = f.first.bytes;
      // Minified bytes of the two largest sizes (growth per tool, minified).
      if (sizes.indexOf(n) >= sizes.length - 2)
        f.minBytes = (await vite(["build", dirs[flavor], flavor, "node", "1"], quick)).bytes;
      f.wallS = median(f.runs.map((x) => x.wallS));
      f.rssKiB = median(f.runs.map((x) => x.rssKiB));
    }
  }
  return out;
}

/** The watch edit loop on a project of `n` tools: p50 milliseconds per flavour. */
async function watchLoop(root, tmp, n, edits, shape, quick) {
  const out = {};
  for (const flavor of ["typed", "zod"]) {
    const dir = join(tmp, `watch-${shape}-${flavor}-${n}`);
    rmSync(dir, { recursive: true, force: true });
    writeProject(root, dir, flavor, n, shape);
    const { latencies } = await vite(["watch", dir, flavor, String(n), String(edits), shape], quick);
    out[flavor] = { p50: median(latencies), latencies };
  }
  return out;
}

/** IPC round trips per tool, cold: one new extractor extracts every tool module of a typed project of `n` tools. */
function roundTrips(root, tmp, n, createExtractor) {
  const dir = join(tmp, `ipc-${n}`);
  rmSync(dir, { recursive: true, force: true });
  const files = writeProject(root, dir, "typed", n);
  const out = {};
  for (const [label, typescript] of [
    ["7.0", "7.0"],
    ["7.1", join(root, "node_modules/typescript71")],
  ]) {
    const ex = createExtractor({ cwd: dir, typescript });
    let tools = 0;
    for (const f of files) {
      const m = ex.extract(f, readFileSync(f, "utf8"));
      if (m.diagnostics.length) throw new Error(JSON.stringify(m.diagnostics));
      tools += m.tools.length;
    }
    const st = ex.stats();
    ex.close();
    out[label] = { perTool: st.roundTrips / tools, roundTrips: st.roundTrips, tools, version: st.typescriptVersion };
  }
  return out;
}

/**
 * The Worker bundle of 5 tools, minified: bytes per flavour, and (`groups`) the minified bytes
 * each source group contributes (vite-run.mjs `profile`: the same build with a source map, read
 * by source-map-explorer). With `quick`, the profile build alone gives both (its bytes include
 * the `sourceMappingURL` comment).
 */
async function worker(root, tmp, quick) {
  const out = { groups: {} };
  for (const flavor of ["typed", "zod"]) {
    const dir = join(tmp, `worker-${flavor}`);
    rmSync(dir, { recursive: true, force: true });
    writeProject(root, dir, flavor, 5);
    const profile = await vite(["profile", dir, flavor, "worker", "1"], quick);
    out[flavor] = quick ? profile.bytes : (await vite(["build", dir, flavor, "worker", "1"], quick)).bytes;
    out.groups[flavor] = profile.groups;
  }
  return out;
}

/**
 * Project sizes and watch-loop sizes per shape. A full run: both shapes at 10/100/1,000 tools, the
 * watch loop at 100 and 1,000. `--quick` (the bench's own test): the simple shape at 5 and 20 tools
 * (two sizes, for the growth rows) with the watch loop at 20, the real shape at 20 tools only and no
 * watch loop — its growth and watch rows then say they were not measured; `everyRow` (the test's
 * full tier) gives the real shape the simple shape's quick plan too.
 * @returns `{ simple, real }`, each `{ sizes: number[], watch: number[] }` (tool counts, ascending).
 */
export function projectPlan(quick, everyRow = false) {
  if (!quick) {
    const full = { sizes: [10, 100, 1000], watch: [100, 1000] };
    return { simple: full, real: full };
  }
  const both = { sizes: [5, 20], watch: [20] };
  return { simple: both, real: everyRow ? both : { sizes: [20], watch: [] } };
}

/**
 * Runs the whole-build rows.
 * @param {{ root: string, tmp: string, quick: boolean, everyRow?: boolean, createExtractor: Function, log: (s: string) => void }} env
 */
export async function runProjects({ root, tmp, quick, everyRow, createExtractor, log }) {
  const shapes = {};
  for (const [shape, { sizes, watch: watchSizes }] of Object.entries(projectPlan(quick, everyRow))) {
    log(`  builds of ${sizes.join("/")}-tool ${shape} projects…`);
    const built = await builds(root, tmp, sizes, quick ? 0 : 3, shape, quick);
    const watch = {};
    for (const n of watchSizes) {
      log(`  watch edit loop, ${n} tools (${shape})…`);
      watch[n] = await watchLoop(root, tmp, n, quick ? 1 : 7, shape, quick);
    }
    shapes[shape] = { sizes, built, watch };
  }
  log("  IPC round trips…");
  const ipc = roundTrips(root, tmp, quick ? 20 : 100, createExtractor);
  log("  Worker bundles…");
  return { shapes, ipc, worker: await worker(root, tmp, quick) };
}

// `node scripts/bench/projects.mjs worker` (after `pnpm build`): the Worker row alone — both 5-tool
// Worker bundles built as `pnpm bench` builds them, their minified bytes and ratio, and the
// per-source table of BENCHMARKS.md (figures of one run; sizes are deterministic).
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "worker") {
  const root = join(here, "../..");
  const { workerGroups } = await import("./report.mjs");
  mkdirSync(join(root, ".tmp"), { recursive: true });
  const tmp = mkdtempSync(join(root, ".tmp", "bench-worker-"));
  try {
    const w = await worker(root, tmp, false);
    console.log(`typed-mcp ${w.typed} B, SDK + zod ${w.zod} B: ×${(w.typed / w.zod).toFixed(3)}`);
    console.log(workerGroups(w.groups).join("\n"));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
