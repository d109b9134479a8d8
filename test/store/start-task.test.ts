/**
 * `store.startTask` (docs/scaling.md "Durable Objects"): with a shared store, a task's work is
 * started by the hook the store settings give — the way typed-mcp/durable-objects starts it from
 * the object's alarm instead of the request that created it. The task is written `working` when
 * created, and the tool runs only when the hook runs the work it was handed.
 */
import { expect, it } from "vitest";
import { MemoryStateStore } from "typed-mcp";
import { createTaskServer } from "../runtime/fixtures/tasks-tools.mjs";
import { rpcRequest, TASKS_EXTENSION } from "../helpers/raw-http.ts";
import { messagesOf } from "../helpers/sse.ts";

/** A 2026-07-28 request (the tasks extension declared) to `server.fetch`; the JSON-RPC answer. */
async function call(
  server: { fetch: (r: Request) => Promise<Response> },
  method: string,
  params: Record<string, unknown>,
) {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } },
  };
  const name = (params.name ?? params.taskId) as string;
  const request = rpcRequest(
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } },
    { headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": method, "mcp-name": name } },
  );
  return messagesOf(await (await server.fetch(request)).text()).find((m) => m.id === 1)!;
}

it("a task's work starts when store.startTask runs it, not before", async () => {
  const handed: Array<() => Promise<void>> = [];
  const state = new MemoryStateStore();
  const server = createTaskServer({ store: { state, startTask: (work: () => Promise<void>) => handed.push(work) } });
  await server.storeReady();
  const created = (await call(server, "tools/call", { name: "must_task", arguments: {} })).result;
  expect(created).toMatchObject({ resultType: "task", status: "working" });
  expect(handed).toHaveLength(1);
  await new Promise((r) => setTimeout(r, 100));
  expect((await call(server, "tasks/get", { taskId: created.taskId })).result.status).toBe("working");
  await handed[0]!();
  const done = (await call(server, "tasks/get", { taskId: created.taskId })).result;
  expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "ran as a task" }] } });
  await state.close();
});
