/**
 * The finished-task quotas of one caller's bucket across instances (docs/scaling.md "What
 * crosses instances"): `tasks.perCaller` / `tasks.anonymous` `maxResults` and `maxResultBytes`
 * held over every instance of a shared store. Each finished task enters its bucket's expiring set
 * (`results` key, one member `<bytes> <task key>` expiring with the task); the set's `max` refuses
 * the one past `maxResults`, which then drops the finished task that expires soonest and enters
 * again, so the count never exceeds the quota. Bytes are summed after it entered, and the
 * soonest-expiring others are dropped until the sum fits (instances settling at the same moment
 * may each drop one). A dropped task is deleted from the store: unknown on every instance.
 *
 * @module
 */
import type { TaskQuota } from "../tasks/quotas.js";
import type { StateStore } from "./state-store.js";

/** Most drops one finished task makes (a bound on the loop; a quota needs at most a few). */
const MAX_DROPS = 64;

/**
 * Counts the finished task stored at `taskKey` (`bytes` of result or error, kept until
 * `expiresAt`) in the bucket set `resultsKey`, dropping the bucket's soonest-expiring finished
 * tasks past `quota`. Rejects when the store cannot be reached (the caller treats it as best effort).
 */
export async function keepResult(
  store: StateStore,
  quota: Required<TaskQuota>,
  resultsKey: string,
  taskKey: string,
  bytes: number,
  expiresAt: number,
): Promise<void> {
  const member = `${bytes} ${taskKey}`;
  let drops = 0;
  while (!(await store.enter(resultsKey, member, expiresAt, quota.maxResults))) {
    const [soonest] = await store.members(resultsKey);
    if (soonest !== undefined) await drop(store, resultsKey, soonest);
    if (++drops >= MAX_DROPS) return;
  }
  const members = await store.members(resultsKey);
  let total = members.reduce((sum, m) => sum + bytesOf(m), 0);
  for (const other of members) {
    if (total <= quota.maxResultBytes || drops++ >= MAX_DROPS) return;
    if (other === member) continue;
    await drop(store, resultsKey, other);
    total -= bytesOf(other);
  }
}

/** Removes `member` from the bucket set and deletes its task. */
async function drop(store: StateStore, resultsKey: string, member: string): Promise<void> {
  await store.leave(resultsKey, member);
  await store.delete(member.slice(member.indexOf(" ") + 1));
}

function bytesOf(member: string): number {
  return Number(member.slice(0, member.indexOf(" "))) || 0;
}
