// MCP tasks (docs/runtime.md "Tasks") with the real client (@modelcontextprotocol/client 2.4.0,
// which has no task helpers: the raw `tasks/*` requests are sent through `client.request` with the
// SDK's own result schemas) over real stdio (a child process) and real HTTP (serveHttp on
// 127.0.0.1). Expected values are the MCP 2025-11-25 spec's ("Tasks": CreateTaskResult, Task,
// tasks/get, tasks/result, tasks/list, tasks/cancel, notifications/tasks/status, tool-level
// negotiation) and, for 2026-07-28, SEP-2663's (flat CreateTaskResult, DetailedTask, -32021).
// The conformance suite's tasks-* scenarios run against the plugin-built fixture (test/conformance).
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ProtocolError, StreamableHTTPClientTransport, specTypeSchemas } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import { createTaskServer, taskState } from "./fixtures/tasks-tools.mjs";
import { until } from "./helpers.js";
import {
  cancelTask as cancel,
  createTask as create,
  getTask as get,
  listTasks as list,
  taskResult as result,
} from "../helpers/tasks.ts";
import { TASKS_EXTENSION, post2026 } from "../helpers/raw-http.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/tasks-stdio.mjs", import.meta.url));
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const RELATED_TASK = "io.modelcontextprotocol/related-task";
type Task = {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
};

/** A connected client and what it saw: `notifications/tasks/status` params, the child's stderr. */
interface Session {
  client: Client;
  statuses: Task[];
  stderr: string[];
}

async function stdio(env: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  return connect(transport, stderr);
}

async function connect(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
  stderr: string[] = [],
  options: Record<string, unknown> = {},
): Promise<Session> {
  const client = new Client({ name: "tasks-client", version: "1.0.0" }, options);
  const statuses: Task[] = [];
  client.fallbackNotificationHandler = async (n) => {
    if (n.method === "notifications/tasks/status") statuses.push(n.params as Task);
  };
  await client.connect(transport);
  return { client, statuses, stderr };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as ProtocolError,
  );

