/**
 * `mcpWorker()` of typed-mcp/durable-objects without its binding (docs/scaling.md "Durable
 * Objects"): a Worker whose `env` lacks the namespace answers HTTP 500 naming the binding, instead
 * of a TypeError from `undefined.idFromName`. (Forwarding itself runs in real workerd:
 * test/runtimes/workerd-durable-objects.test.ts.)
 */
import { expect, it } from "vitest";
import { mcpWorker } from "typed-mcp/durable-objects";

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
