// The heartbeat through a store outage (docs/scaling.md "Failure modes"): an instance beats every
// third of `store.leaseMs`; a beat that fails (the store unreachable) is tried again after 100 ms,
// doubling up to 1 s, so the heartbeat is renewed within about a second of the store being back —
// not up to a third of the lease later, by when a sibling may already have failed the instance's
// tasks (its key lapsed in the store while the store was away). Fake timers and clock: a
// MemoryStateStore that refuses every command while `down`, and records when (fake ms since the
// start) each beat reached it.
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { McpServer, MemoryStateStore } from "typed-mcp";

/** A store that refuses every command while `down`; records its beats' attempts and successes. */
class FlakyStore extends MemoryStateStore {
  down = false;
  /** While set, the heartbeat's read never answers (a store whose command hangs). */
  hung = false;
  readonly attempts: number[] = [];
  readonly beats: number[] = [];
  readonly #start = Date.now();

  /** Fake milliseconds since this store was made. */
  now(): number {
    return Date.now() - this.#start;
  }

  override get(key: string): Promise<string | undefined> {
    // Each beat starts by reading the instance's heartbeat key (store/shared.ts #beatValue).
    if (key.includes(":instance:")) this.attempts.push(this.now());
    if (this.hung && key.includes(":instance:")) return new Promise(() => {});
    return this.down ? Promise.reject(new Error("store unreachable")) : super.get(key);
  }

  override async swap(key: string, expected: string | undefined, value: string, ttlMs: number): Promise<boolean> {
    if (this.down) throw new Error("store unreachable");
    const swapped = await super.swap(key, expected, value, ttlMs);
    if (swapped && key.includes(":instance:")) this.beats.push(this.now());
    return swapped;
  }

  override enter(key: string, member: string, expiresAt: number, max?: number): Promise<boolean> {
    return this.down ? Promise.reject(new Error("store unreachable")) : super.enter(key, member, expiresAt, max);
  }
}

/**
 * Fake milliseconds a recorded time may trail its timer: each 10 ms step waits for the beat's real
 * SHA-256 digest, which on a loaded machine can span a few steps (seen: 80 ms in CI's full tier).
 */
const SLACK = 150;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Moves the fake clock `ms` forward in 10 ms steps, letting each step's work settle (the beat's
 * key is a SHA-256 digest: real asynchronous work between the timers).
 */
async function pass(ms: number): Promise<void> {
  for (let done = 0; done < ms; done += 10) {
    await vi.advanceTimersByTimeAsync(10);
    // A digest of our own after the beat's (the thread pool's queue), then the turns after it.
    await crypto.subtle.digest("SHA-256", new Uint8Array(1));
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A FlakyStore shared by a new McpServer with `leaseMs`, once the server's heartbeat started (its first beat at ≈ 10 ms). */
async function started(leaseMs: number): Promise<FlakyStore> {
  const store = new FlakyStore();
  const server = new McpServer({ name: "heartbeat", version: "1.0.0", store: { state: store, leaseMs } });
  const ready = server.storeReady();
  await pass(10);
  await ready;
  return store;
}

it("beats every third of leaseMs; after the store comes back the next beat is within about a second, then every third again", async () => {
  const store = await started(10_000);
  await pass(3_400);
  // The first beat when serving starts, the next a third of the lease (3,333 ms) later.
  expect(store.beats).toHaveLength(2);
  expect(store.beats[1]! - store.beats[0]!).toBeGreaterThanOrEqual(3_333);
  expect(store.beats[1]! - store.beats[0]!).toBeLessThan(3_400);

  // A short outage over the next beat (due at ≈ 6,666 ms): back at 6,800, beaten by ≈ 7,000.
  store.down = true;
  await pass(3_400);
  store.down = false;
  const back = store.now();
  await pass(1_200);
  expect(store.beats).toHaveLength(3);
  expect(store.beats[2]! - back).toBeLessThanOrEqual(1_000 + SLACK);

  // A long outage (10 s): tries again on a growing delay, 100 ms doubling up to 1 s — not a busy loop.
  store.down = true;
  const from = store.attempts.length;
  await pass(10_000);
  const during = store.attempts.slice(from);
  const gaps = during.slice(1).map((t, i) => t - during[i]!);
  expect(gaps.length).toBeGreaterThanOrEqual(8);
  expect(Math.min(...gaps)).toBeGreaterThanOrEqual(100);
  expect(Math.max(...gaps)).toBeLessThanOrEqual(1_000 + SLACK);
  expect(gaps.slice(0, 4).map((g) => Math.round(g / 100) * 100)).toEqual([100, 200, 400, 800]);
  store.down = false;
  const resumed = store.now();
  await pass(1_100);
  expect(store.beats).toHaveLength(4);
  expect(store.beats[3]! - resumed).toBeLessThanOrEqual(1_000 + SLACK);
  // Then the usual interval again: the next beat a third of the lease after that one.
  await pass(3_300);
  expect(store.beats).toHaveLength(5);
  expect(store.beats[4]! - store.beats[3]!).toBeGreaterThanOrEqual(3_333);
});

it("a beat that never settles counts as failed after a third of leaseMs: the loop goes on, and beats again once the store answers", async () => {
  const store = await started(3_000);
  store.hung = true;
  const from = store.attempts.length;
  // The beat due at 1,000 ms hangs; given up at 2,000, tried again 100 ms later (hangs too), …
  await pass(4_500);
  const during = store.attempts.slice(from);
  expect(during.length).toBeGreaterThanOrEqual(3);
  const gaps = during.slice(1).map((t, i) => t - during[i]!);
  // Each try waits its third (1,000 ms) before it counts as failed, then the retry delay (100, 200, …).
  expect(gaps.map((g) => Math.round(g / 100) * 100)).toEqual([1_100, 1_200].slice(0, gaps.length));
  store.hung = false;
  const back = store.now();
  await pass(2_000);
  // The try pending when it answers again (its retry delay at most 1 s), then a third of the lease later.
  expect(store.beats).toHaveLength(3);
  expect(store.beats[1]! - back).toBeLessThanOrEqual(1_000 + SLACK);
  expect(store.beats[2]! - store.beats[1]!).toBeGreaterThanOrEqual(1_000);
});
