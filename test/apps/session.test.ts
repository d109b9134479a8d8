// MCP Apps gating over stateless HTTP (spec §9, docs/apps.md "Stateless HTTP"): a 2025-era client
// over HTTP gets the same gating as a 2026-07-28 client and as over stdio, although the SDK's
// stateless legacy fallback serves every request with a fresh server. The negotiated state travels
// in the Mcp-Session-Id the server answers `initialize` with, which the Streamable HTTP transport
// makes clients send back. Expected listings are the hand-written strings of test/runtime/helpers.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import type { HttpServerHandle } from "../../packages/typed-mcp/dist/node.js";
import { createServer } from "../runtime/fixtures/tools.mjs";
import {
  APPS_CAPABILITIES,
  ORDER_TOOL_NAMES,
  PLACE_ORDER_2024_11_05,
  PLACE_ORDER_FULL,
  REFRESH_VIEW_APPS,
  SHOW_WEATHER_APPS,
  SHOW_WEATHER_PLAIN,
  messagesOf,
  rawTool,
} from "../runtime/helpers.js";

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

let http: HttpServerHandle;

beforeAll(async () => {
  const server = createServer({ apps: true });
  server.addUiResource("ui://weather/view", "<!doctype html><title>weather</title>");
  http = await serveHttp(server, { port: 0, hostname: "127.0.0.1" });
});
afterAll(async () => {
  await http?.close();
});

interface Exchange {
  method: string;
  sessionIdSent: string | null;
  status: number;
  sessionIdReceived: string | null;
  body: string;
}

/** A real client whose HTTP exchanges (request Mcp-Session-Id, response header and body) are recorded. */
async function connect(name: string, options: Record<string, unknown>) {
  const exchanges: Exchange[] = [];
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    const method = init?.method ?? "GET";
    exchanges.push({
      method,
      sessionIdSent: new Headers(init?.headers).get("mcp-session-id"),
      status: response.status,
      sessionIdReceived: response.headers.get("mcp-session-id"),
      body: method === "POST" ? await response.clone().text() : "",
    });
    return response;
  };
  const client = new Client({ name, version: "1.0.0" }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { fetch: recordingFetch }));
  return { client, exchanges };
}

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(http.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

const initialize = (protocolVersion: string, capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion, capabilities, clientInfo: { name: "raw", version: "0.1" } },
});
const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };

describe("the same MCP Apps gating for every client over HTTP (spec §9)", () => {
  const cases = [
    { label: "2025-11-25 client (stateless legacy HTTP)", options: {}, revision: "2025-11-25" },
    { label: "2026-07-28 client", options: MODERN, revision: "2026-07-28" },
  ];
  for (const { label, options, revision } of cases) {
    it(`${label} with the extension sees _meta.ui and the app-only tool; without it, an ordinary listing`, async () => {
      const apps = await connect("apps-client", { ...options, capabilities: APPS_CAPABILITIES });
      const plain = await connect("plain-client", options);
      try {
        expect(apps.client.getNegotiatedProtocolVersion()).toBe(revision);
        expect(apps.client.getServerCapabilities()?.extensions).toEqual({ "io.modelcontextprotocol/ui": {} });
        const appsTools = (await apps.client.listTools()).tools.map((t) => t.name);
        const plainTools = (await plain.client.listTools()).tools.map((t) => t.name);
        expect(appsTools).toEqual([...ORDER_TOOL_NAMES, "show_weather", "refresh_view"]);
        expect(plainTools).toEqual([...ORDER_TOOL_NAMES, "show_weather"]);

        const appsBody = apps.exchanges.find((e) => e.body.includes('"tools":['))!.body;
        const plainBody = plain.exchanges.find((e) => e.body.includes('"tools":['))!.body;
        expect(rawTool(appsBody, "show_weather")).toBe(SHOW_WEATHER_APPS);
        expect(rawTool(appsBody, "refresh_view")).toBe(REFRESH_VIEW_APPS);
        expect(rawTool(appsBody, "place_order")).toBe(PLACE_ORDER_FULL);
        expect(rawTool(plainBody, "show_weather")).toBe(SHOW_WEATHER_PLAIN);
        expect(rawTool(plainBody, "refresh_view")).toBeUndefined();

        // clientInfo reaches tools (RequestContext.clientInfo) on either era.
        expect((await apps.client.callTool({ name: "whoami" })).content).toEqual([
          { type: "text", text: `${revision} apps-client number` },
        ]);
        expect((await plain.client.callTool({ name: "whoami" })).content).toEqual([
          { type: "text", text: `${revision} plain-client number` },
        ]);
      } finally {
        await apps.client.close();
        await plain.client.close();
      }
    });
  }
});

