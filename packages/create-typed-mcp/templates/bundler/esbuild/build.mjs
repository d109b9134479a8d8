// build.mjs — `node build.mjs` bundles src/main.ts into dist/server.js; `node build.mjs --watch` rebuilds on change
import { build, context } from "esbuild";
import typedMcp from "@typed-mcp/unplugin/esbuild";

const options = {
  entryPoints: ["src/main.ts"],
  outfile: "dist/server.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true, // stack traces (and onToolError) point into src/, with --enable-source-maps
  logLevel: "info",
  plugins: [typedMcp()],
};
if (process.argv.includes("--watch")) await (await context(options)).watch();
else await build(options);
