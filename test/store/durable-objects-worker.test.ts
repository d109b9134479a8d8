/**
 * The refusals of typed-mcp/durable-objects that need no workerd (docs/scaling.md "Durable
 * Objects"): `mcpWorker()` whose `env` lacks the namespace answers HTTP 500 naming the binding,
 * instead of a TypeError from `undefined.idFromName`; the object answers a store call on any
 * origin but the store's own with 404, so a client's request forwarded to it unchanged cannot
 * call the store's methods. (Forwarding itself runs in real workerd:
 * test/runtimes/workerd-durable-objects.test.ts.)
 */
import { expect, it } from "vitest";
import { mcpWorker, TypedMcpStore } from "typed-mcp/durable-objects";

it.each([
  [{}, "STORE", undefined],
  [{ MCP: "not a namespace" }, "MCP", "MCP"],
])("a Worker whose env lacks the binding answers 500 naming it (%j)", async (env, name, binding) => {
  const response = await mcpWorker(binding === undefined ? {} : { binding }).fetch(
    new Request("http://127.0.0.1/mcp", { method: "POST", body: "{}" }),
    env,
  );
  expect(response.status).toBe(500);
  expect(await response.text()).toBe(
    `typed-mcp/durable-objects: the Worker has no Durable Object binding "${name}" (bind the class mcpDurableObject made).`,
  );
});

it("the object refuses a store call on any origin but the store's own (a client's request forwarded unchanged)", async () => {
  // No storage is touched before the refusal, so the object is made without one.
  const object = new TypedMcpStore({ storage: undefined as never });
  const response = await object.fetch(
    new Request("https://mcp.example.com/swap", { method: "POST", body: '["k",null,"v",60000]' }),
  );
  expect(response.status).toBe(404);
  expect(await response.text()).toBe(
    "typed-mcp/durable-objects: not a store request (mcp.example.com); serve MCP through mcpWorker().",
  );
});
