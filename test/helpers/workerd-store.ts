/**
 * The `typed-mcp/durable-objects` store inside real workerd (npm `workerd`), reached from Node:
 * one workerd config, two Worker services `a` and `b` (the same module; `a` defines the
 * Durable Object namespace of `TypedMcpStore`, `b` binds a's namespace with
 * `durableObjectNamespace = (serviceName = "a", className = "TypedMcpStore")`), each on its own
 * loopback socket. The shim turns one HTTP request into one call of a
 * `DurableObjectStateStore` it makes for that request (`POST /<method>`, a JSON array of
 * arguments; `{ value }` or the error's message with HTTP 500), and `POST /subscribe` into a
 * stream of the channel's messages (NDJSON) that lasts as long as the request.
 *
 * {@link workerdStore} gives a `StateStore` in Node whose every call is such a request, so the
 * store contract (test/store/contract.test.ts) runs its own cases against the real object.
 * {@link startWorkerd} starts such a config on any module (test/runtimes/workerd-durable-objects.test.ts:
 * an MCP server in a Durable Object). Teardown kills workerd with SIGKILL: a workerd holding an
 * open stream ignores SIGTERM.
 */
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import type { StateStore, Unsubscribe } from "typed-mcp";
import { startServer, type Running } from "../runtimes/helpers.ts";
import { WORKERD_ESBUILD } from "../runtimes/build.ts";

const here = dirname(fileURLToPath(import.meta.url));
const WORKERD = resolve(here, "../../node_modules/workerd/bin/workerd");
const ENTRY = resolve(here, "../../packages/typed-mcp/dist/durable-objects.js");

/** The shim Worker: one store call per request (see the module comment). */
const SHIM = `import { DurableObjectStateStore, TypedMcpStore } from ${JSON.stringify(ENTRY)};
export { TypedMcpStore };
/** The same object plus GET /entries: how many entries its storage holds (what the alarm deletes). */
export class CountingStore extends TypedMcpStore {
  constructor(state, env) { super(state, env); this.storage = state.storage; }
  async fetch(request) {
    if (new URL(request.url).pathname === "/entries") return Response.json((await this.storage.list()).size);
    return super.fetch(request);
  }
}
const encoder = new TextEncoder();
export default { async fetch(request, env) {
  const method = new URL(request.url).pathname.slice(1);
  const namespace = request.headers.get("x-namespace") === "counted" ? env.COUNTED : env.STORE;
  if (method === "entries") return env.COUNTED.get(env.COUNTED.idFromName("typed-mcp")).fetch("https://x/entries");
  const args = await request.json();
  const store = new DurableObjectStateStore(namespace);
  if (request.headers.get("x-closed") === "1") await store.close();
  if (method === "subscribe") {
    const { readable, writable } = new TransformStream();
    const writer = writable.getWriter();
    try {
      await store.subscribe(args[0], (m) => void writer.write(encoder.encode(JSON.stringify(m) + "\\n")).catch(() => {}));
    } catch (error) { return new Response(error.message, { status: 500 }); }
    writer.write(encoder.encode("\\n"));
    return new Response(readable);
  }
  try { return Response.json({ value: await store[method](...args) }); }
  catch (error) { return new Response(error.message, { status: 500 }); }
} };
`;

/** Storage of the object: in memory, or on disk in `dir` (kept across restarts). */
export type Storage = "memory" | { dir: string };

/** The Durable Object classes of the module: binding name (in `env`) → class name. */
type Classes = Record<string, string>;

function config(storage: Storage, classes: Classes): string {
  const store =
    storage === "memory" ? "durableObjectStorage = (inMemory = void)," : 'durableObjectStorage = (localDisk = "disk"),';
  const entries = Object.entries(classes);
  const namespaces = entries
    .map(([, c]) => `(className = "${c}", uniqueKey = "typed-mcp-test-${c}", enableSql = true)`)
    .join(", ");
  const own = entries.map(([b, c]) => `(name = "${b}", durableObjectNamespace = "${c}")`).join(", ");
  const bound = entries
    .map(([b, c]) => `(name = "${b}", durableObjectNamespace = (serviceName = "a", className = "${c}"))`)
    .join(", ");
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "a", worker = .a), (name = "b", worker = .b),
    ${storage === "memory" ? "" : `(name = "disk", disk = (path = ${JSON.stringify(storage.dir)}, writable = true)),`}
  ],
  sockets = [
    (name = "a", address = "127.0.0.1:0", http = (), service = "a"),
    (name = "b", address = "127.0.0.1:0", http = (), service = "b"),
  ],
);
const a :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
  durableObjectNamespaces = [ ${namespaces} ],
  ${store}
  bindings = [ ${own} ],
);
const b :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
  bindings = [ ${bound} ],
);
`;
}

/**
 * A running workerd: services `a` (which defines the module's Durable Object namespaces) and `b`
 * (which binds a's), one module; {@link Workerd.kill} stops it with SIGKILL.
 */
export interface Workerd {
  /** Base URLs of the two services (`http://127.0.0.1:N/`); updated by {@link restart}. */
  readonly urls: { a: string; b: string };
  /** SIGKILLs workerd (its process group) and waits until it exited. */
  kill(): Promise<void>;
  /** Kills workerd and starts it again on the same config (and storage). */
  restart(): Promise<void>;
  /** Kills workerd and removes its folder (not a disk folder given as `storage`). */
  dispose(): Promise<void>;
}

