/**
 * Installs the pinned client libraries of test/oracles/clients (its package.json and lockfile)
 * with plain npm from the npm registry into .tmp/oracles, outside the pnpm workspace. Cached: a
 * second run whose lockfile is byte-identical to the installed one installs nothing.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
/** Where the libraries are installed (the runner's cwd). */
export const ORACLES_DIR = resolve(HERE, "../../.tmp/oracles");
/** The runner script (test/oracles/clients/run.mjs), run under Node 22 with {@link ORACLES_DIR} as cwd. */
export const RUNNER = join(HERE, "clients/run.mjs");

/** Installs the libraries unless the lockfile in {@link ORACLES_DIR} is the pinned one; throws npm's error output. */
export function installClients(): void {
  const lock = join(HERE, "clients/package-lock.json");
  const installed = join(ORACLES_DIR, "package-lock.json");
  const same = existsSync(installed) && readFileSync(installed, "utf8") === readFileSync(lock, "utf8");
  if (same && existsSync(join(ORACLES_DIR, "node_modules/.package-lock.json"))) return;
  mkdirSync(ORACLES_DIR, { recursive: true });
  copyFileSync(join(HERE, "clients/package.json"), join(ORACLES_DIR, "package.json"));
  copyFileSync(lock, installed);
  execFileSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: ORACLES_DIR,
    stdio: "pipe",
  });
}
