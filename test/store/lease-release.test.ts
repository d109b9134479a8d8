// The running-task lease of a task whose stored copy expired before it finished (docs/scaling.md
// "The lease"): the runner gives the lease back instead of renewing it with every heartbeat
// forever, so it frees its quota slot (tasks.anonymous.maxRunning) and its `running` set lapses.
// One instance on a MemoryStateStore; 2025-11-25 task creation over HTTP.
import { afterAll, beforeAll, expect, it } from "vitest";
import { MemoryStateStore } from "typed-mcp";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import { createTaskServer } from "../runtime/fixtures/tasks-tools.mjs";
import { post } from "../helpers/raw-http.ts";

let served: Awaited<ReturnType<typeof serveHttp>>;
beforeAll(async () => {
  const server = createTaskServer({ store: new MemoryStateStore(), tasks: { anonymous: { maxRunning: 1 } } });
  await server.storeReady();
  served = await serveHttp(server, { port: 0 });
});
afterAll(() => served?.close());

const create = (seconds: number, ttl: number) =>
  post(served.url, "tools/call", { name: "slow_compute", arguments: { seconds }, task: { ttl } });

it("a task that outlives its ttl frees its running-task slot when it ends: the next task is accepted", async () => {
  // ttl 1,000 ms, runs 1.5 s: its stored copy expires while it runs.
  const first = await create(1.5, 1000);
  expect(first.answer.result?.task?.status, JSON.stringify(first.answer)).toBe("working");
  // While it runs, the one slot is taken (docs/security.md "Tasks").
  const refused = await create(0, 60_000);
  expect(refused.answer.error).toMatchObject({ code: -32603, data: { limit: "tasks.anonymous.maxRunning" } });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const next = await create(0, 60_000);
  expect(next.answer.result?.task?.status, JSON.stringify(next.answer)).toBe("working");
});
