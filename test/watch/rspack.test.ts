/**
 * Rspack `compiler.watch()` (docs/bundlers.md "Watch mode and cache"): the edit scenario of
 * scenario.ts, configured like webpack (builtin:swc-loader strips the types). Files added with
 * `addWatchFile` become loader dependencies; the modified and removed files reach the plugin's
 * `watchChange` when the rebuild starts, and `watchClose` ends the sidecar.
 */
import { join } from "node:path";
import { rspack } from "@rspack/core";
import typedMcp from "@typed-mcp/unplugin/rspack";
import { webpackLikeSession } from "./helpers.ts";
import { watchScenario } from "./scenario.ts";

watchScenario("rspack", async (root, pluginOptions) => {
  const outDir = join(root, "dist");
  const compiler = rspack({
    context: root,
    mode: "development",
    devtool: false,
    target: "node20",
    entry: join(root, "src/server.ts"),
    output: { path: outDir, filename: "server.mjs", module: true, chunkFormat: "module", library: { type: "module" } },
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
  return webpackLikeSession(compiler as never, join(outDir, "server.mjs"));
});
