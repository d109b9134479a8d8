/**
 * A task's wire shapes (MCP tasks, docs/runtime.md "Tasks"): the 2025-11-25 `Task` and
 * `tasks/result` payload, and SEP-2663's (2026-07-28) `Task` fields and `DetailedTask`, in the key
 * order of the spec's schemas.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY } from "@modelcontextprotocol/server";
import type { TaskView } from "./store.js";
import type { CallToolResult } from "../types.js";

/**
 * A task's wire fields in the key order of the spec's schemas. Only the duration names differ:
 * `ttl` / `pollInterval` in the 2025-11-25 `Task`, `ttlMs` / `pollIntervalMs` in SEP-2663's
 * (both integer milliseconds).
 */
function taskFields(
  r: TaskView,
  ttlKey: "ttl" | "ttlMs",
  pollKey: "pollInterval" | "pollIntervalMs",
): Record<string, unknown> {
  return {
    taskId: r.taskId,
    status: r.status,
    ...(r.statusMessage !== undefined && { statusMessage: r.statusMessage }),
    createdAt: r.createdAt,
    lastUpdatedAt: r.lastUpdatedAt,
    [ttlKey]: r.ttl,
    [pollKey]: r.pollInterval,
  };
}

/** The 2025-11-25 `Task`. */
export function legacyTask(r: TaskView): Record<string, unknown> {
  return taskFields(r, "ttl", "pollInterval");
}

/** The SEP-2663 `Task` fields. */
export function modernTask(r: TaskView): Record<string, unknown> {
  return taskFields(r, "ttlMs", "pollIntervalMs");
}

/** The SEP-2663 `DetailedTask` of `tasks/get`: `result` when completed, `error` when failed, `inputRequests` (pending, by key) when input_required. */
export function detailedTask(r: TaskView): Record<string, unknown> {
  return {
    ...modernTask(r),
    ...(r.status === "completed" && r.result !== undefined && { result: r.result }),
    ...(r.status === "failed" && r.error !== undefined && { error: r.error }),
    ...(r.status === "input_required" && r.inputs !== undefined && { inputRequests: r.inputs.requests() }),
  };
}

/**
 * The 2025-11-25 `tasks/result` answer of a terminal task: the tool's `CallToolResult` with
 * `_meta["io.modelcontextprotocol/related-task"] = { taskId }`; a failed task's JSON-RPC error;
 * for a cancelled (or expired) one `-32602`.
 */
export function legacyPayload(r: TaskView): CallToolResult {
  if (r.status === "completed" && r.result !== undefined)
    return { ...r.result, _meta: { ...r.result._meta, [RELATED_TASK_META_KEY]: { taskId: r.taskId } } };
  if (r.status === "failed" && r.error !== undefined)
    throw new ProtocolError(r.error.code, r.error.message, r.error.data);
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Task ${r.taskId} has no result: it was ${r.status === "cancelled" ? "cancelled" : "dropped"}.`,
  );
}
