/**
 * The contract of the store interface (docs/scaling.md "The store interface"), one file for every
 * backend: the in-process MemoryStateStore and typed-mcp/durable-objects (its object in real
 * workerd, reached through two Worker services) in the fast tier, Redis (Debian's redis-server,
 * full tier) too. Each case states what the interface promises; a backend that breaks it fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStateStore, type StateStore } from "typed-mcp";
import { FULL } from "../helpers/tier.ts";
import { startRedis, type RedisServer } from "../helpers/redis-server.ts";
import { startWorkerdStore, type WorkerdStore } from "../helpers/workerd-store.ts";

/** Waits (bounded, 10 s) until `check` holds. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met within 10 s");
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Backend {
  name: string;
  skip: boolean;
  open(): Promise<StateStore>;
  /** Another connection to the store `store` is (memory: the same object; a process has one). */
  connection(store: StateStore): Promise<StateStore>;
  done?(): Promise<void>;
}

let redis: RedisServer | undefined;
let workerd: WorkerdStore | undefined;
const BACKENDS: Backend[] = [
  { name: "memory", skip: false, open: async () => new MemoryStateStore(), connection: async (store) => store },
  {
    name: "redis",
    skip: !FULL,
    async open() {
      redis ??= await startRedis();
      const { connectRedisStore } = await import("typed-mcp/redis");
      return connectRedisStore(redis.url);
    },
    connection() {
      return this.open();
    },
    async done() {
      await redis?.dispose();
    },
  },
  {
    // typed-mcp/durable-objects in real workerd: each call one request to service a's Worker,
    // which makes a DurableObjectStateStore for it; the other connection goes through service b,
    // a second Worker binding the same namespace (test/helpers/workerd-store.ts).
    name: "durable-objects",
    skip: false,
    async open() {
      workerd ??= await startWorkerdStore();
      return workerd.store("a");
    },
    async connection() {
      return workerd!.store("b");
    },
    async done() {
      await workerd?.dispose();
    },
  },
];

describe.each(BACKENDS)("StateStore contract: $name", (backend) => {
  let store: StateStore;
  const other: StateStore[] = [];
  beforeAll(async () => {
    if (backend.skip) return;
    store = await backend.open();
  });
  afterAll(async () => {
    for (const s of other) await s.close();
    await store?.close();
    await backend.done?.();
  });
  const key = (name: string) => `test:${process.pid}:${name}`;

  it.skipIf(backend.skip)(
    "swap sets an absent key only when expected is undefined, then only from the exact value",
    async () => {
      const k = key("swap");
      expect(await store.get(k)).toBeUndefined();
      expect(await store.swap(k, "x", "1", 60_000)).toBe(false);
      expect(await store.swap(k, undefined, "1", 60_000)).toBe(true);
      expect(await store.swap(k, undefined, "2", 60_000)).toBe(false);
      expect(await store.swap(k, "2", "3", 60_000)).toBe(false);
      expect(await store.get(k)).toBe("1");
      expect(await store.swap(k, "1", "3", 60_000)).toBe(true);
      expect(await store.get(k)).toBe("3");
      await store.delete(k);
      expect(await store.get(k)).toBeUndefined();
    },
  );

  it.skipIf(backend.skip)("of two racing swaps from one value exactly one wins", async () => {
    const k = key("race");
    await store.swap(k, undefined, "working", 60_000);
    const results = await Promise.all([
      store.swap(k, "working", "completed", 60_000),
      store.swap(k, "working", "cancelled", 60_000),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(["completed", "cancelled"]).toContain(await store.get(k));
  });

  it.skipIf(backend.skip)("a value is gone after its ttl", async () => {
    const k = key("ttl");
    await store.swap(k, undefined, "v", 50);
    await eventually(async () => (await store.get(k)) === undefined);
    // An expired key counts as absent for swap.
    expect(await store.swap(k, undefined, "w", 60_000)).toBe(true);
  });

  it.skipIf(backend.skip)("swap refuses a ttl that is not a positive integer", async () => {
    await expect(store.swap(key("bad"), undefined, "v", 0)).rejects.toThrow(/positive integer/);
    await expect(store.swap(key("bad"), undefined, "v", 1.5)).rejects.toThrow(/positive integer/);
  });

  it.skipIf(backend.skip)(
    "an expiring set holds at most max live members, renews members, drops expired ones",
    async () => {
      const k = key("set");
      const now = Date.now();
      expect(await store.enter(k, "a", now + 60_000, 2)).toBe(true);
      expect(await store.enter(k, "b", now + 30_000, 2)).toBe(true);
      expect(await store.enter(k, "c", now + 60_000, 2)).toBe(false);
      // Renewing a member already there is never refused.
      expect(await store.enter(k, "a", now + 90_000, 2)).toBe(true);
      expect(await store.members(k)).toEqual(["b", "a"]);
      await store.leave(k, "b");
      expect(await store.enter(k, "c", now + 60_000, 2)).toBe(true);
      expect(await store.members(k)).toEqual(["c", "a"]);
      // A member past its expiry does not count.
      expect(await store.enter(k, "d", Date.now() + 40, 3)).toBe(true);
      await eventually(async () => (await store.members(k)).length === 2);
      expect(await store.enter(k, "e", now + 60_000, 3)).toBe(true);
      expect(await store.members(k)).toEqual(["c", "e", "a"]);
      await store.delete(k);
      expect(await store.members(k)).toEqual([]);
    },
  );

  it.skipIf(backend.skip)(
    "publish reaches every subscriber of the channel, on another connection too, and not after unsubscribe",
    async () => {
      const second = await backend.connection(store);
      if (second !== store) other.push(second);
      const channel = key("channel");
      const a: string[] = [];
      const b: string[] = [];
      const stopA = await store.subscribe(channel, (m) => a.push(m));
      const stopB = await second.subscribe(channel, (m) => b.push(m));
      await store.subscribe(key("elsewhere"), (m) => a.push(`wrong: ${m}`));
      await second.publish(channel, "one");
      await eventually(() => a.length === 1 && b.length === 1);
      expect([a, b]).toEqual([["one"], ["one"]]);
      await stopB();
      await store.publish(channel, "two");
      await eventually(() => a.length === 2);
      expect(a).toEqual(["one", "two"]);
      expect(b).toEqual(["one"]);
      await stopA();
    },
  );

  it.skipIf(backend.skip)("a closed store rejects", async () => {
    const closing = await backend.open();
    await closing.close();
    await expect(closing.get(key("closed"))).rejects.toThrow();
  });
});
