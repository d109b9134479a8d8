import { defineConfig } from "vite";
import typedMcp from "@typed-mcp/unplugin/vite";

// Builds the everything port for Node: one self-contained ES module, dist/server.js.
export default defineConfig({
  plugins: [typedMcp()],
  build: {
    ssr: "src/server.ts",
    outDir: "dist",
    target: "node20",
    sourcemap: true,
    emptyOutDir: true,
    rollupOptions: { output: { entryFileNames: "server.js" } },
  },
  ssr: { noExternal: true },
});
