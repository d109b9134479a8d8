// One Vite run of a benchmark project in its own process (scripts/bench/projects.mjs runs it under
// GNU time for wall time and peak RSS). Prints one JSON line on stdout.
//   node vite-child.mjs build <dir> <typed|zod> <node|worker> <minify 0|1>
//     → { bytes }: the size of the bundle (dist-<target>/server.js).
//   node vite-child.mjs profile <dir> <typed|zod> <node|worker> <minify 0|1>
//     → { bytes, groups }: as `build`, with a source map, and the bundle's bytes per source group
//       (`source-map-explorer` on the written bundle: each workspace or npm package, typed-mcp's
//       runtime per file, the project's own modules as "app").
//   node vite-child.mjs watch <dir> <typed|zod> <n> <edits> [simple|real]
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
const [mode, dir, flavor, a, b, shape = "simple"] = process.argv.slice(2);

if (mode === "build") {
  const target = a;
  await build(viteConfig({ root, dir, flavor, target, minify: b === "1", typedMcp }));
  console.log(JSON.stringify({ bytes: statSync(join(dir, `dist-${target}/server.js`)).size }));
} else if (mode === "profile") {
  const target = a;
  const config = viteConfig({ root, dir, flavor, target, minify: b === "1", typedMcp });
  await build({ ...config, build: { ...config.build, sourcemap: true } });
  const bundle = join(dir, `dist-${target}/server.js`);
  const result = await explore([bundle, `${bundle}.map`], { output: { format: "json" }, noBorderChecks: true });
  const groups = {};
  for (const [file, { size }] of Object.entries(result.bundles[0].files)) {
    const key = sourceGroup(file);
    groups[key] = (groups[key] ?? 0) + size;
  }
  console.log(JSON.stringify({ bytes: statSync(bundle).size, groups }));
} else if (mode === "watch") {
  const n = Number(a);
  const edits = Number(b);
  const watcher = await build(viteConfig({ root, dir, flavor, target: "node", minify: false, watch: true, typedMcp }));
  let resolveEnd;
  watcher.on("event", (e) => {
    if (e.code === "ERROR") {
      console.error(e.error);
      process.exit(1);
    }
    if (e.code === "END") resolveEnd?.();
    if (e.code === "BUNDLE_END") e.result?.close?.();
  });
  const nextEnd = () => new Promise((r) => (resolveEnd = r));
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
  await watcher.close();
  console.log(JSON.stringify({ latencies }));
} else {
  throw new Error(`unknown mode ${mode}`);
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
