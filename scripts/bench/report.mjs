// Writes BENCHMARKS.md for `pnpm bench`: the issue-26 table (figure, now, goal; report-rows.mjs), the raw figures
// behind each row, the method, the machine and the versions.
import { readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PAYLOADS, rows } from "./report-rows.mjs";

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const x = (ratio) => `×${ratio.toFixed(2)}`;
const ops = (hz) => Math.round(hz).toLocaleString("en");

/** The typia bench folder (its own devDependencies, outside the workspace). */
const typiaDir = join(dirname(fileURLToPath(import.meta.url)), "../../packages/codegen/bench/typia");

/** The version of package `name` as installed under `dir`'s node_modules. */
function version(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return "?";
  }
}

/** The Worker bundles' minified bytes per source group, largest difference first (groups under 100 bytes in both summed as "other"). */
export function workerGroups(groups) {
  const { typed, zod } = groups;
  const keys = [...new Set([...Object.keys(typed), ...Object.keys(zod)])];
  keys.sort(
    (a, b) =>
      Math.abs((typed[b] ?? 0) - (zod[b] ?? 0)) - Math.abs((typed[a] ?? 0) - (zod[a] ?? 0)) || a.localeCompare(b),
  );
  const lines = [
    "",
    "## Worker bundle by source (minified bytes, source-map-explorer)",
    "",
    "| source | typed-mcp | SDK + zod |",
    "|---|---|---|",
  ];
  const other = { typed: 0, zod: 0 };
  for (const k of keys) {
    if ((typed[k] ?? 0) < 100 && (zod[k] ?? 0) < 100) {
      other.typed += typed[k] ?? 0;
      other.zod += zod[k] ?? 0;
    } else lines.push(`| ${k} | ${typed[k] ?? "–"} | ${zod[k] ?? "–"} |`);
  }
  lines.push(`| other | ${other.typed} | ${other.zod} |`);
  return lines;
}

/**
 * The text of BENCHMARKS.md.
 * @param {{ root: string, quick: boolean, readers: object, formats: string, call: object, otel: object, projects: object, coldStart: object, extraction: string[] | undefined, store: object | undefined, startedAt: Date, seconds: number }} r
 */
