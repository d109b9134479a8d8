/**
 * The options and quotas of the task store (tasks/store.ts; docs/security.md "Tasks" and
 * "Limits"): how long tasks are kept, and how many tasks and result bytes one caller — a quota
 * bucket of caller.ts — and the whole server may hold. A full quota is a JSON-RPC `-32603`
 * naming the option ({@link quotaError}); it never costs another caller anything.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/**
 * What one caller's quota bucket (caller.ts `Caller.bucket`) may hold at once. Each count is a
 * positive integer; bytes are the UTF-8 length of a result's JSON text (what `tasks/result` or
 * `tasks/get` sends), measured once when the task finishes.
 */
export interface TaskQuota {
  /** Tasks running at once (`working` or `input_required`); one more is refused (`-32603`). */
  maxRunning?: number;
  /** Finished tasks (`completed`, `failed`, `cancelled`) kept; past it the bucket's own oldest finished one is dropped. */
  maxResults?: number;
  /**
   * Bytes of finished tasks' results and errors kept; past it the bucket's own oldest finished
   * ones are dropped, and a single result larger than this is not kept (the task is `failed`, `-32603`).
   */
  maxResultBytes?: number;
}

/** Options of the task store (`McpServerOptions.tasks`). Durations in milliseconds. */
export interface TaskOptions {
  /**
   * How long a task and its result are kept from its creation when the client asks for no
   * `ttl` (2025-11-25) or cannot ask (2026-07-28 has no request field). Default 300,000 (5 min).
   */
  defaultTtlMs?: number;
  /** The longest retention granted; a larger requested `ttl` is lowered to it (any length: timers.ts). Default 3,600,000 (1 h). */
  maxTtlMs?: number;
  /** The `pollInterval` (2025-11-25) / `pollIntervalMs` (2026-07-28) suggested to clients. Default 500. */
  pollIntervalMs?: number;
  /**
   * Server-wide ceiling: tasks kept at once, running and finished, of all callers. When full, a
   * new task first drops its own caller's oldest finished task; if that caller has none it is
   * refused (`-32603`) — never another caller's task. Default 10,000.
   */
  maxTasks?: number;
  /**
   * Server-wide ceiling: bytes of finished tasks' results kept, of all callers. A result that
   * does not fit after dropping its own caller's finished tasks is not kept (the task is
   * `failed`, `-32603`). Default 268,435,456 (256 MiB).
   */
  maxResultBytes?: number;
  /** The quota of each caller with a token, a connection or a session. Default `{ maxRunning: 100, maxResults: 1,000, maxResultBytes: 33,554,432 }` (32 MiB). */
  perCaller?: TaskQuota;
  /**
   * The quota of the anonymous bucket: all anonymous HTTP callers together, or each bucket the
   * server's `callerKey` option makes. Default the same as `perCaller`'s defaults.
   */
  anonymous?: TaskQuota;
}

/** {@link TaskOptions} with every default filled in. */
export interface ResolvedTaskOptions {
  defaultTtlMs: number;
  maxTtlMs: number;
  pollIntervalMs: number;
  maxTasks: number;
  maxResultBytes: number;
  perCaller: Required<TaskQuota>;
  anonymous: Required<TaskQuota>;
}

const QUOTA: Required<TaskQuota> = { maxRunning: 100, maxResults: 1000, maxResultBytes: 32 * 1024 * 1024 };
const DEFAULTS = {
  defaultTtlMs: 300_000,
  maxTtlMs: 3_600_000,
  pollIntervalMs: 500,
  maxTasks: 10_000,
  maxResultBytes: 256 * 1024 * 1024,
};

/**
 * Checks {@link TaskOptions} and fills in the defaults.
 * @throws TypeError when `perCaller` or `anonymous` is not an object.
 * @throws RangeError naming the option (`tasks.perCaller.maxRunning`, …) when a value is not a
 *   positive safe integer, `defaultTtlMs` exceeds `maxTtlMs`, or a given quota exceeds its
 *   server-wide ceiling (`maxRunning` and `maxResults` above `maxTasks`, `maxResultBytes` above
 *   `maxResultBytes`); a default quota is lowered to its ceiling instead.
 */
