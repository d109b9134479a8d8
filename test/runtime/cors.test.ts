// The `cors` option of server.fetch, serveHttp and nextHandler (issue 21; docs/security.md "CORS"),
// from the Fetch standard's CORS protocol: a browser sends a preflight (OPTIONS with Origin,
// Access-Control-Request-Method and Access-Control-Request-Headers) before a cross-origin POST
// with JSON and MCP's headers; the answer must allow the origin, the method and the headers, and
// the real answer must expose Mcp-Session-Id (and the other MCP headers) to the page's script.
// Over real HTTP (serveHttp), with the headers Chromium sends for the official client's POST.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer, nextHandler } from "../../packages/typed-mcp/dist/index.js";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import type { HttpServerHandle } from "../../packages/typed-mcp/dist/node.js";
import { createServer } from "./fixtures/tools.mjs";

const APP = "https://app.example.com";
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "cors", version: "1" } },
});

/** The preflight a browser sends before the official client's POST from `origin`. */
const preflight = (url: URL | string, origin: string) =>
  fetch(url, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization,content-type,mcp-protocol-version,mcp-session-id,x-other",
    },
  });

describe("serveHttp with cors: { origins: [app] }", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(createServer(), { cors: { origins: [APP] } });
  });
  afterAll(() => http?.close());

  it("answers the preflight 204, allowing the origin, MCP's methods and the MCP headers asked for (not others)", async () => {
    const res = await preflight(http.url, APP);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(APP);
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE, OPTIONS");
    expect(res.headers.get("access-control-allow-headers")).toBe(
      "authorization, content-type, mcp-protocol-version, mcp-session-id",
    );
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(res.headers.get("vary")).toBe("Origin");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(await res.text()).toBe("");
  });

  it("serves the cross-origin POST (the Origin check lets the allowed origin through) and exposes the MCP headers", async () => {
    const res = await fetch(http.url, {
      method: "POST",
      headers: { origin: APP, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: INITIALIZE,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(APP);
    expect(res.headers.get("access-control-expose-headers")).toBe(
      "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate",
    );
    expect(res.headers.get("vary")).toContain("Origin");
    expect(await res.text()).toContain('"protocolVersion":"2025-11-25"');
  });

  it("refuses a preflight and a POST from another origin with 403 and no CORS headers", async () => {
    const pre = await preflight(http.url, "https://evil.example.com");
    expect(pre.status).toBe(403);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const post = await fetch(http.url, {
      method: "POST",
      headers: {
        origin: "https://evil.example.com",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: INITIALIZE,
    });
    expect(post.status).toBe(403);
    expect(post.headers.get("access-control-allow-origin")).toBeNull();
    expect(await post.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: "Forbidden: Origin https://evil.example.com is not allowed (McpServerOptions.allowedOrigins)",
      },
      id: null,
    });
  });

  it("adds nothing to a request without Origin (not a browser)", async () => {
    const res = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: INITIALIZE,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("nextHandler with cors: { origins: '*' }", () => {
  const { OPTIONS, POST } = nextHandler(createServer(), { cors: { origins: "*", maxAgeSeconds: 60 } });

  it("answers any origin's preflight with Access-Control-Allow-Origin: *", async () => {
    const res = await OPTIONS(
      new Request("https://mcp.example.com/api/mcp", {
        method: "OPTIONS",
        headers: { origin: "https://other.example", "access-control-request-method": "POST" },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-max-age")).toBe("60");
    expect(res.headers.get("access-control-allow-headers")).toBeNull();
  });

  it("serves the POST from any origin with the exposed headers", async () => {
    const res = await POST(
      new Request("https://mcp.example.com/api/mcp", {
        method: "POST",
        headers: {
          origin: "https://other.example",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: INITIALIZE,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("Mcp-Session-Id");
  });
});

describe("an invalid cors option fails when the handler is made", () => {
  it.each([
    [{ origins: ["https://app.example.com/path"] }, RangeError],
    [{ origins: "https://app.example.com" }, TypeError],
    [{ origins: [APP], maxAgeSeconds: -1 }, RangeError],
  ])("%j", (cors, kind) => {
    expect(() => nextHandler(new McpServer({ name: "s", version: "1" }), { cors: cors as never })).toThrow(kind);
  });
});
