// typed-mcp over Streamable HTTP: serveHttp on 127.0.0.1 (port 0) driven by the real
// @modelcontextprotocol/client, plus raw JSON-RPC POSTs for byte checks and old revisions.
import diagnostics_channel from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import type { HttpServerHandle } from "../../packages/typed-mcp/dist/node.js";
import { createServer, state } from "./fixtures/tools.mjs";
import {
  ADD_FULL,
  APPS_CAPABILITIES,
  FAILED,
  ORDER_TOOL_NAMES,
  PLACE_ORDER_2024_11_05,
  PLACE_ORDER_2025_03_26,
  PLACE_ORDER_FULL,
  REFRESH_VIEW_APPS,
  SHOW_WEATHER_APPS,
  SHOW_WEATHER_PLAIN,
  TIMED_OUT,
  invalid,
  messagesOf,
  rawTool,
  until,
} from "./helpers.js";

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

let http: HttpServerHandle;
let slowHttp: HttpServerHandle;
const toolErrors: Array<{ error: unknown; tool: string }> = [];
const published: Array<{ tool: string; error: unknown }> = [];
const onPublish = (message: unknown) => published.push(message as { tool: string; error: unknown });

beforeAll(async () => {
  diagnostics_channel.subscribe("typed-mcp:tool-error", onPublish);
  http = await serveHttp(
    createServer({
      apps: true,
      onToolError: (error: unknown, info: { tool: string }) => toolErrors.push({ error, ...info }),
    }),
    { port: 0, hostname: "127.0.0.1" },
  );
  slowHttp = await serveHttp(createServer({ requestTimeoutMs: 150 }), { port: 0 });
});
afterAll(async () => {
  diagnostics_channel.unsubscribe("typed-mcp:tool-error", onPublish);
  await http?.close();
  await slowHttp?.close();
});

/** A connected client whose raw HTTP response bodies are recorded in `bodies`. */
async function connect(url: URL, options: Record<string, unknown> = {}) {
  const bodies: string[] = [];
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    if ((init?.method ?? "GET") === "POST") bodies.push(await response.clone().text());
    return response;
  };
  const client = new Client({ name: "vitest-client", version: "0.0.1" }, options);
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: recordingFetch }));
  return { client, bodies };
}

/** One raw JSON-RPC POST; returns the body text. */
async function post(url: URL, body: unknown, protocolVersion?: string): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(protocolVersion !== undefined && { "mcp-protocol-version": protocolVersion }),
    },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe("serveHttp", () => {
  it("binds 127.0.0.1 on a free port and reports it", () => {
    expect(http.hostname).toBe("127.0.0.1");
    expect(http.port).toBeGreaterThan(0);
    expect(http.url.href).toBe(`http://127.0.0.1:${http.port}/mcp`);
  });
});

