/**
 * `typed-mcp dev`: rebuild on change, restart the server, and print what the model will see
 * change (issue 11; docs/cli.md "typed-mcp dev").
 *
 * ```sh
 * typed-mcp dev <file.ts…> --build "vite build" --start "node dist/server.js" [--watch src] [--project tsconfig.json]
 * ```
 *
 * Each round: run `--build` in a shell with the terminal as its stdio (so build diagnostics
 * appear exactly as the bundler prints them) and, while it runs, list the tools, resources and
 * prompts of the files and the modules they import (the `list` command's listing); when the
 * build exits 0, print the listing's diagnostics, if any, and the difference to the previous round
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

/** What the `list` command gave for a round: the listing (`undefined` when it failed) and its stderr text. */
interface Listed {
  listing: Listing | undefined;
  stderr: string;
}

/** The listing of `files` by the `list` command, with its diagnostics (stderr) kept for the caller to print. */
function listing(files: string[], project: string | undefined): Listed {
  let out = "";
  let stderr = "";
  const code = runCli(["list", ...files, ...(project ? ["--project", project] : [])], {
    stdout: (t) => void (out += t),
    stderr: (t) => void (stderr += t),
    cwd: process.cwd(),
  });
  return { listing: code === 0 ? (JSON.parse(out) as Listing) : undefined, stderr };
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

/** `typed-mcp dev`'s parsed command line. */
interface DevArgs {
  /** The .ts files to list. */
  files: string[];
  build: string;
  start: string;
  watch?: string;
  project?: string;
}

/**
 * Parses `typed-mcp dev`'s `argv` (after `dev`): the options, or the exit code to return at once
 * (0 after `--help`, 2 for bad usage, after printing {@link DEV_USAGE}).
 */
function parseDevArgs(argv: string[]): DevArgs | number {
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
  return { files, build: values.build, start: values.start, watch: values.watch, project: values.project };
}

/**
 * Runs `typed-mcp dev` with `argv` (after `dev`) until SIGINT/SIGTERM; returns the exit code
 * (2 for bad usage, after printing {@link DEV_USAGE}).
 */
export async function runDev(argv: string[]): Promise<number> {
  const args = parseDevArgs(argv);
  if (typeof args === "number") return args;
  const { files, build, start, project } = args;
  let previous = EMPTY;
  let server: ChildProcess | undefined;
  let running = false;
  let again = false;

  const round = async (): Promise<void> => {
    if (running) return void (again = true);
    running = true;
    // The build runs in its own process while this one lists the same sources: the two overlap.
    const built = new Promise<number | null>((done) => shell(build).once("exit", (c) => done(c)));
    const listed = listing(files, project);
    const code = await built;
    if (code !== 0) {
      process.stderr.write(
        `typed-mcp dev: the build failed (exit ${code}); the last server keeps running. Waiting for changes…\n`,
      );
    } else {
      process.stderr.write(listed.stderr);
      const now = listed.listing;
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
  const watcher = watch(resolve(args.watch ?? "src"), { ignoreInitial: true, atomic: true }).on("all", () => {
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
