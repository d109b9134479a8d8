// The Origin rule of server.fetch on every runtime (docs/security.md "Origin"), from MCP
// Streamable HTTP, "Security Warning" (2025-06-18 and later): "Servers MUST validate the Origin
// header on all incoming connections"; "If the Origin header is present and invalid, servers MUST
// respond with HTTP 403 Forbidden. The HTTP response body MAY comprise a JSON-RPC error response
// that has no id." Origins are compared as RFC 6454 §6.2 serializations. Node server.fetch and
// serveHttp here; workerd in test/runtimes/workerd.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import type { HttpServerHandle } from "../../packages/typed-mcp/dist/node.js";
import { createServer } from "./fixtures/tools.mjs";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "origin", version: "1" } },
});

/** The 403 body for a refused `origin` (the SDK guards' code -32000, no id). */
const refused = (origin: string) => ({
  jsonrpc: "2.0",
  error: { code: -32000, message: `Forbidden: Origin ${origin} is not allowed (McpServerOptions.allowedOrigins)` },
  id: null,
});

/** POSTs `initialize` to `server.fetch` at `url` with `origin` (none when undefined): status, content type and body. */
async function post(server: McpServer, url: string, origin?: string) {
  const response = await server.fetch(
    new Request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(origin !== undefined && { origin }),
      },
      body: INITIALIZE,
    }),
  );
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

describe("server.fetch without allowedOrigins: same host only", () => {
  const server = createServer();

  it("serves a request without Origin (non-browser clients send none)", async () => {
    const res = await post(server, "https://mcp.example.com/mcp");
    expect(res.status).toBe(200);
    expect(res.body).toContain('"protocolVersion":"2025-11-25"');
  });

  it.each(["https://mcp.example.com", "http://mcp.example.com:8080", "https://MCP.example.com"])(
    "serves Origin %s on https://mcp.example.com/mcp (same hostname)",
    async (origin) => {
      expect((await post(server, "https://mcp.example.com/mcp", origin)).status).toBe(200);
    },
  );

  it("refuses another host with 403 and the JSON-RPC error without id; nothing is served", async () => {
    const res = await post(server, "https://mcp.example.com/mcp", "https://evil.example.com");
    expect(res.status).toBe(403);
    expect(res.type).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual(refused("https://evil.example.com"));
    expect(res.body).not.toContain("protocolVersion");
  });

  it("refuses a subdomain, the opaque origin null and an unparsable value", async () => {
    for (const origin of ["https://app.mcp.example.com", "null", "not a url"]) {
      const res = await post(server, "https://mcp.example.com/mcp", origin);
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.body), origin).toEqual(refused(origin));
    }
  });

  it("a 100,000-character Origin is echoed cut at 200 code units + …", async () => {
    const origin = `https://${"a".repeat(100_000)}.example`;
    const res = await post(server, "https://mcp.example.com/mcp", origin);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual(refused(`${origin.slice(0, 200)}…`));
  });
});

describe("server.fetch with allowedOrigins", () => {
  const server = createServer({ allowedOrigins: ["https://app.example.com", "http://localhost:5173"] });

  it.each(["https://app.example.com", "http://localhost:5173"])("serves the listed origin %s", async (origin) => {
    expect((await post(server, "https://mcp.example.com/mcp", origin)).status).toBe(200);
  });

  it("compares scheme, host and port exactly; the list replaces the same-host default", async () => {
    for (const origin of [
      "http://app.example.com",
      "https://app.example.com:8443",
      "http://localhost:5174",
      "https://mcp.example.com",
    ]) {
      expect((await post(server, "https://mcp.example.com/mcp", origin)).status, origin).toBe(403);
    }
  });

  it("an Origin that is not itself an RFC 6454 serialization is refused: trailing slash, upper case, user info", async () => {
    for (const origin of ["https://app.example.com/", "https://APP.example.com", "https://user:pw@app.example.com"]) {
      expect((await post(server, "https://mcp.example.com/mcp", origin)).status, origin).toBe(403);
    }
  });

  it("serves a request without Origin", async () => {
    expect((await post(server, "https://mcp.example.com/mcp")).status).toBe(200);
  });

  it("the constructor refuses what is not an origin, naming it", () => {
    const make = (allowedOrigins: unknown) => () =>
      new McpServer({ name: "o", version: "1", allowedOrigins: allowedOrigins as string[] });
    for (const entry of [
      "https://app.example.com/path",
      "https://app.example.com/?q",
      "app.example.com",
      "null",
      "*",
      "https://user@app.example.com",
    ]) {
      expect(make([entry]), entry).toThrow(
        new RangeError(
          `allowedOrigins: ${JSON.stringify(entry)} is not an origin; write scheme://host[:port] with nothing after it, e.g. "https://app.example.com"`,
        ),
      );
    }
    expect(make("https://app.example.com")).toThrow(
      new TypeError('allowedOrigins must be an array of origins such as "https://app.example.com", got string'),
    );
    // A trailing slash and upper case are the same origin (RFC 6454 serialization).
    expect(make(["HTTPS://App.Example.com/"])).not.toThrow();
  });
});

describe("serveHttp: the same rule (server.fetch's), behind its Host check", () => {
  let plain: HttpServerHandle;
  let listed: HttpServerHandle;
  beforeAll(async () => {
    plain = await serveHttp(createServer(), { port: 0 });
    listed = await serveHttp(createServer({ allowedOrigins: ["http://localhost:5173"] }), { port: 0 });
  });
  afterAll(async () => {
    await plain?.close();
    await listed?.close();
  });
  const send = (handle: HttpServerHandle, origin: string) =>
    fetch(handle.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", origin },
      body: INITIALIZE,
    });

  it("same host: served; another loopback name is another host: 403 with the same body as server.fetch", async () => {
    expect((await send(plain, `http://127.0.0.1:${plain.port}`)).status).toBe(200);
    const res = await send(plain, "http://localhost:5173");
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(refused("http://localhost:5173"));
  });

  it("allowedOrigins lets a local web app on another port in", async () => {
    expect((await send(listed, "http://localhost:5173")).status).toBe(200);
    expect((await send(listed, `http://127.0.0.1:${listed.port}`)).status).toBe(403);
  });
});
