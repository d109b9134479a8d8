// JSON-RPC batches (a JSON array body, JSON-RPC 2.0 §6) over real HTTP (serveHttp on 127.0.0.1)
// and server.fetch (docs/security.md "JSON-RPC batches"). MCP 2025-03-26 "Batching" is the only
// revision with batches; 2025-06-18's changelog removed them ("Remove support for JSON-RPC
// batching"), so on 2025-06-18, 2025-11-25 and 2026-07-28 a batch is HTTP 400 with -32600 Invalid
// Request, id null (JSON-RPC 2.0 §5.1), and none of its requests runs. Without MCP-Protocol-Version
// the server assumes 2025-03-26 (Streamable HTTP, "Protocol Version Header") and serves it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import * as __tmcp from "../../packages/typed-mcp/dist/internal.js";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import { messagesOf } from "./helpers.js";

const REFUSED = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32600, message: "JSON-RPC batches are not supported on MCP 2025-06-18 and later." },
};

/** server.tool("record", (note: string) => { calls.push(note); return "ok"; }) as the plugin generates it. */
function recordingServer(calls: string[]): McpServer {
  const server = new McpServer({ name: "batches", version: "1.0.0" });
  server.tool(
    "record",
    // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
    (note: string) => (calls.push(note), "ok"),
    __tmcp.generated({
      listing: {
        name: "record",
        inputSchema: {
          type: "object",
          properties: { note: { type: "string" } },
          required: ["note"],
          additionalProperties: false,
        },
      },
      read: (args: any) =>
        typeof args?.note === "string" ? [args.note] : __tmcp.invalid("note", "Expected a string."),
      write: (value: string) => ({ content: [{ type: "text", text: value }] }),
    }) as never,
  );
  return server;
}

const batch = (note: string) =>
  JSON.stringify([
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "record", arguments: { note } } },
    { jsonrpc: "2.0", id: 2, method: "ping" },
  ]);
const init = (version: string | undefined, body: string): RequestInit => ({
  method: "POST",
  headers: {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(version !== undefined && { "mcp-protocol-version": version }),
  },
  body,
});

describe("JSON-RPC batches over serveHttp", () => {
  const calls: string[] = [];
  let http: Awaited<ReturnType<typeof serveHttp>>;
  beforeAll(async () => {
    http = await serveHttp(recordingServer(calls), { port: 0 });
  });
  afterAll(async () => {
    await http.close();
  });

  it.each(["2025-06-18", "2025-11-25", "2026-07-28"])(
    "refuses a batch on %s: HTTP 400, -32600, id null; no request in it runs",
    async (version) => {
      const response = await fetch(http.url, init(version, batch(version)));
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(REFUSED);
      expect(calls).not.toContain(version);
    },
  );

  it("refuses a batch on 2024-11-05 (no batches there either), naming that revision", async () => {
    const response = await fetch(http.url, init("2024-11-05", batch("2024-11-05")));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "JSON-RPC batches are not supported on MCP 2024-11-05." },
    });
    expect(calls).not.toContain("2024-11-05");
  });

  it.each([["2025-03-26"], [undefined]])(
    "serves a batch on %s (no header: 2025-03-26 assumed), one answer per request",
    async (version) => {
      const note = `served-${version ?? "no-header"}`;
      const response = await fetch(http.url, init(version, batch(note)));
      expect(response.status).toBe(200);
      const answers = messagesOf(await response.text()).sort((a, b) => a.id - b.id);
      expect(answers).toEqual([
        { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ok" }] } },
        { jsonrpc: "2.0", id: 2, result: {} },
      ]);
      expect(calls).toContain(note);
    },
  );

  it("a single message on 2025-11-25 is served as before", async () => {
    const response = await fetch(
      http.url,
      init("2025-11-25", JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" })),
    );
    expect(response.status).toBe(200);
    expect(messagesOf(await response.text())).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
  });

  it("an unknown MCP-Protocol-Version keeps the SDK's own 400 (unsupported version), not the batch error", async () => {
    const response = await fetch(http.url, init("1999-01-01", batch("bogus")));
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/^Bad Request: Unsupported protocol version: 1999-01-01/);
  });
});

describe("JSON-RPC batches through server.fetch (web-standard handler), body read ahead or given as parsedBody", () => {
  it("refuses on 2025-11-25 either way, and serves on 2025-03-26", async () => {
    const calls: string[] = [];
    const server = recordingServer(calls);
    const read = await server.fetch(new Request("http://127.0.0.1/mcp", init("2025-11-25", batch("a"))));
    expect([read.status, await read.json()]).toEqual([400, REFUSED]);
    const given = await server.fetch(new Request("http://127.0.0.1/mcp", init("2025-11-25", "")), {
      parsedBody: JSON.parse(batch("b")),
    });
    expect([given.status, await given.json()]).toEqual([400, REFUSED]);
    const served = await server.fetch(new Request("http://127.0.0.1/mcp", init("2025-03-26", batch("c"))));
    expect(served.status).toBe(200);
    expect(
      messagesOf(await served.text())
        .map((m) => m.id)
        .sort(),
    ).toEqual([1, 2]);
    expect(calls).toEqual(["c"]);
  });
});
