/**
 * The finished-task quotas of one caller's bucket across instances (docs/scaling.md "What
 * crosses instances"): `tasks.perCaller` / `tasks.anonymous` `maxResults` and `maxResultBytes`
 * held over every instance of a shared store. Each finished task enters its bucket's expiring set
 * (`results` key, one member `<bytes> <task key>` expiring with the task); the set's `max` refuses
 * the one past `maxResults`, which then drops the finished task that expires soonest and enters
 * again, so the count never exceeds the quota. Bytes are added to the bucket's counter
 * (compare-and-set); only when the counter says the quota is passed is the set read, the real sum
 * taken (members that expired leave it), and the soonest-expiring others dropped until it fits
 * (instances finishing at the same moment may each drop one). A dropped task is deleted from the
 * store: unknown on every instance.
 *
 * @module
 */
import type { TaskQuota } from "../tasks/quotas.js";
import type { StateStore } from "./state-store.js";

/** Most drops one finished task makes (a bound on the loop; a quota needs at most a few). */
const MAX_DROPS = 64;

/** The keys of one bucket's finished tasks: its expiring set and its byte counter. */
export interface ResultKeys {
  readonly set: string;
  readonly bytes: string;
}

/**
 * Counts the finished task stored at `taskKey` (`bytes` of result or error, kept until
 * `expiresAt`) in its bucket, dropping the bucket's soonest-expiring finished tasks past `quota`.
 * Rejects when the store cannot be reached (the caller treats it as best effort).
 */
export async function keepResult(
  store: StateStore,
  quota: Required<TaskQuota>,
  keys: ResultKeys,
  taskKey: string,
  bytes: number,
  expiresAt: number,
): Promise<void> {
  const member = `${bytes} ${taskKey}`;
  let drops = 0;
  while (!(await store.enter(keys.set, member, expiresAt, quota.maxResults))) {
    const [soonest] = await store.members(keys.set);
    if (soonest !== undefined) await drop(store, keys, soonest);
    if (++drops >= MAX_DROPS) return;
  }
  const counted = await add(store, keys, bytes, expiresAt);
  if (counted <= quota.maxResultBytes) return;
  const members = await store.members(keys.set);
  let total = members.reduce((sum, m) => sum + bytesOf(m), 0);
  // The counter also held members that expired since: set it back to the set's real sum.
  await add(store, keys, total - counted, 0);
  for (const other of members) {
    if (total <= quota.maxResultBytes || drops++ >= MAX_DROPS) return;
    if (other === member) continue;
    await drop(store, keys, other);
    total -= bytesOf(other);
  }
}

/** Removes `member` from the bucket's set and counter, and deletes its task. */
async function drop(store: StateStore, keys: ResultKeys, member: string): Promise<void> {
  await store.leave(keys.set, member);
  await add(store, keys, -bytesOf(member), 0);
  await store.delete(member.slice(member.indexOf(" ") + 1));
}

/**
 * Adds `delta` to the bucket's byte counter (compare-and-set, retried), which lasts as long as the
 * latest-expiring task counted in it (`until`, raised to `expiresAt`); the new sum, never below 0.
 * The value is `<bytes> <until>`.
 */
async function add(store: StateStore, keys: ResultKeys, delta: number, expiresAt: number): Promise<number> {
  for (;;) {
    const current = await store.get(keys.bytes);
    const [sum = 0, until = 0] = (current ?? "").split(" ").map((part) => Number(part) || 0);
    const next = Math.max(0, sum + delta);
    const last = Math.max(until, expiresAt);
    const ttl = Math.max(1, Math.ceil(last - Date.now()));
    if (await store.swap(keys.bytes, current, `${next} ${last}`, ttl)) return next;
  }
}

function bytesOf(member: string): number {
  return Number(member.slice(0, member.indexOf(" "))) || 0;
}
