/**
 * The `typed-mcp/durable-objects` entry: a {@link StateStore} kept by one Cloudflare Durable
 * Object (docs/scaling.md "Durable Objects"), for servers that run as Workers.
 *
 * ```ts
 * // worker.ts
 * import { DurableObjectStateStore } from "typed-mcp/durable-objects";
 * export { TypedMcpStore } from "typed-mcp/durable-objects";   // the class the binding names
 * export default {
 *   async fetch(request: Request, env: { STORE: DurableObjectNamespace }) {
 *     const store = new DurableObjectStateStore(env.STORE);      // one per request
 *     …
 *   },
 * };
 * ```
 *
 * The Worker side, {@link DurableObjectStateStore}, turns each method into one `fetch` to the
 * object named `idFromName(name)` of the namespace binding. The object, {@link TypedMcpStore},
 * keeps values and expiring sets in `state.storage`, each with its expiry; its compare-and-set is
 * atomic because the object runs one event at a time and its input gate holds other events while
 * it reads and writes storage; its alarm drops expired entries; `publish` writes to every stream
 * `subscribe` opened on it. Nothing here imports `cloudflare:workers` or a Node module: the types
 * below are the parts of the Workers runtime's API the entry uses.
 *
 * @packageDocumentation
 */
import type { StateStore, Unsubscribe } from "./store/state-store.js";
import { checkTtl } from "./store/state-store.js";
import { ObjectStore, type StorageLike } from "./store/durable-object-store.js";
import { storeUnavailableResponse, type StoreSettings } from "./store/shared.js";
import type { McpServer } from "./server.js";

export type { StateStore, Unsubscribe } from "./store/state-store.js";
export type { StorageLike } from "./store/durable-object-store.js";
export type { StoreSettings } from "./store/shared.js";

/** The part of a Durable Object stub the store uses (`namespace.get(id)`). */
export interface DurableObjectStubLike {
  fetch(input: string | Request, init?: RequestInit): Promise<Response>;
}

/** The part of a Durable Object namespace binding (`env.STORE`) the store uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): DurableObjectStubLike;
}

/** The part of the `state` a Durable Object's constructor receives that {@link TypedMcpStore} uses. */
export interface DurableObjectStateLike {
  readonly storage: StorageLike;
}

/** Options of {@link DurableObjectStateStore}. */
export interface DurableObjectStoreOptions {
  /**
   * The name of the object that keeps the store (`namespace.idFromName(name)`): Workers that give
   * the same name share one store. Default `"typed-mcp"`.
   */
  name?: string;
}

/**
 * The header {@link mcpWorker} sets on every MCP request it hands to the object (`mcp`); the
 * store's own requests never carry it, and a client's value is overwritten.
 */
const FORWARDED = "x-typed-mcp-forwarded";

/** The origin of the store's requests to its object (never leaves the Workers runtime). */
const ORIGIN = "https://typed-mcp-store.internal/";

/** The methods the object answers, by path (`/<method>`, a JSON array of arguments as body). */
const METHODS = ["get", "swap", "delete", "enter", "leave", "members", "publish"] as const;
type Method = (typeof METHODS)[number];

/**
 * A {@link StateStore} a Worker reaches through a Durable Object namespace binding: every method is
 * one request to the object `namespace.idFromName(options.name ?? "typed-mcp")`, which must be a
 * {@link TypedMcpStore} (or a subclass). Make one per request: a Worker isolate keeps no I/O
 * object past the request that made it, so a `subscribe` lasts at most as long as that request
 * (its stream from the object ends with it).
 *
 * Errors: a method rejects with an `Error` starting `typed-mcp/durable-objects: <method> failed`
 * when the object cannot be reached or refuses the call (the runtime answers such a request
 * JSON-RPC `-32603`, docs/scaling.md "Failure modes"), a RangeError for a ttl that is not a
 * positive integer, and after {@link close} an `Error` saying the store is closed.
 */
export class DurableObjectStateStore implements StateStore {
  readonly #stub: DurableObjectStubLike;
  readonly #subscriptions = new Set<() => void>();
  #closed = false;

  /** @param namespace the binding of the `TypedMcpStore` class (`env.STORE`). */
  constructor(namespace: DurableObjectNamespaceLike, options: DurableObjectStoreOptions = {}) {
    this.#stub = namespace.get(namespace.idFromName(options.name ?? "typed-mcp") as never);
  }

  get(key: string): Promise<string | undefined> {
    return this.#call("get", [key]) as Promise<string | undefined>;
  }

