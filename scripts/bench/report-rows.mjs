// The table of BENCHMARKS.md (scripts/bench/report.mjs): issue 26's rows — figure, now, goal — from
// one `pnpm bench` run's figures, every ratio from contestants measured side by side in that run.

const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const x = (ratio) => `×${ratio.toFixed(2)}`;
const ops = (hz) => Math.round(hz).toLocaleString("en");

/** The reader payloads: key → label. */
export const PAYLOADS = {
  flat: "flat scalars",
  place_order: "order with 50 items",
  strings: "strings with patterns and formats",
};

/** Shape labels. */
const SHAPES = { simple: "`pnpm bench`'s project", real: "real-shaped" };

/** `a / b` per payload, as `×min–×max (flat / order / strings)`. */
function readerRow(readers, a, b) {
  const rs = Object.keys(PAYLOADS).map((p) => readers[p][a] / readers[p][b]);
  return `${x(Math.min(...rs))}–${x(Math.max(...rs))} (${rs.map((r) => r.toFixed(2)).join(" / ")})`;
}

/** Growth per added tool between the two largest sizes, `key` bytes ("bytes" or "minBytes"). */
function growth(built, sizes, flavor, key) {
  const [prev, max] = sizes.slice(-2);
  return (built[max][flavor][key] - built[prev][flavor][key]) / (max - prev);
}

/** What a row of a shape says when a `--quick` run did not measure it (scripts/bench/projects.mjs `projectPlan`). */
export const NOT_MEASURED = "not measured by `pnpm bench --quick`";

/** The growth row's figures, or {@link NOT_MEASURED} with one size. */
function growthText(built, sizes) {
  if (sizes.length < 2) return NOT_MEASURED;
  return `${kb(growth(built, sizes, "typed", "bytes"))} unminified, ${kb(growth(built, sizes, "typed", "minBytes"))} minified (zod + SDK: ${kb(growth(built, sizes, "zod", "bytes"))} / ${kb(growth(built, sizes, "zod", "minBytes"))})`;
}

/** The rows of one project shape: code per tool, bundle, cold and warm build, watch loop. */
function shapeRows(shape, { sizes, built, watch }) {
  const label = SHAPES[shape];
  const [prev, max] = sizes.length < 2 ? [undefined, sizes[0]] : sizes.slice(-2);
  const b = built[max];
  const ratioAt = (n, pick) => pick(built[n].typed) / pick(built[n].zod);
  const rss = (f) => `${(f.rssKiB / 1024).toFixed(0)} MB`;
  return [
    [
      `generated code per added tool, N = ${prev ?? "–"} → ${max}, ${label}`,
      growthText(built, sizes),
      "≤ 1.5 KB unminified, ≤ 0.6 KB minified",
    ],
    [
      `Vite bundle at N = ${max}, ${label}`,
      `${mb(b.typed.bytes)} (zod version ${mb(b.zod.bytes)}: ${x(b.typed.bytes / b.zod.bytes)})`,
      "≤ ×1.5 the zod version",
    ],
    [
      `cold \`vite build\` (empty plugin cache) vs the zod version, ${label}`,
      sizes
        .slice(-2)
        .map(
          (n) =>
            `${x(ratioAt(n, (f) => f.first.wallS))} at N = ${n} (${built[n].typed.first.wallS.toFixed(2)} s vs ${built[n].zod.first.wallS.toFixed(2)} s; peak RSS ${rss(built[n].typed.first)} vs ${rss(built[n].zod.first)})`,
        )
        .join("; "),
      "≤ ×2.0 at 1,000; RSS ≤ ×1.5",
    ],
    [
      `warm-cache \`vite build\` vs the zod version, ${label}`,
      sizes
        .slice(-2)
        .map(
          (n) =>
            `${x(ratioAt(n, (f) => f.wallS))} at N = ${n} (${built[n].typed.wallS.toFixed(2)} s vs ${built[n].zod.wallS.toFixed(2)} s)`,
        )
        .join("; "),
      "≤ ×1.3",
    ],
    [
      `\`vite build --watch\`, edit of an interface 10 tools use → rebuilt bundle, p50, ${label}`,
      Object.entries(watch)
        .map(
          ([n, w]) =>
            `${w.typed.p50.toFixed(0)} / ${w.zod.p50.toFixed(0)} ms at N = ${n} (${x(w.typed.p50 / w.zod.p50)})`,
        )
        .join("; ") || NOT_MEASURED,
      "≤ ×1.3 the zod version",
    ],
  ];
}