export function renderReport(r) {
  const cpu = cpus();
  const ts = (dir) => version(r.root, dir);
  const out = [];
  out.push("# Benchmarks", "");
  out.push(
    `Written by \`pnpm bench${r.quick ? " --quick" : ""}\` (scripts/bench.mjs) on ${r.startedAt.toISOString()} in ${r.seconds.toFixed(0)} s.${r.quick ? " **Quick run**: small projects, short timings, the Vite builds in the bench's own process (their wall times and peak RSS are not per build) — not figures to quote." : ""} Goals are issue 26's.`,
    "",
  );
  out.push("| figure | now | goal |", "|---|---|---|");
  for (const [figure, now, goal] of rows(r)) out.push(`| ${figure} | ${now} | ${goal} |`);
  out.push(
    "",
    "## Readers (ops/s, valid input)",
    "",
    "| payload | generated | hand-written | ajv 8 (+ formats) | zod 4 | typia 12 | generated / hand | generated / zod | generated / ajv | generated / typia |",
    "|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const [p, label] of Object.entries(PAYLOADS)) {
    const v = r.readers[p];
    out.push(
      `| ${label} | ${ops(v.generated)} | ${ops(v["hand-written"])} | ${ops(v.ajv)} | ${ops(v.zod)} | ${ops(v.typia)} | ${x(v.generated / v["hand-written"])} | ${x(v.generated / v.zod)} | ${x(v.generated / v.ajv)} | ${x(v.generated / v.typia)} |`,
    );
  }
  const us = (hz) => `${(1e6 / hz).toFixed(1)} µs`;
  out.push(
    "",
    "## tools/call (calls/s, median of interleaved rounds)",
    "",
    "| typed-mcp | SDK McpServer + zod | SDK + zod, body read ahead (`parsedBody`) | SDK floor (no validation, `parsedBody`) |",
    "|---|---|---|---|",
  );
  out.push(
    `| ${ops(r.call["typed-mcp"])} (${us(r.call["typed-mcp"])}) | ${ops(r.call.sdk)} (${us(r.call.sdk)}) | ${ops(r.call["sdk-parsed-body"])} (${us(r.call["sdk-parsed-body"])}) | ${ops(r.call["sdk-floor"])} (${us(r.call["sdk-floor"])}) |`,
  );
  for (const [shape, { sizes, built, watch }] of Object.entries(r.projects.shapes)) {
    out.push(
      "",
      `## Projects: ${shape === "real" ? "real-shaped (scripts/bench/project-real.mjs)" : "simple (scripts/bench/project.mjs)"}`,
      "",
      "| tools | typed-mcp bundle | zod bundle | minified | typed-mcp cold build | zod cold build | typed-mcp warm build | zod warm build | typed-mcp peak RSS (warm) | zod peak RSS (warm) |",
      "|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const n of sizes) {
      const b = built[n];
      const min = b.typed.minBytes === undefined ? "–" : `${mb(b.typed.minBytes)} vs ${mb(b.zod.minBytes)}`;
      out.push(
        `| ${n} | ${mb(b.typed.bytes)} | ${mb(b.zod.bytes)} | ${min} | ${b.typed.first.wallS.toFixed(2)} s | ${b.zod.first.wallS.toFixed(2)} s | ${b.typed.wallS.toFixed(2)} s | ${b.zod.wallS.toFixed(2)} s | ${(b.typed.rssKiB / 1024).toFixed(0)} MB | ${(b.zod.rssKiB / 1024).toFixed(0)} MB |`,
      );
    }
    for (const [n, w] of Object.entries(watch)) {
      out.push(
        "",
        `Watch edits at N = ${n} (ms): typed-mcp ${w.typed.latencies.map((l) => l.toFixed(0)).join(", ")}; zod ${w.zod.latencies.map((l) => l.toFixed(0)).join(", ")}.`,
      );
    }
  }
  out.push(...workerGroups(r.projects.worker.groups));
  if (r.extraction) out.push("", "## Playground and backends", "", ...r.extraction);
  if (r.store) out.push(...storeRows(r.store));
  out.push(
    "",
    "## Method",
    "",
    "- Medians: every median in this report (of rounds, builds, watch edits, warm extractions) is the middle value of the sorted figures, and of an even count the upper of the two middle ones — one rule, scripts/bench/rounds.mjs `median`; every count a full run takes is odd.",
    "- Readers: the three tools of scripts/bench/fixture/src/payloads.ts, extracted by the real pipeline and generated by `@typed-mcp/codegen`; the hand-written readers, zod schemas and payloads are in packages/codegen/bench/readers.mjs. Every contestant must accept the valid payload and refuse the invalid one (the hand-written reader with the same path, and the same clean copy) before anything is timed. tinybench, mean throughput, one process, the contestants of a payload run side by side. ajv only validates (no copy, dates stay strings); so does typia 12 `validateEquals` (packages/codegen/bench/typia: the same types with typia's tags, compiled once by `tspc` from ts-patch on TypeScript 5.9; its `date-time` check is a lexical pattern, so its refusal of the strings payload is checked on an hour of 25 instead of February 30).",
    "- tools/call: one 2026-07-28 POST (`_meta` envelope + MCP-Protocol-Version / Mcp-Method headers) through each server's web-standard handler, the order with 50 items as arguments (scripts/bench/call.mjs; `node scripts/bench/call.mjs` runs it alone). tinybench, the contestants in turn in every round, medians of the rounds. Two references: the SDK handler given the body read ahead (`parsedBody`, as `server.fetch` does itself, so the SDK does not clone the request), and the SDK's bare low-level `Server` validating nothing — the SDK's own cost per request; typed-mcp's own cost is its time per call minus that floor.",
    "- typed-mcp/otel (scripts/bench/otel.mjs; `node scripts/bench/otel.mjs` runs it alone): the same tools/call through three servers in turn in every round — no instrumentation, `instrument(server)` with `@opentelemetry/api` loaded and no SDK registered, and `instrument` with the real SDK (TracerProvider + BatchSpanProcessor whose exporter drops the batches, MeterProvider + a reader). The ratio row is the median of the per-round ratios with their range; the profile row is a node:inspector CPU profile of no-SDK calls, the share of self-time samples in dist/otel*, calls/middleware.js and calls/outcome.js.",
    "- Projects: scripts/bench/project.mjs writes N tools over ⌈N/10⌉ modules of 10, each tool taking one of ⌈N/10⌉ shared 6-field types (each type used by 10 tools) and an `Int`; the typed-mcp version as `@tool()` methods (built with the plugin), the zod version with the SDK's `registerTool` + zod. `vite build` (SSR, everything bundled, not minified) runs in its own process under GNU time (`%e` wall, `%M` peak RSS of the largest process of the tree, the TypeScript sidecar included); one build fills the plugin's cache, then the rounds alternate typed / zod and the medians are reported. Growth per tool is the bundle difference between the two largest projects over their tool difference.",
    "- Watch: `build({ build: { watch: {} } })` in its own process; each edit rewrites src/types.ts changing `Shape0.count` (`Int` ↔ `number`; `z.int()` ↔ `z.number()`), used by 10 tools; latency from the write to the watcher's `END` event; p50 of the edits.",
    "- IPC round trips: a new extractor extracts every tool module of the typed project (cold sidecar); the 7.x API's own request count (`BackendStats.roundTrips`) over the number of tools.",
    "- Cold starts (scripts/bench/cold-start.mjs; `node scripts/bench/cold-start.mjs` runs them alone): the 5-tool project of the Worker row in both flavours. Node: a stdio entry (typed-mcp's `serveStdio(server)`; the SDK's `McpServer` on its `StdioServerTransport`) bundled by Vite for Node (not minified); a run spawns `node server.js`, sends `initialize`, `notifications/initialized` and `tools/list`, and takes the time from the spawn to the `tools/list` answer. workerd: the minified Worker bundle as the only module of a workerd config (`nodejs_compat`, port chosen by workerd and read from `--control-fd`); a run spawns `workerd serve` and takes the time from the spawn to the answer of one 2026-07-28 `tools/list` POST. Whole processes, typed-mcp and the SDK in turn in every round after one warm-up run each; both answers list the 5 tools; the ratio is the median of the per-round ratios.",
    '- Worker: 5 tools, the worker-style Vite build of docs/runtimes.md (`ssr.target: "webworker"`, workerd conditions), minified; the per-source table is the same build with a source map, each source\'s bytes by source-map-explorer (typed-mcp\'s runtime per file, the SDK per file of its dist, other packages whole, the project\'s own and generated modules as "app").',
    "",
    "## Machine and versions",
    "",
    `- ${cpu.length} × ${cpu[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${process.platform} ${process.arch}, Node ${process.version}`,
    `- vite ${ts("vite")}, zod ${ts("zod")}, ajv ${ts("ajv")}, ajv-formats ${ts("ajv-formats")}, tinybench ${ts("tinybench")}, typescript ${ts("typescript")} (7.0), typescript71 ${ts("typescript71")}, @modelcontextprotocol/server ${version(join(r.root, "packages/typed-mcp"), "@modelcontextprotocol/server")}, typia ${version(typiaDir, "typia")} (ts-patch ${version(typiaDir, "ts-patch")}, typescript ${version(typiaDir, "typescript")})`,
    "",
  );
  return out.join("\n");
}