export function resolveTaskOptions(options: TaskOptions | undefined): ResolvedTaskOptions {
  const top = { ...DEFAULTS, ...options };
  for (const key of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) positive(`tasks.${key}`, top[key]);
  if (top.defaultTtlMs > top.maxTtlMs)
    throw new RangeError(`tasks.defaultTtlMs (${top.defaultTtlMs}) must not exceed tasks.maxTtlMs (${top.maxTtlMs})`);
  const out: ResolvedTaskOptions = {
    defaultTtlMs: top.defaultTtlMs,
    maxTtlMs: top.maxTtlMs,
    pollIntervalMs: top.pollIntervalMs,
    maxTasks: top.maxTasks,
    maxResultBytes: top.maxResultBytes,
    perCaller: resolveQuota("perCaller", options?.perCaller, top),
    anonymous: resolveQuota("anonymous", options?.anonymous, top),
  };
  for (const name of ["perCaller", "anonymous"] as const) {
    const quota = out[name];
    for (const [key, ceiling] of [
      ["maxRunning", "maxTasks"],
      ["maxResults", "maxTasks"],
      ["maxResultBytes", "maxResultBytes"],
    ] as const) {
      if (quota[key] > out[ceiling])
        throw new RangeError(
          `tasks.${name}.${key} (${quota[key]}) must not exceed the server-wide tasks.${ceiling} (${out[ceiling]})`,
        );
    }
  }
  return out;
}

/** A quota with its defaults; a default (not a given value) is lowered to its server-wide ceiling, so `tasks: { maxTasks: 40 }` alone is valid. */
function resolveQuota(
  name: string,
  quota: TaskQuota | undefined,
  ceilings: { maxTasks: number; maxResultBytes: number },
): Required<TaskQuota> {
  if (quota !== undefined && (typeof quota !== "object" || quota === null))
    throw new TypeError(`tasks.${name} must be an object, got ${quota === null ? "null" : typeof quota}`);
  const defaults = {
    maxRunning: Math.min(QUOTA.maxRunning, ceilings.maxTasks),
    maxResults: Math.min(QUOTA.maxResults, ceilings.maxTasks),
    maxResultBytes: Math.min(QUOTA.maxResultBytes, ceilings.maxResultBytes),
  };
  const out = { ...defaults, ...quota };
  for (const key of Object.keys(QUOTA) as (keyof TaskQuota)[]) positive(`tasks.${name}.${key}`, out[key]);
  return out;
}

function positive(name: string, value: unknown): void {
  if (!(typeof value === "number" && Number.isSafeInteger(value) && value > 0))
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
}

/**
 * The JSON-RPC error of a full quota or ceiling: `-32603` (JSON-RPC 2.0 §5.1 "Internal error";
 * MCP 2025-11-25 "Tasks" lists `-32603` for a receiver's internal failures and names no other
 * code for a refused task; SEP-2663 neither), `message` naming the option and its value,
 * `data: { limit, max }` for programs (`limit` the option's path, e.g. `tasks.perCaller.maxRunning`).
 */
export function quotaError(message: string, limit: string, max: number): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InternalError, message, { limit, max });
}

/**
 * The size of a finished task's outcome in bytes: the UTF-8 length of `JSON.stringify(value)`
 * (one pass over the text, no copy). `undefined` (a cancelled task) is 0.
 *
 * @throws what `JSON.stringify` throws (a cycle, a BigInt).
 */
export function resultBytes(value: unknown): number {
  if (value === undefined) return 0;
  const json = JSON.stringify(value) ?? "";
  let bytes = json.length;
  for (let i = 0; i < json.length; i++) {
    const unit = json.charCodeAt(i);
    // U+0080..U+07FF: 2 bytes; U+0800..U+FFFF: 3; a surrogate pair (2 units): 4.
    if (unit >= 0x80) bytes += unit >= 0x800 && (unit < 0xd800 || unit > 0xdfff) ? 2 : 1;
  }
  return bytes;
}
