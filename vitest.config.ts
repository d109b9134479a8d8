import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { isolatedTestFiles } from "./test/helpers/isolation.ts";
import { FULL, FULL_ONLY } from "./test/helpers/tier.ts";
import typedMcp from "@typed-mcp/unplugin/vite";

/** test/scaffold installs from the registry with npm: its own script, `pnpm test:scaffold` (vitest.scaffold.config.ts). */
const EXCLUDE = ["test/scaffold/**", "**/node_modules/**", ...(FULL ? [] : FULL_ONLY)];
/** The repository root: an absolute path with symbolic links resolved, no trailing slash. */
const ROOT = realpathSync(fileURLToPath(new URL(".", import.meta.url)));
/** The files that need a process of their own (test/helpers/isolation.ts says which, and why). */
const ISOLATED = isolatedTestFiles(ROOT);
/** The built packages (`packages/*\/dist`): in the shared and testing projects imported by Node itself. */
const BUILT_PACKAGES = /\/packages\/[^/]+\/dist\//;
/** `path` as a regular expression matching itself. */
const literally = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/**
 * What tests build or generate and then import: bundles in their `typed-mcp-*` folders under the
 * OS temporary folder (test/helpers/vite-build.ts, the auth and decorator builds; never the
 * repository itself, wherever it is cloned) or in the repository's `.tmp` (the bundle cache, the
 * watch copies, the modules test/codegen/helpers.ts writes: hundreds, each imported once), and the
 * fixture classes those generated modules construct (so that a test's own import of it is the
 * same instance).
 */
const BUILT_BY_TESTS = [
  // The temporary folder as named and with its links resolved (macOS's is a link into /private).
  ...[...new Set([tmpdir(), realpathSync(tmpdir())])].map(
    (dir) => new RegExp(`^(?!${literally(ROOT)}/)${literally(dir)}/typed-mcp-[^/]*/`),
  ),
  new RegExp(`^${literally(ROOT)}/\\.tmp/`),
  new RegExp(`^${literally(ROOT)}/test/codegen/fixtures/classes\\.mjs$`),
];
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
        test: {
          name: "isolated",
          include: ISOLATED,
          exclude: [...EXCLUDE, ...PLUGIN_BUILT],
          isolate: true,
          // What the tests build is imported by Node itself; the built packages stay inline, so
          // that a module a file replaces (test/extract/one-parse: oxc-parser) reaches their imports.
          server: { deps: { external: BUILT_BY_TESTS } },
        },
      },
      {
        extends: true,
        plugins: [typedMcp()],
        test: {
          name: "testing",
          include: PLUGIN_BUILT,
          exclude: EXCLUDE,
          // typed-mcp itself is imported by Node (one copy for the test and the code the plugin generates).
          server: { deps: { external: [BUILT_PACKAGES] } },
        },
      },
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: [...EXCLUDE, ...ISOLATED, ...PLUGIN_BUILT],
          isolate: false,
          // Imported by Node itself (vitest would otherwise transform each and run it through its
          // module runner): the built packages, once per worker, and what the tests build.
          server: { deps: { external: [BUILT_PACKAGES, ...BUILT_BY_TESTS] } },
        },
      },
    ],
  },
});
