/**
 * Differential test of the generated reader (docs/codegen.md "Differential test"): random
 * supported parameter types, built through the real extraction and codegen, against ajv on the
 * listed `inputSchema` (oracle.ts). Bounded here (30 types × 200 values by default); `pnpm fuzz`
 * runs it long (`FUZZ_LONG=1`: batches for 600 s, 1000 values per type). Replay a failure with
 * the `FUZZ_SEED=… FUZZ_TOOL=… FUZZ_PATH=…` line it prints.
 */
import { afterAll, expect, it } from "vitest";
import { buildBatch, closeExtractor, config, runTool, stats } from "./harness.ts";

const cfg = config();
afterAll(() => closeExtractor());

it(
  `the reader accepts exactly what the oracle accepts, the zero-copy path answers what the copy path does, and accepted values round-trip (FUZZ_SEED=${cfg.seed})`,
  async () => {
    console.log(
      `fuzz: FUZZ_SEED=${cfg.seed} tools/batch=${cfg.tools} runs/tool=${cfg.runs} depth=${cfg.depth} seconds=${cfg.seconds}`,
    );
    const started = Date.now();
    const failures: string[] = [];
    let cases = 0;
    let types = 0;
    for (let batch = 0; ; batch++) {
      const seed = (cfg.seed + 1000 * batch) | 0;
      const { built } = await buildBatch(seed, cfg.tools, cfg.depth);
      expect(built.length).toBe(cfg.tools);
      for (const b of built) {
        if (cfg.tool !== undefined && b.index !== cfg.tool) continue;
        const r = runTool(b, cfg, seed);
        cases += r.runs;
        types++;
        if (r.failure !== undefined) failures.push(r.failure);
      }
      if (cfg.tool !== undefined || (Date.now() - started) / 1000 >= cfg.seconds) break;
    }
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz: ${types} types, ${cases} cases (${stats.accepted} accepted, ${stats.refused} refused; ${stats.zeroCopy} accepted with zero copy) in ${secs} s, ${failures.length} failing types`,
    );
    if (failures.length > 0) throw new Error(`${failures.length} disagreement(s):\n\n${failures.join("\n\n")}`);
    // The zero-copy path is exercised (a replayed single tool may have no object to reuse).
    if (cfg.tool === undefined) expect(stats.zeroCopy).toBeGreaterThan(0);
  },
  (cfg.seconds + 300) * 1000,
);
