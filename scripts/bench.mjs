// typed-mcp benchmarks (`pnpm bench`, after `pnpm build`). Numbers are ratios against baselines
// run side by side in the same process, never absolute targets; record them in the docs/notes.
//
// 1. Argument reading: the reader typed-mcp generates for the playground's `create_entities`
//    (extracted from playground/src/memory.ts by the real pipeline) against ajv (the same
//    inputSchema, compiled; removeAdditional off, strict) and zod 4 (the equivalent schema).
// 2. Result writing: the generated writer against plain JSON.stringify of the same value.
// 3. Type extraction: sidecar cold start and per-module times for the playground module.
// 4. Backend comparison: cold start and warm re-extraction of an edited module on each
//    extraction backend (TypeScript 7.0 IPC, 7.1 IPC, classic TS 6 LanguageService).
import { readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";
import { Bench } from "tinybench";
import Ajv from "ajv";
import { z } from "zod";
import { createExtractor } from "../packages/extract/dist/index.js";
import { generateTool } from "../packages/codegen/dist/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const memoryTs = join(root, "playground/src/memory.ts");
const code = readFileSync(memoryTs, "utf8");

// --- 3. extraction -----------------------------------------------------------------------
const t0 = performance.now();
const extractor = createExtractor();
const first = extractor.extract(memoryTs, code);
const cold = performance.now() - t0;
const warm = [];
for (let i = 0; i < 5; i++) {
  const edited = code + `\n// edit ${i}\n`;
  const s = performance.now();
  extractor.extract(memoryTs, edited);
  warm.push(performance.now() - s);
}
const stats = extractor.stats?.();
extractor.close();
if (first.diagnostics.length) throw new Error(JSON.stringify(first.diagnostics));

// --- generated reader/writer for create_entities ------------------------------------------
const model = first.tools.find((t) => t.name === "create_entities");
const tmp = join(root, ".tmp");
mkdirSync(tmp, { recursive: true });
const internal = pathToFileURL(join(root, "packages/typed-mcp/dist/internal.js")).href;
const genFile = join(tmp, "bench-create-entities.mjs");
writeFileSync(genFile, `import * as __tmcp from ${JSON.stringify(internal)};\nexport default ${generateTool(model).code};\n`);
const generated = (await import(pathToFileURL(genFile).href)).default;

const ajv = new Ajv({ strict: false, allErrors: false });
const ajvValidate = ajv.compile(generated.listing.inputSchema);
const Entity = z.object({ name: z.string(), entityType: z.string(), observations: z.array(z.string()) });
const zodSchema = z.strictObject({ entities: z.array(Entity) });

const args = {
  entities: Array.from({ length: 5 }, (_, i) => ({
    name: `Entity_${i}`,
    entityType: i % 2 ? "person" : "organization",
    observations: ["Speaks Norwegian", "Likes tea", "Works remotely"],
  })),
};
const ctx = { signal: new AbortController().signal };
// All three must accept the same input and refuse the same bad input.
const bad = { entities: [{ ...args.entities[0], observations: ["ok", 3] }] };
if (!Array.isArray(generated.read(args, ctx)) || !ajvValidate(args) || !zodSchema.safeParse(args).success) throw new Error("valid input refused");
if (Array.isArray(generated.read(bad, ctx)) || ajvValidate(bad) || zodSchema.safeParse(bad).success) throw new Error("invalid input accepted");

const readBench = new Bench({ name: "read create_entities arguments (5 entities)", time: 1000 });
readBench
  .add("typed-mcp generated reader", () => generated.read(args, ctx))
  .add("ajv 8 compiled validate (same inputSchema)", () => ajvValidate(args))
  .add("zod 4 strictObject.safeParse", () => zodSchema.safeParse(args));
await readBench.run();

const result = { created: args.entities };
const writeBench = new Bench({ name: "write create_entities result", time: 1000 });
writeBench
  .add("typed-mcp generated writer", () => generated.write(result))
  .add("baseline: JSON.stringify only", () => JSON.stringify(result));
await writeBench.run();

function report(bench, baselineIndex) {
  const rows = bench.tasks.map((t) => ({ name: t.name, hz: t.result.throughput?.mean ?? t.result.hz }));
  const base = rows[baselineIndex].hz;
  console.log(`\n${bench.name}`);
  for (const r of rows) {
    console.log(`  ${r.name.padEnd(46)} ${Math.round(r.hz).toLocaleString("en").padStart(12)} ops/s   ×${(r.hz / base).toFixed(2)} vs ${rows[baselineIndex].name}`);
  }
}
report(readBench, 2);
report(writeBench, 1);
console.log(`\ntype extraction of playground/src/memory.ts (${first.tools.length} tools)`);
console.log(`  sidecar cold start + first module: ${cold.toFixed(0)} ms`);
console.log(`  edited module, warm sidecar: median ${warm.sort((a, b) => a - b)[2].toFixed(1)} ms`);
if (stats) console.log(`  stats: ${JSON.stringify(stats)}`);

// --- 4. backend comparison ------------------------------------------------------------------
{
  const modules = [
    ["playground/src/memory.ts", join(root, "playground/src/memory.ts")],
    ["test/extract/fixtures/basic/kinds.ts", join(root, "test/extract/fixtures/basic/kinds.ts")],
  ];
  console.log(`\ntype extraction per backend (cold: new extractor + first module; warm: the module edited, median of 7)`);
  // 7.1: the typescript71 dev dependency (typescript@7.1.0-dev), by package directory.
  for (const backend of ["7.0", join(root, "node_modules/typescript71"), "6"]) {
    for (const [label, file] of modules) {
      const text = readFileSync(file, "utf8");
      const c0 = performance.now();
      const ex = createExtractor({ cwd: root, typescript: backend });
      const m = ex.extract(file, text);
      const coldMs = performance.now() - c0;
      if (m.diagnostics.length) throw new Error(`${backend} ${label}: ${JSON.stringify(m.diagnostics)}`);
      const times = [];
      for (let i = 0; i < 7; i++) {
        const s = performance.now();
        ex.extract(file, text + `\n// edit ${i}\n`);
        times.push(performance.now() - s);
      }
      const again = performance.now();
      ex.extract(file, text + `\n// edit 6\n`);
      const unchanged = performance.now() - again;
      const st = ex.stats();
      ex.close();
      times.sort((a, b) => a - b);
      console.log(
        `  ${st.backend.padEnd(4)} ${label.padEnd(38)} ${String(m.tools.length).padStart(2)} tools  cold ${coldMs.toFixed(0).padStart(5)} ms (checker start ${st.coldStartMs.toFixed(0)} ms)  warm edit ${times[3].toFixed(1).padStart(6)} ms  unchanged ${unchanged.toFixed(2)} ms  [${st.typescriptVersion}]`,
      );
    }
  }
}
