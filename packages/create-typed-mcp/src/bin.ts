#!/usr/bin/env node
/**
 * The `create-typed-mcp` executable (`npm create typed-mcp@latest [dir] -- [flags]`).
 *
 * Flags: `--bundler vite|esbuild|rollup|webpack|rspack|next`, `--runtime node|workers|deno|bun`,
 * `--store memory|redis|durable-objects` (never asked: `memory` unless given),
 * `--no-install`, `--packages DIR` (install the typed-mcp packages from the tarballs in DIR),
 * `-h`/`--help`. A missing folder, bundler or runtime is asked for with `@clack/prompts` when
 * stdin is a terminal, and defaults to `my-mcp-server`, `vite` and `node` otherwise — so with
 * flags (or in CI) it asks nothing. Exit codes: 0 done, 1 a scaffold error (message on stderr),
 * 2 bad usage, 130 cancelled at a prompt.
 *
 * @module
 */
import { parseArgs } from "node:util";
import * as p from "@clack/prompts";
import {
  BUNDLERS,
  RUNTIMES,
  STORES,
  ScaffoldError,
  scaffold,
  type Bundler,
  type Runtime,
  type Store,
} from "./index.js";

const USAGE = `Usage: create-typed-mcp [dir] [--bundler ${BUNDLERS.join("|")}] [--runtime ${RUNTIMES.join("|")}] [--store ${STORES.join("|")}] [--no-install] [--packages DIR]

  --bundler      The bundler whose config is written (default: vite).
  --runtime      Where the server runs (default: node). workers: vite or esbuild only; next: node only.
  --store        What keeps state between requests (default: memory). redis: node only; reads STORE_URL.
                 durable-objects: workers only; one Durable Object runs the server.
  --no-install   Write the files only; run npm install yourself.
  --packages DIR Install the typed-mcp packages from the .tgz files in DIR (pnpm pack:all).
`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      allowNegative: true,
      options: {
        bundler: { type: "string" },
        runtime: { type: "string" },
        store: { type: "string" },
        install: { type: "boolean", default: true },
        packages: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    process.stderr.write(`create-typed-mcp: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    process.stderr.write(`create-typed-mcp: one project folder, not ${positionals.length}.\n${USAGE}`);
    return 2;
  }
  const interactive =
    process.stdin.isTTY === true &&
    (positionals[0] === undefined || values.bundler === undefined || values.runtime === undefined);
  let dir = positionals[0];
  let bundler = values.bundler;
  let runtime = values.runtime;
  if (interactive) {
    p.intro("create-typed-mcp");
    const answer = <T>(v: T): Exclude<T, symbol> => {
      if (p.isCancel(v) || typeof v === "symbol") throw new Cancelled();
      return v as Exclude<T, symbol>;
    };
    dir ??= answer(
      await p.text({ message: "Project folder", placeholder: "my-mcp-server", defaultValue: "my-mcp-server" }),
    );
    bundler ??= answer(await p.select<Bundler>({ message: "Bundler", options: BUNDLERS.map((value) => ({ value })) }));
    runtime ??= answer(
      await p.select<Runtime>({
        message: "Runtime",
        options: RUNTIMES.filter((r) =>
          bundler === "next" ? r === "node" : r !== "workers" || bundler === "vite" || bundler === "esbuild",
        ).map((value) => ({ value })),
      }),
    );
  }
  const target = scaffold({
    dir: dir ?? "my-mcp-server",
    bundler: (bundler ?? "vite") as Bundler,
    runtime: (runtime ?? "node") as Runtime,
    store: (values.store ?? "memory") as Store,
    install: values.install,
    packages: values.packages,
  });
  // Every script a new user runs first, in order: the scaffolded test, then the build and the server.
  const steps = `cd ${dir ?? "my-mcp-server"}\n${values.install ? "" : "npm install\n"}npm test\nnpm run build\nnpm start`;
  if (interactive) p.outro(`Done. Next:\n${steps}`);
  else process.stdout.write(`Created ${target}. Next:\n${steps}\n`);
  return 0;
}

/** The user left a prompt with Ctrl+C / Esc. */
class Cancelled extends Error {}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    if (e instanceof Cancelled) {
      p.cancel("Cancelled.");
      process.exitCode = 130;
    } else if (e instanceof ScaffoldError) {
      process.stderr.write(`create-typed-mcp: ${e.message}\n`);
      process.exitCode = 1;
    } else {
      throw e;
    }
  },
);
