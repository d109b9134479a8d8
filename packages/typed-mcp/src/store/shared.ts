/**
 * One instance of a server that shares a {@link StateStore} with its siblings (docs/scaling.md):
 * its heartbeat (the lease of everything it runs), its subscriptions to the fan-out channels,
 * and the calls it runs that another instance may cancel. Made by `McpServer` when the `store`
 * option is set; without it nothing here exists and the server keeps everything in its process.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { toBase64url } from "../codegen-support/base64.js";
import { ANONYMOUS_OWNER } from "../transports/caller.js";
import { digest, Keys } from "./keys.js";
import type { Channel } from "./keys.js";
import type { StateStore } from "./state-store.js";

/** The `store` server option: a store, or a store with settings. */
export type StoreOption = StateStore | StoreSettings;

/** The `store` option with its settings (docs/scaling.md "Options"). */
export interface StoreSettings {
  /** The shared store (e.g. `await connectRedisStore(url)` from `typed-mcp/redis`). */
  state: StateStore;
  /**
   * Milliseconds an instance's heartbeat lasts (renewed every third of it). A task whose instance
   * missed it is `failed` for every reader, and its running-task lease frees its quota. Default
   * 10,000; at least 1,000.
   */
  leaseMs?: number;
  /** The prefix of every key and channel (several servers in one store). Default `tmcp:`. */
  prefix?: string;
  /**
   * Milliseconds the events of a 2025-era SSE response stream are kept for resumption with
   * `Last-Event-ID` on any instance (store/resumption.ts). Default 300,000 (5 minutes); at least 1,000.
   */
  eventTtlMs?: number;
  /**
   * Starts the work of each task this instance runs (the tool's call, up to its result).
   * Default: at once, detached from the request that created the task. A Durable Object passes
   * one that starts the work from its `alarm()` (typed-mcp/durable-objects), which keeps the
   * object alive while the work runs; a work that is never started leaves its task to the lease
   * (failed once this instance's heartbeat lapses).
   */
  startTask?: (work: () => Promise<void>) => void;
}

/** How long the shared `requestState` key lasts unrenewed (30 days; every heartbeat renews it). */
const SECRET_TTL_MS = 30 * 24 * 3600 * 1000;

/** A call running here that another instance may cancel. */
interface Call {
  readonly owner: string;
  readonly requestId: string | number;
  readonly controller: AbortController;
  key: string | undefined;
}

/** A message of one channel, as this instance receives it. */
type Listener = (message: Record<string, unknown>) => void;

/**
 * The `-32603` of a request that needs the store while it cannot be reached (docs/scaling.md
 * "Failure modes"): `The shared store is unavailable (<reason>); try again.`
 */
export function storeUnavailable(error: unknown): ProtocolError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ProtocolError(ProtocolErrorCode.InternalError, `The shared store is unavailable (${reason}); try again.`, {
    store: "unavailable",
  });
}

/** HTTP 503 with the JSON-RPC `-32603` of {@link storeUnavailable}, for a request answered before the SDK sees it. */
export function storeUnavailableResponse(error: unknown): Response {
  const { code, message, data } = storeUnavailable(error);
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message, data } }, { status: 503 });
}

/** This instance's part in a shared store: heartbeat, channels, cancellable calls. */
export class SharedInstance {
  readonly store: StateStore;
  readonly keys: Keys;
  readonly leaseMs: number;
  /** How long events kept for resumption last (`store.eventTtlMs`). */
  readonly eventTtlMs: number;
  /** How a task's work is started (`store.startTask`; default: at once). */
  readonly startTask: (work: () => Promise<void>) => void;
  /** Random, made when serving starts (Workers forbid random values at global scope). */
  #id: string | undefined;
  readonly #listeners = new Map<Channel, Set<Listener>>();
  /** Calls running here that another instance may cancel. */
  readonly #calls = new Set<Call>();
  /** Leases this instance renews with its heartbeat: set key → members. */
  readonly #leases = new Map<string, Set<string>>();
  readonly #subscribed = new Set<Channel>();
  /** The `requestState` key every instance of the store uses (base64url), once {@link ready} read or made it. */
  #stateKey: string | undefined;
  #ready: Promise<void> | undefined;
  #started = false;
  /** Whether the heartbeat loop ({@link #nextBeat}) runs. */
  #beating = false;

