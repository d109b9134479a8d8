/**
 * Rspack `compiler.watch()` (docs/bundlers.md "Watch mode and cache"): the edit scenario of
 * scenario.ts, configured like webpack (builtin:swc-loader strips the types). Files added with
 * `addWatchFile` become loader dependencies; the modified and removed files reach the plugin's
 * `watchChange` when the rebuild starts, and `watchClose` ends the sidecar.
 */
import { join } from "node:path";
import { rspack } from "@rspack/core";
import typedMcp from "@typed-mcp/unplugin/rspack";
import { Builds, listTools } from "./helpers.ts";
import { watchScenario, type Outcome } from "./scenario.ts";

watchScenario("rspack", async (root, pluginOptions) => {
  const builds = new Builds();
  const outDir = join(root, "dist");
  const compiler = rspack({
    context: root,
    mode: "development",
    devtool: false,
    target: "node20",
    entry: join(root, "src/server.ts"),
    output: { path: outDir, filename: "server.mjs", module: true, chunkFormat: "module", library: { type: "module" } },
    experiments: { outputModule: true },
    externalsType: "module",
    externals: [/^typed-mcp(?:\/|$)/], // the runtime and its internal entry
    resolve: { extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } },
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          loader: "builtin:swc-loader",
          options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" } },
          type: "javascript/auto",
        },
      ],
    },
    infrastructureLogging: { level: "none" },
    stats: "none",
    plugins: [typedMcp(pluginOptions)],
  });
  const watching = compiler.watch({ aggregateTimeout: 30 }, (err, stats) => {
    if (err) builds.push({ ok: false, error: String(err.stack ?? err) });
    else if (stats?.hasErrors()) {
      const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
      builds.push({ ok: false, error: errors.map((e) => e.message).join("\n") });
    } else builds.push({ ok: true });
  });
  const file = join(outDir, "server.mjs");
  return {
    async until(check, ms = 15_000) {
      await builds.until(async (r) => {
        const o: Outcome = r.ok ? { ok: true, tools: await listTools(file) } : r;
        return check(o);
      }, ms);
    },
    close: () => new Promise<void>((resolve) => watching.close(() => resolve())),
  };
});
