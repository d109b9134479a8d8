// server.addUiResource (spec §9; MCP Apps extension "UI Resource Format"): registration rules,
// the resources/list entry (spec §8 key order), resources/read contents, and the warning for a tool
// whose uiResource names no resource. Raw JSON-RPC through server.fetch (2025-11-25, stateless).
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import { createServer } from "../runtime/fixtures/tools.mjs";
import { messagesOf } from "../runtime/helpers.js";
import { rpcRequest } from "../helpers/raw-http.ts";

const MIME = "text/html;profile=mcp-app";
const HTML = "<!doctype html><html><body>view</body></html>";

async function rpc(server: { fetch(r: Request): Promise<Response> }, method: string, params?: unknown) {
  const response = await server.fetch(
    rpcRequest(
      { jsonrpc: "2.0", id: 1, method, ...(params !== undefined && { params }) },
      { url: "http://localhost/mcp" },
    ),
  );
  const text = await response.text();
  return { text, message: messagesOf(text).find((m) => m.id === 1)! };
}

/** The raw JSON text of the `resources` array of a resources/list body (key order as sent). */
function rawResources(body: string): string {
  return JSON.stringify(messagesOf(body)[0]!.result.resources);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("server.addUiResource", () => {
  it("lists the resource with uri, name, title, description, mimeType, _meta in that order (spec §8, §9)", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.addUiResource("ui://weather/view", HTML, {
      name: "weather_view",
      title: "Weather",
      description: "The weather as a card.",
      _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: true } },
    });
    server.addUiResource("ui://bare", HTML);
    const { text } = await rpc(server, "resources/list");
    expect(rawResources(text)).toBe(
      '[{"uri":"ui://weather/view","name":"weather_view","title":"Weather","description":"The weather as a card.","mimeType":"text/html;profile=mcp-app",' +
        '"_meta":{"ui":{"csp":{"connectDomains":["https://api.example.com"]},"prefersBorder":true}}},' +
        '{"uri":"ui://bare","name":"ui://bare","mimeType":"text/html;profile=mcp-app"}]',
    );
  });

  it("reads as one text contents with the MIME type and the resource's _meta (MCP Apps: hosts read _meta.ui there)", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const meta = {
      ui: {
        csp: { resourceDomains: ["https://cdn.example.com"] },
        permissions: { clipboardWrite: {} },
        domain: "x.example",
        prefersBorder: false,
      },
    };
    server.addUiResource("ui://a", HTML, { _meta: meta });
    server.addUiResource("ui://b", HTML);
    expect((await rpc(server, "resources/read", { uri: "ui://a" })).message.result).toEqual({
      contents: [{ uri: "ui://a", mimeType: MIME, text: HTML, _meta: meta }],
    });
    expect(JSON.stringify((await rpc(server, "resources/read", { uri: "ui://b" })).message.result)).toBe(
      `{"contents":[{"uri":"ui://b","mimeType":"text/html;profile=mcp-app","text":${JSON.stringify(HTML)}}]}`,
    );
  });

  it("calls a function (sync or async) on every read; a non-string or a throw is -32603 'The resource failed.'", async () => {
    const server = new McpServer({ name: "s", version: "1", onToolError: () => {} });
    let n = 0;
    server.addUiResource("ui://sync", () => `<p>${++n}</p>`);
    server.addUiResource("ui://async", async () => "<p>async</p>");
    server.addUiResource("ui://bad", (() => 42) as unknown as () => string);
    server.addUiResource("ui://throws", () => {
      throw new Error("secret");
    });
    expect((await rpc(server, "resources/read", { uri: "ui://sync" })).message.result.contents[0].text).toBe(
      "<p>1</p>",
    );
    expect((await rpc(server, "resources/read", { uri: "ui://sync" })).message.result.contents[0].text).toBe(
      "<p>2</p>",
    );
    expect((await rpc(server, "resources/read", { uri: "ui://async" })).message.result.contents[0].text).toBe(
      "<p>async</p>",
    );
    for (const uri of ["ui://bad", "ui://throws"]) {
      const { message, text } = await rpc(server, "resources/read", { uri });
      expect(message.error).toMatchObject({ code: -32603, message: "The resource failed." });
      expect(text).not.toContain("secret");
    }
  });

  it("advertises the resources capability", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.addUiResource("ui://v", HTML);
    const { message } = await rpc(server, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    });
    // `subscribe`: every server with resources accepts resources/subscribe (docs/resources.md, Subscriptions).
    expect(message.result.capabilities.resources).toEqual({ subscribe: true });
  });

  it("refuses a URI that is not ui://, naming it; a wrong HTML type; a duplicate URI naming both registrations", () => {
    const server = new McpServer({ name: "s", version: "1" });
    for (const uri of ["https://x/view", "memory://graph", "ui:/x", "ui://", "UI://x"]) {
      expect(() => server.addUiResource(uri as `ui://${string}`, HTML)).toThrow(
        `server.addUiResource(${JSON.stringify(uri)}, …): an MCP Apps UI resource URI must start with "ui://"`,
      );
    }
    expect(() => server.addUiResource("ui://x", 42 as unknown as string)).toThrow(TypeError);
    expect(() => server.addUiResource("ui://x", HTML, { title: 1 as unknown as string })).toThrow(
      "option title must be a string",
    );
    server.addUiResource("ui://x", HTML);
    expect(() => server.addUiResource("ui://x", HTML)).toThrow(
      'two resources have the URI "ui://x" on this server: server.addUiResource("ui://x") and server.addUiResource("ui://x")',
    );
  });
});

describe("a tool's uiResource must name a registered resource (MCP Apps: 'Resource MUST exist on the server')", () => {
  it("warns once per tool when serving starts and the resource is missing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const server = createServer({ apps: true });
    await rpc(server, "tools/list");
    await rpc(server, "tools/list");
    const messages = warn.mock.calls.map((c) => String(c[0]));
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain(
      'tool "show_weather" renders its results with "ui://weather/view" (uiResource), but no resource with that URI is registered',
    );
    expect(messages[1]).toContain('tool "refresh_view"');
  });

  it("says nothing when it is registered (before or after the tools)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const server = createServer({ apps: true });
    server.addUiResource("ui://weather/view", HTML);
    await rpc(server, "tools/list");
    expect(warn).not.toHaveBeenCalled();
  });
});
