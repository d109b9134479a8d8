// rollup.config.js — `rollup -c` bundles src/main.ts into dist/server.js
import typedMcp from "@typed-mcp/unplugin/rollup";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import esbuild from "rollup-plugin-esbuild";
import { builtinModules } from "node:module";

export default {
  input: "src/main.ts",
  external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
  plugins: [
    typedMcp(), // first: Rollup runs transform hooks in plugin order
    nodeResolve({ exportConditions: ["node"], preferBuiltins: true }),
    esbuild({ target: "node20" }), // strips the types
  ],
  output: { file: "dist/server.js", format: "es", sourcemap: true, inlineDynamicImports: true },
};
