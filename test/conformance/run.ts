// Plumbing for test/conformance: build the fixture with Vite + the typed-mcp plugin, serve it
// with typed-mcp/node's serveHttp, run the official conformance suite (Node 22, from the local
// package test/conformance/runner) against it, and read the suite's per-scenario results.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import typedMcp from "@typed-mcp/unplugin/vite";
import { NODE22, runnerRequire } from "../helpers/node22.ts";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, "../..");
const RUNTIME = join(ROOT, "packages/typed-mcp");
/** The fixture project (`src/*.ts`, its own tsconfig). */
const FIXTURE = join(here, "fixture");

// The runner package's `require` and its Node 22 (the suite needs `fs.globSync`).
const runner = runnerRequire;
/** The suite's CLI entry (`@modelcontextprotocol/conformance`'s bin). */
const SUITE = join(dirname(runner.resolve("@modelcontextprotocol/conformance/package.json")), "dist/index.js");
/** The suite's version, as installed. */
export const SUITE_VERSION: string = JSON.parse(
  readFileSync(runner.resolve("@modelcontextprotocol/conformance/package.json"), "utf8"),
).version;

/**
 * Builds `fixture/src/main.ts` with Vite and the typed-mcp plugin into `outDir/main.js` (one
 * self-contained ES module for Node). `typed-mcp` is aliased to the workspace package's build
 * output, as the other fixture builds in this repository do.
 *
 * @returns The path of the built entry.
 * @throws whatever Vite throws (a typed-mcp build diagnostic included).
 */
export async function buildFixture(outDir: string): Promise<string> {
  await build({
    root: FIXTURE,
    configFile: false,
    logLevel: "silent",
    plugins: [typedMcp()],
    resolve: {
      alias: [
        { find: /^typed-mcp$/, replacement: join(RUNTIME, "dist/index.js") },
        { find: /^typed-mcp\/(internal|stdio|node|auth)$/, replacement: join(RUNTIME, "dist/$1.js") },
      ],
    },
    build: {
      ssr: "src/main.ts",
      outDir,
      target: "node20",
      minify: false,
      emptyOutDir: true,
      rollupOptions: { output: { entryFileNames: "main.js" } },
    },
    ssr: { noExternal: true },
  });
  return join(outDir, "main.js");
}

/** A running fixture server. */
export interface FixtureServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Ends the server process (SIGTERM to its own pid) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the built fixture with the Node running the tests; resolves once it printed its URL.
 *
 * @throws (rejects) when the process exits or prints nothing within 15 s.
 */
export function startFixture(entry: string): Promise<FixtureServer> {
  const child = spawn(process.execPath, [entry], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PORT: "0" },
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolveStart, reject) => {
    let stdout = "";
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`conformance fixture printed no URL within 15 s; stderr: ${stderr}`));
    }, 15_000);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const line = stdout.split("\n").find((l) => l.startsWith("http://"));
      if (line !== undefined) {
        clearTimeout(timer);
        resolveStart({ url: line.trim(), child, stop });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`conformance fixture exited with ${code}; stderr: ${stderr}`));
    });
  });
}

/** One scenario's outcome as the suite recorded it in `<scenario>/checks.json`. */
interface ScenarioResult {
  readonly scenario: string;
  /** True when no check has status `FAILURE` (the suite's own pass rule; WARNING, INFO and SKIPPED do not fail). */
  readonly passed: boolean;
  /** `id: message` of every failed check. */
  readonly failures: string[];
  /** Counts of checks by status. */
  readonly counts: Record<string, number>;
}

/** What one suite run gave. */
export interface SuiteRun {
  readonly revision: string;
  /** The number of scenarios the suite announced (`Running requirements <rev> (<n> scenarios)`). */
  readonly announced: number;
  readonly scenarios: ScenarioResult[];
  /** Scenarios the suite reports as not scored for the revision, with its reason (`extension`, `pending`, …). */
  readonly notScored: Record<string, string>;
  readonly stdout: string;
}

/**
 * Runs the suite's server leg with `--requirements <revision>` (exactly the scenarios that
 * revision requires, plus the ones it runs but does not score) against `url`, writing the
 * results to `outDir`, and reads them back.
 *
 * @param timeoutMs The suite's per-scenario timeout (`--timeout`).
 * @throws (rejects) when the suite cannot be started or its output cannot be read. A run with
 *   failing scenarios resolves: the suite's exit code is not used, the results are.
 */
export async function runSuite(url: string, revision: string, outDir: string, timeoutMs: number): Promise<SuiteRun> {
  const args = [
    SUITE,
    "server",
    "--url",
    url,
    "--requirements",
    revision,
    "-o",
    outDir,
    "--timeout",
    String(timeoutMs),
  ];
  const stdout = await new Promise<string>((done, fail) => {
    const child = spawn(NODE22, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.once("error", fail);
    child.once("exit", () => done(out));
  });
  const announced = /Running requirements \S+ \((\d+) scenarios?\)/.exec(stdout);
  if (announced === null) throw new Error(`conformance suite output not understood:\n${stdout}`);
  return {
    revision,
    announced: Number(announced[1]),
    scenarios: readResults(outDir),
    notScored: parseNotScored(stdout),
    stdout,
  };
}

/**
 * Reads every `server-<scenario>-<timestamp>/checks.json` under `outDir` (the suite's `-o`
 * layout, one directory per scenario run).
 *
 * @throws when a directory does not follow that layout or its checks.json is not an array.
 */
function readResults(outDir: string): ScenarioResult[] {
  const out: ScenarioResult[] = [];
  for (const entry of readdirSync(outDir).sort()) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry);
    if (match === null) throw new Error(`unexpected entry in conformance results: ${entry}`);
    const checks: Array<{ id: string; status: string; errorMessage?: string }> = JSON.parse(
      readFileSync(join(outDir, entry, "checks.json"), "utf8"),
    );
    if (!Array.isArray(checks)) throw new Error(`${entry}/checks.json is not an array`);
    const counts: Record<string, number> = {};
    for (const c of checks) counts[c.status] = (counts[c.status] ?? 0) + 1;
    const failures = checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? ""}`);
    out.push({ scenario: match[1]!, passed: failures.length === 0, failures, counts });
  }
  return out;
}

/**
 * Parses the suite's "Not scored for <rev>: …" block (`  ✓ name (reason)` / `  ✗ name (reason)`
 * lines) into scenario → reason.
 */
function parseNotScored(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  const block = stdout.split(/^Not scored for /m)[1];
  if (block === undefined) return out;
  for (const line of block.split("\n").slice(1)) {
    const m = /^\s+[✓✗]\s+(\S+)\s+\(([^)]+)\)\s*$/.exec(line);
    if (m === null) {
      if (line.trim() === "") continue;
      break;
    }
    out[m[1]!] = m[2]!;
  }
  return out;
}
