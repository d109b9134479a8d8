/**
 * Tasks kept in a shared store (docs/scaling.md "Tasks"), so that any instance answers
 * `tasks/get`, `tasks/result`, `tasks/cancel`, `tasks/update` and `tasks/list` for a task
 * another instance runs. The instance running a task keeps its live record in its own
 * `TaskStore` (its tool, signal and input requests are there) and writes every change through
 * ({@link SharedTasks.mirror}); the store holds the task's JSON under a key hashed from (owner,
 * task id), expiring with the task's ttl.
 *
 * - Transitions are compare-and-set loops on the stored JSON: a terminal status is written once,
 *   and a writer that finds the task terminal adopts that outcome (a cancel from another instance
 *   wins over a result that comes later, as on one process).
 * - Running tasks hold a lease in their quota bucket's expiring set (`maxRunning` across every
 *   instance), renewed by the runner's heartbeat; a reader that finds a running task whose
 *   runner's heartbeat lapsed makes it `failed`, saying so.
 * - Cancels, input answers and "settled" wake-ups travel on pub/sub; `tasks/result` also re-reads
 *   every second, so a lost message only delays it.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { ANONYMOUS_OWNER } from "../transports/caller.js";
import type { Caller } from "../transports/caller.js";
import { decodeCursor, encodeCursor } from "../protocol/pagination.js";
import { cutEchoed } from "../codegen-support/argument-errors.js";
import { abortedBy, cancelRecord, localAccess } from "../tasks/access.js";
import type { ServerTasks, TaskAccess, TaskSource } from "../tasks/access.js";
import { quotaError, resultBytes } from "../tasks/quotas.js";
import { keepResult } from "./shared-results.js";
import { isTerminal, TaskStore } from "../tasks/store.js";
import type { TaskError, TaskRecord, TaskStatus, TaskView } from "../tasks/store.js";
import type { CallToolResult } from "../types.js";
import { storeUnavailable } from "./shared.js";
import type { SharedInstance } from "./shared.js";

/** A task as the store keeps it (JSON). */
interface StoredTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  pollInterval: number;
  result?: CallToolResult;
  error?: TaskError;
  inputRequests?: Record<string, unknown>;
  /** The instance running it. */
  runner: string;
  /** The key of the expiring set holding its running-task lease. */
  lease: string;
  /** The key of its bucket's set of finished tasks, and whether the bucket's quota is the anonymous one (absent: written by an older version). */
  results?: string;
  anonymous?: boolean;
}

/** A task this instance runs. */
interface Run {
  readonly key: string;
  readonly record: TaskRecord;
  readonly lease: string;
  readonly results: string;
  readonly anonymous: boolean;
  /** Writes of this task, one after another. */
  chain: Promise<void>;
}

/**
 * The tasks of a server (made once, by the tasks runtime, from its {@link TaskSource}): its own
 * `TaskStore` (the `tasks` option), reached directly without `store`; with it, through
 * {@link SharedTasks} on this instance's {@link SharedInstance}.
 */
export function tasksOf(source: TaskSource): ServerTasks {
  if (source.made !== undefined) return source.made;
  const local = new TaskStore(source.options);
  const shared = source.shared === undefined ? undefined : new SharedTasks(source.shared, local);
  source.made = { store: local, access: shared ?? localAccess(local), shared };
  return source.made;
}

/** Tasks per `tasks/list` page (as tasks/store.ts). */
const PAGE_SIZE = 50;
/** Most of one owner's tasks one `tasks/list` reads. */
const MAX_LISTED = 5000;

/** The {@link TaskAccess} of a server with a shared store, and the writer of the tasks it runs. */
class SharedTasks implements TaskAccess {
  readonly #shared: SharedInstance;
  readonly #local: TaskStore;
  readonly #runs = new Map<string, Run>();
  readonly #runOf = new WeakMap<TaskRecord, Run>();
  readonly #waiters = new Map<string, Set<() => void>>();
  /** How a task's work is started (store/shared.ts `StoreSettings.startTask`). */
  readonly startTask: (work: () => Promise<void>) => void;