/** The store shim in workerd, reached from Node (see the module comment). */
export interface WorkerdStore extends Workerd {
  /**
   * A `StateStore` in Node whose calls go through service `service`, to the `TypedMcpStore`
   * object (or, `"counted"`, to the `CountingStore` subclass whose storage {@link entries} counts).
   */
  store(service: "a" | "b", namespace?: "counted"): StateStore;
  /** How many entries the `CountingStore` object's storage holds (`state.storage.list()`). */
  entries(): Promise<number>;
}

/** Builds the shim and starts workerd on it (see the module comment). */
export async function startWorkerdStore(storage: Storage = "memory"): Promise<WorkerdStore> {
  const work = await mkdtemp(join(tmpdir(), "typed-mcp-do-store-"));
  await writeFile(join(work, "entry.js"), SHIM);
  const workerd = await startWorkerd(
    join(work, "entry.js"),
    { STORE: "TypedMcpStore", COUNTED: "CountingStore" },
    storage,
  );
  const { urls } = workerd;
  return {
    ...workerd,
    urls,
    store: (service, namespace) => new HttpStore(() => urls[service], namespace),
    entries: async () => (await (await fetch(`${urls.a}entries`)).json()) as number,
    async dispose() {
      await workerd.dispose();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/**
 * Bundles `entry` (esbuild, for workerd) and starts workerd with services `a` and `b` on it,
 * `classes` its Durable Object classes by binding name, on `storage`.
 */
export async function startWorkerd(entry: string, classes: Classes, storage: Storage = "memory"): Promise<Workerd> {
  const work = await mkdtemp(join(tmpdir(), "typed-mcp-workerd-do-"));
  await esbuild({
    entryPoints: [entry],
    outfile: join(work, "worker.js"),
    ...WORKERD_ESBUILD,
  });
  if (storage !== "memory") await mkdir(storage.dir, { recursive: true });
  await writeFile(join(work, "config.capnp"), config(storage, classes));
  let running: Running = await start(work, storage);
  const urls = { a: "", b: "" };
  const setUrls = (): void => {
    const [a, b] = running.url.split(" ");
    urls.a = a!;
    urls.b = b!;
  };
  setUrls();
  const kill = async (): Promise<void> => {
    const { child } = running;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    process.kill(-child.pid!, "SIGKILL");
    await exited;
  };
  return {
    urls,
    kill,
    async restart() {
      await kill();
      running = await start(work, storage);
      setUrls();
    },
    async dispose() {
      await kill();
      await rm(work, { recursive: true, force: true });
    },
  };
}

function start(work: string, storage: Storage): Promise<Running> {
  const args = ["serve", join(work, "config.capnp"), "--control-fd=3"];
  if (storage !== "memory") args.push("--experimental");
  return startServer(WORKERD, args, {
    cwd: work,
    controlFd: true,
    listening: /^(?=[\s\S]*"socket":"a","port":(\d+))(?=[\s\S]*"socket":"b","port":(\d+))/,
    url: (m) => `http://127.0.0.1:${m[1]}/ http://127.0.0.1:${m[2]}/`,
  });
}

/** A `StateStore` whose every call is one request to the shim of one service. */
class HttpStore implements StateStore {
  readonly #base: () => string;
  readonly #namespace: string;
  readonly #streams = new Set<AbortController>();
  #closed = false;

  constructor(base: () => string, namespace = "store") {
    this.#base = base;
    this.#namespace = namespace;
  }

  get = (key: string) => this.#call("get", [key]) as Promise<string | undefined>;
  swap = (key: string, expected: string | undefined, value: string, ttlMs: number) =>
    this.#call("swap", [key, expected, value, ttlMs]) as Promise<boolean>;
  delete = (key: string) => this.#call("delete", [key]) as Promise<void>;
  enter = (key: string, member: string, expiresAt: number, max?: number) =>
    this.#call("enter", [key, member, expiresAt, max]) as Promise<boolean>;
  leave = (key: string, member: string) => this.#call("leave", [key, member]) as Promise<void>;
  members = (key: string) => this.#call("members", [key]) as Promise<string[]>;
  publish = (channel: string, message: string) => this.#call("publish", [channel, message]) as Promise<void>;

  async subscribe(channel: string, listener: (message: string) => void): Promise<Unsubscribe> {
    const controller = new AbortController();
    const response = await this.#post("subscribe", [channel], controller.signal);
    this.#streams.add(controller);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    // The shim writes an empty line once the object registered the subscription.
    let buffered = "";
    let ready!: () => void;
    const registered = new Promise<void>((r) => (ready = r));
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return ready();
        buffered += value;
        let end: number;
        while ((end = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          if (line === "") ready();
          else if (!controller.signal.aborted) listener(JSON.parse(line) as string);
        }
      }
    })();
    await registered;
    return async () => {
      controller.abort();
      this.#streams.delete(controller);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const controller of this.#streams) controller.abort();
    this.#streams.clear();
  }

  async #call(method: string, args: unknown[]): Promise<unknown> {
    const response = await this.#post(method, args);
    return ((await response.json()) as { value?: unknown }).value;
  }

  async #post(method: string, args: unknown[], signal?: AbortSignal): Promise<Response> {
    const response = await fetch(this.#base() + method, {
      method: "POST",
      body: JSON.stringify(args.map((a) => (a === undefined ? null : a))),
      headers: { "x-namespace": this.#namespace, ...(this.#closed ? { "x-closed": "1" } : {}) },
      signal,
    });
    if (response.status !== 200) throw new Error(await response.text());
    return response;
  }
}
