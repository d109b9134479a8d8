/**
 * typed-mcp/durable-objects running an MCP server in a Durable Object, in real workerd (npm
 * `workerd`; docs/scaling.md "Durable Objects"): one config, two Worker services `a` and `b` of
 * the same module (test/runtimes/fixtures/durable-objects/worker.mjs), `b` binding a's namespace
 * with `durableObjectNamespace = (serviceName = "a", className = "McpObject")`; each Worker
 * forwards to the one object (`mcpWorker`). The official client's requests are steered per
 * request to the service the test names. A task created through a is polled, its result fetched
 * and another cancelled through b; `resources/updated` raised through b reaches a listen stream
 * opened through a; `notifications/cancelled` through b aborts the call sent through a; a
 * 2025-era `ctx.elicit` of a call sent through a is answered by a POST through b; with
 * `localDisk` a completed task survives workerd killed with SIGKILL, and a task running at the
 * kill is `failed` with the lease message after it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startWorkerd, type Workerd } from "../helpers/workerd-store.ts";
import { cancelTask, createTask, getTask, taskResult } from "../helpers/tasks.ts";
import { post2026 as post2026At } from "../helpers/raw-http.ts";
import { listen } from "../helpers/cluster.ts";

const WORKER = fileURLToPath(new URL("./fixtures/durable-objects/worker.mjs", import.meta.url));
const CLASSES = { STORE: "McpObject" };

/** Waits (bounded) until `check` holds. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A 2026-07-28 POST to the MCP endpoint of the service at `base` (test/helpers/raw-http.ts): the JSON-RPC answer. */
const post2026 = (base: string, method: string, params: Record<string, unknown>) =>
  post2026At(`${base}mcp`, method, params).then((sent) => sent.answer);

describe("in memory", () => {
  let workerd: Workerd;
  const route = { to: "a" as "a" | "b", log: [] as string[] };
  /** The official client's fetch, sent to the service `route.to` names. */
  const routed: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    url.host = new URL(workerd.urls[route.to]).host;
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string; id?: unknown }) : {};
    route.log.push(`${route.to} ${body.method ?? (body.id !== undefined ? "answer" : (init?.method ?? "GET"))}`);
    return fetch(url, init);
  };
  const connect = async (): Promise<Client> => {
    route.to = "a";
    const client = new Client({ name: "workerd-do", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: routed }));
    return client;
  };
  const counts = async (): Promise<{ started: number; aborted: number }> =>
    JSON.parse(
      (await post2026(workerd.urls.b, "tools/call", { name: "counts", arguments: {} })).result.content[0].text,
    );

  beforeAll(async () => {
    workerd = await startWorkerd(WORKER, CLASSES);
  });
  afterAll(async () => {
    await workerd?.dispose();
  });

  it("a 2025-11-25 task created through a is polled, its result fetched and another cancelled through b", async () => {
    const client = await connect();
    const { task } = await createTask(client, "slow_compute", { seconds: 0.3 });
    expect(task.status).toBe("working");
    route.to = "b";
    route.log.length = 0;
    await eventually(async () => (await getTask(client, task.taskId)).status === "completed");
    expect(await taskResult(client, task.taskId)).toMatchObject({
      content: [{ type: "text", text: "Done after 0.3s" }],
    });
    route.to = "a";
    const second = (await createTask(client, "slow_compute", { seconds: 60 })).task;
    route.to = "b";
    expect(await cancelTask(client, second.taskId)).toMatchObject({
      status: "cancelled",
      statusMessage: "Cancelled by the client.",
    });
    expect((await getTask(client, second.taskId)).status).toBe("cancelled");
    expect(route.log.filter((l) => l.startsWith("a "))).toEqual(["a tools/call"]);
    expect(new Set(route.log.filter((l) => !l.startsWith("a ")).map((l) => l.split(" ")[1]))).toEqual(
      new Set(["tasks/get", "tasks/result", "tasks/cancel"]),
    );
    await client.close();
  });

  it("resources/updated raised through b reaches the 2026-07-28 listen stream opened through a, only for its URI", async () => {
    const stream = await listen(new URL(`${workerd.urls.a}mcp`), { resourceSubscriptions: ["demo://watched"] });
    for (const uri of ["demo://other", "demo://watched"])
      expect(
        (await post2026(workerd.urls.b, "tools/call", { name: "announce_update", arguments: { uri } })).result,
      ).toMatchObject({ content: [{ text: "announced" }] });
    await eventually(() => stream.messages.some((m) => m.method === "notifications/resources/updated"));
    const updates = stream.messages.filter((m) => m.method === "notifications/resources/updated");
    expect(updates.map((m) => m.params.uri)).toEqual(["demo://watched"]);
    stream.close();
  });

  it("notifications/cancelled sent through b aborts ctx.signal of the call sent through a (one 2025-11-25 session)", async () => {
    const before = await counts();
    const client = await connect();
    const controller = new AbortController();
    const running = client.callTool({ name: "hold", arguments: {} }, { signal: controller.signal });
    running.catch(() => {});
    await eventually(async () => (await counts()).started > before.started);
    route.to = "b";
    route.log.length = 0;
    controller.abort("no longer needed");
    await eventually(() => route.log.includes("b notifications/cancelled"));
    await eventually(async () => (await counts()).aborted > before.aborted);
    await client.close();
  });

  it("a 2025-era ctx.elicit in a call sent through a: elicitation/create on a's stream, the answer POST through b, the tool finishes", async () => {
    const client = await connect();
    client.setRequestHandler("elicitation/create", async (request) => {
      expect(request.params.message).toBe("Delete c.txt?");
      route.to = "b";
      return { action: "accept", content: { ok: true } };
    });
    route.to = "a";
    route.log.length = 0;
    const result = await client.callTool({ name: "confirm", arguments: { file: "c.txt" } });
    expect(result.content).toEqual([{ type: "text", text: "Deleted c.txt" }]);
    expect(route.log).toEqual(["a tools/call", "b answer"]);
    await client.close();
  });
});

