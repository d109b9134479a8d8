/**
 * Folder `store/`: what the runtime keeps between requests when one server runs as many
 * instances (docs/scaling.md) — the store interface and its in-process implementation (this
 * file), namespaced and hashed keys (keys.ts), the instance that heartbeats and fans out over the
 * store (shared.ts), and tasks kept in the store (shared-tasks.ts).
 *
 * {@link StateStore} is the one interface a backend implements (Redis: `typed-mcp/redis`; a
 * Durable Object, Postgres or Upstash: one more file with these methods). Every method is async
 * and takes and gives only strings and numbers, so it can sit behind a network client, a Durable
 * Object stub or a database driver; none needs a Node type. Keys and channel names are made by the
 * runtime (keys.ts): a client-chosen id never reaches a store as a raw key.
 *
 * @module
 */
import { ChannelListeners } from "./channel-listeners.js";

/** Stops one {@link StateStore.subscribe} listener; resolves once the store no longer delivers to it. */
export type Unsubscribe = () => Promise<void>;

/**
 * A key-value store with expiry, atomic compare-and-set, expiring sets and fan-out — what
 * typed-mcp needs to share tasks, quota leases, subscriptions' updates, list changes and
 * cancellations across instances (docs/scaling.md "The store interface").
 *
 * Times are milliseconds: `ttlMs` a duration (a positive integer), `expiresAt` a Unix epoch time
 * (`Date.now()` of the caller; instances' clocks are assumed within a second of each other).
 * A method rejects when the store cannot be reached (the runtime answers such a request
 * JSON-RPC `-32603` naming the store); it never waits for the store to come back.
 */
export interface StateStore {
  /** The value of `key`; `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /**
   * Atomically sets `key` to `value`, expiring `ttlMs` from now, when its current value is
   * exactly `expected` (`undefined`: the key is absent or expired).
   * @returns whether it was set (`false`: another writer got there first; read again).
   */
  swap(key: string, expected: string | undefined, value: string, ttlMs: number): Promise<boolean>;
  /** Deletes `key` (nothing when absent). */
  delete(key: string): Promise<void>;
  /**
   * Adds `member` to the expiring set `key`, or moves its expiry, until `expiresAt`. Atomically:
   * members past their expiry are dropped first, then a new member is refused when `max` live
   * members are already there (a member already in the set is always renewed). The set itself
   * lasts as long as its latest member.
   * @returns whether `member` is in the set now.
   */
  enter(key: string, member: string, expiresAt: number, max?: number): Promise<boolean>;
  /** Removes `member` from the expiring set `key` (nothing when absent). */
  leave(key: string, member: string): Promise<void>;
  /** The live members of the expiring set `key`, soonest expiry first (ties: by member). */
  members(key: string): Promise<string[]>;
  /** Delivers `message` to every listener of `channel` on every instance (at most once; none that is disconnected). */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `listener` with each message published on `channel` from now on (on this instance too). */
  subscribe(channel: string, listener: (message: string) => void): Promise<Unsubscribe>;
  /** Releases the store's connections and timers; later calls reject. */
  close(): Promise<void>;
}

/** One value of {@link MemoryStateStore}. */
interface Value {
  value: string;
  expiresAt: number;
}

/**
 * The {@link StateStore} of one process: instances that share this object (several `McpServer`s
 * in one process, as the fast tests run them) share everything; nothing crosses processes.
 * Expired entries are dropped when read, and by a sweep at most once a second when written.
 */
export class MemoryStateStore implements StateStore {
  readonly #values = new Map<string, Value>();
  readonly #sets = new Map<string, Map<string, number>>();
  readonly #channels = new ChannelListeners();
  #closed = false;
  #sweptAt = 0;

  get(key: string): Promise<string | undefined> {
    return this.#run(() => this.#live(key)?.value);
  }

  swap(key: string, expected: string | undefined, value: string, ttlMs: number): Promise<boolean> {
    return this.#run(() => {
      checkTtl(ttlMs);
      if (this.#live(key)?.value !== expected) return false;
      this.#values.set(key, { value, expiresAt: Date.now() + ttlMs });
      this.#sweep();
      return true;
    });
  }

  delete(key: string): Promise<void> {
    return this.#run(() => {
      this.#values.delete(key);
      this.#sets.delete(key);
    });
  }

  enter(key: string, member: string, expiresAt: number, max?: number): Promise<boolean> {
    return this.#run(() => {
      const set = this.#liveSet(key) ?? new Map<string, number>();
      if (!set.has(member) && max !== undefined && set.size >= max) return false;
      set.set(member, expiresAt);
      this.#sets.set(key, set);
      this.#sweep();
      return true;
    });
  }

  leave(key: string, member: string): Promise<void> {
    return this.#run(() => {
      const set = this.#sets.get(key);
      set?.delete(member);
      if (set?.size === 0) this.#sets.delete(key);
    });
  }

  members(key: string): Promise<string[]> {
    return this.#run(() =>
      [...(this.#liveSet(key) ?? new Map<string, number>())]
        .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
        .map(([member]) => member),
    );
  }

  publish(channel: string, message: string): Promise<void> {
    return this.#run(() => {
      // Delivered in a later turn, as a network store would.
      this.#channels.deliver(channel, message);
    });
  }

  subscribe(channel: string, listener: (message: string) => void): Promise<Unsubscribe> {
    return this.#run(() => this.#channels.add(channel, listener));
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#values.clear();
    this.#sets.clear();
    this.#channels.clear();
    return Promise.resolve();
  }

  #run<T>(job: () => T): Promise<T> {
    if (this.#closed) return Promise.reject(new Error("typed-mcp: the memory store is closed."));
    try {
      return Promise.resolve(job());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #live(key: string): Value | undefined {
    const entry = this.#values.get(key);
    if (entry !== undefined && entry.expiresAt <= Date.now()) {
      this.#values.delete(key);
      return undefined;
    }
    return entry;
  }

  #liveSet(key: string): Map<string, number> | undefined {
    const set = this.#sets.get(key);
    if (set === undefined) return undefined;
    const now = Date.now();
    for (const [member, expiresAt] of set) if (expiresAt <= now) set.delete(member);
    if (set.size > 0) return set;
    this.#sets.delete(key);
    return undefined;
  }

  /** Drops expired values and set members, at most once a second. */
  #sweep(): void {
    const now = Date.now();
    if (now - this.#sweptAt < 1000) return;
    this.#sweptAt = now;
    for (const key of [...this.#values.keys()]) this.#live(key);
    for (const key of [...this.#sets.keys()]) this.#liveSet(key);
  }
}

/** @throws RangeError unless `ttlMs` is a positive safe integer. */
export function checkTtl(ttlMs: number): void {
  if (!(Number.isSafeInteger(ttlMs) && ttlMs > 0))
    throw new RangeError(`typed-mcp: a store ttl must be a positive integer of milliseconds, got ${String(ttlMs)}`);
}