  /** @throws RangeError when `leaseMs` or `eventTtlMs` is not an integer of at least 1,000. */
  constructor(option: StoreOption) {
    const settings: StoreSettings = isStore(option) ? { state: option } : option;
    const lease = settings.leaseMs ?? 10_000;
    if (!(Number.isSafeInteger(lease) && lease >= 1000))
      throw new RangeError(`store.leaseMs must be an integer of at least 1000, got ${String(lease)}`);
    const eventTtl = settings.eventTtlMs ?? 300_000;
    if (!(Number.isSafeInteger(eventTtl) && eventTtl >= 1000))
      throw new RangeError(`store.eventTtlMs must be an integer of at least 1000, got ${String(eventTtl)}`);
    this.eventTtlMs = eventTtl;
    this.startTask = settings.startTask ?? ((work) => void work());
    this.store = settings.state;
    this.keys = new Keys(settings.prefix);
    this.leaseMs = lease;
    this.on("cancel-call", (message) => {
      const key = message["key"];
      if (typeof key !== "string") return;
      const reason = typeof message["reason"] === "string" ? message["reason"] : "Cancelled by the client.";
      void this.#abortCall(key, reason);
    });
  }

  /** This instance's id (its heartbeat key's part). */
  get id(): string {
    return (this.#id ??= toBase64url(crypto.getRandomValues(new Uint8Array(12))));
  }

  /**
   * Starts the heartbeat and subscribes to every channel, once; resolves when both are in place.
   * A failure (the store unreachable) rejects this call and the next call tries again.
   */
  ready(): Promise<void> {
    this.#ready ??= this.#start().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /**
   * `options` (the server's `requestState` option) with the key the instances share when it has
   * none: a 2026-07-28 `input_required` retry may reach another instance, which must verify the
   * `requestState` this one sealed. The key is made by the first instance and kept in the store
   * (renewed by the heartbeats). Before {@link ready} has read it: `options` as given (the caller
   * must not keep a codec made from it).
   */
  requestStateOptions<T extends { key?: string | Uint8Array }>(options: T | undefined): T | undefined {
    if (options?.key !== undefined || this.#stateKey === undefined) return options;
    return { ...options, key: this.#stateKey } as T;
  }

  /** Whether {@link ready} succeeded once (this instance listens to the channels). */
  get started(): boolean {
    return this.#started;
  }

  /** Whether this instance's heartbeat key for `instance` is alive (another instance's, usually). */
  async alive(instance: string): Promise<boolean> {
    return (await this.store.get(await this.keys.key("instance", instance))) !== undefined;
  }

  /** Listens on `channel` (messages from every instance, this one included). */
  on(channel: Channel, listener: Listener): void {
    let set = this.#listeners.get(channel);
    if (set === undefined) this.#listeners.set(channel, (set = new Set()));
    set.add(listener);
  }

  /** Publishes `message` on `channel` (JSON; at most once). */
  async publish(channel: Channel, message: Record<string, unknown>): Promise<void> {
    await this.store.publish(this.keys.channel(channel), JSON.stringify(message));
  }

  /** Renews `member` of the expiring set `key` with every heartbeat until {@link release}. */
  hold(key: string, member: string): void {
    let members = this.#leases.get(key);
    if (members === undefined) this.#leases.set(key, (members = new Set()));
    members.add(member);
  }

  /** Stops renewing `member` of `key` and removes it from the store's set. */
  async release(key: string, member: string): Promise<void> {
    const members = this.#leases.get(key);
    members?.delete(member);
    if (members?.size === 0) this.#leases.delete(key);
    await this.store.leave(key, member);
  }

  /**
   * Makes the call `requestId` of `owner` running here cancellable from any instance
   * ({@link cancelCall}); `undefined` for {@link ANONYMOUS_OWNER} (such calls are cancelled only
   * where they run: request ids are the client's and collide across clients). Costs a map entry:
   * the call's hashed key is computed only when a cancel arrives.
   * @returns a signal that aborts on a remote cancel, and the function that forgets the call.
   */
  trackCall(owner: string, requestId: string | number): { signal: AbortSignal; done: () => void } | undefined {
    if (owner === ANONYMOUS_OWNER) return undefined;
    const controller = new AbortController();
    const call: Call = { owner, requestId, controller, key: undefined };
    this.#calls.add(call);
    return { signal: controller.signal, done: () => this.#calls.delete(call) };
  }

  /** Publishes the cancel of `owner`'s call `requestId` (a `notifications/cancelled` that arrived here); best effort. */
  async cancelCall(owner: string, requestId: string | number, reason: unknown): Promise<void> {
    if (owner === ANONYMOUS_OWNER) return;
    const key = await callKey(owner, requestId);
    await this.publish("cancel-call", { key, ...(typeof reason === "string" && { reason }) });
  }

  /** Aborts the call running here whose hashed key is `key` (each call's key hashed once, when first needed). */
  async #abortCall(key: string, reason: string): Promise<void> {
    for (const call of [...this.#calls]) {
      call.key ??= await callKey(call.owner, call.requestId);
      if (call.key === key) call.controller.abort(reason);
    }
  }

  async #start(): Promise<void> {
    const channels: Channel[] = [
      "resource-updated",
      "list-changed",
      "cancel-call",
      "cancel-task",
      "task-input",
      "task-settled",
      "client-answer",
    ];
    // A channel subscribed by an earlier, failed attempt is not subscribed twice.
    await Promise.all(
      channels
        .filter((channel) => !this.#subscribed.has(channel))
        .map(async (channel) => {
          await this.store.subscribe(this.keys.channel(channel), (raw) => this.#deliver(channel, raw));
          this.#subscribed.add(channel);
        }),
    );
    await this.#beat();
    await this.#sharedStateKey();
    this.#started = true;
    if (!this.#beating) {
      this.#beating = true;
      this.#nextBeat(Math.floor(this.leaseMs / 3));
    }
  }

  /**
   * The heartbeat loop: a beat every third of `leaseMs`; after a failed beat (the store
   * unreachable) the next comes sooner — 100 ms, doubling up to 1 s, never later than the usual
   * third — so that the heartbeat is renewed within about a second of the store being back
   * rather than up to a third of the lease later (docs/scaling.md "Failure modes": the outage an
   * instance rides out). A beat that has not settled within a third of the lease counts as
   * failed (a store whose command hangs does not stop the loop). The timers do not keep the
   * process alive.
   */
  #nextBeat(delayMs: number, retryMs = 100): void {
    const third = Math.floor(this.leaseMs / 3);
    const unref = (timer: ReturnType<typeof setTimeout>): void => (timer as { unref?: () => void }).unref?.();
    unref(
      setTimeout(() => {
        let done = false;
        const next = (beaten: boolean): void => {
          if (done) return;
          done = true;
          clearTimeout(hung);
          if (beaten) this.#nextBeat(third);
          else this.#nextBeat(Math.min(retryMs, third), Math.min(retryMs * 2, 1000));
        };
        const hung = setTimeout(() => next(false), third);
        unref(hung);
        this.#beat().then(
          () => next(true),
          () => next(false),
        );
      }, delayMs),
    );
  }

  /** Renews this instance's heartbeat and the leases it holds. */
  async #beat(): Promise<void> {
    await this.store.swap(await this.keys.key("instance", this.id), await this.#beatValue(), "1", this.leaseMs);
    if (this.#stateKey !== undefined) await this.#sharedStateKey();
    const until = Date.now() + this.leaseMs;
    const renewals: Promise<boolean>[] = [];
    for (const [key, members] of this.#leases)
      for (const member of members) renewals.push(this.store.enter(key, member, until));
    await Promise.all(renewals);
  }

  /** Reads the shared `requestState` key, or makes it (the first instance wins the swap), and renews its ttl. */
  async #sharedStateKey(): Promise<void> {
    const key = await this.keys.key("secret", "requestState");
    for (;;) {
      const current = await this.store.get(key);
      const value = current ?? toBase64url(crypto.getRandomValues(new Uint8Array(32)));
      if (await this.store.swap(key, current, value, SECRET_TTL_MS)) {
        this.#stateKey = value;
        return;
      }
    }
  }

  /** The current heartbeat value (so the swap renews it), `undefined` when it lapsed. */
  async #beatValue(): Promise<string | undefined> {
    return this.store.get(await this.keys.key("instance", this.id));
  }

  #deliver(channel: Channel, raw: string): void {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof message !== "object" || message === null) return;
    for (const listener of this.#listeners.get(channel) ?? []) {
      try {
        listener(message as Record<string, unknown>);
      } catch {
        // One listener's failure does not stop the others.
      }
    }
  }
}

/** The hashed key of a call: (owner, request id with its JSON type). */
function callKey(owner: string, requestId: string | number): Promise<string> {
  return digest(["call", owner, JSON.stringify(requestId)]);
}

function isStore(option: StoreOption): option is StateStore {
  return typeof (option as StateStore).swap === "function";
}
