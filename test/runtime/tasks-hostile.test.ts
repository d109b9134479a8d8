// Hostile and anonymous task requests over real HTTP (serveHttp on 127.0.0.1, raw POSTs as a
// client without a session sends them, and the real @modelcontextprotocol/client with one), MCP
// 2025-11-25 "Tasks" (docs/runtime.md "Tasks", docs/security.md "Tasks"):
// - an anonymous requestor (no Mcp-Session-Id, no verified token) lists no tasks — the spec lets a
//   server scope `tasks/list` to the requestor — and reaches a task only by its id, 128 random bits;
// - echoed client text (task ids, cursors, tool names) is cut at 200 code units + "…" (spec §5's
//   path bound, `cutEchoed`);
// - `params.task.ttl` ("requested duration in milliseconds") must be a positive integer: -32602.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import { createTaskServer } from "./fixtures/tasks-tools.mjs";
import { messagesOf } from "./helpers.js";
import { post2025 } from "../helpers/raw-http.ts";
import { createTask, getTask, listTasks } from "../helpers/tasks.ts";

let http: Awaited<ReturnType<typeof serveHttp>>;
beforeAll(async () => {
  http = await serveHttp(createTaskServer(), { port: 0 });
});
afterAll(async () => {
  await http.close();
});

/** One raw 2025-11-25 POST without a session (as `curl` sends it); the JSON-RPC answer to id 1. */
const post = (method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
  post2025(http.url, method, params, headers);
const createAnonymous = async () =>
  (await post("tools/call", { name: "slow_compute", arguments: { seconds: 30 }, task: {} })).result.task as {
    taskId: string;
    status: string;
  };

describe("tasks of anonymous HTTP requestors (no Mcp-Session-Id, no token)", () => {
  it("tasks/list answers no tasks to any anonymous requestor, so another client cannot learn the ids", async () => {
    const task = await createAnonymous();
    expect(task.status).toBe("working");
    // Client B, and client A itself: both anonymous, neither is listed anything.
    expect((await post("tasks/list", {})).result).toEqual({ tasks: [] });
    // A cursor no page gave out is -32602 (2025-11-25 "Listing Tasks": invalid cursor).
    expect((await post("tasks/list", { cursor: task.taskId })).error).toEqual({
      code: -32602,
      message: `Invalid cursor: ${task.taskId}`,
    });
    // The id alone reaches the task (it is the capability), and only it: the creator was given it.
    expect((await post("tasks/get", { taskId: task.taskId })).result).toMatchObject({
      taskId: task.taskId,
      status: "working",
    });
    expect((await post("tasks/cancel", { taskId: task.taskId })).result).toMatchObject({
      taskId: task.taskId,
      status: "cancelled",
    });
  });

  it("task ids are 128 bits (16 bytes, base64url without padding, RFC 4648 §5), all distinct", async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, createAnonymous));
    for (const { taskId } of ids) {
      expect(taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(taskId, "base64url").byteLength).toBe(16);
    }
    expect(new Set(ids.map((t) => t.taskId)).size).toBe(20);
    await Promise.all(ids.map((t) => post("tasks/cancel", { taskId: t.taskId })));
  });

  it("a session's tasks are not anonymous: not listed to nor found by an anonymous requestor, and anonymous tasks not listed to the session", async () => {
    const client = new Client({ name: "session-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(http.url));
    const anonymous = await createAnonymous();
    const { task } = await createTask(client, "slow_compute", { seconds: 0 });
    expect((await listTasks(client)).tasks.map((t) => t.taskId)).toEqual([task.taskId]);
    expect((await getTask(client, task.taskId)).taskId).toBe(task.taskId);
    expect((await post("tasks/get", { taskId: task.taskId })).error).toEqual({
      code: -32602,
      message: `Task not found: ${task.taskId}`,
    });
    expect((await post("tasks/list", {})).result).toEqual({ tasks: [] });
    await post("tasks/cancel", { taskId: anonymous.taskId });
    await client.close();
  });
});

describe("echoed client text is cut at 200 code units (spec §5 bound)", () => {
  const long = "x".repeat(100_000);
  const cut = "x".repeat(200) + "…";

  it("tasks/get, tasks/result, tasks/cancel with a 100,000-character task id", async () => {
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      expect((await post(method, { taskId: long })).error).toEqual({ code: -32602, message: `Task not found: ${cut}` });
    }
  });

  it("tasks/list with a 100,000-character cursor (a session's list)", async () => {
    const answer = await post("tasks/list", { cursor: long }, { "mcp-session-id": "hostile-test-session" });
    expect(answer.error).toEqual({ code: -32602, message: `Invalid cursor: ${cut}` });
  });

  it("a surrogate pair is not split: 199 code units then …", async () => {
    const taskId = "x".repeat(199) + "😀".repeat(10);
    expect((await post("tasks/get", { taskId })).error.message).toBe(`Task not found: ${"x".repeat(199)}…`);
  });

  it("tools/call of an unknown 100,000-character tool name", async () => {
    const answer = await post("tools/call", { name: long, arguments: {} });
    expect(answer.error).toEqual({ code: -32602, message: `Tool ${cut} not found` });
  });
});

describe("params.task.ttl must be a positive integer of milliseconds (2025-11-25 TaskMetadata.ttl)", () => {
  it.each([
    [-5, "-5"],
    [0, "0"],
    [1.5, "1.5"],
  ])("ttl %s is -32602 naming task.ttl", async (ttl, shown) => {
    const answer = await post("tools/call", { name: "slow_compute", arguments: { seconds: 0 }, task: { ttl } });
    expect(answer.error).toEqual({
      code: -32602,
      message: `Invalid tools/call params: 'params.task.ttl' expected a positive integer (milliseconds), received ${shown}.`,
    });
  });

  it("1e400 (Infinity once parsed) and a string are refused by the SDK's schema, in the same wording", async () => {
    const response = await fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow_compute","arguments":{"seconds":0},"task":{"ttl":1e400}}}',
    });
    expect(messagesOf(await response.text())[0]!.error).toEqual({
      code: -32602,
      message: "Invalid tools/call params: 'params.task.ttl' expected number, received Infinity.",
    });
    const text = await post("tools/call", { name: "slow_compute", arguments: { seconds: 0 }, task: { ttl: "abc" } });
    expect(text.error).toEqual({
      code: -32602,
      message: "Invalid tools/call params: 'params.task.ttl' expected number, received string.",
    });
  });

  it("a positive integer is kept (1 ms) and a huge one lowered to maxTtlMs (3,600,000 by default)", async () => {
    const small = (await post("tools/call", { name: "slow_compute", arguments: { seconds: 0 }, task: { ttl: 1 } }))
      .result.task;
    expect(small.ttl).toBe(1);
    const huge = (await post("tools/call", { name: "slow_compute", arguments: { seconds: 0 }, task: { ttl: 1e20 } }))
      .result.task;
    expect(huge.ttl).toBe(3_600_000);
  });
});
