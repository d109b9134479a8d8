// Paginated lists (docs/runtime.md "Paginated lists"; MCP "Pagination"): `McpServer({ pageSize })`
// pages tools/list, resources/list, resources/templates/list and prompts/list with opaque
// cursors; a cursor is a position in registration order, so an entry removed between pages is
// not listed and none is listed twice; an invalid cursor is -32602 (cut as every echo is). Driven
// with the official client over server.fetch (both revisions), over a lasting connection (the
// SDK server serveStdio builds, in memory) and over real stdio (fixtures/pages-stdio.mjs), at
// 10,000 tools too.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client, InMemoryTransport, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import { SDK_FACTORY } from "../../packages/typed-mcp/dist/server.js";
import * as internal from "../../packages/typed-mcp/dist/internal.js";
import { messagesOf } from "./helpers.js";
import { rpcRequest } from "../helpers/raw-http.ts";

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

/** A registered tool `name` as generated code describes it (no build plugin). */
function addTool(server: McpServer, name: string): void {
  const descriptor = internal.generated({
    listing: { name, inputSchema: { type: "object", properties: {}, additionalProperties: false } },
    read: () => [],
    write: (v) => ({ content: [{ type: "text", text: String(v) }] }),
  });
  // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
  server.tool(name, () => name, descriptor);
}

/** A class with `count` fixed resources `notes://<i>`, templates `notes://<i>/{id}` and prompts `prompt_<i>`. */
function catalog(count: number): object {
  const indexes = [...Array(count).keys()];
  class Catalog {
    static {
      internal.defineResources(this, [
        ...indexes.map((i) => ({
          listing: { uri: `notes://${i}`, name: `note_${i}` },
          read: () => [],
          write: (value: unknown, uri: string) => ({ contents: [{ uri, text: String(value) }] }),
          member: `note${i}`,
        })),
        ...indexes.map((i) => ({
          listing: { uriTemplate: `notes://${i}/{id}`, name: `notes_${i}` },
          read: () => [],
          write: (value: unknown, uri: string) => ({ contents: [{ uri, text: String(value) }] }),
          template: internal.uriTemplate,
          member: `notes${i}`,
        })),
      ] as never);
      internal.definePrompts(
        this,
        indexes.map((i) => ({
          listing: { name: `prompt_${i}` },
          read: () => [],
          write: (value: unknown) => ({ messages: [{ role: "user", content: { type: "text", text: String(value) } }] }),
          member: `prompt${i}`,
        })) as never,
      );
      // One method per descriptor (a class member is registered once).
      for (const member of indexes.flatMap((i) => [`note${i}`, `notes${i}`, `prompt${i}`]))
        (this.prototype as unknown as Record<string, () => string>)[member] = () => "text";
    }
  }
  return new Catalog();
}

/** A server with tools `t0`…`t<count-1>` (and `catalog(resources)`), paged by `pageSize`. */
function serverWith(count: number, pageSize: number | undefined, resources = 0, dynamic = false): McpServer {
  const server = new McpServer({ name: "pages", version: "1", dynamic, ...(pageSize !== undefined && { pageSize }) });
  for (let i = 0; i < count; i++) addTool(server, `t${i}`);
  if (resources > 0) server.add(catalog(resources));
  return server;
}

/** The official client on `server.fetch` (a stateless HTTP request per message). */
async function overHttp(server: McpServer, options: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: "pages", version: "1" }, options);
  const fetchImpl = (input: string | URL | Request, init?: RequestInit) => server.fetch(new Request(input, init));
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchImpl }));
  return client;
}

/** The official client on a lasting connection (the SDK server `serveStdio` builds, in memory). */
async function overConnection(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await (server as unknown as Record<symbol, () => { connect(t: unknown): Promise<void> }>)
    [SDK_FACTORY]()
    .connect(serverSide);
  const client = new Client({ name: "pages", version: "1" });
  await client.connect(clientSide);
  return client;
}

const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name);
const range = (prefix: string, from: number, to: number) =>
  [...Array(to - from).keys()].map((i) => `${prefix}${from + i}`);

/** One raw tools/list answer over server.fetch (2025-11-25). */
async function rawList(server: McpServer, method: string, params: unknown): Promise<Record<string, any>> {
  const response = await server.fetch(
    rpcRequest({ jsonrpc: "2.0", id: 7, method, params }, { url: "http://localhost/mcp" }),
  );
  return messagesOf(await response.text())[0]!;
}

describe("pageSize", () => {
  it("is a positive integer: anything else is a RangeError naming it", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "10"]) {
      expect(() => new McpServer({ name: "s", version: "1", pageSize: bad as never })).toThrow(RangeError);
      expect(() => new McpServer({ name: "s", version: "1", pageSize: bad as never })).toThrow(
        `pageSize must be a positive integer, got ${String(bad)}`,
      );
    }
    expect(() => new McpServer({ name: "s", version: "1", pageSize: 1 })).not.toThrow();
  });

  it("unset: every list is one page, without nextCursor", async () => {
    const server = serverWith(120, undefined, 70);
    for (const [method, key] of [
      ["tools/list", "tools"],
      ["resources/list", "resources"],
      ["resources/templates/list", "resourceTemplates"],
      ["prompts/list", "prompts"],
    ] as const) {
      const { result } = await rawList(server, method, {});
      expect(result[key]).toHaveLength(key === "tools" ? 120 : 70);
      expect(result.nextCursor).toBeUndefined();
    }
  });
});

