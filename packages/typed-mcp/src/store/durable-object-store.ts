/**
 * The {@link StateStore} inside a Durable Object (docs/scaling.md "Durable Objects"): values and
 * expiring sets in the object's transactional storage, each with its expiry, expired entries
 * dropped by the object's alarm, and fan-out to the streams and listeners registered in the
 * object. `typed-mcp/durable-objects` puts it behind the object's `fetch` (the Worker side) and
 * gives it as-is to code that runs inside the object.
 *
 * Atomicity: the object handles one event at a time, and while it awaits its own storage the
 * input gate holds every other event, so the read and the write of `swap` and `enter` are one
 * step (no other request can run between them).
 *
 * @module
 */
import { ChannelListeners } from "./channel-listeners.js";
import type { StateStore, Unsubscribe } from "./state-store.js";
import { checkTtl } from "./state-store.js";
import { deleteValue, readValue, VALUE, writeValue, type Head, type StorageLike } from "./durable-object-values.js";

export type { StorageLike } from "./durable-object-values.js";

/** An expiring set: member → its expiry (Unix ms). Storage keeps a `Map` as it is (structured clone). */
type Members = Map<string, number>;

/** Storage key prefix of expiring sets (values: durable-object-values.ts), so a value and a set never collide. */
const SET = "s:";
/** Entries read per page by the sweep, and deleted per call (the storage API takes 128 at most). */
const PAGE = 128;
/** Alarms come at most this often (ms): expired entries read as absent meanwhile. */
const SWEEP_EVERY_MS = 1000;

const encoder = new TextEncoder();

/** The store kept by one Durable Object; see the module comment. */
export class ObjectStore implements StateStore {
  readonly #storage: StorageLike;
  readonly #listeners = new ChannelListeners();
  /** The alarm set, as far as this object knows (`undefined`: not read yet; `null`: none). */
  #alarmAt: number | null | undefined;
  #sweptAt = 0;
  #closed = false;

  constructor(storage: StorageLike) {
    this.#storage = storage;
  }