  swap(key: string, expected: string | undefined, value: string, ttlMs: number): Promise<boolean> {
    try {
      checkTtl(ttlMs);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#call("swap", [key, expected ?? null, value, ttlMs]) as Promise<boolean>;
  }

  async delete(key: string): Promise<void> {
    await this.#call("delete", [key]);
  }

  enter(key: string, member: string, expiresAt: number, max?: number): Promise<boolean> {
    return this.#call("enter", [key, member, expiresAt, max ?? null]) as Promise<boolean>;
  }

  async leave(key: string, member: string): Promise<void> {
    await this.#call("leave", [key, member]);
  }

  members(key: string): Promise<string[]> {
    return this.#call("members", [key]) as Promise<string[]>;
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#call("publish", [channel, message]);
  }

  /**
   * Opens a stream from the object that carries each message published on `channel`; resolves
   * once the object has registered it (a message published after that is delivered). The stream
   * ends with the request that opened it (Workers) or with the returned function.
   */
  async subscribe(channel: string, listener: (message: string) => void): Promise<Unsubscribe> {
    const response = await this.#send("subscribe", [channel]);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let live = true;
    const stop = (): void => {
      live = false;
      this.#subscriptions.delete(stop);
      reader.cancel().catch(() => undefined);
    };
    this.#subscriptions.add(stop);
    let buffered = "";
    const next = async (): Promise<boolean> => {
      const { value, done } = await reader.read();
      if (done) return false;
      buffered += value;
      let end: number;
      while ((end = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line === "") continue;
        if (live) listener(JSON.parse(line) as string);
      }
      return true;
    };
    void (async () => {
      while (live && (await next().catch(() => false)));
      stop();
    })();
    return async () => stop();
  }

  /** Ends every subscription of this store; later calls reject. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const stop of [...this.#subscriptions]) stop();
  }

  async #call(method: Method, args: unknown[]): Promise<unknown> {
    const response = await this.#send(method, args);
    const body = (await response.json()) as { value?: unknown };
    return body.value ?? undefined;
  }

  /** POSTs `args` to the object's `/<method>`; rejects naming the method unless it answered 200. */
  async #send(method: Method | "subscribe", args: unknown[]): Promise<Response> {
    if (this.#closed) throw new Error("typed-mcp/durable-objects: the store is closed.");
    let response: Response;
    try {
      response = await this.#stub.fetch(ORIGIN + method, { method: "POST", body: JSON.stringify(args) });
    } catch (error) {
      throw new Error(`typed-mcp/durable-objects: ${method} failed: ${errorText(error)}`);
    }
    if (response.status === 200) return response;
    const text = await response.text().catch(() => "");
    throw new Error(`typed-mcp/durable-objects: ${method} failed: ${text || `HTTP ${response.status}`}`);
  }
}

/**
 * The Durable Object class that keeps a {@link DurableObjectStateStore}: re-export it from the
 * Worker (`export { TypedMcpStore } from "typed-mcp/durable-objects"`) and bind it
 * (wrangler `durable_objects.bindings = [{ name = "STORE", class_name = "TypedMcpStore" }]`).
 *
 * It answers `POST https://typed-mcp-store.internal/<method>` with a JSON array of arguments
 * (the store's requests; `400` with a message for malformed ones; `404` for a request to any
 * other origin, such as a client's request forwarded unchanged) and drops expired entries from
 * its `alarm()`. Code running inside
 * the object uses {@link TypedMcpStore.store}, the same store without the requests.
 */
export class TypedMcpStore {
  /** The store itself, for code that runs inside this object (publish reaches every subscriber). */
  readonly store: ObjectStore;

  /** @param state the object's state (`state.storage` keeps the entries). */
  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.store = new ObjectStore(state.storage);
  }

  /** Answers one request of {@link DurableObjectStateStore}. */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Only the store's own origin: a client's request that some Worker forwarded unchanged carries
    // the host the client reached (on Cloudflare never this one), so it cannot call the methods.
    if (url.origin + "/" !== ORIGIN)
      return new Response(
        `typed-mcp/durable-objects: not a store request (${url.host}); serve MCP through mcpWorker().`,
        {
          status: 404,
        },
      );
    const method = url.pathname.slice(1);
    let args: unknown;
    try {
      args = await request.json();
    } catch {
      return refuse("the body is not JSON");
    }
    if (request.method !== "POST" || !Array.isArray(args)) return refuse("expected POST with a JSON array");
    if (method === "subscribe") {
      if (typeof args[0] !== "string") return refuse("subscribe: channel must be a string");
      return new Response(this.store.stream(args[0]), { headers: { "content-type": "application/x-ndjson" } });
    }
    if (!(METHODS as readonly string[]).includes(method)) return refuse(`unknown method ${JSON.stringify(method)}`);
    try {
      const value = await this.store.answer(method as Method, args);
      return Response.json(value === undefined ? {} : { value });
    } catch (error) {
      return new Response(errorText(error), {
        status: error instanceof TypeError || error instanceof RangeError ? 400 : 500,
      });
    }
  }

  /** Drops expired entries and sets the next alarm (docs/scaling.md "Durable Objects"). */
  async alarm(): Promise<void> {
    await this.store.sweep();
  }
}