  constructor(shared: SharedInstance, local: TaskStore) {
    this.#shared = shared;
    this.startTask = shared.startTask;
    this.#local = local;
    local.mirror = (record) => this.mirror(record);
    shared.on("cancel-task", (m) => this.#withRun(m, (run) => cancelRecord(this.#local, run.record)));
    shared.on("task-input", (m) =>
      this.#withRun(m, (run) => {
        const responses = m["responses"];
        if (typeof responses === "object" && responses !== null)
          run.record.inputs?.answer(responses as Record<string, unknown>);
      }),
    );
    shared.on("task-settled", (m) => {
      if (typeof m["key"] === "string") for (const wake of this.#waiters.get(m["key"]) ?? []) wake();
    });
  }

  /**
   * Puts a task just created in the local store into the shared one: takes a running-task lease
   * in its caller's bucket (refused past the bucket's `maxRunning` across every instance) and
   * writes it. On a refusal or a store failure the local task is discarded.
   * @throws ProtocolError `-32603` naming `tasks.<perCaller|anonymous>.maxRunning`, or store/shared.ts `storeUnavailable`.
   */
  async created(record: TaskRecord, caller: Caller): Promise<void> {
    const shared = this.#shared;
    let held: string | undefined;
    try {
      await shared.ready();
      const key = await shared.keys.key("task", caller.owner, record.taskId);
      const lease = await shared.keys.key("running", caller.bucket);
      const quotaName = caller.anonymous ? "anonymous" : "perCaller";
      const max = this.#local.options[quotaName].maxRunning;
      if (!(await shared.store.enter(lease, record.taskId, Date.now() + shared.leaseMs, max))) {
        throw quotaError(
          `Too many tasks are running for this caller (tasks.${quotaName}.maxRunning is ${max}); wait for one to finish or cancel one.`,
          `tasks.${quotaName}.maxRunning`,
          max,
        );
      }
      shared.hold(lease, record.taskId);
      held = lease;
      const results = await shared.keys.key("results", caller.bucket);
      const run: Run = { key, record, lease, results, anonymous: caller.anonymous, chain: Promise.resolve() };
      await shared.store.swap(key, undefined, JSON.stringify(this.#stored(run)), record.ttl);
      if (caller.owner !== ANONYMOUS_OWNER) {
        const expiresAt = Date.parse(record.createdAt) + record.ttl;
        await shared.store.enter(await shared.keys.key("owner", caller.owner), record.taskId, expiresAt);
      }
      this.#runs.set(key, run);
      this.#runOf.set(record, run);
      void record.settled.then(() => this.#runs.get(key) === run && this.#runs.delete(key));
    } catch (error) {
      this.#local.discard(record.taskId);
      // A lease taken before the failure is renewed no more (it lapses after leaseMs if the store cannot hear it).
      if (held !== undefined) await shared.release(held, record.taskId).catch(() => {});
      throw error instanceof ProtocolError ? error : storeUnavailable(error);
    }
  }

  /**
   * Writes a change of a task this instance runs (called by its `TaskStore` after each change),
   * after the writes before it. A write the store refuses (an outage) is retried — 100 ms, then
   * doubling up to 2 s — until it succeeds or the task's retention ends, so that a task finished
   * during an outage is not left `working` in the store once the store is back.
   */
  mirror(record: TaskRecord): void {
    const run = this.#runOf.get(record);
    if (run === undefined) return;
    run.chain = run.chain.then(async () => {
      for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
        try {
          return await this.#write(run);
        } catch {
          if (remaining(this.#stored(run)) <= delay) return this.#drop(run);
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    });
  }

  find(taskId: string, owner: string): Promise<TaskView | undefined> {
    return guard(async () => {
      const key = await this.#shared.keys.key("task", owner, taskId);
      const found = await this.#read(key);
      return found && view(found.task);
    });
  }

  cancel(taskId: string, owner: string): Promise<{ task: TaskView; changed: boolean } | undefined> {
    return guard(async () => {
      const key = await this.#shared.keys.key("task", owner, taskId);
      for (;;) {
        const found = await this.#read(key);
        if (found === undefined) return undefined;
        if (isTerminal(found.task.status)) return { task: view(found.task), changed: false };
        const next: StoredTask = { ...found.task, status: "cancelled", statusMessage: "Cancelled by the client." };
        if (!(await this.#settle(key, found, next))) continue;
        const run = this.#runs.get(key);
        if (run !== undefined) cancelRecord(this.#local, run.record);
        else await this.#shared.publish("cancel-task", { key }).catch(() => {});
        return { task: view(next), changed: true };
      }
    });
  }

  answer(taskId: string, owner: string, responses: Record<string, unknown>): Promise<void> {
    return guard(async () => {
      const key = await this.#shared.keys.key("task", owner, taskId);
      const run = this.#runs.get(key);
      if (run !== undefined) return run.record.inputs?.answer(responses);
      await this.#shared.publish("task-input", { key, responses });
    });
  }

  settled(task: TaskView, owner: string, signal: AbortSignal): Promise<TaskView> {
    return guard(async () => {
      const key = await this.#shared.keys.key("task", owner, task.taskId);
      const aborted = abortedBy(signal);
      let last = task;
      while (!isTerminal(last.status)) {
        let wake!: () => void;
        const woken = new Promise<void>((resolve) => (wake = resolve));
        let waiters = this.#waiters.get(key);
        if (waiters === undefined) this.#waiters.set(key, (waiters = new Set()));
        waiters.add(wake);
        const timer = setTimeout(wake, 1000);
        try {
          const found = await Promise.race([this.#read(key), aborted]);
          if (found === undefined) return last;
          last = view(found.task);
          if (!isTerminal(last.status)) await Promise.race([woken, aborted]);
        } finally {
          clearTimeout(timer);
          waiters.delete(wake);
          if (waiters.size === 0) this.#waiters.delete(key);
        }
      }
      return last;
    });
  }

  list(owner: string, cursor: string | undefined): Promise<{ tasks: TaskView[]; nextCursor?: string }> {
    return guard(async () => {
      if (owner === ANONYMOUS_OWNER) return { tasks: [] };
      const keys = this.#shared.keys;
      const ids = (await this.#shared.store.members(await keys.key("owner", owner))).slice(0, MAX_LISTED);
      const found = await Promise.all(ids.map(async (id) => this.#read(await keys.key("task", owner, id))));
      const mine = found
        .flatMap((f) => (f === undefined ? [] : [view(f.task)]))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.taskId.localeCompare(b.taskId));
      let start = 0;
      if (cursor !== undefined) {
        const after = decodeCursor("tasks", cursor).key;
        const at = mine.findIndex((t) => t.taskId === after);
        if (at < 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cutEchoed(cursor)}`);
        start = at + 1;
      }
      const tasks = mine.slice(start, start + PAGE_SIZE);
      if (start + PAGE_SIZE >= mine.length) return { tasks };
      return { tasks, nextCursor: encodeCursor("tasks", tasks[tasks.length - 1]!.taskId) };
    });
  }

  /**
   * The stored task at `key` and its raw JSON, `undefined` when absent; a running task whose
   * runner's heartbeat lapsed is made `failed` first (docs/scaling.md "Failure modes").
   */
  async #read(key: string): Promise<{ raw: string; task: StoredTask } | undefined> {
    const shared = this.#shared;
    for (;;) {
      const raw = await shared.store.get(key);
      if (raw === undefined) return undefined;
      const task = JSON.parse(raw) as StoredTask;
      if (isTerminal(task.status) || task.runner === shared.id || (await shared.alive(task.runner)))
        return { raw, task };
      const message = `The instance running this task stopped: its heartbeat lapsed (store.leaseMs is ${shared.leaseMs} ms); the task did not finish.`;
      const next: StoredTask = {
        ...task,
        status: "failed",
        statusMessage: message,
        error: { code: ProtocolErrorCode.InternalError, message },
      };
      if (await this.#settle(key, { raw, task }, next)) return { raw: JSON.stringify(next), task: next };
    }
  }

  /** Swaps `found` for the terminal `next` (now as `lastUpdatedAt`), frees its lease and wakes the waiters; whether it won. */
  async #settle(key: string, found: { raw: string; task: StoredTask }, next: StoredTask): Promise<boolean> {
    next.lastUpdatedAt = new Date().toISOString();
    delete next.inputRequests;
    const ttl = remaining(next);
    if (ttl <= 0 || !(await this.#shared.store.swap(key, found.raw, JSON.stringify(next), ttl))) return false;
    await this.#shared.store.leave(next.lease, next.taskId).catch(() => {});
    await this.#finished(key, next);
    await this.#shared.publish("task-settled", { key }).catch(() => {});
    return true;
  }

  /** Writes `run`'s record through; a task already terminal in the store is adopted locally instead. */
  async #write(run: Run): Promise<void> {
    const store = this.#shared.store;
    for (;;) {
      const raw = await store.get(run.key);
      if (raw === undefined) return this.#drop(run);
      const current = JSON.parse(raw) as StoredTask;
      if (isTerminal(current.status)) {
        await this.#shared.release(run.lease, run.record.taskId);
        return this.#adopt(run, current);
      }
      const next = this.#stored(run);
      const ttl = remaining(next);
      if (ttl <= 0) return this.#drop(run);
      if (!(await store.swap(run.key, raw, JSON.stringify(next), ttl))) continue;
      if (isTerminal(next.status)) {
        await this.#shared.release(run.lease, run.record.taskId);
        await this.#finished(run.key, next);
        await this.#shared.publish("task-settled", { key: run.key });
      }
      return;
    }
  }

  /**
   * Gives back the running-task lease of a task whose stored copy is gone (its ttl elapsed, or a
   * write gave up at the end of its retention): the heartbeat renews it no more, so it does not
   * keep its bucket's `running` set (and a quota slot) alive after the task. Best effort: a lease
   * the store cannot hear now lapses after `leaseMs`.
   */
  async #drop(run: Run): Promise<void> {
    await this.#shared.release(run.lease, run.record.taskId).catch(() => {});
  }

  /** Counts the task just finished in its bucket's result quotas across instances (shared-results.ts); best effort. */
  async #finished(key: string, task: StoredTask): Promise<void> {
    if (task.results === undefined) return;
    const quota = this.#local.options[task.anonymous === true ? "anonymous" : "perCaller"];
    const bytes = resultBytes(task.result ?? task.error);
    const expiresAt = Date.parse(task.createdAt) + task.ttl;
    await keepResult(this.#shared.store, quota, task.results, key, bytes, expiresAt).catch(() => {});
  }

  /** Applies a terminal status another instance wrote (a cancel, a lapsed lease) to the local record. */
  #adopt(run: Run, current: StoredTask): void {
    if (current.status === "cancelled") cancelRecord(this.#local, run.record);
    else if (!isTerminal(run.record.status)) {
      this.#local.update(run.record, current.status, {
        ...(current.statusMessage !== undefined && { statusMessage: current.statusMessage }),
        ...(current.error !== undefined && { error: current.error }),
        ...(current.result !== undefined && { result: current.result }),
      });
      run.record.controller.abort(new DOMException(current.statusMessage ?? "The task ended.", "AbortError"));
    }
  }

  #stored(run: Run): StoredTask {
    const r = run.record;
    return {
      taskId: r.taskId,
      status: r.status,
      ...(r.statusMessage !== undefined && { statusMessage: r.statusMessage }),
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
      ttl: r.ttl,
      pollInterval: r.pollInterval,
      ...(r.result !== undefined && { result: r.result }),
      ...(r.error !== undefined && { error: r.error }),
      ...(r.status === "input_required" && r.inputs !== undefined && { inputRequests: r.inputs.requests() }),
      runner: this.#shared.id,
      lease: run.lease,
      results: run.results,
      anonymous: run.anonymous,
    };
  }

  #withRun(message: Record<string, unknown>, act: (run: Run) => void): void {
    const run = typeof message["key"] === "string" ? this.#runs.get(message["key"]) : undefined;
    if (run !== undefined) act(run);
  }
}

/** Milliseconds `task` has left of its retention. */
function remaining(task: StoredTask): number {
  return Math.floor(Date.parse(task.createdAt) + task.ttl - Date.now());
}

/** A stored task as the wire shapes read it. */
function view(task: StoredTask): TaskView {
  const inputs = task.inputRequests;
  return { ...task, ...(inputs !== undefined && { inputs: { requests: () => inputs } }) };
}

/** `job()`, its failures that are not protocol errors (the store unreachable) as store/shared.ts `storeUnavailable`. */
async function guard<T>(job: () => Promise<T>): Promise<T> {
  try {
    return await job();
  } catch (error) {
    throw error instanceof ProtocolError ? error : storeUnavailable(error);
  }
}
