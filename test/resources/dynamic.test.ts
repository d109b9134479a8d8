/**
 * Dynamic lists (docs/runtime.md "Dynamic lists"; MCP 2025-11-25 server/tools, resources, prompts
 * "List Changed Notification": a server that declared `listChanged` SHOULD send
 * `notifications/{tools,resources,prompts}/list_changed` when its list changes). fixtures/app/
 * dynamic.ts is built with the real plugin; its `grow` tool registers `extra_tool`,
 * `dyn://extra` and `extra_prompt` while serving and `shrink` removes them. The official client
 * over real stdio (2025-11-25) and over `server.fetch` (2026-07-28 subscriptions/listen).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { MODERN, buildApp, connect, connectStdio, connectStreaming, errorOf, until } from "./helpers.js";

let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  app = await buildApp(["dynamic", "stdio-main"]);
}, 120_000);
afterAll(() => app?.cleanup());

const LIST_CHANGED = [
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
] as const;

/** Records the method of every list_changed notification the client receives. */
function record(client: Client): string[] {
  const seen: string[] = [];
  for (const method of LIST_CHANGED) client.setNotificationHandler(method, () => void seen.push(method));
  return seen;
}

/** The names the client lists now: tools, resources (URIs), prompts. */
async function lists(client: Client): Promise<[string[], string[], string[]]> {
  return [
    (await client.listTools()).tools.map((t) => t.name),
    (await client.listResources()).resources.map((r) => r.uri),
    (await client.listPrompts()).prompts.map((p) => p.name),
  ];
}

describe("dynamic: true over stdio (2025-11-25)", () => {
  let client: Client;
  let seen: string[];
  beforeAll(async () => {
    client = await connectStdio(app.outDir, "dynamic");
    seen = record(client);
  }, 30_000);
  afterAll(() => client?.close());

  it("advertises listChanged: true for tools, resources and prompts, each list served while empty", async () => {
    const caps = client.getServerCapabilities()!;
    expect(caps.tools).toEqual({ listChanged: true });
    expect(caps.resources).toEqual({ subscribe: true, listChanged: true });
    expect(caps.prompts).toEqual({ listChanged: true });
    expect(await lists(client)).toEqual([["grow", "shrink"], [], []]);
  });

  it("registering while serving sends the three notifications and the lists show the new entries", async () => {
    seen.length = 0;
    expect(await client.callTool({ name: "grow", arguments: {} })).toEqual({
      content: [{ type: "text", text: "grown" }],
    });
    await until(() => seen.length >= 3);
    expect([...seen].sort()).toEqual([...LIST_CHANGED].sort());
    expect(await lists(client)).toEqual([["grow", "shrink", "extra_tool"], ["dyn://extra"], ["extra_prompt"]]);
    expect(await client.callTool({ name: "extra_tool", arguments: {} })).toEqual({
      content: [{ type: "text", text: "extra" }],
    });
  });

  it("removing sends them again; removed entries are gone (unknown tool -32602, unknown prompt -32602)", async () => {
    seen.length = 0;
    expect(await client.callTool({ name: "shrink", arguments: {} })).toEqual({
      content: [{ type: "text", text: "shrunk true true true" }],
    });
    await until(() => seen.length >= 3);
    expect([...seen].sort()).toEqual([...LIST_CHANGED].sort());
    expect(await lists(client)).toEqual([["grow", "shrink"], [], []]);
    expect((await errorOf(client.callTool({ name: "extra_tool", arguments: {} }))).code).toBe(-32602);
    expect((await errorOf(client.getPrompt({ name: "extra_prompt" }))).code).toBe(-32602);
  });

  it("removing what is not registered answers false and sends nothing", async () => {
    seen.length = 0;
    expect(await client.callTool({ name: "shrink", arguments: {} })).toEqual({
      content: [{ type: "text", text: "shrunk false false false" }],
    });
    await client.ping();
    expect(seen).toEqual([]);
  });
});

describe("without dynamic (the default) over stdio", () => {
  let client: Client;
  let seen: string[];
  beforeAll(async () => {
    client = await connectStdio(app.outDir, "static");
    seen = record(client);
  }, 30_000);
  afterAll(() => client?.close());

  it("no listChanged is advertised and nothing is sent; later requests still see the change", async () => {
    const caps = client.getServerCapabilities()!;
    expect(caps.tools).toEqual({});
    expect(caps.resources).toBeUndefined();
    expect(caps.prompts).toBeUndefined();
    await client.callTool({ name: "grow", arguments: {} });
    await client.ping();
    expect(seen).toEqual([]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["grow", "shrink", "extra_tool"]);
  });
});

describe.each([
  ["stdio", () => connectStdio(app.outDir, "dynamic", MODERN)],
  ["HTTP", () => connectStreaming(app.modules.dynamic!.dynamicServer(true), MODERN)],
])("dynamic: true, 2026-07-28 over %s", (_transport, open) => {
  it("subscriptions/listen streams that asked for list changes receive them", async () => {
    const client = await open();
    try {
      const seen = record(client);
      const subscription = await client.listen({
        toolsListChanged: true,
        resourcesListChanged: true,
        promptsListChanged: true,
      });
      expect(subscription.honoredFilter).toEqual({
        toolsListChanged: true,
        resourcesListChanged: true,
        promptsListChanged: true,
      });
      await client.callTool({ name: "grow", arguments: {} });
      await until(() => seen.length >= 3);
      expect([...seen].sort()).toEqual([...LIST_CHANGED].sort());
      expect(await lists(client)).toEqual([["grow", "shrink", "extra_tool"], ["dyn://extra"], ["extra_prompt"]]);
    } finally {
      await client.close();
    }
  });
});

describe("dynamic: true over stateless 2025-era HTTP", () => {
  it("stateless 2025-11-25: listChanged is advertised, there is no stream to deliver on; the next list shows the change", async () => {
    const server = app.modules.dynamic!.dynamicServer(true);
    const client = await connect(server);
    try {
      expect(client.getServerCapabilities()!.tools).toEqual({ listChanged: true });
      await client.callTool({ name: "grow", arguments: {} });
      expect(await lists(client)).toEqual([["grow", "shrink", "extra_tool"], ["dyn://extra"], ["extra_prompt"]]);
    } finally {
      await client.close();
    }
  });
});
