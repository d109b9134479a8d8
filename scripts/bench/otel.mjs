// The typed-mcp/otel rows of `pnpm bench` (issue 22): one 2026-07-28 `tools/call` of `place_order`
// (the call.mjs request) through `server.fetch` of three servers side by side, interleaved in
// every round —
// - `plain`: no instrumentation;
// - `api-no-sdk`: `instrument(server)` with @opentelemetry/api loaded and no SDK registered (the
//   API's no-op tracer and meter): the cost of the hook when nobody listens;
// - `sdk-batch`: `instrument(server, { tracerProvider, meterProvider })` with the real SDK — a
//   TracerProvider with a BatchSpanProcessor (its exporter drops the batches: the SDK's cost, not
//   a network's) and a MeterProvider with a reader;
// and a CPU profile (node:inspector) of `api-no-sdk` calls: the share of samples whose frame is
// typed-mcp/otel's or the middleware chain's code.
//
// `node scripts/bench/otel.mjs` (after `pnpm build`) runs these rows alone and prints them.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { interleavedRounds, median } from "./rounds.mjs";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { generatedTools, payloads } from "../../packages/codegen/bench/readers.mjs";
import { callRequest, calls, resultOf } from "./call.mjs";

/** A span exporter that accepts every batch and keeps nothing. */
const DROP = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} };

/** A metric reader nobody collects from (the SDK still aggregates every point). */
class IdleReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

/** Typed-mcp's own frames in a CPU profile: typed-mcp/otel and the middleware chain. */
const HOOK_FRAME = /\/packages\/typed-mcp\/dist\/(?:otel\.js|otel\/|calls\/middleware\.js|calls\/outcome\.js)/;

/**
 * Runs the rows; returns calls/s per contestant (median of rounds), the per-round ratios of
 * `api-no-sdk` to `plain` (their median and range are the row), and the profile share.
 * @param {{ root: string, quick: boolean, generated: Record<string, object> }} env
 */
export async function runOtel({ root, quick, generated }) {
  const typed = await import(pathToFileURL(join(root, "packages/typed-mcp/dist/index.js")).href);
  const internal = await import(pathToFileURL(join(root, "packages/typed-mcp/dist/internal.js")).href);
  const { instrument } = await import(pathToFileURL(join(root, "packages/typed-mcp/dist/otel.js")).href);
  const answer = (order) => `${order.id}: ${order.items.length} items`;
  const make = () => {
    const server = new typed.McpServer({ name: "bench", version: "1.0.0" });
    server.tool("place_order", (order) => answer(order), internal.generated({ ...generated.place_order }));
    return server;
  };
  const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: DROP })] });
  const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
  const contestants = {
    plain: make().fetch,
    "api-no-sdk": instrument(make()).fetch,
    "sdk-batch": instrument(make(), { tracerProvider, meterProvider }).fetch,
  };
  const args = payloads.place_order.valid;
  for (const [label, fetch] of Object.entries(contestants)) {
    const result = await resultOf(await fetch(callRequest("place_order", args)));
    if (result?.content?.[0]?.text !== answer(args.order))
      throw new Error(`${label}: unexpected result ${JSON.stringify(result)}`);
  }
  const samples = await interleavedRounds(calls(contestants, args), { rounds: quick ? 2 : 15, quick, name: "otel" });
  const ratios = samples["api-no-sdk"].map((hz, i) => hz / samples.plain[i]);
  const share = await profileShare(contestants["api-no-sdk"], args, quick ? 200 : 3000);
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  return {
    hz: Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)])),
    ratio: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), rounds: ratios.length },
    profile: share,
  };
}

/** Profiles `calls` sequential calls; the share of CPU samples in {@link HOOK_FRAME} frames (self time). */
async function profileShare(fetch, args, calls) {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  for (let i = 0; i < calls; i++) await (await fetch(callRequest("place_order", args))).text();
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  let total = 0;
  let hook = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (node.callFrame.functionName === "(idle)" || node.callFrame.functionName === "(program)") continue;
    total += hits;
    if (HOOK_FRAME.test(node.callFrame.url)) hook += hits;
  }
  return { share: total === 0 ? 0 : hook / total, samples: total, calls };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
  const { createExtractor } = await import(pathToFileURL(join(root, "packages/extract/dist/index.js")).href);
  const { generateTool } = await import(pathToFileURL(join(root, "packages/codegen/dist/index.js")).href);
  mkdirSync(join(root, ".tmp"), { recursive: true });
  const tmp = mkdtempSync(join(root, ".tmp", "bench-otel-"));
  try {
    const r = await runOtel({
      root,
      quick: process.argv.includes("--quick"),
      generated: await generatedTools({ root, tmp, createExtractor, generateTool }),
    });
    for (const [k, hz] of Object.entries(r.hz))
      console.log(
        `${k.padEnd(12)} ${Math.round(hz).toString().padStart(6)} calls/s  ${(1e6 / hz).toFixed(1).padStart(6)} µs/call`,
      );
    console.log(
      `api-no-sdk / plain: ×${r.ratio.median.toFixed(3)} (rounds ${r.ratio.rounds}: ${r.ratio.min.toFixed(3)}–${r.ratio.max.toFixed(3)})`,
    );
    console.log(`sdk-batch overhead: ${(1e6 / r.hz["sdk-batch"] - 1e6 / r.hz.plain).toFixed(1)} µs/call`);
    console.log(
      `profile: ${(r.profile.share * 100).toFixed(2)}% of ${r.profile.samples} samples over ${r.profile.calls} calls`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
