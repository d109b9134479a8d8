/**
 * The signal carrying a `CreateTaskResult` out of the `tools/call` handler past the SDK's result
 * check (tasks.ts `installTasks`), with the task it created, so the middleware chain
 * (calls/middleware.ts) can hand the result to `next()`'s caller and see the task's end.
 *
 * @module
 */
import type { TaskRecord } from "./store.js";

/** Thrown by `TaskCalls.dispatch` for a call that became a task; answered after the SDK's result check. */
export class TaskCreated {
  /**
   * @param result The `CreateTaskResult` of the request's revision.
   * @param record The task.
   */
  constructor(
    readonly result: Record<string, unknown>,
    readonly record: TaskRecord,
  ) {}
}
