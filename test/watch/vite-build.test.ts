/**
 * `vite build --watch`, through the API: `build({ build: { watch: {} } })` returns the watcher
 * (docs/bundlers.md "Watch mode and cache"). The edit scenario of scenario.ts; Vite's build
 * watcher passes every change of a module or of a file added with `addWatchFile` to the
 * plugin's `watchChange`, and calls `closeWatcher` when it closes.
 */
import { join } from "node:path";
import { build } from "vite";
import typedMcp from "@typed-mcp/unplugin/vite";
import { Builds, built, listTools } from "./helpers.ts";
import { watchScenario, type Outcome } from "./scenario.ts";

watchScenario("vite-build", async (root, pluginOptions) => {
  const builds = new Builds();
  const outDir = join(root, "dist");
  const file = join(outDir, "server.mjs");
  const watcher = (await build({
    root,
    configFile: false,
    logLevel: "silent",
    plugins: [typedMcp(pluginOptions)],
    build: {
      ssr: join(root, "src/server.ts"),
      outDir,
      target: "node20",
      minify: false,
      // Not emptied at each rebuild's start: on a loaded machine the check of the previous build's
      // bundle could still be importing it ("Cannot find module …/dist/server.mjs?v=2"); each build
      // overwrites server.mjs, so nothing stale is read.
      emptyOutDir: false,
      watch: {},
      rollupOptions: { external: [/^typed-mcp/], output: { entryFileNames: "server.mjs" } },
    },
    ssr: { external: ["typed-mcp"] },
  })) as unknown as {
    on(event: "event", fn: (e: { code: string; error?: Error; result?: { close(): Promise<void> } }) => void): void;
    close(): Promise<void>;
  };
  watcher.on("event", (e) => {
    if (e.code === "BUNDLE_END") {
      void e.result?.close();
      builds.push(built(file));
    } else if (e.code === "ERROR") {
      void e.result?.close();
      builds.push({ ok: false, error: String(e.error?.message ?? e.error) });
    }
  });
  return {
    async until(check, ms = 15_000) {
      await builds.until(async (r) => {
        const o: Outcome = r.ok ? { ok: true, tools: await listTools(file, r) } : r;
        return check(o);
      }, ms);
    },
    close: () => watcher.close(),
  };
});
