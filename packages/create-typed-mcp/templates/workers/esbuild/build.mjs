// build.mjs — `node build.mjs` bundles src/main.ts into one self-contained ES module for Workers
import { build, context } from "esbuild";
import typedMcp from "@typed-mcp/unplugin/esbuild";

const options = {
  entryPoints: ["src/main.ts"],
  outfile: "dist/server.js",
  bundle: true,
  format: "esm",
  platform: "neutral",
  conditions: ["workerd", "worker", "browser"], // the SDK's Workers build
  mainFields: ["module", "main"],
  target: "es2022",
  sourcemap: true,
  logLevel: "info",
  plugins: [typedMcp()],
};
if (process.argv.includes("--watch")) await (await context(options)).watch();
else await build(options);