/**
 * The scale-out section (issue 20, scripts/bench/store.mjs): tools/call and task round trips with
 * the Redis store vs none (goal: a call that keeps nothing ≥ 0.9×), and fan-out latency.
 */
function storeRows(s) {
  const rate = (hz) => `${Math.round(hz).toLocaleString("en-US")}/s`;
  return [
    "",
    "## Shared store (Redis on loopback; docs/scaling.md)",
    "",
    "| figure | no store | Redis store | Redis / none | goal |",
    "|---|---|---|---|---|",
    `| tools/call without tasks, anonymous | ${rate(s.calls.memory)} | ${rate(s.calls.redis)} | ${x(s.calls.redis / s.calls.memory)} | ≥ ×0.90 |`,
    `| tools/call without tasks, token owner (cancellable across instances) | ${rate(s.calls["memory, token owner"])} | ${rate(s.calls["redis, token owner"])} | ${x(s.calls["redis, token owner"] / s.calls["memory, token owner"])} | ≥ ×0.90 |`,
    `| task create → completed round trip (2026-07-28) | ${rate(s.tasks.memory)} | ${rate(s.tasks.redis)} | ${x(s.tasks.redis / s.tasks.memory)} | — (measured) |`,
    "",
    `\`resources/updated\` from instance B to a listen stream on A (two servers, one Redis): p50 ${s.latency.p50.toFixed(2)} ms, p99 ${s.latency.p99.toFixed(2)} ms.`,
  ];
}
