// One Vite run of a benchmark project, as a function: scripts/bench/vite-child.mjs runs it in a
// process of its own (a full run, under GNU time), and `--quick` runs it in the bench's own
// process (scripts/bench/projects.mjs). Answers a plain object:
//   build <dir> <typed|zod> <node|worker> <minify 0|1>
//     → { bytes }: the size of the bundle (dist-<target>/server.js).
//   profile <dir> <typed|zod> <node|worker> <minify 0|1>
//     → { bytes, groups }: as `build`, with a source map, and the bundle's bytes per source group
//       (`source-map-explorer` on the written bundle: each workspace or npm package, typed-mcp's
//       runtime per file, the project's own modules as "app").
//   watch <dir> <typed|zod> <n> <edits> [simple|real]
//     → { latencies }: per edit of the type 10 tools use (`Shape0` in src/types.ts, or the real-shaped
//       project's `AuditInfo` in src/domain/audit.ts), milliseconds from the write to the watcher's
//       `END` event (the rebuilt bundle is written).
import { statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { explore } from "source-map-explorer";
import typedMcp from "@typed-mcp/unplugin/vite";
import { editedModule, viteConfig } from "./project.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Runs one Vite job (the modes of the module comment) on the project in `dir`.
 * @param {string[]} args `[mode, dir, flavor, a, b, shape]`, as vite-child.mjs takes them on its command line.
 * @returns {Promise<object>} `{ bytes }`, `{ bytes, groups }` or `{ latencies }` (ms).
 * @throws when the mode is unknown, or the build (or a watch rebuild) fails.
 */
export async function runVite([mode, dir, flavor, a, b, shape = "simple"]) {
  if (mode === "build") {
    await build(viteConfig({ root, dir, flavor, target: a, minify: b === "1", typedMcp }));
    return { bytes: statSync(join(dir, `dist-${a}/server.js`)).size };
  }
  if (mode === "profile") return profile(dir, flavor, a, b === "1");
  if (mode === "watch") return watch(dir, flavor, Number(a), Number(b), shape);
  throw new Error(`unknown mode ${mode}`);
}

/** The `profile` mode: the build with a source map, its bytes and its bytes per source group. */
async function profile(dir, flavor, target, minify) {
  const config = viteConfig({ root, dir, flavor, target, minify, typedMcp });
  await build({ ...config, build: { ...config.build, sourcemap: true } });
  const bundle = join(dir, `dist-${target}/server.js`);
  const result = await explore([bundle, `${bundle}.map`], { output: { format: "json" }, noBorderChecks: true });
  const groups = {};
  for (const [file, { size }] of Object.entries(result.bundles[0].files)) {
    const key = sourceGroup(file);
    groups[key] = (groups[key] ?? 0) + size;
  }
  return { bytes: statSync(bundle).size, groups };
}

/** The `watch` mode: `edits` edits of the shared type, each timed from the write to the watcher's `END`. */
async function watch(dir, flavor, n, edits, shape) {
  const watcher = await build(viteConfig({ root, dir, flavor, target: "node", minify: false, watch: true, typedMcp }));
  let resolveEnd;
  let rejectEnd;
  watcher.on("event", (e) => {
    if (e.code === "ERROR") rejectEnd?.(e.error);
    if (e.code === "END") resolveEnd?.();
    if (e.code === "BUNDLE_END") e.result?.close?.();
  });
  const nextEnd = () =>
    new Promise((resolve, reject) => {
      resolveEnd = resolve;
      rejectEnd = reject;
    });
  try {
    await nextEnd(); // the first build
    const latencies = [];
    for (let i = 0; i < edits; i++) {
      // Let the watcher settle (chokidar's events of the previous write), then edit.
      await new Promise((r) => setTimeout(r, 300));
      const done = nextEnd();
      const t0 = performance.now();
      const [path, text] = editedModule(shape, flavor, n, (i + 1) % 2);
      writeFileSync(join(dir, path), text);
      await done;
      latencies.push(performance.now() - t0);
    }
    return { latencies };
  } finally {
    await watcher.close();
  }
}

/** The group of one source of the bundle: `typed-mcp/<file>`, an npm package's name, `app` or `[unmapped]` & co. */
function sourceGroup(file) {
  const runtime = /packages\/typed-mcp\/(?:dist|src)\/((?:[^/]+\/)*[^/]+?)\.(?:js|ts)$/.exec(file);
  if (runtime) return `typed-mcp/${runtime[1]}`;
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(file);
  if (pkg) {
    // The SDK per top-level file of its dist (which parts each flavour pulls in).
    if (pkg[1].startsWith("@modelcontextprotocol/")) return `${pkg[1]}/${pkg[2].replace(/^dist\//, "")}`;
    return pkg[1];
  }
  if (file.startsWith("[")) return file;
  return "app";
}