/** The checks every transport must pass, on a fresh session from `open`. */
function lifecycle(open: () => Promise<Session>, transport: "stdio" | "http") {
  it("lists execution.taskSupport after annotations and advertises the 2025-11-25 tasks capability (no extension key)", async () => {
    const { client } = await open();
    const caps = client.getServerCapabilities() as Record<string, unknown>;
    expect(caps.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    expect(caps.extensions).toBeUndefined();
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => [t.name, t.execution?.taskSupport])).toEqual([
      ["slow_compute", "optional"],
      ["must_task", "required"],
      ["failing_job", "optional"],
      ["protocol_error_job", "optional"],
      ["greet", undefined],
      ["confirm", "optional"],
      ["staged_job", "optional"],
      ["sign_up", "required"],
    ]);
    // taskStart is never listed (docs/runtime.md "Tasks"): execution is MCP's ToolExecution only.
    expect(tools.find((t) => t.name === "sign_up")?.execution).toEqual({ taskSupport: "required" });
    await client.close();
  });

  it("create (the requested ttl), poll with tasks/get, tasks/result blocks until the result, tasks/list", async () => {
    const { client, statuses } = await open();
    const { task } = await create(client, "slow_compute", { seconds: 0.3 }, { ttl: 60_000 });
    expect(task).toMatchObject({ status: "working", ttl: 60_000, pollInterval: 500 });
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(task.createdAt).toMatch(ISO);
    expect(task.lastUpdatedAt).toBe(task.createdAt);
    expect(await get(client, task.taskId)).toMatchObject({ taskId: task.taskId, status: "working" });
    const payload = await result(client, task.taskId);
    expect(payload.content).toEqual([{ type: "text", text: "Done after 0.3s" }]);
    expect(payload._meta).toEqual({ [RELATED_TASK]: { taskId: task.taskId } });
    const done = await get(client, task.taskId);
    expect(done).toMatchObject({ taskId: task.taskId, status: "completed", ttl: 60_000 });
    expect(Date.parse(done.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(task.createdAt) + 250);
    const page = await list(client);
    expect(page.tasks.map((t) => [t.taskId, t.status])).toEqual([[task.taskId, "completed"]]);
    expect(page.nextCursor).toBeUndefined();
    // Status notifications go to the creating connection; stateless HTTP has none to carry them.
    if (transport === "stdio") {
      await until(() => statuses.length > 0);
      expect(statuses).toEqual([{ ...done }]);
    } else expect(statuses).toEqual([]);
    await client.close();
  });

  it("cancel: the tool's signal aborts, the task is cancelled; a second cancel is -32602; tasks/result has no result", async () => {
    const { client, stderr } = await open();
    const before = taskState.aborted.length;
    const { task } = await create(client, "slow_compute", { seconds: 30 });
    const cancelled = await cancel(client, task.taskId);
    expect(cancelled).toMatchObject({
      taskId: task.taskId,
      status: "cancelled",
      statusMessage: "Cancelled by the client.",
    });
    if (transport === "stdio") await until(() => stderr.join("").includes("aborted AbortError"));
    else await until(() => taskState.aborted.slice(before).includes("AbortError"));
    expect((await get(client, task.taskId)).status).toBe("cancelled");
    const again = await failure(cancel(client, task.taskId));
    expect(again).toBeInstanceOf(ProtocolError);
    expect(again!.code).toBe(-32602);
    expect((await failure(result(client, task.taskId)))!.code).toBe(-32602);
    await client.close();
  });

  it("a ToolError is a completed task with an isError result; a thrown ProtocolError is a failed task whose tasks/result is that error", async () => {
    const { client } = await open();
    const failing = (await create(client, "failing_job", {})).task;
    expect(await result(client, failing.taskId)).toMatchObject({
      content: [{ type: "text", text: "The job failed." }],
      isError: true,
    });
    expect((await get(client, failing.taskId)).status).toBe("completed");
    const crashing = (await create(client, "protocol_error_job", {})).task;
    const error = await failure(result(client, crashing.taskId));
    expect(error).toMatchObject({ code: -32603 });
    expect(error!.message).toContain("Job crashed.");
    expect((await get(client, crashing.taskId)).status).toBe("failed");
    await client.close();
  });

  it("no params.task: an ordinary call of an optional tool; -32601 for a required one; params.task on a sync tool is ignored", async () => {
    const { client } = await open();
    expect(await client.callTool({ name: "slow_compute", arguments: { seconds: 0 } })).toEqual({
      content: [{ type: "text", text: "Done after 0s" }],
    });
    const refused = await failure(client.callTool({ name: "must_task", arguments: {} }));
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused!.code).toBe(-32601);
    expect(refused!.message).toContain('Tool must_task must be called as a task (execution.taskSupport "required")');
    const created = await create(client, "must_task", {});
    expect((await result(client, created.task.taskId)).content).toEqual([{ type: "text", text: "ran as a task" }]);
    const sync = await client.request(
      { method: "tools/call", params: { name: "greet", arguments: { name: "Ada" }, task: {} } },
      specTypeSchemas.CallToolResult,
    );
    expect(sync.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect((await list(client)).tasks.map((t) => t.status)).toEqual(["completed"]);
    await client.close();
  });

  it("ctx.taskStatus sets the Task's statusMessage and lastUpdatedAt (tasks/get, tasks/list); outside a task it does nothing", async () => {
    const { client } = await open();
    const { task } = await create(client, "staged_job", {});
    expect(task.statusMessage).toBeUndefined();
    // MCP 2025-11-25 Task.statusMessage: the tool's last message (this client has no elicitation: not approved).
    expect((await result(client, task.taskId)).content).toEqual([{ type: "text", text: "finished (not approved)" }]);
    const done = await get(client, task.taskId);
    expect(done).toMatchObject({ taskId: task.taskId, status: "completed", statusMessage: "Not approved; finishing" });
    expect(Date.parse(done.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(task.createdAt) + 90);
    expect((await list(client)).tasks.find((t) => t.taskId === task.taskId)?.statusMessage).toBe(
      "Not approved; finishing",
    );
    // An ordinary call (no params.task): the same tool runs, its ctx.taskStatus calls are no-ops.
    const plain = await client.request(
      { method: "tools/call", params: { name: "staged_job", arguments: {} } },
      specTypeSchemas.CallToolResult,
    );
    expect(plain).toEqual({ content: [{ type: "text", text: "finished (not approved)" }] });
    await client.close();
  });

  it("an unknown task id is -32602 on tasks/get, tasks/result and tasks/cancel; a foreign cursor too", async () => {
    const { client } = await open();
    const errors = await Promise.all(
      [get(client, "nope"), result(client, "nope"), cancel(client, "nope"), list(client, "nope")].map(failure),
    );
    expect(errors.map((e) => e?.code)).toEqual([-32602, -32602, -32602, -32602]);
    await client.close();
  });
}

describe("tasks over stdio (2025-11-25)", () => {
  lifecycle(() => stdio(), "stdio");

  it("a task's ctx.elicit is a real elicitation/create related to the task; the task is input_required until answered", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: "pipe" });
    const session = await connect(transport, [], { capabilities: { elicitation: { form: {} } } });
    const { client, statuses } = session;
    let seen: { meta: unknown; status: string } | undefined;
    client.setRequestHandler("elicitation/create", async (request) => {
      // The request may arrive before the CreateTaskResult: the related-task key names the task.
      const related = (request.params._meta as Record<string, { taskId: string }> | undefined)?.[RELATED_TASK];
      seen = {
        meta: request.params._meta,
        status: related ? (await get(client, related.taskId)).status : "no related task",
      };
      return { action: "accept", content: { ok: true } };
    });
    const taskId = (await create(client, "confirm", { file: "a.txt" })).task.taskId;
    expect((await result(client, taskId)).content).toEqual([{ type: "text", text: "Deleted a.txt" }]);
    expect(seen).toEqual({ meta: { [RELATED_TASK]: { taskId } }, status: "input_required" });
    await until(() => statuses.length >= 3);
    expect(statuses.map((t) => t.status)).toEqual(["input_required", "working", "completed"]);
    await client.close();
  });

  it("ctx.taskStatus: notifications/tasks/status carry each statusMessage; a message set with a status change goes with it", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: "pipe" });
    const { client, statuses } = await connect(transport, [], { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { ok: true } }));
    const { task } = await create(client, "staged_job", {});
    expect((await result(client, task.taskId)).content).toEqual([{ type: "text", text: "finished (approved)" }]);
    await until(() => statuses.some((t) => t.status === "completed"));
    // MCP 2025-11-25 notifications/tasks/status: params are the Task. "Asking for approval" is set
    // just before ctx.elicit (input_required), "Approved; finishing" just after its answer (working).
    expect(statuses.map((t) => [t.status, t.statusMessage])).toEqual([
      ["working", "Preparing"],
      ["input_required", "Asking for approval"],
      ["working", "Approved; finishing"],
      ["completed", "Approved; finishing"],
    ]);
    for (const t of statuses)
      expect(t).toEqual({
        taskId: task.taskId,
        status: t.status,
        statusMessage: t.statusMessage,
        createdAt: task.createdAt,
        lastUpdatedAt: expect.stringMatching(ISO),
        ttl: task.ttl,
        pollInterval: 500,
      });
    const times = statuses.map((t) => Date.parse(t.lastUpdatedAt));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(await get(client, task.taskId)).toEqual(statuses.at(-1));
    await client.close();
  });

  it("a task is dropped when its ttl elapses (the requested ttl lowered to maxTtlMs): the tool is aborted, tasks/get is -32602", async () => {
    const { client, stderr } = await stdio({ TMCP_TASK_TTL_MS: "300" });
    const { task } = await create(client, "slow_compute", { seconds: 30 }, { ttl: 60_000 });
    expect(task.ttl).toBe(300);
    expect((await get(client, task.taskId)).status).toBe("working");
    await until(() => stderr.join("").includes("aborted TimeoutError"));
    expect((await failure(get(client, task.taskId)))!.code).toBe(-32602);
    await client.close();
  });
});

