// `npm test`: vitest with the typed-mcp Vite plugin, so the tools a test registers are compiled
// exactly as in the build (typed-mcp docs/testing.md).
import { defineConfig } from "vitest/config";
import typedMcp from "@typed-mcp/unplugin/vite";

export default defineConfig({
  plugins: [typedMcp()],
  test: { include: ["src/**/*.test.ts"] },
});
