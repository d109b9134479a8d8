/**
 * `typed-mcp dev`: rebuild on change, restart the server, and print what the model will see
 * change (issue 11; docs/cli.md "typed-mcp dev").
 *
 * ```sh
 * typed-mcp dev <file.ts…> --build "vite build" --start "node dist/server.js" [--watch src] [--project tsconfig.json]
 * ```
 *
 * Each round: run `--build` in a shell with the terminal as its stdio (so build diagnostics
 * appear exactly as the bundler prints them); when it exits 0, list the tools, resources
 * and prompts of the files and the modules they import (the `list` command's listing) and print the difference to the previous round
 * ({@link diffListings}), then stop the running `--start` process (its whole process group) and
 * start it again. A failed build keeps the last server running. A change under `--watch`
 * (default `src`; chokidar, so files replaced by a rename count too) starts the next round, debounced by 100 ms.
 *
 * @module
 */
import { spawn, type ChildProcess } from "node:child_process";
import { watch } from "chokidar";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { runCli, type Listing } from "./index.js";
import { diffListings } from "./listing-diff.js";

/** The `typed-mcp dev` usage text. */
const DEV_USAGE = `Usage: typed-mcp dev <file.ts…> --build <command> --start <command> [--watch <dir>] [--project <tsconfig.json>]

  Rebuilds with --build on every change under --watch (default: src), restarts --start after
  each successful build, and prints the listing diff: "+ tool x", "- prompt y",
  "~ tool z: inputSchema.properties.limit".
`;

const EMPTY: Listing = { tools: [], resources: [], resourceTemplates: [], prompts: [] };

/** The listing of `files` by the `list` command, or `undefined` (its diagnostics already printed to stderr). */
function listing(files: string[], project: string | undefined): Listing | undefined {
  let out = "";
  const code = runCli(["list", ...files, ...(project ? ["--project", project] : [])], {
    stdout: (t) => void (out += t),
    stderr: (t) => void process.stderr.write(t),
    cwd: process.cwd(),
  });
  return code === 0 ? (JSON.parse(out) as Listing) : undefined;
}

/** Runs `command` in a shell, in its own process group, with the terminal as stdio. */
function shell(command: string): ChildProcess {
  return spawn(command, { shell: true, stdio: "inherit", detached: true });
}

/** Ends `child`'s whole process group (the shell and what it started) and waits for it. */
function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      done(); // already gone
    }
  });
}

/**
 * Runs `typed-mcp dev` with `argv` (after `dev`) until SIGINT/SIGTERM; returns the exit code
 * (2 for bad usage, after printing {@link DEV_USAGE}).
 */
export async function runDev(argv: string[]): Promise<number> {
  let values;
  let files: string[];
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        build: { type: "string" },
        start: { type: "string" },
        watch: { type: "string" },
        project: { type: "string", short: "p" },
        help: { type: "boolean", short: "h" },
      },
    });
    values = parsed.values;
    files = parsed.positionals;
  } catch (e) {
    process.stderr.write(`typed-mcp dev: ${(e as Error).message}\n${DEV_USAGE}`);
    return 2;
  }
  if (values.help) return (void process.stdout.write(DEV_USAGE), 0);
  if (files.length === 0 || !values.build || !values.start) {
    process.stderr.write(`typed-mcp dev: needs the .ts files to list, --build and --start.\n${DEV_USAGE}`);
    return 2;
  }
  const { build, start, project } = values as { build: string; start: string; project?: string };
  let previous = EMPTY;
  let server: ChildProcess | undefined;
  let running = false;
  let again = false;

  const round = async (): Promise<void> => {
    if (running) return void (again = true);
    running = true;
    const code = await new Promise<number | null>((done) => shell(build).once("exit", (c) => done(c)));
    if (code !== 0) {
      process.stderr.write(
        `typed-mcp dev: the build failed (exit ${code}); the last server keeps running. Waiting for changes…\n`,
      );
    } else {
      const now = listing(files, project);
      if (now) {
        const lines = diffListings(previous, now);
        process.stdout.write(
          lines.length > 0 ? lines.map((l) => l + "\n").join("") : "typed-mcp dev: listing unchanged\n",
        );
        previous = now;
      }
      await stop(server);
      server = shell(start);
      process.stdout.write(`typed-mcp dev: started ${start}\n`);
    }
    running = false;
    if (again) {
      again = false;
      await round();
    }
  };

  let timer: NodeJS.Timeout | undefined;
  // chokidar, not fs.watch: Node 20's recursive fs.watch on Linux watches each file, so an editor
  // that saves by replacing the file (write a copy, rename it over) silently ends the watch.
  const watcher = watch(resolve(values.watch ?? "src"), { ignoreInitial: true, atomic: true }).on("all", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void round(), 100);
  });
  await round();
  return new Promise<number>((done) => {
    const quit = async () => {
      await watcher.close();
      clearTimeout(timer);
      await stop(server);
      done(0);
    };
    process.once("SIGINT", quit);
    process.once("SIGTERM", quit);
  });
}