describe("tasks over HTTP (2025-11-25, stateless: the store lives on the McpServer)", () => {
  let http: Awaited<ReturnType<typeof serveHttp>>;
  beforeAll(async () => {
    http = await serveHttp(createTaskServer(), { port: 0 });
  });
  afterAll(async () => {
    await http.close();
  });
  lifecycle(() => connect(new StreamableHTTPClientTransport(http.url)), "http");

  it("tasks are the caller's: another session does not list or find them", async () => {
    const a = await connect(new StreamableHTTPClientTransport(http.url));
    const b = await connect(new StreamableHTTPClientTransport(http.url));
    const { task } = await create(a.client, "slow_compute", { seconds: 0 });
    expect((await list(b.client)).tasks).toEqual([]);
    expect((await failure(get(b.client, task.taskId)))!.code).toBe(-32602);
    expect((await get(a.client, task.taskId)).taskId).toBe(task.taskId);
    await a.client.close();
    await b.client.close();
  });

  it("a client on 2025-06-18 (before tasks) gets an ordinary call even with params.task", async () => {
    const { client } = await connect(new StreamableHTTPClientTransport(http.url), [], {
      supportedProtocolVersions: ["2025-06-18"],
    });
    const plain = await client.request(
      { method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 0 }, task: {} } },
      specTypeSchemas.CallToolResult,
    );
    expect(plain.content).toEqual([{ type: "text", text: "Done after 0s" }]);
    await client.close();
  });
});

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

