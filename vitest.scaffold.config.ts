import { defineConfig } from "vitest/config";

/**
 * `pnpm test:scaffold`: the tests that scaffold projects with create-typed-mcp outside the
 * workspace and install them from the packed tarballs with plain npm (test/scaffold). Run after
 * the main suite by .ci/run; kept out of `vitest run` because each install takes tens of seconds.
 */
export default defineConfig({
  test: {
    include: ["test/scaffold/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts", "test/scaffold/setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    pool: "forks",
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".tmp/vitest-scaffold-report.json" }]] : ["default"],
  },
});
