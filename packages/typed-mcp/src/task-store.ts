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
import { cutEchoed } from "@typed-mcp/model";
import { toBase64url } from "./base64.js";
import { ANONYMOUS_OWNER } from "./caller.js";
import type { CallToolResult } from "./types.js";

/** MCP `TaskStatus` (2025-11-25 and SEP-2663 alike). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A JSON-RPC error object (JSON-RPC 2.0 §5.1), as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** Options of the task store (`McpServerOptions.tasks`). Durations in milliseconds. */
export interface TaskOptions {
  /**
   * How long a task and its result are kept from its creation when the client asks for no
   * `ttl` (2025-11-25) or cannot ask (2026-07-28 has no request field). Default 300,000 (5 min).
   */
  defaultTtlMs?: number;
  /** The longest retention granted; a larger requested `ttl` is lowered to it. Default 3,600,000 (1 h). */
  maxTtlMs?: number;
  /** The `pollInterval` (2025-11-25) / `pollIntervalMs` (2026-07-28) suggested to clients. Default 500. */
  pollIntervalMs?: number;
  /** The most tasks kept at once (live and finished); when full the oldest finished one is dropped. Default 1,000. */
  maxTasks?: number;
}

/** What one {@link TaskStore.update} changed: the status, and whether a `statusMessage` was set. */
export interface TaskChange {
  status: boolean;
  message: boolean;
}

/** One task as the store keeps it. Timestamps are ISO 8601 (RFC 3339) strings. */
export interface TaskRecord {
  readonly taskId: string;
  /** Who may see it: the auth client, the connection or session (tasks.ts `ownerOf`). */
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
  /** 2026-07-28: the task's pending input requests and their answers (task-input.ts). */
  inputs?: { requests(): Record<string, unknown>; answer(responses: Record<string, unknown>): void };
}

