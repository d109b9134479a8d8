/**
 * How the `tasks/*` handlers (tasks.ts) reach tasks: one {@link TaskAccess} per server — the
 * process's own {@link TaskStore} ({@link localAccess}, the default), or the tasks of a shared
 * store (store/shared-tasks.ts, when the server's `store` option is set; docs/scaling.md). Every
 * method is async so that both fit; owners are caller.ts owners, and a task of another owner is
 * `undefined` (as if unknown).
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { TaskRecord, TaskStore, TaskView } from "./store.js";
import type { TaskOptions } from "./quotas.js";
import type { SharedInstance } from "../store/shared.js";
import type { Caller } from "../transports/caller.js";

/** The tasks of one `McpServer` (server.ts): its store, how the handlers reach tasks, and the shared store's writer (with the `store` option). */
export interface ServerTasks {
  readonly store: TaskStore;
  readonly access: TaskAccess;
  /** store/shared-tasks.ts `SharedTasks` (typed by what tasks.ts calls, so this file needs no import of it). */
  readonly shared:
    | {
        created(record: TaskRecord, caller: Caller): Promise<void>;
        /** Starts a task's work (store/shared.ts `StoreSettings.startTask`). */
        readonly startTask: (work: () => Promise<void>) => void;
      }
    | undefined;
}

/**
 * What a server's tasks are made from, in every bundle: the `tasks` option (checked by the
 * constructor) and this instance's part in a shared store. The tasks themselves ({@link ServerTasks}:
 * the `TaskStore`, and with a store store/shared-tasks.ts `SharedTasks`) are made by the tasks
 * runtime a task tool's descriptor carries (tasks/capabilities.ts), once per server, the first time
 * it is installed — so a bundle without task tools holds neither.
 */
export interface TaskSource {
  readonly options: TaskOptions | undefined;
  readonly shared: SharedInstance | undefined;
  /** The tasks, once made. */
  made?: ServerTasks;
}

/** The tasks as the `tasks/*` handlers see them. */
export interface TaskAccess {
  /** The task `taskId` of `owner`, or `undefined`. */
  find(taskId: string, owner: string): Promise<TaskView | undefined>;
  /**
   * Cancels the task (`cancelled`, status message `Cancelled by the client.`, its tool's signal
   * aborted) unless it is terminal. `undefined` when unknown.
   */
  cancel(taskId: string, owner: string): Promise<{ task: TaskView; changed: boolean } | undefined>;
  /** Hands `tasks/update` answers (bare results by input-request key) to the task's pending input requests. */
  answer(taskId: string, owner: string, responses: Record<string, unknown>): Promise<void>;
  /**
   * The task once terminal (or dropped: then as it was last seen).
   * @throws ProtocolError `-32603` `The request was cancelled.` when `signal` aborts first.
   */
  settled(task: TaskView, owner: string, signal: AbortSignal): Promise<TaskView>;
  /** One `tasks/list` page of `owner`'s tasks (tasks/store.ts `list`). */
  list(owner: string, cursor: string | undefined): Promise<{ tasks: TaskView[]; nextCursor?: string }>;
}

/** A promise rejected with `-32603 The request was cancelled.` when `signal` aborts (never resolved). */
export function abortedBy(signal: AbortSignal): Promise<never> {
  const aborted = new Promise<never>((_, reject) => {
    const stop = (): void => reject(new ProtocolError(ProtocolErrorCode.InternalError, "The request was cancelled."));
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
  aborted.catch(() => {});
  return aborted;
}

/** Cancels a running task of `store` (as `tasks/cancel` does); whether it changed. */
export function cancelRecord(store: TaskStore, record: TaskRecord): boolean {
  if (!store.update(record, "cancelled", { statusMessage: "Cancelled by the client." })) return false;
  record.controller.abort(new DOMException("The task was cancelled.", "AbortError"));
  return true;
}

/** The {@link TaskAccess} of the process's own `store` (what every server without the `store` option uses). */
export function localAccess(store: TaskStore): TaskAccess {
  return {
    find: (taskId, owner) => Promise.resolve(store.get(taskId, owner)),
    cancel(taskId, owner) {
      const record = store.get(taskId, owner);
      return Promise.resolve(record && { task: record, changed: cancelRecord(store, record) });
    },
    answer(taskId, owner, responses) {
      store.get(taskId, owner)?.inputs?.answer(responses);
      return Promise.resolve();
    },
    async settled(task, _owner, signal) {
      const record = task as TaskRecord;
      await Promise.race([record.settled, abortedBy(signal)]);
      return record;
    },
    list: (owner, cursor) => Promise.resolve(store.list(owner, cursor)),
  };
}
