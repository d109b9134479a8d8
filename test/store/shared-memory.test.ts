// Two instances of one server sharing a store (docs/scaling.md), in one process: two McpServers
// built from the same code, each served by its own serveHttp on 127.0.0.1, sharing one
// MemoryStateStore. The official client talks to them through a fetch that sends each request to
// the instance the test names and records which one answered, so every step below is known to
// have landed where it says. Expected values are MCP 2025-11-25 "Tasks" and SEP-2663's; the same
// scenarios against Redis, nginx and three processes are test/store/balanced.test.ts (full tier).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { MemoryStateStore } from "typed-mcp";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import * as __tmcp from "../../packages/typed-mcp/dist/internal.js";
import { createTaskServer, taskState } from "../runtime/fixtures/tasks-tools.mjs";
import { cancelTask, createTask, getTask, listTasks, taskResult } from "../helpers/tasks.ts";
import { post2026 } from "../helpers/raw-http.ts";

type Served = Awaited<ReturnType<typeof serveHttp>>;
const store = new MemoryStateStore();
const instances: Record<"A" | "B", Served> = {} as never;

/** Where the next request goes, and the (instance, JSON-RPC method) of each request sent. */
const route = { to: "A" as "A" | "B", log: [] as string[] };
const routed: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const target = instances[route.to].url;
  url.host = target.host;
  const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string; id?: unknown }) : {};
  const what = body.method ?? (body.id !== undefined ? "answer" : (init?.method ?? "GET"));
  route.log.push(`${route.to} ${what}`);
  return fetch(url, init);
};
/** Sends the next requests to `to`. */
const at = (to: "A" | "B") => {
  route.to = to;
};

async function connect(): Promise<Client> {
  at("A");
  const client = new Client({ name: "balanced", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: routed }));
  return client;
}

/** Waits (bounded, 10 s) until `check` holds. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met within 10 s");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What the `hold` tool saw, per instance: runs started, and runs whose ctx.signal aborted. */
const held: Record<"A" | "B", { started: number; aborted: number }> = {
  A: { started: 0, aborted: 0 },
  B: { started: 0, aborted: 0 },
};

beforeAll(async () => {
  for (const name of ["A", "B"] as const) {
    const server = createTaskServer({ store, tasks: { anonymous: { maxRunning: 3 } } });
    // server.tool("hold", (ctx: RequestContext) => …): counts its start, then waits until ctx.signal aborts (descriptor as the plugin writes it).
    server.tool(
      "hold",
      ((ctx: { signal: AbortSignal }) => {
        held[name].started++;
        return new Promise((resolve) =>
          ctx.signal.addEventListener("abort", () => resolve(String(++held[name].aborted)), { once: true }),
        );
      }) as never,
      __tmcp.generated({
        listing: { name: "hold", inputSchema: { type: "object", properties: {}, additionalProperties: false } },
        read: (_args: unknown, ctx: unknown) => [ctx],
        write: (value: string) => ({ content: [{ type: "text", text: value }] }),
      } as never) as never,
    );
    await server.storeReady();
    instances[name] = await serveHttp(server, { port: 0 });
  }
});
afterAll(async () => {
  for (const served of Object.values(instances)) await served.close();
  await store.close();
});

