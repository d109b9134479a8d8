/**
 * Shared pieces of the watch-mode tests: a temp copy of the fixture project (inside the
 * repository, so `typed-mcp` resolves from its node_modules), the listing of a built bundle
 * (imported fresh, listed over the server's web-standard handler), the TypeScript sidecars
 * among this process's children, and a queue of build results with bounded waits.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { childPids } from "../helpers/processes.ts";
import { rpcRequest } from "../helpers/raw-http.ts";
import { messagesOf } from "../runtime/helpers.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const fixture = join(here, "fixture");

/** Copies the fixture project to a fresh directory under `<repo>/.tmp`; returns its path. */
export async function copyFixture(name: string): Promise<string> {
  await mkdir(join(repo, ".tmp"), { recursive: true });
  const dir = await mkdtemp(join(repo, ".tmp", `watch-${name.replace(/\W+/g, "-")}-`));
  await cp(fixture, dir, { recursive: true });
  return dir;
}

/** Removes a temp copy. */
export async function removeCopy(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** Replaces `from` by `to` in `file` (which must contain it). */
export async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, "utf8");
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  await writeFile(file, text.replace(from, to));
}

let version = 0;
/**
 * The `tools/list` result of the `server` exported by one build's output: `built.code` (read
 * when that build ended, see `built`) written to a fresh sibling of `bundle` (so its bare
 * `typed-mcp` imports resolve as the bundle's do) and imported. Reading the bundle itself here,
 * later, could catch the next rebuild halfway through writing it (a truncated module, no
 * `server` export). Without `built` (a one-off build), the bundle is read now.
 */
export async function listTools(
  bundle: string,
  { code }: { code: string } = built(bundle),
): Promise<Record<string, any>[]> {
  const copy = bundle.replace(/(\.[cm]?js)?$/, `.v${++version}.mjs`);
  await writeFile(copy, code);
  try {
    const mod = (await import(pathToFileURL(copy).href)) as { server?: { fetch(r: Request): Promise<Response> } };
    if (!mod.server) throw new Error(`${bundle} (build ${version}) exports no \`server\``);
    return await listServer(mod.server);
  } finally {
    await rm(copy, { force: true });
  }
}

/**
 * A finished build's outcome with its output: `bundle`'s text, read synchronously in the
 * bundler's end event (Rollup/Rolldown `BUNDLE_END`, esbuild `onEnd` — esbuild ≥ 0.17 writes the
 * files before it —, webpack's `watch` callback), before a later rebuild can rewrite it.
 */
export function built(bundle: string): { ok: true; code: string } {
  return { ok: true, code: readFileSync(bundle, "utf8") };
}

