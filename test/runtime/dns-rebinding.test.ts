// DNS-rebinding protection of serveHttp (typed-mcp/node). MCP 2025-11-25, Security Best
// Practices ("Local MCP Server Compromise") and the Streamable HTTP security warning: a local
// server MUST validate the Origin header (and should check Host) so that a web page whose DNS
// name was re-pointed at 127.0.0.1 cannot drive it. Requests are sent with node:http, which lets
// the test set any Host header, as a browser under a rebinding attack would.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import type { HttpServerHandle } from "../../packages/typed-mcp/dist/node.js";
import { createServer } from "./fixtures/tools.mjs";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "rebinding-test", version: "1.0.0" } },
});

/** POSTs `initialize` to `handle` with the given Host (and Origin) headers; resolves status and body. */
function post(
  handle: HttpServerHandle,
  headers: { host: string; origin?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: handle.port,
        path: "/mcp",
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          ...headers,
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(INITIALIZE);
  });
}

let loopback: HttpServerHandle;
let custom: HttpServerHandle;
let unchecked: HttpServerHandle;

beforeAll(async () => {
  loopback = await serveHttp(createServer({}), { port: 0 }); // default hostname 127.0.0.1
  custom = await serveHttp(createServer({}), { port: 0, allowedHosts: ["mcp.example.test"] });
  unchecked = await serveHttp(createServer({}), { port: 0, allowedHosts: false });
});
afterAll(async () => {
  await loopback?.close();
  await custom?.close();
  await unchecked?.close();
});

describe("serveHttp DNS-rebinding protection (loopback default)", () => {
  it("refuses a foreign Host header with 403 before the request reaches MCP", async () => {
    const res = await post(loopback, { host: "evil.example.com", origin: "http://evil.example.com" });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    expect(res.body).not.toContain("protocolVersion");
  });

  it("refuses a foreign Host even with the port of the server", async () => {
    expect((await post(loopback, { host: `evil.example.com:${loopback.port}` })).status).toBe(403);
  });

  it("refuses a foreign Origin although the Host is local", async () => {
    const res = await post(loopback, { host: `127.0.0.1:${loopback.port}`, origin: "http://evil.example.com" });
    expect(res.status).toBe(403);
  });

  it("refuses the opaque Origin `null`", async () => {
    expect((await post(loopback, { host: `localhost:${loopback.port}`, origin: "null" })).status).toBe(403);
  });

  it.each([`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`, "localhost"])("accepts Host %s", async (host) => {
    const h = host.replace("PORT", String(loopback.port));
    const res = await post(loopback, { host: h, origin: `http://${h}` });
    expect(res.status).toBe(200);
    expect(res.body).toContain('"protocolVersion":"2025-11-25"');
  });

  it("accepts a request without Origin (non-browser clients send none)", async () => {
    expect((await post(loopback, { host: `127.0.0.1:${loopback.port}` })).status).toBe(200);
  });
});

describe("serveHttp allowedHosts option", () => {
  it("allows exactly the listed hostnames", async () => {
    expect(
      (await post(custom, { host: `mcp.example.test:${custom.port}`, origin: "https://mcp.example.test" })).status,
    ).toBe(200);
    expect((await post(custom, { host: `localhost:${custom.port}` })).status).toBe(403);
  });

  it("false turns the check off", async () => {
    expect((await post(unchecked, { host: "evil.example.com", origin: "http://evil.example.com" })).status).toBe(200);
  });
});

describe("server.fetch served by Bun, Deno or another adapter on a local address: the README's Host check", () => {
  // Found by a fresh attack: Host: evil.example with Origin: http://evil.example passes server.fetch's
  // same-host Origin rule, so a local server.fetch needs the Host check serveHttp does itself.
  it("hostHeaderValidationResponse(req, localhostAllowedHostnames()) from typed-mcp refuses a rebound Host and serves 127.0.0.1", async () => {
    const { hostHeaderValidationResponse, localhostAllowedHostnames } = await import(
      "../../packages/typed-mcp/dist/index.js"
    );
    const server = createServer();
    const local = (req: Request) => hostHeaderValidationResponse(req, localhostAllowedHostnames()) ?? server.fetch(req);
    const ping = (host: string) =>
      local(
        new Request(`http://${host}/mcp`, {
          method: "POST",
          headers: {
            host,
            origin: `http://${host}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-11-25",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        }),
      );
    expect((await ping("evil.example:3400")).status).toBe(403);
    expect((await ping("127.0.0.1:3400")).status).toBe(200);
  });
});