describe("the store option", () => {
  it("refuses a lease shorter than 1,000 ms or not an integer, naming store.leaseMs", () => {
    for (const leaseMs of [999, 1500.5, 0])
      expect(() => createTaskServer({ store: { state: store, leaseMs } })).toThrow(
        new RangeError(`store.leaseMs must be an integer of at least 1000, got ${leaseMs}`),
      );
  });

  it("a store that cannot be reached: creating a task is -32603 naming it, at once; an ordinary call still works", async () => {
    const broken = new MemoryStateStore();
    await broken.close();
    const server = createTaskServer({ store: broken });
    const created = (await post2026(server, "tools/call", { name: "slow_compute", arguments: { seconds: 0 } })).answer;
    expect(created.error).toEqual({
      code: -32603,
      message: "The shared store is unavailable (typed-mcp: the memory store is closed.); try again.",
      data: { store: "unavailable" },
    });
    const greeted = (await post2026(server, "tools/call", { name: "greet", arguments: { name: "Ada" } })).answer;
    expect(greeted.result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    await expect(server.storeReady()).rejects.toThrow("typed-mcp: the memory store is closed.");
  });
});

describe("2025-11-25 tasks across two instances (official client, one session)", () => {
  it("created on A, polled, listed and its result fetched on B", async () => {
    const client = await connect();
    const { task } = await createTask(client, "slow_compute", { seconds: 0.3 });
    expect(task.status).toBe("working");
    at("B");
    route.log.length = 0;
    const polled = await getTask(client, task.taskId);
    expect(polled).toMatchObject({ taskId: task.taskId, createdAt: task.createdAt, ttl: task.ttl });
    expect((await listTasks(client)).tasks.map((t) => t.taskId)).toEqual([task.taskId]);
    const result = await taskResult(client, task.taskId);
    expect(result.content).toEqual([{ type: "text", text: "Done after 0.3s" }]);
    expect((await getTask(client, task.taskId)).status).toBe("completed");
    expect(route.log).toEqual(["B tasks/get", "B tasks/list", "B tasks/result", "B tasks/get"]);
    await client.close();
  });

  it("created on A, cancelled on B: the tool on A sees its signal abort; A then reports it cancelled", async () => {
    const client = await connect();
    const { task } = await createTask(client, "slow_compute", { seconds: 30 });
    const aborted = taskState.aborted.length;
    at("B");
    const cancelled = await cancelTask(client, task.taskId);
    expect(cancelled).toMatchObject({
      taskId: task.taskId,
      status: "cancelled",
      statusMessage: "Cancelled by the client.",
    });
    await eventually(() => taskState.aborted.length > aborted);
    expect(taskState.aborted.at(-1)).toBe("AbortError");
    at("A");
    expect((await getTask(client, task.taskId)).status).toBe("cancelled");
    // A second cancel, on either instance, is the spec's -32602 for a terminal task.
    await expect(cancelTask(client, task.taskId)).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it("another session finds nothing on either instance", async () => {
    const owner = await connect();
    const { task } = await createTask(owner, "slow_compute", { seconds: 0 });
    const stranger = await connect();
    for (const to of ["A", "B"] as const) {
      at(to);
      await expect(getTask(stranger, task.taskId)).rejects.toMatchObject({ code: -32602 });
      expect((await listTasks(stranger)).tasks).toEqual([]);
    }
    await owner.close();
    await stranger.close();
  });

  it("notifications/cancelled arriving at B aborts the ordinary call running on A (same session)", async () => {
    const client = await connect();
    const { started, aborted } = held.A;
    const controller = new AbortController();
    const call = client.callTool({ name: "hold", arguments: {} }, { signal: controller.signal });
    call.catch(() => {});
    await eventually(() => held.A.started > started);
    at("B");
    controller.abort("changed my mind");
    await eventually(() => route.log.includes("B notifications/cancelled"));
    await eventually(() => held.A.aborted > aborted);
    expect(held.B).toEqual({ started: 0, aborted: 0 });
    await expect(call).rejects.toThrow();
    await client.close();
  });
});

describe("2025-era server→client requests behind a balancer", () => {
  it("ctx.elicit in a tools/call on A goes out on A's stream; the client's answer POST lands on B; the tool on A gets it and finishes", async () => {
    const client = await connect();
    client.setRequestHandler("elicitation/create", async (request) => {
      expect(request.params.message).toBe("Delete c.txt?");
      at("B");
      return { action: "accept", content: { ok: true } };
    });
    at("A");
    route.log.length = 0;
    const result = await client.callTool({ name: "confirm", arguments: { file: "c.txt" } });
    expect(result.content).toEqual([{ type: "text", text: "Deleted c.txt" }]);
    expect(route.log).toEqual(["A tools/call", "B answer"]);
    await client.close();
  });
});

describe("2026-07-28 input_required rounds across two instances", () => {
  it("a round answered by A is retried on B with A's requestState: B verifies it (the key the instances share) and completes", async () => {
    const plain = { extensions: {} };
    const first = (
      await post2026(instances.A.url, "tools/call", { name: "confirm", arguments: { file: "b.txt" } }, plain)
    ).answer.result;
    expect(first.resultType).toBe("input_required");
    expect(typeof first.requestState).toBe("string");
    const { answer: retried } = await post2026(
      instances.B.url,
      "tools/call",
      {
        name: "confirm",
        arguments: { file: "b.txt" },
        inputResponses: { "elicit-1": { action: "accept", content: { ok: true } } },
        requestState: first.requestState,
      },
      plain,
    );
    expect(retried.error).toBeUndefined();
    expect(retried.result.content).toEqual([{ type: "text", text: "Deleted b.txt" }]);
  });
});

describe("2026-07-28 tasks (SEP-2663) across two instances", () => {
  const post = (to: "A" | "B", method: string, params: Record<string, unknown>) =>
    post2026(instances[to].url, method, params).then((exchange) => exchange.answer);

  it("an input request parks the task on A; B shows it and delivers the answer; A finishes", async () => {
    const created = (await post("A", "tools/call", { name: "confirm", arguments: { file: "a.txt" } })).result;
    let parked: Record<string, any> = {};
    await eventually(async () => {
      parked = (await post("B", "tasks/get", { taskId: created.taskId })).result;
      return parked.status === "input_required";
    });
    expect(parked.inputRequests["elicit-1"]).toMatchObject({
      method: "elicitation/create",
      params: { message: "Delete a.txt?" },
    });
    await post("B", "tasks/update", {
      taskId: created.taskId,
      inputResponses: { "elicit-1": { action: "accept", content: { ok: true } } },
    });
    let done: Record<string, any> = {};
    await eventually(async () => {
      done = (await post("A", "tasks/get", { taskId: created.taskId })).result;
      return done.status === "completed";
    });
    expect(done.result.content).toEqual([{ type: "text", text: "Deleted a.txt" }]);
  });

  it("the running-task quota holds across instances: the fourth of three is -32603 naming it; a cancel on B frees a slot", async () => {
    const ids: string[] = [];
    for (const to of ["A", "B", "A"] as const)
      ids.push((await post(to, "tools/call", { name: "slow_compute", arguments: { seconds: 30 } })).result.taskId);
    const refused = await post("B", "tools/call", { name: "slow_compute", arguments: { seconds: 30 } });
    expect(refused.error).toMatchObject({
      code: -32603,
      data: { limit: "tasks.anonymous.maxRunning", max: 3 },
    });
    expect(refused.error.message).toContain("tasks.anonymous.maxRunning is 3");
    await post("B", "tasks/cancel", { taskId: ids[0] });
    const next = await post("B", "tools/call", { name: "slow_compute", arguments: { seconds: 30 } });
    expect(next.result.status).toBe("working");
    for (const taskId of [...ids.slice(1), next.result.taskId]) await post("A", "tasks/cancel", { taskId });
  });
});

describe("finished-task quotas across two instances (tasks.anonymous.maxResults / maxResultBytes)", () => {
  /** Two served instances on a store of their own, with the anonymous bucket's finished-task quota `quota`; their URLs. */
  async function pair(quota: Record<string, number>) {
    const state = new MemoryStateStore();
    const served: Served[] = [];
    for (let i = 0; i < 2; i++) {
      const server = createTaskServer({ store: state, tasks: { anonymous: quota } });
      await server.storeReady();
      served.push(await serveHttp(server, { port: 0 }));
    }
    const close = async () => {
      for (const s of served) await s.close();
      await state.close();
    };
    return { a: served[0]!.url, b: served[1]!.url, close };
  }
  /** Runs one `slow_compute` task to its end on the instance at `url`; its id. */
  async function finished(url: URL): Promise<string> {
    const created = (await post2026(url, "tools/call", { name: "slow_compute", arguments: { seconds: 0 } })).answer;
    const taskId = created.result.taskId as string;
    await eventually(async () => (await post2026(url, "tasks/get", { taskId })).answer.result?.status === "completed");
    return taskId;
  }

  it("maxResults 2: the third finished task (on A) drops the first (finished on A, expiring soonest) on both instances, as an id never made; the second (on B) stays", async () => {
    const { a, b, close } = await pair({ maxResults: 2 });
    const first = await finished(a);
    const second = await finished(b);
    const third = await finished(a);
    // A task id of the same shape that never existed (128 random bits, as the server makes them).
    const never = first.replace(/./g, (c) => (c === "a" ? "b" : "a"));
    const unknown = (await post2026(a, "tasks/get", { taskId: never })).answer.error;
    expect(unknown?.code).toBeTypeOf("number");
    for (const at of [a, b]) {
      const dropped = (await post2026(at, "tasks/get", { taskId: first })).answer.error;
      expect(dropped).toEqual(JSON.parse(JSON.stringify(unknown).replaceAll(never, first)));
      for (const kept of [second, third])
        expect((await post2026(at, "tasks/get", { taskId: kept })).answer.result.status).toBe("completed");
    }
    await close();
  });

  it("maxResultBytes of two results: the third finished task drops the first on both instances", async () => {
    // slow_compute's result as tasks/get sends it: the UTF-8 length of its JSON is what the quota counts.
    const bytes = JSON.stringify({ content: [{ type: "text", text: "Done after 0s" }] }).length;
    const { a, b, close } = await pair({ maxResults: 100, maxResultBytes: 2 * bytes });
    const first = await finished(b);
    const second = await finished(a);
    const third = await finished(b);
    for (const at of [a, b]) {
      expect((await post2026(at, "tasks/get", { taskId: first })).answer.error?.code).toBeTypeOf("number");
      for (const kept of [second, third])
        expect((await post2026(at, "tasks/get", { taskId: kept })).answer.result.status).toBe("completed");
    }
    await close();
  });
});