for (const era of ["2025-11-25 (legacy client)", "2026-07-28 (modern client)"] as const) {
  const options = era.startsWith("2026") ? MODERN : {};
  describe(`tools over HTTP, ${era}`, () => {
    it("negotiates the revision", async () => {
      const { client } = await connect(http.url, options);
      expect(client.getNegotiatedProtocolVersion()).toBe(era.slice(0, 10));
      await client.close();
    });

    it("lists tools with the spec's bytes (key order survives the SDK)", async () => {
      const { client, bodies } = await connect(http.url, options);
      const { tools } = await client.listTools();
      const listBody = bodies.find((b) => b.includes('"tools":['));
      expect(listBody).toBeDefined();
      expect(rawTool(listBody!, "place_order")).toBe(PLACE_ORDER_FULL);
      expect(rawTool(listBody!, "add")).toBe(ADD_FULL);
      const names = tools.map((t) => t.name);
      expect(names.slice(0, ORDER_TOOL_NAMES.length)).toEqual(ORDER_TOOL_NAMES);
      expect(JSON.parse(JSON.stringify(tools.find((t) => t.name === "place_order")))).toEqual(
        JSON.parse(PLACE_ORDER_FULL),
      );
      await client.close();
    });

    it("calls a tool: structuredContent plus the same JSON as text (spec §6), extra properties dropped", async () => {
      const { client, bodies } = await connect(http.url, options);
      const result = await client.callTool({
        name: "place_order",
        arguments: {
          items: [
            { sku: "a", qty: 2 },
            { sku: "b", qty: 1 },
          ],
          rush: true,
        },
      });
      expect(result.structuredContent).toEqual({ id: "ord-2", total: 17.5 });
      expect(result.content).toEqual([{ type: "text", text: '{"id":"ord-2","total":17.5}' }]);
      expect(result.isError).toBeFalsy();
      const raw = messagesOf(bodies.at(-1)!).find((m) => "result" in m)!.result;
      expect(raw.structuredContent).toEqual({ id: "ord-2", total: 17.5 });
      await client.close();
    });

    it("calls the static tool, the quick-path tool and passes the RequestContext", async () => {
      const { client } = await connect(http.url, options);
      expect((await client.callTool({ name: "version" })).content).toEqual([{ type: "text", text: "1.0" }]);
      expect((await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).content).toEqual([
        { type: "text", text: "3" },
      ]);
      const who = await client.callTool({ name: "whoami" });
      // Both eras know the client: a stateless 2025-era HTTP request through the Mcp-Session-Id its `initialize` got (docs/apps.md).
      expect(who.content).toEqual([{ type: "text", text: `${era.slice(0, 10)} vitest-client number` }]);
      await client.close();
    });

    it("answers an invalid argument with the exact text of spec §5", async () => {
      const { client, bodies } = await connect(http.url, options);
      const result = await client.callTool({
        name: "place_order",
        arguments: {
          items: [
            { sku: "a", qty: 1 },
            { sku: "b", qty: 0 },
          ],
        },
      });
      expect(JSON.stringify({ content: result.content, isError: result.isError })).toBe(
        invalid("items[1].qty", "Expected an integer of at least 1."),
      );
      const raw = messagesOf(bodies.at(-1)!).find((m) => "result" in m)!.result;
      expect(JSON.stringify({ content: raw.content, isError: raw.isError })).toBe(
        invalid("items[1].qty", "Expected an integer of at least 1."),
      );
      expect(raw.structuredContent).toBeUndefined();
      // Absent arguments mean {}; unknown arguments only after all parameters pass.
      const missing = await client.callTool({ name: "place_order" });
      expect(JSON.stringify({ content: missing.content, isError: missing.isError })).toBe(
        invalid("items", "It is required."),
      );
      const unknown = await client.callTool({ name: "add", arguments: { a: 1, b: 2, c: 3 } });
      expect(JSON.stringify({ content: unknown.content, isError: unknown.isError })).toBe(
        invalid("c", "It is not a parameter of this tool."),
      );
      await client.close();
    });

    it("answers an unknown tool with JSON-RPC -32602", async () => {
      const { client } = await connect(http.url, options);
      const error = await client.callTool({ name: "no_such_tool" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
      expect((error as ProtocolError).message).toContain("Tool no_such_tool not found");
      await client.close();
    });

    it("answers ToolError with its message, and other exceptions with 'The tool failed.' (published, reported, never sent)", async () => {
      const { client, bodies } = await connect(http.url, options);
      const refused = await client.callTool({ name: "refuse" });
      expect(JSON.stringify({ content: refused.content, isError: refused.isError })).toBe(
        '{"content":[{"type":"text","text":"No such order."}],"isError":true}',
      );
      expect(toolErrors.filter((e) => e.tool === "refuse")).toEqual([]);

      const before = { reported: toolErrors.length, published: published.length };
      const failed = await client.callTool({ name: "explode" });
      expect(JSON.stringify({ content: failed.content, isError: failed.isError })).toBe(FAILED);
      expect(bodies.join("")).not.toContain("secret internal detail");
      expect(toolErrors.length).toBe(before.reported + 1);
      expect(toolErrors.at(-1)!.tool).toBe("explode");
      expect((toolErrors.at(-1)!.error as Error).message).toBe("secret internal detail");
      expect(published.length).toBe(before.published + 1);
      expect(published.at(-1)!.tool).toBe("explode");
      expect((published.at(-1)!.error as Error).message).toBe("secret internal detail");
      await client.close();
    });

    it("times out: aborts the tool's signal and answers 'The tool timed out.'", async () => {
      const { client } = await connect(slowHttp.url, options);
      const count = state.aborted.length;
      const started = Date.now();
      const result = await client.callTool({ name: "wait_for_abort" });
      expect(JSON.stringify({ content: result.content, isError: result.isError })).toBe(TIMED_OUT);
      expect(Date.now() - started).toBeLessThan(5000);
      await until(() => state.aborted.length > count);
      expect(state.aborted.slice(count)).toEqual(["TimeoutError"]);
      await client.close();
    });
  });
}

describe("cancellation over HTTP", () => {
  it("a 2026-07-28 client that abandons a call aborts the tool's signal", async () => {
    const { client } = await connect(http.url, MODERN);
    const count = state.aborted.length;
    const controller = new AbortController();
    const pending = client.callTool({ name: "wait_for_abort" }, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    expect(state.aborted.length).toBe(count);
    controller.abort("user cancelled");
    await pending;
    await until(() => state.aborted.length > count);
    await client.close();
  });
});

describe("MCP Apps gating over HTTP (2026-07-28 clients carry their capabilities on every request)", () => {
  it("advertises the extension and shows _meta.ui and app-only tools only to a client that negotiated it", async () => {
    const apps = await connect(http.url, { ...MODERN, capabilities: APPS_CAPABILITIES });
    const plain = await connect(http.url, MODERN);
    expect(apps.client.getServerCapabilities()?.extensions).toEqual({ "io.modelcontextprotocol/ui": {} });

    const appsTools = (await apps.client.listTools()).tools.map((t) => t.name);
    const plainTools = (await plain.client.listTools()).tools.map((t) => t.name);
    expect(appsTools).toEqual([...ORDER_TOOL_NAMES, "show_weather", "refresh_view"]);
    expect(plainTools).toEqual([...ORDER_TOOL_NAMES, "show_weather"]);

    const appsBody = apps.bodies.find((b) => b.includes('"tools":['))!;
    const plainBody = plain.bodies.find((b) => b.includes('"tools":['))!;
    expect(rawTool(appsBody, "show_weather")).toBe(SHOW_WEATHER_APPS);
    expect(rawTool(appsBody, "refresh_view")).toBe(REFRESH_VIEW_APPS);
    expect(rawTool(plainBody, "show_weather")).toBe(SHOW_WEATHER_PLAIN);
    expect(rawTool(plainBody, "refresh_view")).toBeUndefined();
    await apps.client.close();
    await plain.client.close();
  });

  it("a server without UI tools advertises no extension", async () => {
    const { client } = await connect(slowHttp.url, MODERN);
    expect(client.getServerCapabilities()?.extensions).toBeUndefined();
    await client.close();
  });
});

describe("older revisions over raw HTTP (stateless 2025-era requests)", () => {
  const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
  const call = {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "place_order", arguments: { items: [{ sku: "x", qty: 4 }] } },
  };

  it("2025-06-18 keeps outputSchema and structuredContent", async () => {
    expect(rawTool(await post(http.url, list, "2025-06-18"), "place_order")).toBe(PLACE_ORDER_FULL);
    const [response] = messagesOf(await post(http.url, call, "2025-06-18"));
    expect(JSON.stringify(response.result)).toBe(
      '{"content":[{"type":"text","text":"{\\"id\\":\\"ord-1\\",\\"total\\":10}"}],"structuredContent":{"id":"ord-1","total":10}}',
    );
  });

  it("2025-03-26 leaves out outputSchema and structuredContent", async () => {
    expect(rawTool(await post(http.url, list, "2025-03-26"), "place_order")).toBe(PLACE_ORDER_2025_03_26);
    const [response] = messagesOf(await post(http.url, call, "2025-03-26"));
    expect(JSON.stringify(response.result)).toBe(
      '{"content":[{"type":"text","text":"{\\"id\\":\\"ord-1\\",\\"total\\":10}"}]}',
    );
  });

  it("2024-11-05 also leaves out annotations", async () => {
    const body = await post(http.url, list, "2024-11-05");
    expect(rawTool(body, "place_order")).toBe(PLACE_ORDER_2024_11_05);
    expect(rawTool(body, "add")).toBe(
      '{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}}',
    );
    const [response] = messagesOf(await post(http.url, call, "2024-11-05"));
    expect(JSON.stringify(response.result)).toBe(
      '{"content":[{"type":"text","text":"{\\"id\\":\\"ord-1\\",\\"total\\":10}"}]}',
    );
  });

  it("an invalid argument on the raw wire is exactly spec §5's result", async () => {
    const bad = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "place_order", arguments: { items: [{ sku: "x", qty: 1.5 }] } },
    };
    const [response] = messagesOf(await post(http.url, bad, "2025-11-25"));
    expect(JSON.stringify(response.result)).toBe(invalid("items[0].qty", "Expected an integer."));
  });

  it("a stateless 2025-era client is not known to have negotiated MCP Apps: it sees ordinary tools", async () => {
    const body = await post(http.url, list, "2025-11-25");
    expect(rawTool(body, "show_weather")).toBe(SHOW_WEATHER_PLAIN);
    expect(rawTool(body, "refresh_view")).toBeUndefined();
  });

  it("an unknown tool on the raw wire is error -32602", async () => {
    const [response] = messagesOf(
      await post(http.url, { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "nope" } }, "2025-11-25"),
    );
    expect(response.error.code).toBe(-32602);
    expect(response.error.message).toBe("Tool nope not found");
  });
});