/** Issue 22's rows (scripts/bench/otel.mjs): typed-mcp/otel with no SDK registered vs without it, and the SDK's cost per call. */
function otelRows(otel) {
  return [
    [
      "tools/call with typed-mcp/otel, `@opentelemetry/api` loaded and no SDK, vs without",
      `${x(otel.ratio.median)} (median of ${otel.ratio.rounds} interleaved rounds; per-round range ${otel.ratio.min.toFixed(2)}–${otel.ratio.max.toFixed(2)}); CPU profile: ${(otel.profile.share * 100).toFixed(2)}% of ${otel.profile.samples} samples in the hook's code`,
      "≥ 0.95×",
    ],
    [
      "tools/call overhead with the OTel SDK (BatchSpanProcessor, MeterProvider)",
      `${(1e6 / otel.hz["sdk-batch"] - 1e6 / otel.hz.plain).toFixed(1)} µs per call (${ops(otel.hz["sdk-batch"])} vs ${ops(otel.hz.plain)} calls/s)`,
      "reported",
    ],
  ];
}

/** A cold-start row (scripts/bench/cold-start.mjs): the median per-round ratio, its range, and each flavour's median. */
function coldRow(c) {
  return `${x(c.ratio)} (${c.typed.toFixed(0)} vs ${c.zod.toFixed(0)} ms, medians of ${c.rounds} interleaved rounds; per-round range ${c.min.toFixed(2)}–${c.max.toFixed(2)})`;
}

/** The table rows: `[figure, now, goal]`. */
export function rows({ readers, call, otel, projects, formats, coldStart }) {
  const { shapes, ipc, worker } = projects;
  const out = [
    ["reader vs ajv 8 (validation only, no copy), every payload", readerRow(readers, "generated", "ajv"), "≥ ×1.0"],
    ["reader vs typia 12 `validateEquals`, every payload", readerRow(readers, "generated", "typia"), "≥ ×1.0"],
    ["reader vs zod 4 `safeParse`", readerRow(readers, "generated", "zod"), "keep ≥ ×4"],
    [
      "reader vs a hand-written reader (validate, clean copy, path error)",
      readerRow(readers, "generated", "hand-written"),
      "keep ≥ ×0.9",
    ],
    [
      "2026-07-28 tools/call vs the SDK's own floor (bare `Server`, no validation, body read ahead)",
      `${x(call["typed-mcp"] / call["sdk-floor"])} (${ops(call["typed-mcp"])} vs ${ops(call["sdk-floor"])} calls/s); vs the SDK's McpServer + zod ${x(call["typed-mcp"] / call.sdk)}`,
      "≥ 0.95",
    ],
    [
      "string-heavy read: share of each format check (its time on the payload's values / the whole read)",
      formats,
      "each ≤ 10 %",
    ],
    ...otelRows(otel),
  ];
  for (const [shape, s] of Object.entries(shapes)) out.push(...shapeRows(shape, s));
  out.push(
    [
      "IPC round trips per tool (cold)",
      Object.entries(ipc)
        .map(([k, v]) => `${v.perTool.toFixed(2)} on ${k} (${v.roundTrips} for ${v.tools} tools)`)
        .join("; "),
      "≤ 5",
    ],
    [
      "Worker bundle (5 tools), minified, vs the SDK + zod worker",
      `${x(worker.typed / worker.zod)} (${kb(worker.typed)} vs ${kb(worker.zod)})`,
      "≤ ×1.10",
    ],
    ["Node cold start, spawn → first `tools/list` over stdio, vs the SDK + zod", coldRow(coldStart.node), "≤ ×1.0"],
    ["workerd cold start, spawn → first `tools/list`, vs the SDK + zod", coldRow(coldStart.workerd), "keep ≤ ×1.0"],
  );
  return out;
}
