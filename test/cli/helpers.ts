import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createExtractor, type Extractor } from "../../packages/extract/dist/index.js";
import { runCli, type CliOptions } from "../../packages/cli/dist/index.js";

/** Repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The CLI fixtures; tests run the CLI with this as its working directory. */
export const FIXTURES = join(ROOT, "test/cli/fixtures");
/** The built CLI (run `pnpm build` first). */
const BIN = join(ROOT, "packages/cli/dist/bin.js");

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

/**
 * Runs the real executable, `node packages/cli/dist/bin.js ...args`, in `cwd` (default: the
 * fixtures directory): a new process and a new TypeScript sidecar per call (≈ 1–2 s), so only
 * the few tests that check the process itself (exit status, flushed stdout) use it.
 */
export function cliProcess(args: string[], cwd = FIXTURES): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(SIDECAR_NOISE, "") };
}

/**
 * One warm extractor per `cwd` + `tsconfig`, shared by every {@link cli} call in this process —
 * a shared vitest worker's files included (docs/contributing.md "Shared and isolated files"). Its
 * sidecar is unref'd and ends with the process, so nothing closes it here.
 */
const extractors = new Map<string, Extractor>();

/**
 * Runs `typed-mcp ...args` in `cwd` (default: the fixtures directory) in this process: the built
 * CLI's `runCli` (the function bin.js calls) with one reused type-checker per `cwd` + `tsconfig`
 * ({@link CliOptions.extractor}). Same exit code, stdout and
 * stderr as {@link cliProcess} (test/cli/usage.test.ts checks that), without a process start per call.
 */
export function cli(args: string[], cwd = FIXTURES): Run {
  let stdout = "";
  let stderr = "";
  const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t), cwd };
  const extractor = (project: { cwd: string; tsconfig: string | undefined }): Extractor => {
    const key = `${project.cwd}\0${project.tsconfig ?? ""}`;
    let e = extractors.get(key);
    if (!e) extractors.set(key, (e = createExtractor(project)));
    return e;
  };
  const code = runCli(args, io, { extractor });
  return { code, stdout, stderr };
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
