// The playground and backend rows of `pnpm bench` (full runs only): the generated writer of the
// playground's `create_entities` against a bare JSON.stringify of the same value, type extraction
// of playground/src/memory.ts (sidecar cold start, warm re-extraction of an edited module), and
// the backend comparison (cold start and warm re-extraction on TypeScript 7.0 IPC, 7.1 IPC and the
// classic TS 6 LanguageService). Returns its report as text lines.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { median } from "./rounds.mjs";

/** Extracts `file` with a new extractor on `typescript`: cold ms, then the median of 7 warm edits. */
function extractionTimes(createExtractor, root, typescript, file) {
  const text = readFileSync(file, "utf8");
  const c0 = performance.now();
  const ex = createExtractor({ cwd: root, typescript });
  const model = ex.extract(file, text);
  const coldMs = performance.now() - c0;
  if (model.diagnostics.length) throw new Error(`${typescript} ${file}: ${JSON.stringify(model.diagnostics)}`);
  const warm = [];
  for (let i = 0; i < 7; i++) {
    const s = performance.now();
    ex.extract(file, text + `\n// edit ${i}\n`);
    warm.push(performance.now() - s);
  }
  const st = ex.stats();
  ex.close();
  return { model, coldMs, warmMs: median(warm), stats: st };
}

/**
 * Runs these rows.
 * @param {{ root: string, tmp: string, createExtractor: Function, generateTool: Function }} env
 * @returns {Promise<string[]>} the report lines.
 */
export async function runExtraction({ root, tmp, createExtractor, generateTool }) {
  const lines = [];
  const memoryTs = join(root, "playground/src/memory.ts");
  const first = extractionTimes(createExtractor, root, "7.0", memoryTs);

  // The generated writer of create_entities against JSON.stringify of the same value.
  const model = first.model.tools.find((t) => t.name === "create_entities");
  const internal = pathToFileURL(join(root, "packages/typed-mcp/dist/internal.js")).href;
  const genFile = join(tmp, "bench-create-entities.mjs");
  writeFileSync(
    genFile,
    `import * as __tmcp from ${JSON.stringify(internal)};\nexport default ${generateTool(model).code};\n`,
  );
  const generated = (await import(pathToFileURL(genFile).href)).default;
  const entities = Array.from({ length: 5 }, (_, i) => ({
    name: `Entity_${i}`,
    entityType: i % 2 ? "person" : "organization",
    observations: ["Speaks Norwegian", "Likes tea"],
  }));
  const result = { created: entities };
  const writeBench = new Bench({ name: "write create_entities result", time: 1000 });
  writeBench.add("generated writer", () => generated.write(result)).add("JSON.stringify", () => JSON.stringify(result));
  await writeBench.run();
  const [w, j] = writeBench.tasks.map((t) => t.result.throughput?.mean ?? t.result.hz);
  lines.push(
    `- create_entities result writer: ${Math.round(w).toLocaleString("en")} ops/s, ×${(w / j).toFixed(2)} a bare JSON.stringify of the same value`,
  );
  lines.push(
    `- extraction of playground/src/memory.ts (${first.model.tools.length} tools, 7.0): cold ${first.coldMs.toFixed(0)} ms (checker start ${first.stats.coldStartMs.toFixed(0)} ms), edited module on the warm sidecar ${first.warmMs.toFixed(1)} ms`,
  );

  // Backend comparison; 7.1 is the typescript71 dev dependency (typescript@7.1.0-dev), by package directory.
  for (const backend of ["7.0", join(root, "node_modules/typescript71"), "6"]) {
    for (const rel of ["playground/src/memory.ts", "test/extract/fixtures/basic/kinds.ts"]) {
      const r = extractionTimes(createExtractor, root, backend, join(root, rel));
      lines.push(
        `- backend ${r.stats.backend} (${r.stats.typescriptVersion}), ${rel}: cold ${r.coldMs.toFixed(0)} ms (checker start ${r.stats.coldStartMs.toFixed(0)} ms), warm edit ${r.warmMs.toFixed(1)} ms`,
      );
    }
  }
  return lines;
}
