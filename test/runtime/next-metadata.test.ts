// nextHandler and withTypedMcp's RFC 9728 rewrite (issue 21; docs/nextjs.md "Auth"): Next.js sends
// `/.well-known/oauth-protected-resource/api/mcp` to the route `/api/mcp` as
// `/api/mcp?oauth-protected-resource=1`; nextHandler serves that GET as the well-known URL, so the
// server's auth gate answers the protected-resource document (RFC 9728 §3.2: `resource` is the
// audience, `authorization_servers` the issuer). Any other method with the parameter stays MCP.
import { describe, expect, it } from "vitest";
import { McpServer, nextHandler } from "../../packages/typed-mcp/dist/index.js";
import { oauth } from "../../packages/typed-mcp/dist/auth.js";

const ISSUER = "https://auth.example.com";
const AUDIENCE = "https://mcp.example.com/api/mcp";
const { GET, POST } = nextHandler(
  new McpServer({ name: "s", version: "1", auth: oauth({ issuer: ISSUER, audience: AUDIENCE }) }),
);

describe("nextHandler behind withTypedMcp's metadata rewrite", () => {
  it("answers GET <route>?oauth-protected-resource=1 with the route's RFC 9728 document", async () => {
    const res = await GET(new Request(`${AUDIENCE}?oauth-protected-resource=1`));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ resource: AUDIENCE, authorization_servers: [ISSUER] });
  });

  it("leaves a POST with the parameter to the gate: 401 naming the well-known document", async () => {
    const res = await POST(
      new Request(`${AUDIENCE}?oauth-protected-resource=1`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp"',
    );
  });
});
