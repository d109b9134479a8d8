// typed-mcp over stdio: a child Node process (fixtures/stdio-server.mjs, importing the built dist)
// driven by the real @modelcontextprotocol/client, and by raw JSON-RPC lines for byte checks.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client, ProtocolError } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
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
  rawTool,
  until,
} from "./helpers.js";
import { RawSession } from "./stdio-session.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/stdio-server.mjs", import.meta.url));

/** A real client on a fresh child process; `stderr` collects the child's stderr. */
async function connect(options: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: "stdio-client", version: "0.0.2" }, options);
  await client.connect(transport);
  return { client, stderr };
}

describe("raw stdio bytes", () => {
  it("2025-11-25 with MCP Apps: the spec's listing bytes, _meta.ui and app-only tools", async () => {
    const s = new RawSession({ TMCP_APPS: "1" });
    try {
      const init = await s.initialize("2025-11-25", APPS_CAPABILITIES);
      expect(init.protocolVersion).toBe("2025-11-25");
      expect(init.capabilities.extensions).toEqual({ "io.modelcontextprotocol/ui": {} });
      const line = await s.request(1, "tools/list");
      expect(rawTool(line, "place_order")).toBe(PLACE_ORDER_FULL);
      expect(rawTool(line, "add")).toBe(ADD_FULL);
      expect(rawTool(line, "show_weather")).toBe(SHOW_WEATHER_APPS);
      expect(rawTool(line, "refresh_view")).toBe(REFRESH_VIEW_APPS);
      const call = await s.request(2, "tools/call", {
        name: "place_order",
        arguments: { items: [{ sku: "a", qty: 1 }] },
      });
      expect(JSON.stringify(JSON.parse(call).result)).toBe(
        '{"content":[{"type":"text","text":"{\\"id\\":\\"ord-1\\",\\"total\\":2.5}"}],"structuredContent":{"id":"ord-1","total":2.5}}',
      );
      expect(call).toContain(
        '"result":{"content":[{"type":"text","text":"{\\"id\\":\\"ord-1\\",\\"total\\":2.5}"}],"structuredContent":{"id":"ord-1","total":2.5}}',
      );
      const bad = await s.request(3, "tools/call", { name: "place_order", arguments: { items: "none" } });
      expect(bad).toContain(`"result":${invalid("items", "Expected an array, got a string.")}`);
    } finally {
      s.close();
    }
  });

  it("2025-11-25 without the extension: ordinary tools only", async () => {
    const s = new RawSession({ TMCP_APPS: "1" });
    try {
      await s.initialize("2025-11-25");
      const line = await s.request(1, "tools/list");
      expect(rawTool(line, "show_weather")).toBe(SHOW_WEATHER_PLAIN);
      expect(rawTool(line, "refresh_view")).toBeUndefined();
    } finally {
      s.close();
    }
  });

  it("2025-03-26 (negotiated by initialize): no outputSchema, no structuredContent", async () => {
    const s = new RawSession();
    try {
      expect((await s.initialize("2025-03-26")).protocolVersion).toBe("2025-03-26");
      expect(rawTool(await s.request(1, "tools/list"), "place_order")).toBe(PLACE_ORDER_2025_03_26);
      const call = await s.request(2, "tools/call", {
        name: "place_order",
        arguments: { items: [{ sku: "a", qty: 1 }] },
      });
      expect(JSON.stringify(JSON.parse(call).result)).toBe(
        '{"content":[{"type":"text","text":"{\\"id\\":\\"ord-1\\",\\"total\\":2.5}"}]}',
      );
    } finally {
      s.close();
    }
  });

  it("RequestContext.progress sends notifications/progress before the result, only when the client gave a token", async () => {
    // (Raw lines: the official client dispatches notifications a microtask late and drops a
    // progress notification that arrives in the same chunk as its response.)
    const s = new RawSession();
    try {
      await s.initialize("2025-11-25");
      await s.request(1, "tools/call", {
        name: "place_order",
        arguments: { items: [] },
        _meta: { progressToken: "tok-1" },
      });
      const progress = s.lines.filter((l) => l.includes('"notifications/progress"'));
      expect(progress.map((l) => JSON.parse(l).params)).toEqual([
        { progressToken: "tok-1", progress: 1, total: 2, message: "priced" },
      ]);
      expect(s.lines.indexOf(progress[0]!)).toBeLessThan(s.lines.findIndex((l) => JSON.parse(l).id === 1));
      await s.request(2, "tools/call", { name: "place_order", arguments: { items: [] } });
      expect(s.lines.filter((l) => l.includes('"notifications/progress"'))).toHaveLength(1);
    } finally {
      s.close();
    }
  });

  it("2024-11-05: no annotations either", async () => {
    const s = new RawSession();
    try {
      expect((await s.initialize("2024-11-05")).protocolVersion).toBe("2024-11-05");
      expect(rawTool(await s.request(1, "tools/list"), "place_order")).toBe(PLACE_ORDER_2024_11_05);
    } finally {
      s.close();
    }
  });
});