function refuse(message: string): Response {
  return new Response(`typed-mcp/durable-objects: ${message}`, { status: 400 });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The user's server module: makes the `McpServer` for a store (`new McpServer({ …, store })`).
 * The object calls it once, with the store settings it must pass on unchanged.
 */
export type ServerFactory = (store: StoreSettings) => McpServer;

/** Options of {@link mcpDurableObject}: the shared-store settings (docs/scaling.md "The lease"). */
export type McpObjectOptions = Pick<StoreSettings, "leaseMs" | "prefix" | "eventTtlMs">;

/**
 * A Durable Object class that keeps the store and **runs the MCP server** (docs/scaling.md
 * "Durable Objects"): re-export it from the Worker (`export const McpObject =
 * mcpDurableObject(createServer)`) and bind it; {@link mcpWorker} forwards MCP requests to it.
 *
 * The object calls `factory` once with `{ state, startTask, … }` (its own store; `options` as
 * given) and serves every forwarded request with the server's `fetch`, after `storeReady()`.
 * A task's work is started from the object's `alarm()` — set for now when the task is created —
 * not from the request that created it: the alarm invocation keeps the object alive while it
 * awaits every task it started (a task created meanwhile starts at once in the running alarm).
 * Requests without the forwarding header are the store's own ({@link TypedMcpStore}).
 */
export function mcpDurableObject(
  factory: ServerFactory,
  options: McpObjectOptions = {},
): new (
  state: DurableObjectStateLike,
  env?: unknown,
) => TypedMcpStore {
  return class McpObject extends TypedMcpStore {
    readonly #server: McpServer;
    readonly #pending: (() => Promise<void>)[] = [];
    readonly #running = new Set<Promise<void>>();
    #inAlarm = false;

    constructor(state: DurableObjectStateLike, env?: unknown) {
      super(state, env);
      this.#server = factory({ ...options, state: this.store, startTask: (work) => this.#start(work) });
    }

    override async fetch(request: Request): Promise<Response> {
      if (request.headers.get(FORWARDED) !== "mcp") return super.fetch(request);
      try {
        await this.#server.storeReady();
      } catch (error) {
        // The object's own storage failed: HTTP 503 with JSON-RPC -32603 naming it (docs/scaling.md "Failure modes").
        return storeUnavailableResponse(error);
      }
      return this.#server.fetch(request);
    }

    /**
     * Sweeps expired entries, then starts the pending tasks and returns once every task it runs
     * has settled. A failed sweep does not keep the tasks from starting; it is rethrown after
     * them, so the runtime retries the alarm.
     */
    override async alarm(): Promise<void> {
      let swept: unknown;
      await super.alarm().catch((error: unknown) => {
        swept = error ?? new Error("typed-mcp/durable-objects: the sweep failed");
      });
      this.#inAlarm = true;
      try {
        for (;;) {
          for (const work of this.#pending.splice(0)) this.#track(work);
          if (this.#running.size === 0) break;
          await Promise.race(this.#running);
        }
      } finally {
        this.#inAlarm = false;
      }
      if (swept !== undefined) throw swept;
    }

    #start(work: () => Promise<void>): void {
      if (this.#inAlarm) return this.#track(work);
      this.#pending.push(work);
      void this.store.soon().catch(() => undefined);
    }

    #track(work: () => Promise<void>): void {
      const running: Promise<void> = work()
        .catch(() => undefined)
        .finally(() => this.#running.delete(running));
      this.#running.add(running);
    }
  };
}

/** Options of {@link mcpWorker}. */
export interface McpWorkerOptions {
  /** The name of the binding (in `env`) of the {@link mcpDurableObject} class. Default `"STORE"`. */
  binding?: string;
  /** The object's name (`idFromName`), as {@link DurableObjectStoreOptions.name}. Default `"typed-mcp"`. */
  name?: string;
}

/**
 * The Worker's handler (`export default mcpWorker()`): forwards every request to the object
 * `env[binding].idFromName(name)` of an {@link mcpDurableObject} class, with the forwarding header
 * set, and answers with its response (streams included). Every Worker service bound to the same
 * namespace reaches the same object, so tasks, subscriptions and cancellations are shared.
 * A missing binding is HTTP 500 with a message naming it.
 */
export function mcpWorker(options: McpWorkerOptions = {}): {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response>;
} {
  const binding = options.binding ?? "STORE";
  return {
    async fetch(request, env) {
      const namespace = env[binding] as DurableObjectNamespaceLike | undefined;
      if (typeof namespace?.idFromName !== "function")
        return new Response(
          `typed-mcp/durable-objects: the Worker has no Durable Object binding ${JSON.stringify(binding)} (bind the class mcpDurableObject made).`,
          { status: 500 },
        );
      const headers = new Headers(request.headers);
      headers.set(FORWARDED, "mcp");
      const stub = namespace.get(namespace.idFromName(options.name ?? "typed-mcp") as never);
      return stub.fetch(new Request(request, { headers }));
    },
  };
}
