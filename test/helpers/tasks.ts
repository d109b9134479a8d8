/**
 * MCP tasks (2025-11-25 "Tasks") requests with the official client: `@modelcontextprotocol/client`
 * 2.4.0 has no task helpers, so the raw requests go through `client.request` with the SDK's own
 * result schemas (which validate the answers).
 */
import { specTypeSchemas, type Client } from "@modelcontextprotocol/client";

/** `tools/call` with `params.task` (default `{}`: no ttl asked, the server's default): the `CreateTaskResult`. */
export const createTask = (
  client: Client,
  name: string,
  args: Record<string, unknown>,
  task: Record<string, unknown> = {},
) =>
  client.request({ method: "tools/call", params: { name, arguments: args, task } }, specTypeSchemas.CreateTaskResult);
/** `tasks/get`: the `Task`. */
export const getTask = (client: Client, taskId: string) =>
  client.request({ method: "tasks/get", params: { taskId } }, specTypeSchemas.GetTaskResult);
/** `tasks/result`: the tool's `CallToolResult` (waits until the task is terminal). */
export const taskResult = (client: Client, taskId: string) =>
  client.request({ method: "tasks/result", params: { taskId } }, specTypeSchemas.CallToolResult);
/** `tasks/cancel`: the cancelled `Task`. */
export const cancelTask = (client: Client, taskId: string) =>
  client.request({ method: "tasks/cancel", params: { taskId } }, specTypeSchemas.CancelTaskResult);
/** `tasks/list`, the page after `cursor` (first page without). */
export const listTasks = (client: Client, cursor?: string) =>
  client.request(
    { method: "tasks/list", params: cursor === undefined ? {} : { cursor } },
    specTypeSchemas.ListTasksResult,
  );
