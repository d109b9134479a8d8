/**
 * Rolldown `watch()` (docs/bundlers.md "Watch mode and cache"): the edit scenario of
 * scenario.ts. Rolldown passes every change of a module or of a file added with `addWatchFile`
 * to the plugin's `watchChange`.
 */
import { join } from "node:path";
import { watch } from "rolldown";
import typedMcp from "@typed-mcp/unplugin/rolldown";
import { Builds, listTools } from "./helpers.ts";
import { watchScenario, type Outcome, type StartWatch } from "./scenario.ts";

const start: StartWatch = async (root, pluginOptions) => {
  const builds = new Builds();
  const file = join(root, "dist/server.mjs");
  const watcher = watch({
    input: join(root, "src/server.ts"),
    cwd: root,
    platform: "node",
    logLevel: "silent",
    external: [/^typed-mcp/],
    tsconfig: join(root, "tsconfig.json"),
    plugins: [typedMcp(pluginOptions)],
    output: { file, format: "es" },
    watch: { exclude: [join(root, "dist/**")] },
  });
  // Build starts and ends, so that an edit can wait for an idle watcher (WatchSession.idle).
  let running = true;
  let idleSince = 0;
  watcher.on("event", (e) => {
    if (e.code === "START") running = true;
    if (e.code === "END" || e.code === "ERROR") {
      running = false;
      idleSince = Date.now();
    }
    if (e.code === "BUNDLE_END") {
      void e.result.close();
      builds.push({ ok: true });
    } else if (e.code === "ERROR") {
      void e.result?.close();
      builds.push({ ok: false, error: String((e.error as Error)?.message ?? e.error) });
    }
  });
  return {
    async until(check, ms = 15_000) {
      await builds.until(async (r) => {
        const o: Outcome = r.ok ? { ok: true, tools: await listTools(file) } : r;
        return check(o);
      }, ms);
    },
    async idle() {
      const end = Date.now() + 15_000;
      while ((running || Date.now() - idleSince < 150) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    },
    close: () => watcher.close(),
  };
};

watchScenario("rolldown", start);
// The same edits with the model cache on: a changed consulted file is a miss, the sidecar stays warm.
watchScenario("rolldown with cache", start, { cache: true });
