/**
 * The in-memory task store of one {@link McpServer} (docs/runtime.md "Tasks"; MCP 2025-11-25
 * "Tasks", SEP-2663 on 2026-07-28). The official SDK v2 (`@modelcontextprotocol/server` 2.4.0)
 * ships the task wire schemas but no store and no `tasks/*` handlers, so this one is typed-mcp's;
 * it follows the shape of the v1 SDK's `InMemoryTaskStore` (`@modelcontextprotocol/sdk`
 * `experimental/tasks`): random ids, a retention timer per task, paged listing.
 *
 * It lives on the `McpServer` object, not on the per-request SDK instance, so a task created by
 * one stateless HTTP request is found by a `tasks/get` in a later one (in the same process).
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { cutEchoed } from "../codegen-support/argument-errors.js";
import { toBase64url } from "../codegen-support/base64.js";
import { ANONYMOUS_OWNER } from "../transports/caller.js";
import type { Caller } from "../transports/caller.js";
import { quotaError, resolveTaskOptions, resultBytes } from "./quotas.js";
import type { ResolvedTaskOptions, TaskOptions, TaskQuota } from "./quotas.js";
import { setLongTimeout } from "../protocol/timers.js";
import { decodeCursor, encodeCursor } from "../protocol/pagination.js";
import type { LongTimer } from "../protocol/timers.js";
import type { CallToolResult } from "../types.js";

/** MCP `TaskStatus` (2025-11-25 and SEP-2663 alike). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A JSON-RPC error object (JSON-RPC 2.0 §5.1), as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

export type { TaskOptions, TaskQuota } from "./quotas.js";

/** What one {@link TaskStore.update} changed: the status, and whether a `statusMessage` was set. */
export interface TaskChange {
  status: boolean;
  message: boolean;
}

/** One task as the store keeps it. Timestamps are ISO 8601 (RFC 3339) strings. */
export interface TaskRecord {
  readonly taskId: string;
  /** Who may see it: the caller's owner (caller.ts `callerOf`: token owner, connection, session, or anonymous). */
  readonly owner: string;
  status: TaskStatus;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  /** Retention from `createdAt`, in milliseconds (never `null`: every task expires). */
  readonly ttl: number;
  readonly pollInterval: number;
  /** The tool's `CallToolResult` once `completed` (an `isError` result is still `completed`). */
  result?: CallToolResult;
  /** The JSON-RPC error once `failed`. */
  error?: TaskError;
  /** Aborted by `tasks/cancel` and at expiry; the tool's `RequestContext.signal` follows it. */
  readonly controller: AbortController;
  /** Resolves once the task reaches a terminal status (or is dropped). */
  readonly settled: Promise<void>;
  /**
   * Called after every change (the status notification of the creating connection): `change`
   * says whether the status changed and whether a `statusMessage` was set.
   */
  onChange?: (task: TaskRecord, change: TaskChange) => void;
  /** 2026-07-28: the task's pending input requests and their answers (tasks/input.ts). */
  inputs?: { requests(): Record<string, unknown>; answer(responses: Record<string, unknown>): void };
}

/** What the wire shapes (wire.ts) and the `tasks/*` handlers read of a task: a {@link TaskRecord}, or a shared store's copy (store/shared-tasks.ts). */
export type TaskView = Pick<
  TaskRecord,
  "taskId" | "status" | "statusMessage" | "createdAt" | "lastUpdatedAt" | "ttl" | "pollInterval" | "result" | "error"
> & { readonly inputs?: { requests(): Record<string, unknown> } };

/** Tasks per `tasks/list` page (2025-11-25 "Listing Tasks", cursor-based pagination). */
const PAGE_SIZE = 50;

/** The task of a task run's SDK context (set by tasks.ts for the context the tool runs with). */
const TASK_OF = new WeakMap<object, { store: TaskStore; record: TaskRecord }>();

/** Makes `ctx` (the context a task's tool runs with) the context of `record` in `store` (read by {@link setTaskStatusMessage}). */
export function bindTask(ctx: object, store: TaskStore, record: TaskRecord): void {
  TASK_OF.set(ctx, { store, record });
}

/**
 * `RequestContext.taskStatus` (docs/runtime.md "Tasks", Status messages): sets the `statusMessage`
 * of the task whose run has the context `ctx` and its `lastUpdatedAt`, keeping its `status`
 * (MCP 2025-11-25 `Task.statusMessage`; SEP-2663 the same field), which calls
 * {@link TaskRecord.onChange} (the status notification). Does nothing when `ctx` is not a task
 * run's or the task is terminal (or dropped).
 *
 * @throws TypeError when `message` is not a string.
 */