describe("tasks over HTTP (2026-07-28, SEP-2663 extension)", () => {
  let http: Awaited<ReturnType<typeof serveHttp>>;
  beforeAll(async () => {
    http = await serveHttp(createTaskServer(), { port: 0 });
  });
  afterAll(async () => {
    await http.close();
  });

  /** One raw 2026-07-28 POST (SEP-2243 headers, the `_meta` envelope); `extensions` are the request's declared client extensions. */
  const post = (method: string, params: Record<string, unknown>, extensions?: Record<string, object>) =>
    post2026(http.url, method, params, { extensions }).then((exchange) => exchange.answer);
  const strip = ({ _meta, ...rest }: Record<string, unknown>) => rest;
  /** Polls tasks/get until the task is terminal (or `status`). */
  async function settled(taskId: string, status?: string): Promise<Record<string, any>> {
    for (let i = 0; i < 200; i++) {
      const task = (await post("tasks/get", { taskId })).result;
      if (task.status === status || ["completed", "failed", "cancelled"].includes(task.status)) return task;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`task ${taskId} did not settle`);
  }

  it("the real client sees the extension in server/discover and no capabilities.tasks; without the extension -32021 and ordinary calls", async () => {
    const { client } = await connect(new StreamableHTTPClientTransport(http.url), [], MODERN);
    const caps = client.getServerCapabilities() as Record<string, unknown>;
    expect(caps.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(caps.tasks).toBeUndefined();
    const required = await failure(client.callTool({ name: "must_task", arguments: {} }));
    expect(required).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    expect(
      (await failure(client.request({ method: "tasks/get", params: { taskId: "x" } }, specTypeSchemas.Task)))!.code,
    ).toBe(-32021);
    expect((await client.callTool({ name: "slow_compute", arguments: { seconds: 0 } })).content).toEqual([
      { type: "text", text: "Done after 0s" },
    ]);
    await client.close();
  });

  it("server-directed: a flat CreateTaskResult (ttlMs, pollIntervalMs), tasks/get inlines the result; tasks/result and tasks/list are -32601", async () => {
    const created = (await post("tools/call", { name: "slow_compute", arguments: { seconds: 0.2 } })).result;
    expect(Object.keys(strip(created))).toEqual([
      "resultType",
      "taskId",
      "status",
      "createdAt",
      "lastUpdatedAt",
      "ttlMs",
      "pollIntervalMs",
    ]);
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 300_000, pollIntervalMs: 500 });
    const working = (await post("tasks/get", { taskId: created.taskId })).result;
    expect(strip(working)).toEqual({
      taskId: created.taskId,
      status: "working",
      createdAt: created.createdAt,
      lastUpdatedAt: created.lastUpdatedAt,
      ttlMs: 300_000,
      pollIntervalMs: 500,
      resultType: "complete",
    });
    const done = await settled(created.taskId);
    expect(done).toMatchObject({
      status: "completed",
      resultType: "complete",
      result: { content: [{ type: "text", text: "Done after 0.2s" }] },
    });
    expect(done.result._meta?.["io.modelcontextprotocol/related-task"]).toBeUndefined();
    expect((await post("tasks/result", { taskId: created.taskId })).error.code).toBe(-32601);
    expect((await post("tasks/list", {})).error.code).toBe(-32601);
  });

  it("tasks/cancel acks {} (also on a terminal task) and the task settles to cancelled; a failed task inlines its JSON-RPC error", async () => {
    const created = (await post("tools/call", { name: "slow_compute", arguments: { seconds: 30 } })).result;
    expect(strip((await post("tasks/cancel", { taskId: created.taskId })).result)).toEqual({ resultType: "complete" });
    expect((await post("tasks/get", { taskId: created.taskId })).result.status).toBe("cancelled");
    expect(strip((await post("tasks/cancel", { taskId: created.taskId })).result)).toEqual({ resultType: "complete" });
    const crash = (await post("tools/call", { name: "protocol_error_job", arguments: {} })).result;
    const failed = await settled(crash.taskId);
    expect(failed).toMatchObject({ status: "failed", error: { code: -32603, message: "Job crashed." } });
    expect("result" in failed).toBe(false);
    expect((await post("tasks/get", { taskId: "unknown" })).error.code).toBe(-32602);
  });

  it("ctx.taskStatus sets the DetailedTask's statusMessage (SEP-2663), in input_required too", async () => {
    const created = (await post("tools/call", { name: "staged_job", arguments: {} })).result;
    expect(created.statusMessage).toBeUndefined();
    const parked = await settled(created.taskId, "input_required");
    expect(parked).toMatchObject({ status: "input_required", statusMessage: "Asking for approval" });
    expect(Date.parse(parked.lastUpdatedAt)).toBeGreaterThan(Date.parse(created.createdAt));
    await post("tasks/update", {
      taskId: created.taskId,
      inputResponses: { "elicit-1": { action: "accept", content: { ok: true } } },
    });
    const done = await settled(created.taskId);
    expect(done).toMatchObject({
      status: "completed",
      statusMessage: "Approved; finishing",
      result: { content: [{ type: "text", text: "finished (approved)" }] },
    });
  });

  it("a task's ctx.elicit parks it in input_required with the request under its key; tasks/update resumes it", async () => {
    const created = (await post("tools/call", { name: "confirm", arguments: { file: "a.txt" } })).result;
    const parked = await settled(created.taskId, "input_required");
    expect(parked.status).toBe("input_required");
    expect(parked.inputRequests).toEqual({
      "elicit-1": {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "Delete a.txt?",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
        },
      },
    });
    // An answer to another key is ignored: still waiting.
    expect(
      strip(
        (
          await post("tasks/update", {
            taskId: created.taskId,
            inputResponses: { other: { action: "accept", content: {} } },
          })
        ).result,
      ),
    ).toEqual({ resultType: "complete" });
    expect((await post("tasks/get", { taskId: created.taskId })).result.status).toBe("input_required");
    await post("tasks/update", {
      taskId: created.taskId,
      inputResponses: { "elicit-1": { action: "accept", content: { ok: true } } },
    });
    const done = await settled(created.taskId);
    expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "Deleted a.txt" }] } });
    expect("inputRequests" in done).toBe(false);
  });

  it('taskStart "after-input" (SEP-2663 + SEP-2322 composition): round 1 is input_required with no task; the round carrying the answer is the CreateTaskResult, and the task has that answer', async () => {
    const nameSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    const round1 = (await post("tools/call", { name: "sign_up", arguments: {} })).result;
    expect(round1).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        name: {
          method: "elicitation/create",
          params: { mode: "form", message: "Your name?", requestedSchema: nameSchema },
        },
      },
    });
    expect(Object.keys(round1.inputRequests)).toEqual(["name"]);
    expect(typeof round1.requestState).toBe("string");
    expect("taskId" in round1).toBe(false);
    const answer = { name: { action: "accept", content: { name: "Alice" } } };
    const round2 = (
      await post("tools/call", {
        name: "sign_up",
        arguments: {},
        inputResponses: answer,
        requestState: round1.requestState,
      })
    ).result;
    // SEP-2663 CreateTaskResult: no requestState, no inputRequests.
    expect(Object.keys(strip(round2))).toEqual([
      "resultType",
      "taskId",
      "status",
      "createdAt",
      "lastUpdatedAt",
      "ttlMs",
      "pollIntervalMs",
    ]);
    expect(round2).toMatchObject({ resultType: "task", status: "working" });
    // The task's first input request was answered by the creating round; its next one parks it.
    const parked = await settled(round2.taskId, "input_required");
    expect(parked.inputRequests).toEqual({
      confirm: {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "Sign up Alice?",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
        },
      },
    });
    await post("tasks/update", {
      taskId: round2.taskId,
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
    });
    expect(await settled(round2.taskId)).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "Signed up Alice" }] },
    });
    // inputResponses without a requestState (a client that kept none) also starts the task.
    const direct = (await post("tools/call", { name: "sign_up", arguments: {}, inputResponses: answer })).result;
    expect(direct).toMatchObject({ resultType: "task", status: "working" });
    expect((await settled(direct.taskId, "input_required")).inputRequests.confirm.params.message).toBe(
      "Sign up Alice?",
    );
    // A forged requestState is -32602 before any task; without the extension -32021 on round 1 (taskSupport "required").
    expect(
      (await post("tools/call", { name: "sign_up", arguments: {}, inputResponses: answer, requestState: "forged" }))
        .error,
    ).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    expect((await post("tools/call", { name: "sign_up", arguments: {} }, {})).error.code).toBe(-32021);
  });
});
