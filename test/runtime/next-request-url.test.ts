// nextHandler gives the server the URL the client sent a request to (issue 21, found by the
// fresh-user check). Measured on Next.js 16.4.6 under `next start` and `next dev`: a route handler's
// `request.url` is `http://localhost:<port><path>` whatever `Host` the client named, and without the
// config's `basePath` (`GET /base/api/mcp` with `Host: 127.0.0.1:3000` → `http://localhost:3000/api/mcp`);
// the rewritten well-known request arrives as `http://localhost:3000/.well-known/oauth-protected-resource/api/mcp`
// with no query. The requests below are those URLs and headers. What must hold (docs/security.md
// "Origin": same host is the `Origin`'s hostname equal to the request's; "DNS-rebinding protection";
// RFC 9728 §3.1 and §5.1): a page on the loopback host the client named is served, a rebinding page
// is not, and with a basePath the document is served inside the app, where the 401's
// `resource_metadata` names it.
import { afterEach, describe, expect, it } from "vitest";
import { McpServer, nextHandler } from "../../packages/typed-mcp/dist/index.js";
import { oauth } from "../../packages/typed-mcp/dist/auth.js";

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
});
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const post = (url: string, headers: Record<string, string>) =>
  new Request(url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: INIT });

afterEach(() => {
  delete process.env.TYPED_MCP_NEXT_BASE_PATH;
});

describe("nextHandler: a loopback Host header's host (Next.js hands every route http://localhost:<port>)", () => {
  const { POST } = nextHandler(new McpServer({ name: "s", version: "1" }));

  it("serves a page on the host the client named (same-host Origin rule)", async () => {
    const res = await POST(
      post("http://localhost:3000/api/mcp", { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"protocolVersion":"2025-11-25"');
  });

  it("refuses a DNS-rebinding page (Host and Origin evil.example: not a loopback Host, so the URL stays Next.js's localhost)", async () => {
    const refused = await POST(
      post("http://localhost:3000/api/mcp", { host: "evil.example:3000", origin: "http://evil.example:3000" }),
    );
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: "Forbidden: Origin http://evil.example:3000 is not allowed (McpServerOptions.allowedOrigins)",
      },
      id: null,
    });
  });

  it("a public host behind a proxy: its page is served once allowedOrigins names it", async () => {
    const proxied = post("http://localhost:3000/api/mcp", {
      host: "mcp.example.com",
      origin: "https://mcp.example.com",
    });
    expect((await POST(proxied.clone())).status).toBe(403);
    const allowed = nextHandler(
      new McpServer({ name: "s", version: "1", allowedOrigins: ["https://mcp.example.com"] }),
    );
    expect((await allowed.POST(proxied)).status).toBe(200);
  });

  it("uses the Host header's loopback host ([::1], 127.0.0.2) and refuses localhost's page then", async () => {
    for (const [host, origin] of [
      ["[::1]:3000", "http://[::1]:3000"],
      ["127.0.0.2:3000", "http://127.0.0.2:3000"],
    ]) {
      expect((await POST(post("http://localhost:3000/api/mcp", { host: host!, origin: origin! }))).status).toBe(200);
    }
    const other = await POST(
      post("http://localhost:3000/api/mcp", { host: "127.0.0.1:3000", origin: "http://localhost:3000" }),
    );
    expect(other.status).toBe(403);
  });

  it("keeps the URL's host when the Host header is no host (a path, user info)", async () => {
    for (const host of ["evil.example/x", "a@evil.example"]) {
      const res = await POST(post("http://localhost:3000/api/mcp", { host, origin: "http://evil.example" }));
      expect(res.status).toBe(403);
    }
  });
});

describe("nextHandler with a basePath (env.TYPED_MCP_NEXT_BASE_PATH, which withTypedMcp sets)", () => {
  const ISSUER = "https://auth.example.com";
  const AUDIENCE = "https://mcp.example.com/base/api/mcp";
  const handlers = () => {
    process.env.TYPED_MCP_NEXT_BASE_PATH = "/base";
    return nextHandler(new McpServer({ name: "s", version: "1", auth: oauth({ issuer: ISSUER, audience: AUDIENCE }) }));
  };
  const host = { host: "mcp.example.com" };

  it("the 401 names the document inside the basePath (Next.js serves nothing outside it)", async () => {
    const res = await handlers().POST(post("http://localhost:3000/api/mcp", host));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://mcp.example.com/base/.well-known/oauth-protected-resource/api/mcp"',
    );
  });

  it("serves the RFC 9728 document for the rewritten request, in the form Next.js hands it and with the query", async () => {
    const { GET } = handlers();
    for (const url of [
      "http://localhost:3000/.well-known/oauth-protected-resource/api/mcp",
      "http://localhost:3000/api/mcp?oauth-protected-resource=1",
    ]) {
      const res = await GET(new Request(url, { headers: host }));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ resource: AUDIENCE, authorization_servers: [ISSUER] });
    }
  });

  it("leaves a 401 whose document is not under the basePath as the gate wrote it", async () => {
    process.env.TYPED_MCP_NEXT_BASE_PATH = "/other";
    const { POST } = nextHandler(
      new McpServer({ name: "s", version: "1", auth: oauth({ issuer: ISSUER, audience: AUDIENCE }) }),
    );
    const res = await POST(post("http://localhost:3000/api/mcp", host));
    expect(res.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/base/api/mcp"',
    );
  });
});
