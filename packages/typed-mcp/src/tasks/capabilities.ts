/**
 * The task capabilities a server advertises (docs/runtime.md "Tasks"), the part of tasks every
 * server's capability answer needs. The rest of tasks (tasks.ts: the `tasks/*` handlers, the
 * task decision of a `tools/call`; input.ts; wire.ts) is reachable only through the descriptor of
 * a tool with the `task` option, which carries {@link TaskInstaller} (internal.ts
 * `GeneratedTool.tasks`), so a bundle without task tools holds none of it (docs/runtimes.md
 * "Bundle size").
 *
 * @module
 */
import type { ServerCapabilities } from "@modelcontextprotocol/server";
import type { installTasks } from "./tasks.js";

/** The SEP-2663 extension id of tasks on 2026-07-28. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The 2025-11-25 server capability: `tasks/list`, `tasks/cancel` and task-augmented `tools/call`. */
const LEGACY_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * Adds the task capabilities to `capabilities` (when `taskTools` is true): the 2025-11-25
 * `tasks` capability and the 2026-07-28 extension. tasks.ts `installTasks` removes each from the
 * answer of the other revision family.
 */
export function withTaskCapabilities(capabilities: ServerCapabilities, taskTools: boolean): ServerCapabilities {
  if (!taskTools) return capabilities;
  const extensions = { ...(capabilities as { extensions?: Record<string, object> }).extensions, [TASKS_EXTENSION]: {} };
  return { ...capabilities, tasks: LEGACY_CAPABILITY, extensions } as ServerCapabilities;
}

/**
 * tasks.ts `installTasks`, as a task tool's descriptor carries it (`GeneratedTool.tasks`):
 * registers the `tasks/*` handlers on one SDK instance and answers the task decision of each
 * `tools/call` (the `TaskCalls` it returns).
 */
export type TaskInstaller = typeof installTasks;