/** The `tools/list` result of a typed-mcp `McpServer`, over its web-standard handler. */
export async function listServer(server: { fetch(r: Request): Promise<Response> }): Promise<Record<string, any>[]> {
  const response = await server.fetch(rpcRequest({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  const [message] = messagesOf(await response.text());
  return message!.result.tools;
}

/**
 * The listing of `greet` (fixture a.ts) when `Person.name` has the TypeScript type
 * `string` or `number` — derived from the spec (§1 name and description, §4 mapping: an
 * interface is an object with its documented properties, required unless optional; the tool's
 * input rejects extra keys).
 */
export function greetListing(nameType: "string" | "number"): Record<string, unknown> {
  return {
    name: "greet",
    description: "Greets someone.",
    inputSchema: {
      type: "object",
      properties: {
        who: {
          type: "object",
          description: "Whom to greet.",
          properties: { name: { type: nameType, description: "The person's name." } },
          required: ["name"],
        },
      },
      required: ["who"],
      additionalProperties: false,
    },
  };
}

/** The listing of `count` (fixture b.ts) with `Range.from: number` (spec §1, §4). */
export function countListing(): Record<string, unknown> {
  return {
    name: "count",
    description: "Counts.",
    inputSchema: {
      type: "object",
      properties: {
        range: {
          type: "object",
          description: "The range.",
          properties: { from: { type: "number", description: "Where it starts." } },
          required: ["from"],
        },
      },
      required: ["range"],
      additionalProperties: false,
    },
  };
}

/** Pids of this process's live TypeScript 7 sidecars (`…/tsc --api …`). */
export function sidecarPids(): number[] {
  return childPids().filter((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return /typescript/.test(args[0] ?? "") && args.includes("--api");
    } catch {
      return false;
    }
  });
}

/** Waits (bounded) until no sidecar is left; returns those still running. */
export async function sidecarsGone(ms = 3000): Promise<number[]> {
  const until = Date.now() + ms;
  let left = sidecarPids();
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    left = sidecarPids();
  }
  return left;
}

/** The outcome of one (re)build: ok, or the error text. */
export type BuildResult = { ok: true; code: string } | { ok: false; error: string };

/**
 * Build results in arrival order. A watcher adapter `push`es one per finished (re)build; a test
 * awaits `next()` with a bounded timeout.
 */
export class Builds {
  private readonly results: BuildResult[] = [];
  private waiter: (() => void) | undefined;

  push(result: BuildResult): void {
    this.results.push(result);
    this.waiter?.();
  }

  /** The next result not taken yet; rejects after `ms`. */
  async next(ms = 15_000): Promise<BuildResult> {
    const until = Date.now() + ms;
    while (this.results.length === 0) {
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no rebuild within ${ms} ms`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiter = () => {
          clearTimeout(t);
          r();
        };
      });
      this.waiter = undefined;
    }
    return this.results.shift()!;
  }

  /** Drops results already received (e.g. a duplicate rebuild from one save). */
  drain(): void {
    this.results.length = 0;
  }

  /**
   * Takes results until `check` accepts one (each rebuild is checked in turn: one save may
   * cause more than one rebuild); rejects after `ms` overall.
   */
  async until(check: (r: BuildResult) => Promise<boolean> | boolean, ms = 15_000): Promise<BuildResult> {
    const end = Date.now() + ms;
    let last: BuildResult | undefined;
    for (;;) {
      const left = end - Date.now();
      if (left <= 0) throw new Error(`no matching rebuild within ${ms} ms; last: ${JSON.stringify(last)}`);
      last = await this.next(left);
      if (await check(last)) return last;
    }
  }
}

/** The `typed-mcp` events reported through the plugin's `onEvent` option, by type. */
export class Events {
  readonly all: { type: string; file?: string }[] = [];
  readonly onEvent = (e: { type: string; file?: string }) => {
    this.all.push(e);
  };
  count(type: string, file?: string): number {
    return this.all.filter((e) => e.type === type && (file === undefined || e.file === file)).length;
  }
}

/** A Rollup-style watcher's events (Rollup and Rolldown share the codes). */
interface RollupLikeWatcher {
  on(event: "event", listener: (e: { code: string; result?: { close(): unknown }; error?: unknown }) => void): unknown;
  close(): Promise<void> | void;
}

/**
 * Turns a Rollup-style watcher (Rollup's or Rolldown's `watch()`) into the scenario's session:
 * every build's outcome (the listing of `bundle`, or the error), and `idle()`, which resolves once
 * no build is running (START … END/ERROR) and the watcher has been quiet for 150 ms, so that the
 * next edit lands between builds as a person's save does.
 */
export function rollupLikeSession(
  watcher: RollupLikeWatcher,
  bundle: string,
): {
  until(
    check: (o: { ok: true; tools: Record<string, any>[] } | { ok: false; error: string }) => boolean,
    ms?: number,
  ): Promise<void>;
  idle(): Promise<void>;
  close(): Promise<void>;
} {
  const builds = new Builds();
  let running = true;
  let idleSince = 0;
  watcher.on("event", (e) => {
    if (e.code === "START") running = true;
    if (e.code === "END" || e.code === "ERROR") {
      running = false;
      idleSince = Date.now();
    }
    if (e.code === "BUNDLE_END") {
      void e.result?.close();
      builds.push(built(bundle));
    } else if (e.code === "ERROR") {
      void e.result?.close();
      builds.push({ ok: false, error: String((e.error as Error)?.message ?? e.error) });
    }
  });
  return {
    async until(check, ms = 15_000) {
      await builds.until(async (r) => check(r.ok ? { ok: true, tools: await listTools(bundle, r) } : r), ms);
    },
    async idle() {
      const end = Date.now() + 15_000;
      while ((running || Date.now() - idleSince < 150) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    },
    close: async () => {
      await watcher.close();
    },
  };
}

/** A webpack-style compiler (webpack's or Rspack's) as far as `watch()` goes. */
interface WebpackLikeCompiler {
  watch(
    options: { aggregateTimeout: number },
    handler: (
      err: Error | null | undefined,
      stats?: { hasErrors(): boolean; toJson(o: object): { errors?: { message: string }[] } },
    ) => void,
  ): { close(callback: () => void): void };
}

/**
 * Runs `compiler.watch()` (webpack or Rspack) as the scenario's session: every build's outcome
 * (the listing of `bundle`, or the compiler's error messages).
 */
export function webpackLikeSession(
  compiler: WebpackLikeCompiler,
  bundle: string,
): {
  until(
    check: (o: { ok: true; tools: Record<string, any>[] } | { ok: false; error: string }) => boolean,
    ms?: number,
  ): Promise<void>;
  close(): Promise<void>;
} {
  const builds = new Builds();
  const watching = compiler.watch({ aggregateTimeout: 30 }, (err, stats) => {
    if (err) builds.push({ ok: false, error: String(err.stack ?? err) });
    else if (stats?.hasErrors()) {
      const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
      builds.push({ ok: false, error: errors.map((e) => e.message).join("\n") });
    } else builds.push(built(bundle));
  });
  return {
    async until(check, ms = 15_000) {
      await builds.until(async (r) => check(r.ok ? { ok: true, tools: await listTools(bundle, r) } : r), ms);
    },
    close: () => new Promise<void>((resolve) => watching.close(() => resolve())),
  };
}
