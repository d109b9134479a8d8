// MCP 2026-07-28 (SEP-2575, "MissingRequiredClientCapabilityError"): a server that needs a client
// capability the request did not declare MUST reject the request with JSON-RPC error -32021
// whose data.requiredCapabilities names the missing capability, over HTTP with status 400.
// In typed-mcp a tool asks for it through RequestContext.sample / elicit / listRoots. Found by the
// official conformance suite (server-stateless, test_missing_capability); see docs/runtime.md.
// Earlier revisions have no -32021: there the call stays a tool failure (spec §7).
import { describe, expect, it } from "vitest";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import { generated } from "../../packages/typed-mcp/dist/internal.js";
import type { RequestContext } from "../../packages/typed-mcp/dist/index.js";

type Use = "sample" | "elicit" | "listRoots";

/** A tool that uses one client request of RequestContext; descriptor as the plugin writes it for `(ctx: RequestContext) => Promise<string>`. */
function ctxTool(name: string, use: Use) {
  const fn = async (ctx: RequestContext): Promise<string> => {
    if (use === "sample")
      await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
    else if (use === "elicit")
      await ctx.elicit({
        message: "name?",
        requestedSchema: { type: "object", properties: { n: { type: "string" } } },
      });
    else await ctx.listRoots();
    return "done";
  };
  const descriptor = generated({
    listing: {
      name,
      description: `Uses ctx.${use}.`,
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
    },
    read: (args, ctx) => (args !== undefined && Object.keys(args).length > 0 ? Object.keys(args)[0]! : [ctx]),
    write: (value) => ({ content: [{ type: "text", text: value as string }] }),
  });
  return { fn, descriptor };
}

function createServer(): McpServer {
  const server = new McpServer({ name: "capabilities", version: "1.0.0" });
  for (const [name, use] of [
    ["needs_sampling", "sample"],
    ["needs_elicitation", "elicit"],
    ["needs_roots", "listRoots"],
  ] as const) {
    const { fn, descriptor } = ctxTool(name, use);
    (server.tool as (...a: unknown[]) => unknown)(name, fn, descriptor);
  }
  return server;
}

/** A client on `server.fetch`, recording the HTTP status of every tools/call POST. */
async function connect(server: McpServer, options: Record<string, unknown>) {
  const statuses: number[] = [];
  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await server.fetch(new Request(input, init));
    if (typeof init?.body === "string" && init.body.includes('"tools/call"')) statuses.push(response.status);
    return response;
  };
  const client = new Client({ name: "vitest-client", version: "0.0.1" }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchFn }));
  return { client, statuses };
}

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

describe("2026-07-28: a RequestContext client request without the client capability", () => {
  it.each([
    ["needs_sampling", "sampling"],
    ["needs_elicitation", "elicitation"],
    ["needs_roots", "roots"],
  ])("%s answers -32021 with requiredCapabilities.%s and HTTP 400", async (tool, capability) => {
    const { client, statuses } = await connect(createServer(), { ...MODERN, capabilities: {} });
    const error = await client.callTool({ name: tool, arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32021);
    expect((error as ProtocolError).data).toEqual({ requiredCapabilities: { [capability]: {} } });
    expect(statuses).toEqual([400]);
    await client.close();
  });

  it("with the capability declared the request is not refused for a missing capability", async () => {
    const { client, statuses } = await connect(createServer(), { ...MODERN, capabilities: { sampling: {} } });
    // 2026-07-28 has no server-to-client push request: the call answers input_required, the
    // client's sampling handler answers it and the client retries (SEP-2322; input-required.test.ts).
    client.setRequestHandler("sampling/createMessage", async () => ({
      role: "assistant",
      content: { type: "text", text: "ok" },
      model: "m",
    }));
    const result = await client.callTool({ name: "needs_sampling", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(statuses).toEqual([200, 200]);
    await client.close();
  });
});

describe("2025-11-25: no -32021 in this revision", () => {
  it("a missing capability stays a tool failure (spec §7)", async () => {
    const { client } = await connect(createServer(), { capabilities: {} });
    // (elicitation: the SDK itself refuses it for an undeclared capability; its createMessage
    // would send the request and wait for an answer that stateless HTTP cannot deliver.)
    const result = await client.callTool({ name: "needs_elicitation", arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "The tool failed." }] });
    await client.close();
  });
});