describe("pages, with the official client", () => {
  for (const [label, open] of [
    ["HTTP 2025-11-25", (s: McpServer) => overHttp(s)],
    ["HTTP 2026-07-28", (s: McpServer) => overHttp(s, MODERN)],
    ["lasting connection", overConnection],
  ] as const) {
    it(`${label}: one page of pageSize entries and an opaque nextCursor; listTools() walks every page in order`, async () => {
      const server = serverWith(25, 10, 12);
      const client = await open(server);
      const first = await client.request({ method: "tools/list", params: {} });
      expect(names(first.tools)).toEqual(range("t", 0, 10));
      expect(typeof first.nextCursor).toBe("string");
      expect(first.nextCursor).not.toContain("t9");
      const second = await client.listTools({ cursor: first.nextCursor! });
      expect(names(second.tools)).toEqual(range("t", 10, 20));
      const third = await client.listTools({ cursor: second.nextCursor! });
      expect(names(third.tools)).toEqual(range("t", 20, 25));
      expect(third.nextCursor).toBeUndefined();

      expect(names((await client.listTools(undefined, { cacheMode: "bypass" })).tools)).toEqual(range("t", 0, 25));
      const resources = await client.listResources(undefined, { cacheMode: "bypass" });
      expect(resources.resources.map((r) => r.uri)).toEqual(range("notes://", 0, 12));
      const templates = await client.listResourceTemplates(undefined, { cacheMode: "bypass" });
      expect(templates.resourceTemplates.map((r) => r.uriTemplate)).toEqual(
        range("notes://", 0, 12).map((u) => `${u}/{id}`),
      );
      const prompts = await client.listPrompts(undefined, { cacheMode: "bypass" });
      expect(names(prompts.prompts)).toEqual(range("prompt_", 0, 12));
      const firstPrompts = await client.request({ method: "prompts/list", params: {} });
      const page = await client.listPrompts({ cursor: firstPrompts.nextCursor! });
      expect(names(page.prompts)).toEqual(range("prompt_", 10, 12));
      await client.close();
    });
  }

  it("a listing that changes between pages (dynamic: true): a removed entry is not listed, none twice, a new one comes last", async () => {
    const server = serverWith(10, 4, 0, true);
    const client = await overConnection(server);
    const first = await client.request({ method: "tools/list", params: {} });
    expect(names(first.tools)).toEqual(["t0", "t1", "t2", "t3"]);
    // The last listed entry and one not yet listed are removed; one is added.
    expect(server.removeTool("t3")).toBe(true);
    expect(server.removeTool("t5")).toBe(true);
    addTool(server, "late");
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(names(second.tools)).toEqual(["t4", "t6", "t7", "t8"]);
    // An entry already listed, removed and registered again, stands at the end now.
    expect(server.removeTool("t0")).toBe(true);
    addTool(server, "t0");
    const third = await client.listTools({ cursor: second.nextCursor! });
    expect(names(third.tools)).toEqual(["t9", "late", "t0"]);
    expect(third.nextCursor).toBeUndefined();
    await client.close();
  });

  it("10,000 tools: pages of 500, the official client's walk lists each once, in registration order", async () => {
    const server = serverWith(10_000, 500);
    const client = await overHttp(server);
    const started = performance.now();
    const { tools } = await client.listTools(undefined, { cacheMode: "bypass" });
    expect(names(tools)).toEqual(range("t", 0, 10_000));
    expect(performance.now() - started).toBeLessThan(20_000);
    await client.close();
  });
});

describe("over stdio (serveStdio in a child process)", () => {
  it("pages of 10 with the official client; a tool removed between pages is skipped; a bad cursor is -32602", async () => {
    const fixture = fileURLToPath(new URL("./fixtures/pages-stdio.mjs", import.meta.url));
    const client = new Client({ name: "pages", version: "1" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: "pipe" }));
    const first = await client.request({ method: "tools/list", params: {} });
    expect(names(first.tools)).toEqual(range("t", 0, 10));
    await client.callTool({ name: "drop", arguments: { name: "t10" } });
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(names(second.tools)).toEqual(range("t", 11, 21));
    const third = await client.listTools({ cursor: second.nextCursor! });
    expect(names(third.tools)).toEqual([...range("t", 21, 25), "drop"]);
    expect(third.nextCursor).toBeUndefined();
    const error = await client.listTools({ cursor: "t9" }).catch((e: unknown) => e);
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as ProtocolError).message).toContain("Invalid cursor: t9");
    await client.close();
  });
});

describe("an invalid cursor", () => {
  it("is -32602 Invalid cursor on every paged list, a cursor of another list too, the echo cut at 200", async () => {
    const server = serverWith(5, 2, 5);
    const toolsCursor = (await rawList(server, "tools/list", {})).result.nextCursor as string;
    const long = "x".repeat(100_000);
    for (const method of ["tools/list", "resources/list", "resources/templates/list", "prompts/list"]) {
      for (const cursor of ["nope", "", Buffer.from('{"v":1,"l":"tools","k":"t0","p":-1}').toString("base64url")]) {
        const { error } = await rawList(server, method, { cursor });
        expect(error).toEqual({ code: -32602, message: `Invalid cursor: ${cursor}` });
      }
      const { error } = await rawList(server, method, { cursor: long });
      expect(error.code).toBe(-32602);
      expect(error.message).toBe(`Invalid cursor: ${"x".repeat(200)}…`);
    }
    for (const method of ["resources/list", "prompts/list"]) {
      expect((await rawList(server, method, { cursor: toolsCursor })).error).toEqual({
        code: -32602,
        message: `Invalid cursor: ${toolsCursor}`,
      });
    }
  });

  it("reaches the official client as a ProtocolError -32602", async () => {
    const client = await overHttp(serverWith(5, 2));
    const error = await client.listTools({ cursor: "not-a-cursor" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as ProtocolError).message).toContain("Invalid cursor: not-a-cursor");
    await client.close();
  });
});
