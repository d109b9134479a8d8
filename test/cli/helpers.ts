import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
export { childPids as children } from "../helpers/processes.ts";

/** Repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The CLI fixtures; tests run the CLI with this as its working directory. */
export const FIXTURES = join(ROOT, "test/cli/fixtures");
/** The built CLI (run `pnpm build` first). */
export const BIN = join(ROOT, "packages/cli/dist/bin.js");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Lines the TypeScript sidecar itself sometimes writes to the stderr it shares with the CLI when
 * it is shut down (`context canceled`); not the CLI's output, so tests ignore them.
 */
const SIDECAR_NOISE = /^context canceled\n/gm;

/** Runs `node packages/cli/dist/bin.js ...args` in `cwd` (default: the fixtures directory). */
export function cli(args: string[], cwd = FIXTURES): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(SIDECAR_NOISE, "") };
}


/** `file:line:column` (1-based, UTF-16 columns) of the first `needle` in a fixture (after `after`, if given). */
export function at(rel: string, needle: string, after?: string): string {
  const code = readFileSync(join(FIXTURES, rel), "utf8");
  const from = after === undefined ? 0 : code.indexOf(after);
  if (from < 0) throw new Error(`marker ${after} not in ${rel}`);
  const i = code.indexOf(needle, from);
  if (i < 0) throw new Error(`${needle} not in ${rel}`);
  const before = code.slice(0, i);
  const line = before.split("\n").length;
  const column = i - (before.lastIndexOf("\n") + 1) + 1;
  return `${rel}:${line}:${column}`;
}
