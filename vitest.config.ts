import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { isolatedTestFiles } from "./test/helpers/isolation.ts";
import { FULL, FULL_ONLY } from "./test/helpers/tier.ts";
import typedMcp from "@typed-mcp/unplugin/vite";

/** test/scaffold installs from the registry with npm: its own script, `pnpm test:scaffold` (vitest.scaffold.config.ts). */
const EXCLUDE = ["test/scaffold/**", "**/node_modules/**", ...(FULL ? [] : FULL_ONLY)];
/** The files that need a process of their own (test/helpers/isolation.ts says which, and why). */
const ISOLATED = isolatedTestFiles(fileURLToPath(new URL(".", import.meta.url)));
/** Tests written as a user writes them with `typed-mcp/testing` (docs/testing.md): compiled by the typed-mcp Vite plugin. */
const PLUGIN_BUILT = ["test/testing/**/*.test.ts"];

/**
 * The main suite in two tiers (docs/contributing.md "Test tiers"): `npm test` runs the fast tier,
 * `npm run test:all` the full one (`TYPED_MCP_TIER=full`: also the FULL_ONLY files, and the
 * checks some files repeat on more versions — test/helpers/tier.ts). In three projects: "isolated"
 * runs each of its files in a new process (vitest `isolate: true`), "shared" lets a worker's
 * files share its module cache (`isolate: false`), "testing" builds its files with the typed-mcp
 * Vite plugin (the tools they define and call through `typed-mcp/testing`).
 */
export default defineConfig({
  test: {
    // Builds every package first: tests import the built packages, never a stale dist/.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two files at a time (the suite is parallel-safe: free ports, mkdtemp directories, no shared output path).
    fileParallelism: true,
    maxWorkers: 2,
    // In CI also write a JSON report, from which .ci/run prints the plain "N passed, N failed" line
    // (TYPED_MCP_REPORT names another file: test:all's Node 22 run).
    reporters: process.env.CI
      ? ["default", ["json", { outputFile: process.env.TYPED_MCP_REPORT ?? ".tmp/vitest-report.json" }]]
      : ["default"],
    projects: [
      {
        extends: true,
        test: { name: "isolated", include: ISOLATED, exclude: [...EXCLUDE, ...PLUGIN_BUILT], isolate: true },
      },
      {
        extends: true,
        plugins: [typedMcp()],
        test: {
          name: "testing",
          include: PLUGIN_BUILT,
          exclude: EXCLUDE,
          // typed-mcp itself is imported by Node (one copy for the test and the code the plugin generates).
          server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
        },
      },
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: [...EXCLUDE, ...ISOLATED, ...PLUGIN_BUILT],
          isolate: false,
          // The built packages are imported by Node itself, once per worker (vitest would otherwise run
          // them through its module runner).
          server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
        },
      },
    ],
  },
});
