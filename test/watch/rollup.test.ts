/**
 * Rollup `watch()` (docs/bundlers.md "Watch mode and cache"): the edit scenario of
 * scenario.ts. Rollup passes every change of a module or of a file added with `addWatchFile`
 * to the plugin's `watchChange`.
 */
import { join } from "node:path";
import { watch } from "rollup";
import esbuild from "rollup-plugin-esbuild";
import typedMcp from "@typed-mcp/unplugin/rollup";
import { rollupLikeSession } from "./helpers.ts";
import { watchScenario } from "./scenario.ts";

watchScenario("rollup", async (root, pluginOptions) => {
  const file = join(root, "dist/server.mjs");
  const watcher = watch({
    input: join(root, "src/server.ts"),
    external: [/^typed-mcp/],
    onwarn: () => {},
    plugins: [typedMcp(pluginOptions), esbuild({ target: "node20", tsconfig: join(root, "tsconfig.json") })],
    output: { file, format: "es" },
    watch: { exclude: [join(root, "dist/**")], buildDelay: 30 },
  });
  return rollupLikeSession(watcher as never, file);
});