describe("on local disk", () => {
  let workerd: Workerd;
  let disk: string;
  beforeAll(async () => {
    disk = await mkdtemp(join(tmpdir(), "typed-mcp-do-mcp-disk-"));
    workerd = await startWorkerd(WORKER, CLASSES, { dir: disk });
  });
  afterAll(async () => {
    await workerd?.dispose();
    if (disk) await rm(disk, { recursive: true, force: true });
  });

  it("a completed task survives workerd killed with SIGKILL; a task running at the kill is failed by the lease", async () => {
    const done = (await post2026(workerd.urls.a, "tools/call", { name: "slow_compute", arguments: { seconds: 0 } }))
      .result;
    expect(done.resultType).toBe("task");
    await eventually(
      async () => (await post2026(workerd.urls.b, "tasks/get", { taskId: done.taskId })).result?.status === "completed",
    );
    const cut = (await post2026(workerd.urls.a, "tools/call", { name: "slow_compute", arguments: { seconds: 60 } }))
      .result;
    await eventually(
      async () => (await post2026(workerd.urls.b, "tasks/get", { taskId: cut.taskId })).result?.status === "working",
    );
    await workerd.restart();
    expect((await post2026(workerd.urls.b, "tasks/get", { taskId: done.taskId })).result).toMatchObject({
      status: "completed",
    });
    // The object's instance before the kill stopped beating: within leaseMs (2,000) readers fail its task.
    await eventually(
      async () => (await post2026(workerd.urls.a, "tasks/get", { taskId: cut.taskId })).result?.status === "failed",
    );
    expect((await post2026(workerd.urls.a, "tasks/get", { taskId: cut.taskId })).result.statusMessage).toBe(
      "The instance running this task stopped: its heartbeat lapsed (store.leaseMs is 2000 ms); the task did not finish.",
    );
  });
});
