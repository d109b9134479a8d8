// vite.config.ts — `vite build` bundles src/main.ts into one self-contained ES module for Workers
import { defineConfig } from "vite";
import typedMcp from "@typed-mcp/unplugin/vite";

export default defineConfig({
  plugins: [typedMcp()],
  build: {
    ssr: "src/main.ts",
    target: "es2022",
    sourcemap: true,
    emptyOutDir: true,
    rollupOptions: { output: { entryFileNames: "server.js" } },
  },
  ssr: {
    target: "webworker",
    noExternal: true, // Workers cannot load node_modules: bundle typed-mcp, the SDK and zod
    // `workerd` first: the SDK's Workers build (no node:process, no ajv/new Function)
    resolve: { conditions: ["workerd", "worker", "browser", "module", "import", "default"] },
  },
});
