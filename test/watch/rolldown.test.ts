/**
 * Rolldown `watch()` (docs/bundlers.md "Watch mode and cache"): the edit scenario of
 * scenario.ts. Rolldown passes every change of a module or of a file added with `addWatchFile`
 * to the plugin's `watchChange`.
 */
import { join } from "node:path";
import { watch } from "rolldown";
import typedMcp from "@typed-mcp/unplugin/rolldown";
import { rollupLikeSession } from "./helpers.ts";
import { watchScenario, type StartWatch } from "./scenario.ts";

const start: StartWatch = async (root, pluginOptions) => {
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
  return rollupLikeSession(watcher as never, file);
};

watchScenario("rolldown", start);
// The same edits with the model cache on: a changed consulted file is a miss, the sidecar stays warm.
watchScenario("rolldown with cache", start, { cache: true });