export function setTaskStatusMessage(ctx: object, message: string): void {
  if (typeof message !== "string")
    throw new TypeError(`typed-mcp: ctx.taskStatus(message) needs a string, got ${typeof message}.`);
  const task = TASK_OF.get(ctx);
  // An aborted task is cancelled (terminal) or expired (dropped).
  if (task !== undefined && !task.record.controller.signal.aborted)
    task.store.update(task.record, task.record.status, { statusMessage: message });
}

/**
 * Checks the `ttl` of a 2025-11-25 `tools/call` `params.task` (`TaskMetadata.ttl`: "requested
 * duration in milliseconds to retain task from creation"): absent, or a positive integer of
 * milliseconds (a retention of 0 or less cannot keep a task to poll; the `Task.ttl` answered is an
 * integer; a larger one is lowered to `maxTtlMs` by {@link TaskStore.create}). The SDK's schema
 * already refuses a non-number (and `1e400`, Infinity after `JSON.parse`), in the same wording.
 *
 * @returns the ttl (`undefined`: absent, the store's default).
 * @throws ProtocolError `-32602` naming `params.task.ttl`, what was expected and the value (cut to 200 code units).
 */
export function checkRequestedTtl(ttl: unknown): number | undefined {
  if (ttl === undefined) return undefined;
  if (typeof ttl === "number" && Number.isInteger(ttl) && ttl > 0) return ttl;
  const got = typeof ttl === "number" ? String(ttl) : (JSON.stringify(ttl) ?? String(ttl));
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid tools/call params: 'params.task.ttl' expected a positive integer (milliseconds), received ${cutEchoed(got)}.`,
  );
}

/** Whether `status` is terminal (`completed`, `failed`, `cancelled`). */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** What one quota bucket (caller.ts `Caller.bucket`) holds: running tasks, finished ones in the order they finished, their bytes. */
interface Bucket {
  running: number;
  readonly finished: Set<string>;
  bytes: number;
}

/** The store's own record of one task: its timer, its bucket and quota, its outcome's size once finished. */
interface Entry {
  readonly record: TaskRecord;
  readonly timer: LongTimer;
  readonly settle: () => void;
  readonly bucket: string;
  /** `"perCaller"` or `"anonymous"`: the option its quota comes from (named in errors). */
  readonly quotaName: "perCaller" | "anonymous";
  readonly quota: Required<TaskQuota>;
  bytes: number;
}

/**
 * The tasks of one server, in creation order, with the quotas of docs/security.md "Tasks": per
 * caller bucket (running tasks, finished results and their bytes) under server-wide ceilings
 * (`maxTasks`, `maxResultBytes`). Only the bucket that needs room ever loses a task to it.
 */
export class TaskStore {
  readonly #options: ResolvedTaskOptions;
  readonly #tasks = new Map<string, Entry>();
  readonly #buckets = new Map<string, Bucket>();
  /** Bytes of all finished tasks' outcomes. */
  #resultBytes = 0;

  /** Called after every change of a task (store/shared-tasks.ts writes it through to a shared store). */
  mirror: ((record: TaskRecord) => void) | undefined;

  /** @throws RangeError or TypeError as tasks/quotas.ts `resolveTaskOptions`. */
  constructor(options: TaskOptions | undefined) {
    this.#options = resolveTaskOptions(options);
  }

  /** The resolved options (read by store/shared-tasks.ts for the running-task quota). */
  get options(): ResolvedTaskOptions {
    return this.#options;
  }

  /** Drops the task `taskId` at once (aborting it), as its expiry would; a shared store that refused it calls this. */
  discard(taskId: string): void {
    this.#expire(taskId);
  }

  /**
   * Creates a `working` task for `caller` (its `owner` sees it, its `bucket` is charged), kept for
   * `requestedTtl` ms (a positive integer, checked by {@link checkRequestedTtl}; lowered to
   * `maxTtlMs`; default `defaultTtlMs`) from now, however long (timers.ts); at expiry it is
   * aborted (reason: a `TimeoutError` `DOMException`) and dropped, whatever its status
   * (2025-11-25: receivers may delete a task after its ttl "regardless of task status").
   *
   * @throws ProtocolError `-32603` (tasks/quotas.ts `quotaError`) when the caller's bucket has
   *   `maxRunning` tasks running (`tasks.perCaller.maxRunning` / `tasks.anonymous.maxRunning`), or
   *   the server keeps `maxTasks` tasks and the bucket has no finished task to drop (`tasks.maxTasks`).
   */
  create(caller: Caller, requestedTtl: number | undefined): TaskRecord {
    const quotaName = caller.anonymous ? "anonymous" : "perCaller";
    const quota = this.#options[quotaName];
    const bucket = this.#bucket(caller.bucket);
    if (bucket.running >= quota.maxRunning) {
      throw quotaError(
        `Too many tasks are running for this caller (tasks.${quotaName}.maxRunning is ${quota.maxRunning}); wait for one to finish or cancel one.`,
        `tasks.${quotaName}.maxRunning`,
        quota.maxRunning,
      );
    }
    if (this.#tasks.size >= this.#options.maxTasks && !this.#dropOldestFinished(bucket)) {
      this.#forgetIfEmpty(caller.bucket);
      throw quotaError(
        `The server keeps too many tasks (tasks.maxTasks is ${this.#options.maxTasks}); try again later.`,
        "tasks.maxTasks",
        this.#options.maxTasks,
      );
    }
    const ttl =
      requestedTtl === undefined ? this.#options.defaultTtlMs : Math.min(requestedTtl, this.#options.maxTtlMs);
    const now = new Date().toISOString();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const record: TaskRecord = {
      taskId: toBase64url(crypto.getRandomValues(new Uint8Array(16))),
      owner: caller.owner,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      pollInterval: this.#options.pollIntervalMs,
      controller: new AbortController(),
      settled,
    };
    const timer = setLongTimeout(() => this.#expire(record.taskId), ttl, { unref: true });
    this.#tasks.set(record.taskId, { record, timer, settle, bucket: caller.bucket, quotaName, quota, bytes: 0 });
    this.#bucket(caller.bucket).running++; // (the drop above may have forgotten an emptied bucket)
    return record;
  }

  /** The task `taskId` when it exists and belongs to `owner`; else `undefined` (as if unknown). */
  get(taskId: string, owner: string): TaskRecord | undefined {
    const record = this.#tasks.get(taskId)?.record;
    return record !== undefined && record.owner === owner ? record : undefined;
  }

  /**
   * Moves a task to a new status, or keeps it (`status` = its own, to set `statusMessage`); no
   * change once terminal. Sets `lastUpdatedAt`; a terminal status stores `outcome` (within the
   * quotas: docs/security.md "Tasks") and resolves {@link TaskRecord.settled}. Calls
   * {@link TaskRecord.onChange}.
   *
   * @returns whether the status changed.
   */
  update(record: TaskRecord, status: TaskStatus, outcome?: Outcome): boolean {
    if (isTerminal(record.status)) return false;
    const entry = this.#tasks.get(record.taskId);
    if (isTerminal(status) && entry !== undefined) ({ status, outcome } = this.#finish(entry, status, outcome));
    const change: TaskChange = { status: record.status !== status, message: outcome?.statusMessage !== undefined };
    record.status = status;
    record.lastUpdatedAt = new Date().toISOString();
    if (outcome?.result !== undefined) record.result = outcome.result;
    if (outcome?.error !== undefined) record.error = outcome.error;
    if (outcome?.statusMessage !== undefined) record.statusMessage = outcome.statusMessage;
    if (isTerminal(status)) entry?.settle();
    try {
      record.onChange?.(record, change);
    } catch {
      // A notification failure does not change the task.
    }
    this.mirror?.(record);
    return true;
  }

  /**
   * One page of `owner`'s tasks, oldest first (2025-11-25 `tasks/list`): `cursor` is the
   * `nextCursor` of the previous page, opaque (protocol/pagination.ts: it names the last task
   * listed). {@link ANONYMOUS_OWNER} has none listed.
   *
   * @throws ProtocolError `-32602` for a cursor this store did not give out (or whose task is gone).
   */
  list(owner: string, cursor: string | undefined): { tasks: TaskRecord[]; nextCursor?: string } {
    const mine =
      owner === ANONYMOUS_OWNER ? [] : [...this.#tasks.values()].map((t) => t.record).filter((r) => r.owner === owner);
    let start = 0;
    if (cursor !== undefined) {
      const after = decodeCursor("tasks", cursor).key;
      const at = mine.findIndex((r) => r.taskId === after);
      if (at < 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cutEchoed(cursor)}`);
      start = at + 1;
    }
    const tasks = mine.slice(start, start + PAGE_SIZE);
    if (start + PAGE_SIZE >= mine.length) return { tasks };
    return { tasks, nextCursor: encodeCursor("tasks", tasks[tasks.length - 1]!.taskId) };
  }

  /** Drops every task (aborting the running ones) and clears the timers. */
  clear(): void {
    for (const id of [...this.#tasks.keys()]) this.#expire(id);
  }

  /**
   * Moves a finishing task from its bucket's running tasks to its finished ones and makes room
   * for its outcome (a result's or error's JSON, in UTF-8 bytes): first the bucket's own oldest
   * finished tasks are dropped while the bucket is past `maxResults` or `maxResultBytes`, then
   * while the server is past `maxResultBytes`. An outcome that still does not fit — larger than
   * the bucket's `maxResultBytes`, or the server full of other callers' results — is not kept: the
   * task becomes `failed` with the `-32603` of {@link quotaError} naming the option (counted, as a
   * finished task, with 0 bytes). A result `JSON.stringify` cannot write fails as `The tool failed.`.
   */
  #finish(
    entry: Entry,
    status: TaskStatus,
    outcome: Outcome | undefined,
  ): { status: TaskStatus; outcome: Outcome | undefined } {
    // Still counted as running while its own finished tasks are dropped, so the bucket stays.
    const bucket = this.#bucket(entry.bucket);
    let bytes: number;
    try {
      bytes = resultBytes(outcome?.result ?? outcome?.error);
    } catch {
      ({ status, outcome } = failed(outcome, { code: ProtocolErrorCode.InternalError, message: "The tool failed." }));
      bytes = resultBytes(outcome!.error);
    }
    const refusal = this.#makeRoom(entry, bucket, bytes);
    if (refusal !== undefined) {
      ({ status, outcome } = failed(outcome, refusal));
      bytes = 0;
    }
    while (bucket.finished.size >= entry.quota.maxResults && this.#dropOldestFinished(bucket));
    bucket.running--;
    bucket.finished.add(entry.record.taskId);
    entry.bytes = bytes;
    bucket.bytes += bytes;
    this.#resultBytes += bytes;
    return { status, outcome };
  }

  /** Drops `bucket`'s oldest finished tasks until `bytes` more fit its quota and the server; the error when they cannot. */
  #makeRoom(entry: Entry, bucket: Bucket, bytes: number): TaskError | undefined {
    const { quota, quotaName } = entry;
    const server = this.#options.maxResultBytes;
    if (bytes > quota.maxResultBytes) {
      const limit = `tasks.${quotaName}.maxResultBytes`;
      return {
        code: ProtocolErrorCode.InternalError,
        message: `The task's result (${bytes} bytes) is larger than ${limit} (${quota.maxResultBytes} bytes); it was not kept.`,
        data: { limit, max: quota.maxResultBytes },
      };
    }
    while (bucket.bytes + bytes > quota.maxResultBytes && this.#dropOldestFinished(bucket));
    while (this.#resultBytes + bytes > server && this.#dropOldestFinished(bucket));
    if (this.#resultBytes + bytes <= server) return undefined;
    return {
      code: ProtocolErrorCode.InternalError,
      message: `The server keeps too many result bytes (tasks.maxResultBytes is ${server}); the task's result (${bytes} bytes) was not kept.`,
      data: { limit: "tasks.maxResultBytes", max: server },
    };
  }

  #expire(taskId: string): void {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return;
    entry.timer.clear();
    this.#tasks.delete(taskId);
    const bucket = this.#bucket(entry.bucket);
    if (bucket.finished.delete(taskId)) {
      bucket.bytes -= entry.bytes;
      this.#resultBytes -= entry.bytes;
    } else bucket.running--;
    this.#forgetIfEmpty(entry.bucket);
    entry.record.controller.abort(new DOMException("The task expired.", "TimeoutError"));
    entry.settle();
  }

  /** Drops the oldest finished task of `bucket` (its own, never another's); whether there was one. */
  #dropOldestFinished(bucket: Bucket): boolean {
    const oldest = bucket.finished.values().next();
    if (oldest.done === true) return false;
    this.#expire(oldest.value);
    return true;
  }

  #bucket(key: string): Bucket {
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) this.#buckets.set(key, (bucket = { running: 0, finished: new Set(), bytes: 0 }));
    return bucket;
  }

  #forgetIfEmpty(key: string): void {
    const bucket = this.#buckets.get(key);
    if (bucket !== undefined && bucket.running === 0 && bucket.finished.size === 0) this.#buckets.delete(key);
  }
}

/** What a {@link TaskStore.update} sets: a terminal task's result or error, a `statusMessage`. */
type Outcome = { result?: CallToolResult; error?: TaskError; statusMessage?: string };

/** `outcome` as a `failed` task with `error` (its `statusMessage` kept, no result). */
function failed(outcome: Outcome | undefined, error: TaskError): { status: TaskStatus; outcome: Outcome } {
  return {
    status: "failed",
    outcome: { ...(outcome?.statusMessage !== undefined && { statusMessage: outcome.statusMessage }), error },
  };
}