describe("Mcp-Session-Id on stateless legacy HTTP (docs/apps.md)", () => {
  it("answers initialize with a small visible-ASCII id that the client sends on every later request", async () => {
    const { client, exchanges } = await connect("apps-client", { capabilities: APPS_CAPABILITIES });
    try {
      await client.listTools();
      const init = exchanges.find((e) => e.body.includes('"protocolVersion"'))!;
      const id = init.sessionIdReceived;
      expect(id).toMatch(/^[\x21-\x7e]+$/);
      expect(id!.length).toBeLessThan(512);
      expect(init.sessionIdSent).toBeNull();
      const later = exchanges.slice(exchanges.indexOf(init) + 1).filter((e) => e.method === "POST");
      expect(later.length).toBeGreaterThanOrEqual(2); // notifications/initialized and tools/list
      for (const e of later) expect(e.sessionIdSent).toBe(id);
    } finally {
      await client.close();
    }
  });

  it("gives every initialize its own id", async () => {
    const a = (await post(initialize("2025-11-25"))).headers.get("mcp-session-id");
    const b = (await post(initialize("2025-11-25"))).headers.get("mcp-session-id");
    expect(a).toBeTruthy();
    expect(b).toBeTruthy();
    expect(a).not.toBe(b);
  });

  it("a 2025-03-26 client sends no MCP-Protocol-Version header: the id still carries its revision", async () => {
    // 2024-11-05 has no annotations (spec §6); without the id the request would be read as 2025-03-26.
    const id = (await post(initialize("2024-11-05"))).headers.get("mcp-session-id")!;
    const body = await (await post(list, { "mcp-session-id": id })).text();
    expect(rawTool(body, "place_order")).toBe(PLACE_ORDER_2024_11_05);
    const withoutId = await (await post(list)).text();
    expect(rawTool(withoutId, "place_order")).not.toBe(PLACE_ORDER_2024_11_05);
  });

  it("large capabilities are reduced to the MCP Apps entry, keeping the id small and the gating", async () => {
    const capabilities = { ...APPS_CAPABILITIES, experimental: { blob: { text: "x".repeat(10_000) } } };
    const id = (await post(initialize("2025-11-25", capabilities))).headers.get("mcp-session-id")!;
    expect(id.length).toBeLessThan(512);
    const body = await (await post(list, { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" })).text();
    expect(rawTool(body, "refresh_view")).toBe(REFRESH_VIEW_APPS);
  });

  it("a foreign, malformed or edited id is ignored, never rejected: an ordinary listing", async () => {
    const good = (await post(initialize("2025-11-25", APPS_CAPABILITIES))).headers.get("mcp-session-id")!;
    const [prefix, payload] = [good.slice(0, good.indexOf(".") + 1), good.slice(good.indexOf(".") + 1)];
    const unknownRevision =
      prefix + Buffer.from(JSON.stringify({ v: "1999-01-01", c: APPS_CAPABILITIES })).toString("base64url");
    for (const id of [
      "3f1c1f6e-8d2b-4c1e-9a7e-0b1d2c3e4f50",
      "tmcp1.",
      "tmcp1.!!!",
      prefix + payload.slice(0, -7),
      unknownRevision,
    ]) {
      const response = await post(list, { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" });
      expect(response.status, id).toBe(200);
      const body = await response.text();
      expect(messagesOf(body)[0]!.result, id).toBeDefined();
      expect(rawTool(body, "show_weather"), id).toBe(SHOW_WEATHER_PLAIN);
      expect(rawTool(body, "refresh_view"), id).toBeUndefined();
    }
  });

  it("no id is added to other responses, or for a 2026-07-28 client", async () => {
    expect((await post(list, { "mcp-protocol-version": "2025-11-25" })).headers.get("mcp-session-id")).toBeNull();
    const { client, exchanges } = await connect("modern", MODERN);
    try {
      await client.listTools();
      expect(exchanges.every((e) => e.sessionIdReceived === null && e.sessionIdSent === null)).toBe(true);
    } finally {
      await client.close();
    }
  });
});
