// `npm run test:all`: everything the repository checks (docs/contributing.md "Test tiers"), in
// order: Chromium for the MCP Apps browser test (scripts/ensure-chromium.sh), install and build,
// the full vitest tier (TYPED_MCP_TIER=full: the fast tier plus the full-only files and versions),
// the scaffold tier (`test:scaffold`), then the checks — format:check, lint, typecheck and
// lint:cycles, each only where package.json has it (`npm run --if-present`).
// Install or build failing stops here; any other failing step is reported and the rest still
// run. Ends with one line per step (status, seconds) and exits 1 if any step failed, else 0.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PNPM = ["npx", "-y", "pnpm@10.34.9"];
/** `[label, command, stop the run if it fails]`. */
const steps = [
  ["chromium", ["bash", "scripts/ensure-chromium.sh"], false],
  ["install", [...PNPM, "install", "--frozen-lockfile"], true],
  ["build", [...PNPM, "run", "build"], true],
  ["vitest (full tier)", [...PNPM, "run", "test:run:full"], false],
  ["test:scaffold", [...PNPM, "run", "test:scaffold"], false],
  ...["format:check", "lint", "typecheck", "lint:cycles"].map((s) => [s, ["npm", "run", "--if-present", s], false]),
];

const results = [];
for (const [label, [command, ...args], stopOnFailure] of steps) {
  console.log(`\n== test:all: ${label} (${[command, ...args].join(" ")})`);
  const t0 = Date.now();
  const r = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  const ok = r.status === 0;
  results.push({ label, ok, seconds: (Date.now() - t0) / 1000 });
  if (!ok && stopOnFailure) break;
}
console.log("\n== test:all summary");
for (const { label, ok, seconds } of results) console.log(`${ok ? "ok    " : "FAILED"} ${label} (${seconds.toFixed(0)} s)`);
process.exitCode = results.length === steps.length && results.every((r) => r.ok) ? 0 : 1;
