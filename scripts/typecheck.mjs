#!/usr/bin/env node
/**
 * `pnpm typecheck` (after `pnpm build`, which writes the packages' declarations the tests import):
 * type-checks the test code with test/tsconfig.json, then every plugin-input fixture project
 * under test/ (a folder with its own tsconfig.json) with its own compiler options, as the plugin
 * and the CLI compile it — except the fixtures broken on purpose, listed below with why (their
 * own tests check what the plugin reports for them). Exits 1 when any check reports an error.
 *
 * Runs the `tsc` that `pnpm build` runs (node_modules/.bin/tsc), two projects at a time.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const tsc = join(root, "node_modules/.bin/tsc");

/** Fixture projects that do not type-check on purpose (paths relative to the repository root). */
const BROKEN_ON_PURPOSE = new Map([
  ["test/cli/fixtures/diag", "syntax and type errors the CLI reports (test/cli)"],
  ["test/extract/fixtures/diag", "unsupported types and bad tags the extractor reports (test/extract/diagnostics)"],
  [
    "test/resources/fixtures/diag",
    "misapplied resource/prompt decorators the extractor reports (test/resources/diagnostics)",
  ],
  ["test/extract/fixtures/nolib", "no lib on purpose: globals it cannot resolve are OMCG0005 (test/extract)"],
  ["test/cli/fixtures/follow", "every import form the CLI follows, extensionless ones included (test/cli)"],
  [
    "test/cli/fixtures/nostrict",
    "strict off on purpose, which typed-mcp's own sources it maps to do not compile under (test/cli)",
  ],
  ["test/backends/fixtures/refs/app", "a project reference whose lib test/backends builds first"],
  [
    "test/backends/fixtures/workspace/packages/app",
    "imports @acme/types through the workspace link test/backends creates",
  ],
]);

/** Every folder under test/ holding a tsconfig.json, except test/ itself and node_modules. */
function fixtureProjects(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === "node_modules") continue;
    const sub = join(dir, entry.name);
    if (readdirSync(sub).includes("tsconfig.json")) found.push(relative(root, sub));
    found.push(...fixtureProjects(sub));
  }
  return found;
}

/** Runs `tsc --noEmit -p <project>`; resolves to its exit code, its output printed when it failed. */
function check(project) {
  return new Promise((done) => {
    const child = spawn(tsc, ["--noEmit", "-p", project], { cwd: root });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => {
      if (code !== 0) process.stdout.write(`\n${project}:\n${out}`);
      done(code ?? 1);
    });
  });
}

const projects = ["test", ...fixtureProjects(join(root, "test")).filter((p) => !BROKEN_ON_PURPOSE.has(p))];
let failed = 0;
for (let i = 0; i < projects.length; i += 2) {
  const codes = await Promise.all(projects.slice(i, i + 2).map(check));
  failed += codes.filter((c) => c !== 0).length;
}
console.log(
  `typecheck: ${projects.length - failed} of ${projects.length} projects without errors (${BROKEN_ON_PURPOSE.size} fixtures broken on purpose skipped)`,
);
process.exit(failed === 0 ? 0 : 1);
