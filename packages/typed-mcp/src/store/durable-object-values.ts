/**
 * Values of the Durable Object store (store/durable-object-store.ts) in `state.storage`, split
 * into chunks: the storage API refuses a value above 131,072 bytes (workerd 1.20261117.1:
 * `Values cannot be larger than 131072 bytes.`), and a task's result may be megabytes. A value
 * is its head `v:<key>` (the first chunk, the expiry, the chunk count) and its other chunks
 * `c:<key>\0<n>`; one write puts them all, and the object's write coalescing commits them in one
 * atomic batch (no other I/O is awaited between).
 *
 * @module
 */

/** The part of a Durable Object's `state.storage` the store uses (Workers runtime API). */
export interface StorageLike {
  get<T>(key: string): Promise<T | undefined>;
  get<T>(keys: string[]): Promise<Map<string, T>>;
  put<T>(key: string, value: T): Promise<void>;
  put<T>(entries: Record<string, T>): Promise<void>;
  delete(keys: string | string[]): Promise<unknown>;
  list<T>(options: { prefix: string; startAfter?: string; limit: number }): Promise<Map<string, T>>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The head of a value: its first chunk, its expiry (Unix ms), how many chunks it has (1: only this one). */
export interface Head {
  v: string;
  e: number;
  n: number;
}

/** Storage key prefix of value heads. */
export const VALUE = "v:";
/** Storage key prefix of a value's further chunks. */
const CHUNK = "c:";
/** Characters per chunk: at most 2 bytes each in storage's serialisation, under its 131,072-byte limit. */
const CHUNK_CHARS = 60_000;
/** Keys per storage call (the storage API's limit). */
const BATCH = 128;
/**
 * The longest value the store keeps, in UTF-16 code units (64 Mi): above the default
 * `maxResultBytes` (32 MiB) of a task result's JSON.
 */
const MAX_VALUE_CHARS = 64 * 1024 * 1024;

function chunkKeys(key: string, n: number): string[] {
  return Array.from({ length: n - 1 }, (_, i) => `${CHUNK}${key}\0${i + 1}`);
}

/** Runs `job` on `keys` {@link BATCH} at a time. */
async function batches<T>(keys: string[], job: (batch: string[]) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < keys.length; i += BATCH) out.push(await job(keys.slice(i, i + BATCH)));
  return out;
}

/** The live value of `key` with its head (an expired one reads as absent; the alarm deletes it). */
export async function readValue(storage: StorageLike, key: string): Promise<{ value: string; head: Head } | undefined> {
  const head = await storage.get<Head>(VALUE + key);
  if (head === undefined || head.e <= Date.now()) return undefined;
  if (head.n <= 1) return { value: head.v, head };
  const keys = chunkKeys(key, head.n);
  const found = new Map<string, string>();
  for (const page of await batches(keys, (batch) => storage.get<string>(batch)))
    for (const [k, v] of page) found.set(k, v);
  return { value: head.v + keys.map((k) => found.get(k) ?? "").join(""), head };
}

/**
 * Writes `value` (expiring at `e`) over the value of `key`, whose head was `old` (its extra
 * chunks are deleted when the new value has fewer).
 * @throws RangeError when `value` is longer than {@link MAX_VALUE_CHARS}.
 */
export async function writeValue(
  storage: StorageLike,
  key: string,
  value: string,
  e: number,
  old?: Head,
): Promise<void> {
  if (value.length > MAX_VALUE_CHARS)
    throw new RangeError(
      `typed-mcp/durable-objects: a value may hold at most ${MAX_VALUE_CHARS} characters, got ${value.length}`,
    );
  const n = Math.max(1, Math.ceil(value.length / CHUNK_CHARS));
  const keys = chunkKeys(key, n);
  const entries: [string, string][] = keys.map((k, i) => [
    k,
    value.slice((i + 1) * CHUNK_CHARS, (i + 2) * CHUNK_CHARS),
  ]);
  for (let i = 0; i < entries.length; i += BATCH) await storage.put(Object.fromEntries(entries.slice(i, i + BATCH)));
  await storage.put<Head>(VALUE + key, { v: value.slice(0, CHUNK_CHARS), e, n });
  if (old !== undefined && old.n > n) await batches(chunkKeys(key, old.n).slice(n - 1), (b) => storage.delete(b));
}

/** Deletes the value of `key` whose head is `head` (the head and every chunk). */
export async function deleteValue(storage: StorageLike, key: string, head: Head | undefined): Promise<void> {
  await batches([VALUE + key, ...chunkKeys(key, head?.n ?? 1)], (b) => storage.delete(b));
}
