import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/scaffold installs from the registry with npm: its own script, `pnpm test:scaffold` (vitest.scaffold.config.ts).
    exclude: ["test/scaffold/**", "**/node_modules/**"],
    // Builds every package first: tests import the built packages, never a stale dist/.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // In CI also write a JSON report, from which .ci/run prints the plain "N passed, N failed" line.
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".tmp/vitest-report.json" }]] : ["default"],
  },
});