const DEFAULTS: Required<TaskOptions> = { defaultTtlMs: 300_000, maxTtlMs: 3_600_000, pollIntervalMs: 500, maxTasks: 1000 };
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
  if (typeof message !== "string") throw new TypeError(`typed-mcp: ctx.taskStatus(message) needs a string, got ${typeof message}.`);
  const task = TASK_OF.get(ctx);
  // An aborted task is cancelled (terminal) or expired (dropped).
  if (task !== undefined && !task.record.controller.signal.aborted) task.store.update(task.record, task.record.status, { statusMessage: message });
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
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid tools/call params: 'params.task.ttl' expected a positive integer (milliseconds), received ${cutEchoed(got)}.`);
}

/** Whether `status` is terminal (`completed`, `failed`, `cancelled`). */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/**
 * Checks {@link TaskOptions}.
 * @throws RangeError naming the option when a duration is not a positive integer of
 *   milliseconds, `maxTasks` not a positive integer, or `defaultTtlMs` exceeds `maxTtlMs`.
 */
export function resolveTaskOptions(options: TaskOptions | undefined): Required<TaskOptions> {
  const out = { ...DEFAULTS, ...options };
  for (const key of Object.keys(DEFAULTS) as (keyof TaskOptions)[]) {
    const v = out[key];
    if (!(Number.isSafeInteger(v) && v > 0)) throw new RangeError(`tasks.${key} must be a positive integer, got ${String(v)}`);
  }
  if (out.defaultTtlMs > out.maxTtlMs) throw new RangeError(`tasks.defaultTtlMs (${out.defaultTtlMs}) must not exceed tasks.maxTtlMs (${out.maxTtlMs})`);
  return out;
}

/** The tasks of one server, in creation order. */
export class TaskStore {
  readonly #options: Required<TaskOptions>;
  readonly #tasks = new Map<string, { record: TaskRecord; timer: ReturnType<typeof setTimeout>; settle: () => void }>();

  /** @throws RangeError as {@link resolveTaskOptions}. */
  constructor(options: TaskOptions | undefined) {
    this.#options = resolveTaskOptions(options);
  }

  /**
   * Creates a `working` task for `owner`, kept for `requestedTtl` ms (a positive integer, checked
   * by {@link checkRequestedTtl}; lowered to `maxTtlMs`; default `defaultTtlMs`) from now; at expiry it is aborted (reason: a `TimeoutError`
   * `DOMException`) and dropped, whatever its status (2025-11-25: receivers may delete a task
   * after its ttl "regardless of task status").
   *
   * @throws ProtocolError `-32603` when `maxTasks` tasks exist and none is finished.
   */
  create(owner: string, requestedTtl: number | undefined): TaskRecord {
    if (this.#tasks.size >= this.#options.maxTasks && !this.#dropOldestFinished()) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Too many tasks are running (limit ${this.#options.maxTasks}); try again later.`);
    }
    const ttl = requestedTtl === undefined ? this.#options.defaultTtlMs : Math.min(requestedTtl, this.#options.maxTtlMs);
    const now = new Date().toISOString();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const record: TaskRecord = {
      taskId: toBase64url(crypto.getRandomValues(new Uint8Array(16))),
      owner,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      pollInterval: this.#options.pollIntervalMs,
      controller: new AbortController(),
      settled,
    };
    const timer = setTimeout(() => this.#expire(record.taskId), ttl);
    (timer as { unref?: () => void }).unref?.();
    this.#tasks.set(record.taskId, { record, timer, settle });
    return record;
  }

  /** The task `taskId` when it exists and belongs to `owner`; else `undefined` (as if unknown). */
  get(taskId: string, owner: string): TaskRecord | undefined {
    const record = this.#tasks.get(taskId)?.record;
    return record !== undefined && record.owner === owner ? record : undefined;
  }

  /**
   * Moves a task to a new status, or keeps it (`status` = its own, to set `statusMessage`); no
   * change once terminal. Sets `lastUpdatedAt`; a terminal status stores `outcome`
   * and resolves {@link TaskRecord.settled}. Calls {@link TaskRecord.onChange}.
   *
   * @returns whether the status changed.
   */
  update(record: TaskRecord, status: TaskStatus, outcome?: { result?: CallToolResult; error?: TaskError; statusMessage?: string }): boolean {
    if (isTerminal(record.status)) return false;
    const change: TaskChange = { status: record.status !== status, message: outcome?.statusMessage !== undefined };
    record.status = status;
    record.lastUpdatedAt = new Date().toISOString();
    if (outcome?.result !== undefined) record.result = outcome.result;
    if (outcome?.error !== undefined) record.error = outcome.error;
    if (outcome?.statusMessage !== undefined) record.statusMessage = outcome.statusMessage;
    if (isTerminal(status)) this.#tasks.get(record.taskId)?.settle();
    try {
      record.onChange?.(record, change);
    } catch {
      // A notification failure does not change the task.
    }
    return true;
  }

  /**
   * One page of `owner`'s tasks, oldest first (2025-11-25 `tasks/list`): `cursor` is the
   * `nextCursor` of the previous page. {@link ANONYMOUS_OWNER} has none listed.
   *
   * @throws ProtocolError `-32602` for a cursor this store did not give out (or whose task is gone).
   */
  list(owner: string, cursor: string | undefined): { tasks: TaskRecord[]; nextCursor?: string } {
    const mine = owner === ANONYMOUS_OWNER ? [] : [...this.#tasks.values()].map((t) => t.record).filter((r) => r.owner === owner);
    let start = 0;
    if (cursor !== undefined) {
      const at = mine.findIndex((r) => r.taskId === cursor);
      if (at < 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cutEchoed(cursor)}`);
      start = at + 1;
    }
    const tasks = mine.slice(start, start + PAGE_SIZE);
    return start + PAGE_SIZE < mine.length ? { tasks, nextCursor: tasks[tasks.length - 1]!.taskId } : { tasks };
  }

  /** Drops every task (aborting the running ones) and clears the timers. */
  clear(): void {
    for (const id of [...this.#tasks.keys()]) this.#expire(id);
  }

  #expire(taskId: string): void {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.#tasks.delete(taskId);
    entry.record.controller.abort(new DOMException("The task expired.", "TimeoutError"));
    entry.settle();
  }

  #dropOldestFinished(): boolean {
    for (const [id, { record }] of this.#tasks) {
      if (isTerminal(record.status)) {
        this.#expire(id);
        return true;
      }
    }
    return false;
  }
}
