// vite.config.ts — `vite build` bundles src/main.ts, typed-mcp and the MCP SDK into dist/server.js
import { defineConfig } from "vite";
import typedMcp from "@typed-mcp/unplugin/vite";

export default defineConfig({
  plugins: [typedMcp()],
  build: {
    ssr: "src/main.ts",
    target: "node20",
    sourcemap: true, // stack traces (and onToolError) point into src/, with --enable-source-maps
    emptyOutDir: true,
    rollupOptions: { output: { entryFileNames: "server.js" } },
  },
  ssr: { noExternal: true },
});