describe("the real client over stdio", () => {
  it("lists and calls tools; errors are spec §5/§7 texts; the failure is published and reported in the child", async () => {
    const { client, stderr } = await connect();
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(ORDER_TOOL_NAMES);
      expect(JSON.parse(JSON.stringify(tools[0]))).toEqual(JSON.parse(PLACE_ORDER_FULL));

      const ok = await client.callTool({ name: "place_order", arguments: { items: [{ sku: "a", qty: 3 }] } });
      expect(ok.structuredContent).toEqual({ id: "ord-1", total: 7.5 });
      expect((await client.callTool({ name: "whoami" })).content).toEqual([
        { type: "text", text: "2025-11-25 stdio-client number" },
      ]);
      expect((await client.callTool({ name: "version" })).content).toEqual([{ type: "text", text: "1.0" }]);

      const bad = await client.callTool({ name: "add", arguments: { a: "1", b: 2 } });
      expect(JSON.stringify({ content: bad.content, isError: bad.isError })).toBe(
        invalid("a", "Expected a number, got a string."),
      );

      const refused = await client.callTool({ name: "refuse" });
      expect(JSON.stringify({ content: refused.content, isError: refused.isError })).toBe(
        '{"content":[{"type":"text","text":"No such order."}],"isError":true}',
      );

      const failed = await client.callTool({ name: "explode" });
      expect(JSON.stringify({ content: failed.content, isError: failed.isError })).toBe(FAILED);
      await until(() => stderr.join("").includes("onToolError explode: secret internal detail"));
      expect(stderr.join("")).toContain("published explode: secret internal detail");

      const error = await client.callTool({ name: "missing" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
    } finally {
      await client.close();
    }
  });

  it("notifications/cancelled aborts the tool's signal", async () => {
    const { client, stderr } = await connect();
    try {
      const controller = new AbortController();
      const pending = client
        .callTool({ name: "wait_for_abort" }, { signal: controller.signal })
        .catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 200));
      expect(stderr.join("")).not.toContain("aborted");
      controller.abort("user cancelled");
      await pending;
      await until(() => stderr.join("").includes("aborted "));
    } finally {
      await client.close();
    }
  });

  it("requestTimeoutMs aborts the signal and answers 'The tool timed out.'", async () => {
    const { client, stderr } = await connect({}, { TMCP_TIMEOUT_MS: "150" });
    try {
      const result = await client.callTool({ name: "wait_for_abort" });
      expect(JSON.stringify({ content: result.content, isError: result.isError })).toBe(TIMED_OUT);
      await until(() => stderr.join("").includes("aborted TimeoutError"));
    } finally {
      await client.close();
    }
  });

  it("MCP Apps gating with two clients", async () => {
    const apps = await connect({ capabilities: APPS_CAPABILITIES }, { TMCP_APPS: "1" });
    const plain = await connect({}, { TMCP_APPS: "1" });
    try {
      expect(apps.client.getServerCapabilities()?.extensions).toEqual({ "io.modelcontextprotocol/ui": {} });
      const appsTools = (await apps.client.listTools()).tools;
      const plainTools = (await plain.client.listTools()).tools;
      expect(appsTools.map((t) => t.name)).toEqual([...ORDER_TOOL_NAMES, "show_weather", "refresh_view"]);
      expect(plainTools.map((t) => t.name)).toEqual([...ORDER_TOOL_NAMES, "show_weather"]);
      expect(appsTools.find((t) => t.name === "show_weather")?._meta).toEqual({
        ui: { resourceUri: "ui://weather/view" },
      });
      expect(plainTools.find((t) => t.name === "show_weather")?._meta).toBeUndefined();
    } finally {
      await apps.client.close();
      await plain.client.close();
    }
  });

  it("a 2026-07-28 client over stdio", async () => {
    const { client } = await connect(
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: APPS_CAPABILITIES },
      { TMCP_APPS: "1" },
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(JSON.parse(JSON.stringify(tools.find((t) => t.name === "place_order")))).toEqual(
        JSON.parse(PLACE_ORDER_FULL),
      );
      expect(tools.map((t) => t.name)).toContain("refresh_view");
      expect((await client.callTool({ name: "whoami" })).content).toEqual([
        { type: "text", text: "2026-07-28 stdio-client number" },
      ]);
    } finally {
      await client.close();
    }
  });
});
