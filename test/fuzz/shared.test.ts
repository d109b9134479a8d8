/**
 * Shared units against the inline code (issue 12; docs/architecture.md "Shared types"): random
 * supported signatures through the real extraction (the differential test's type generator,
 * harness.ts), each tool generated twice — inline, and with `share` (object types as shared
 * schema constants, readers and writers, declared at the module's top as `@typed-mcp/babel`
 * does) — must list the same JSON text, read every argument value (valid, near-valid, hostile)
 * to the same arguments or the same spec §5 error text, and write every accepted value to the
 * same result. The inline code is what the rest of the suite holds to the contract.
 */
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { buildBatch, closeExtractor, config } from "./harness.ts";
import { argsArb, listed } from "./values.ts";
import { fakeCtx, load, roundTripper } from "../codegen/helpers.ts";

const cfg = config();
afterAll(() => closeExtractor());
const ctx = fakeCtx();

it(`shared units list, read and write exactly as the inline code (FUZZ_SEED=${cfg.seed})`, async () => {
  const failures: string[] = [];
  let withUnits = 0;
  for (let batch = 0; batch < 2; batch++) {
    const seed = (cfg.seed + 7919 * (batch + 1)) | 0;
    const { built } = await buildBatch(seed, cfg.tools, cfg.depth);
    for (const b of built) {
      const shared = await load(b.model, { share: true });
      const trips = await Promise.all(listed(b.model.params).map((p) => roundTripper(p.type, { share: true })));
      if (JSON.stringify(shared.listing) !== JSON.stringify(b.loaded.listing))
        failures.push(`t${b.index} (seed ${seed}): the listings differ`);
      const out = fc.check(
        fc.property(argsArb(b.model.params), (text) => {
          const inline = b.loaded.read(JSON.parse(text), ctx);
          const got = shared.read(JSON.parse(text), ctx);
          if (!isDeepStrictEqual(got, inline)) return false;
          if (!Array.isArray(inline)) return true;
          // Writers: each accepted value through a tool whose result is that parameter's type (roundTripper's tool), shared and inline.
          const d = b.model.params[0]?.role === "destructured";
          return (
            d ||
            listed(b.model.params).every(
              (_p, i) => inline[i] === undefined || isDeepStrictEqual(trips[i]!(got[i]), b.trips[i]!(inline[i])),
            )
          );
        }),
        { seed, numRuns: Math.min(cfg.runs, 100) },
      );
      if (out.failed)
        failures.push(
          `t${b.index} (seed ${seed}): ${(out.counterexample as [string])[0]} → inline ${JSON.stringify(b.loaded.read(JSON.parse((out.counterexample as [string])[0]), ctx))}`,
        );
      // The shared `read` is itself a unit; it goes through object units when it names one.
      if (shared.read.toString().includes("__tmcp_u_")) withUnits++;
    }
  }
  // The generator's object types (interfaces, aliases, intersections) must actually go through units.
  expect(withUnits).toBeGreaterThan(0);
  expect(failures).toEqual([]);
}, 300_000);
