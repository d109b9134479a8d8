/**
 * Which test tier runs (docs/contributing.md "Test tiers"). `npm test` runs the fast tier;
 * `npm run test:all` sets `TYPED_MCP_TIER=full` for its vitest run, which adds what needs a
 * system package (Chromium) or repeats a check on more versions (TypeScript 7.1 and 5.9 in
 * test/backends/corpus.test.ts). vitest.config.ts reads the same variable for the files that
 * run only in the full tier ({@link FULL_ONLY}).
 */

/** True in the full tier (`TYPED_MCP_TIER=full`, set by `npm run test:all`). */
export const FULL = process.env.TYPED_MCP_TIER === "full";

/**
 * Test files that run only in the full tier, relative to the repository root: each needs
 * something the fast tier does not install (Debian's chromium, through scripts/ensure-chromium.sh;
 * redis-server and nginx, through scripts/ensure-scale-tools.sh), or runs longer than about 5 s
 * (test/store/durable-objects.test.ts, test/runtimes/workerd-durable-objects.test.ts,
 * test/packaging/create-durable-objects.test.ts: workerd starts, alarms, leases, a restart, a
 * type-checked build), or is a benchmark's bounded CI run (test/bench/bench.test.ts: `pnpm bench
 * --quick --every-row`, every row of BENCHMARKS.md measured once; a benchmark is a long run with
 * its own command, `pnpm bench`, never part of `npm test`).
 */
export const FULL_ONLY = [
  "test/apps/browser.test.ts",
  "test/bench/bench.test.ts",
  "test/packaging/create-durable-objects.test.ts",
  "test/runtimes/workerd-durable-objects.test.ts",
  "test/store/balanced.test.ts",
  "test/store/durable-objects.test.ts",
  "test/store/rate-limit-redis.test.ts",
  "test/store/resumption.test.ts",
];