  async get(key: string): Promise<string | undefined> {
    this.#open();
    return (await readValue(this.#storage, key))?.value;
  }

  async swap(key: string, expected: string | undefined, value: string, ttlMs: number): Promise<boolean> {
    this.#open();
    checkTtl(ttlMs);
    const current = await readValue(this.#storage, key);
    if (current?.value !== expected) return false;
    const e = Date.now() + ttlMs;
    await writeValue(this.#storage, key, value, e, current?.head);
    await this.#schedule(e);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.#open();
    await deleteValue(this.#storage, key, await this.#storage.get<Head>(VALUE + key));
    await this.#storage.delete(SET + key);
  }

  async enter(key: string, member: string, expiresAt: number, max?: number): Promise<boolean> {
    this.#open();
    const set = await this.#set(key);
    if (!set.has(member) && max !== undefined && set.size >= max) return false;
    set.set(member, expiresAt);
    await this.#storage.put(SET + key, set);
    await this.#schedule(expiresAt);
    return true;
  }

  async leave(key: string, member: string): Promise<void> {
    this.#open();
    const set = await this.#set(key);
    if (!set.delete(member)) return;
    if (set.size === 0) await this.#storage.delete(SET + key);
    else await this.#storage.put(SET + key, set);
  }

  async members(key: string): Promise<string[]> {
    this.#open();
    return [...(await this.#set(key))]
      .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
      .map(([member]) => member);
  }

  async publish(channel: string, message: string): Promise<void> {
    this.#open();
    // Delivered in a later turn, as a network store would.
    this.#listeners.deliver(channel, message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<Unsubscribe> {
    this.#open();
    return this.#listeners.add(channel, listener);
  }

  /** Stops fan-out to this object's listeners; later calls reject (the storage stays). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
  }

  /**
   * A stream of the messages published on `channel` from now on, one JSON string per line
   * (NDJSON); registered before this returns. Cancelling the stream (the reader went away)
   * unregisters it.
   */
  stream(channel: string): ReadableStream<Uint8Array> {
    this.#open();
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    let stop: Unsubscribe | undefined;
    const end = (): void => {
      void stop?.();
      stop = undefined;
    };
    void this.subscribe(channel, (message) => {
      writer.write(encoder.encode(`${JSON.stringify(message)}\n`)).catch(end);
    }).then((unsubscribe) => {
      stop = unsubscribe;
    });
    writer.closed.then(end, end);
    return readable;
  }

  /**
   * Runs one request's method with its JSON arguments, checked first.
   * @throws TypeError naming the method and the argument of the wrong type.
   */
  answer(method: string, args: unknown[]): Promise<unknown> {
    const s = (i: number): string => arg(method, args, i, "string") as string;
    const n = (i: number): number => arg(method, args, i, "number") as number;
    const optional = <T>(i: number, read: (i: number) => T): T | undefined => (args[i] === null ? undefined : read(i));
    switch (method) {
      case "get":
        return this.get(s(0));
      case "swap":
        return this.swap(s(0), optional(1, s), s(2), n(3));
      case "delete":
        return this.delete(s(0));
      case "enter":
        return this.enter(s(0), s(1), n(2), optional(3, n));
      case "leave":
        return this.leave(s(0), s(1));
      case "members":
        return this.members(s(0));
      case "publish":
        return this.publish(s(0), s(1));
      default:
        return Promise.reject(new TypeError(`typed-mcp/durable-objects: unknown method ${JSON.stringify(method)}`));
    }
  }

  /**
   * Deletes every expired value and set member (the object's `alarm()`), then sets the alarm for
   * the soonest expiry left, at most once a second. Reads storage a page of 128 entries at a time.
   */
  async sweep(): Promise<void> {
    const now = Date.now();
    this.#sweptAt = now;
    this.#alarmAt = null;
    let next = Number.POSITIVE_INFINITY;
    for await (const page of this.#pages<Head>(VALUE)) {
      for (const [key, head] of page) {
        if (head.e > now) next = Math.min(next, head.e);
        else await deleteValue(this.#storage, key.slice(VALUE.length), head);
      }
    }
    for await (const page of this.#pages<Members>(SET)) {
      for (const [key, set] of page) {
        const live = [...set].filter(([, e]) => e > now);
        for (const [, e] of live) next = Math.min(next, e);
        if (live.length === set.size) continue;
        if (live.length === 0) await this.#storage.delete(key);
        else await this.#storage.put(key, new Map(live));
      }
    }
    if (next !== Number.POSITIVE_INFINITY) await this.#schedule(next);
  }

  /** The pages of entries under `prefix`, {@link PAGE} at a time, in key order. */
  async *#pages<T>(prefix: string): AsyncGenerator<Map<string, T>> {
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#storage.list<T>({ prefix, limit: PAGE, ...(startAfter ? { startAfter } : {}) });
      if (page.size === 0) return;
      yield page;
      if (page.size < PAGE) return;
      startAfter = [...page.keys()].at(-1);
    }
  }

  /** Sets the alarm for now unless one is due sooner (a Durable Object starts tasks from it). */
  async soon(): Promise<void> {
    this.#alarmAt ??= await this.#storage.getAlarm();
    const now = Date.now();
    if (this.#alarmAt !== null && this.#alarmAt <= now) return;
    this.#alarmAt = now;
    await this.#storage.setAlarm(now);
  }

  /** Makes sure an alarm comes by `expiresAt` (not sooner than a second after the last sweep). */
  async #schedule(expiresAt: number): Promise<void> {
    this.#alarmAt ??= await this.#storage.getAlarm();
    if (this.#alarmAt !== null && this.#alarmAt <= expiresAt) return;
    const at = Math.max(expiresAt, this.#sweptAt + SWEEP_EVERY_MS);
    if (this.#alarmAt !== null && this.#alarmAt <= at) return;
    this.#alarmAt = at;
    await this.#storage.setAlarm(at);
  }

  /** The live members of the set `key`, as a fresh map. */
  async #set(key: string): Promise<Members> {
    const now = Date.now();
    const set = (await this.#storage.get<Members>(SET + key)) ?? new Map<string, number>();
    return new Map([...set].filter(([, e]) => e > now));
  }

  #open(): void {
    if (this.#closed) throw new Error("typed-mcp/durable-objects: the store is closed.");
  }
}

/**
 * Argument `i` of `method`, which must be of `type` (a number: finite).
 * @throws TypeError naming the method and the argument.
 */
function arg(method: string, args: unknown[], i: number, type: "string" | "number"): unknown {
  const value = args[i];
  if (typeof value !== type || (type === "number" && !Number.isFinite(value)))
    throw new TypeError(`typed-mcp/durable-objects: ${method}: argument ${i + 1} must be a ${type}`);
  return value;
}
