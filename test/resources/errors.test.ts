/**
 * Errors the client sees, with the official client (spec §7; MCP spec "Resources"/"Prompts" →
 * Error Handling: a failing read or get is JSON-RPC `-32603` Internal error):
 * - a ToolError in a resource or prompt → `-32603` carrying its message;
 * - the SDK's ProtocolError thrown on purpose (UrlElicitationRequiredError -32042, any code) →
 *   that JSON-RPC error, code, message and data, as the SDK sends it;
 * - other exceptions keep "The resource failed." / "The prompt failed.".
 * And server→client requests on stateless 2025-era HTTP reject at once with
 * ServerRequestUnavailableError (docs/runtime.md "Server→client requests"), while over stdio they work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { buildApp, connect, connectStdio, errorOf, MODERN, rawRequest } from "./helpers.ts";

let app: Awaited<ReturnType<typeof buildApp>>;
const failures: unknown[] = [];
let client: Client;
let modern: Client;
beforeAll(async () => {
  app = await buildApp(["errors", "stdio-main"]);
  const server = app.modules.errors!.errorServer(failures);
  client = await connect(server, { capabilities: { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } } });
  modern = await connect(server, MODERN);
});
afterAll(async () => {
  await client?.close();
  await modern?.close();
  await app?.cleanup();
});

describe("ToolError in resources and prompts (spec §7, §8)", () => {
  it("resources/read: -32603 with the ToolError's message, byte for byte", async () => {
    const { message } = await rawRequest(app.modules.errors!.errorServer(), "resources/read", { uri: "orders://7" });
    expect(message).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "No order 7." } });
    const e = await errorOf(client.readResource({ uri: "orders://7" }));
    expect(e.code).toBe(-32603);
    expect(e.message).toContain("No order 7.");
  });

  it("prompts/get: -32603 with the ToolError's message", async () => {
    const { message } = await rawRequest(app.modules.errors!.errorServer(), "prompts/get", {
      name: "review",
      arguments: { id: "7" },
    });
    expect(message).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "No order 7 to review." } });
    const e = await errorOf(modern.getPrompt({ name: "review", arguments: { id: "7" } }));
    expect(e.code).toBe(-32603);
    expect(e.message).toContain("No order 7 to review.");
  });

  it("any other exception stays 'The prompt failed.', reported to onToolError, never sent", async () => {
    failures.length = 0;
    const { body, message } = await rawRequest(app.modules.errors!.errorServer(failures), "prompts/get", {
      name: "crash",
    });
    expect(message.error).toEqual({ code: -32603, message: "The prompt failed." });
    expect(body).not.toContain("secret");
    expect(failures.map((f) => (f as Error).message)).toEqual(["secret detail"]);
  });

  it("a ToolError is not a failure: not passed to onToolError", async () => {
    failures.length = 0;
    await errorOf(client.readResource({ uri: "orders://8" }));
    expect(failures).toEqual([]);
  });
});

describe("a resource's own not-found is answered as an unknown URI is, per revision (spec §8)", () => {
  it("2025-11-25: ResourceNotFoundError and ProtocolError(-32002) → -32002 on the wire, message and data kept", async () => {
    const server = app.modules.errors!.errorServer();
    const thrown = await rawRequest(server, "resources/read", { uri: "notes://2" });
    expect(thrown.message).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32002, message: "Resource not found: notes://2", data: { uri: "notes://2" } },
    });
    const coded = await rawRequest(server, "resources/read", { uri: "notes://coded" });
    expect(coded.message.error).toEqual({ code: -32002, message: "No such note.", data: { uri: "notes://coded" } });
    // The same code an unknown URI gets.
    const unknown = await rawRequest(server, "resources/read", { uri: "nothing://here" });
    expect(unknown.message.error.code).toBe(-32002);
  });

  it("2026-07-28: both → -32602 with data { uri }", async () => {
    for (const [uri, message] of [
      ["notes://2", "Resource not found: notes://2"],
      ["notes://coded", "No such note."],
    ] as const) {
      const e = await errorOf(modern.readResource({ uri }));
      expect({ code: e.code, data: e.data }).toEqual({ code: -32602, data: { uri } });
      expect(e.message).toContain(message);
    }
  });

  it("over stdio (2025-11-25) the client sees the error an unknown URI gets, with data { uri }", async () => {
    const stdio = await connectStdio(app.outDir, "errors");
    try {
      const e = await errorOf(stdio.readResource({ uri: "notes://3" }));
      const u = await errorOf(stdio.readResource({ uri: "nothing://here" }));
      expect({ code: e.code, data: e.data }).toEqual({ code: u.code, data: { uri: "notes://3" } });
    } finally {
      await stdio.close();
    }
  });
});

describe("protocol errors thrown on purpose are sent as that JSON-RPC error (spec §7)", () => {
  it("UrlElicitationRequiredError → -32042 with data.elicitations (2025-11-25)", async () => {
    const { message } = await rawRequest(app.modules.errors!.errorServer(), "tools/call", {
      name: "needs_url",
      arguments: {},
    });
    expect(message).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32042,
        message: "Sign-in required.",
        data: {
          elicitations: [
            { mode: "url", message: "Sign in to continue.", url: "https://example.com/sign-in", elicitationId: "e-1" },
          ],
        },
      },
    });
    const e = await errorOf(client.callTool({ name: "needs_url", arguments: {} }));
    expect(e.code).toBe(-32042);
  });

  it("on 2026-07-28 the SDK refuses -32042 (no such error in that revision): its -32603, as the SDK sends it", async () => {
    const e = await errorOf(modern.callTool({ name: "needs_url", arguments: {} }));
    expect(e.code).toBe(-32603);
    expect(e.message).toContain("inputRequired");
  });

  it("a ProtocolError with any code keeps code, message and data, in tools, resources and prompts", async () => {
    const tool = await rawRequest(app.modules.errors!.errorServer(), "tools/call", {
      name: "protocol_tool",
      arguments: {},
    });
    expect(tool.message.error).toEqual({ code: -32001, message: "Quota exceeded.", data: { retryAfter: 30 } });
    const read = await rawRequest(app.modules.errors!.errorServer(), "resources/read", { uri: "orders://protocol" });
    expect(read.message.error).toEqual({ code: -32602, message: "Order ids are numbers.", data: { id: "protocol" } });
    const get = await rawRequest(app.modules.errors!.errorServer(), "prompts/get", {
      name: "review",
      arguments: { id: "protocol" },
    });
    expect(get.message.error).toEqual({ code: -32602, message: "Order ids are numbers." });
    const e = await errorOf(modern.callTool({ name: "protocol_tool", arguments: {} }));
    expect({ code: e.code, data: e.data }).toEqual({ code: -32001, data: { retryAfter: 30 } });
  });

  it("ToolError in a tool stays an isError result", async () => {
    expect(await client.callTool({ name: "refuse_tool", arguments: {} })).toEqual({
      content: [{ type: "text", text: "No such order." }],
      isError: true,
    });
  });
});

describe("server→client requests on stateless 2025-era HTTP (docs/runtime.md)", () => {
  it("listRoots / sample / elicit reject at once with ServerRequestUnavailableError naming the method", async () => {
    // The client declares every capability and would answer: the transport is what cannot carry the request.
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///tmp" }] }));
    client.setRequestHandler("sampling/createMessage", async () => ({
      role: "assistant",
      content: { type: "text", text: "ok" },
      model: "m",
    }));
    client.setRequestHandler("elicitation/create", async () => ({ action: "decline" }));
    const texts: string[] = [];
    for (const what of ["roots", "sample", "elicit"]) {
      const result = await client.callTool({ name: "ask", arguments: { what } }, { timeout: 2000 });
      texts.push((result.content as Array<{ text: string }>)[0]!.text);
    }
    expect(texts).toEqual([
      "unavailable: roots/list",
      "unavailable: sampling/createMessage",
      "unavailable: elicitation/create",
    ]);
  });

  it("let escape it is an ordinary failure: 'The tool failed.', the typed error passed to onToolError", async () => {
    failures.length = 0;
    const result = await client.callTool({ name: "roots_uncaught", arguments: {} }, { timeout: 2000 });
    expect(result).toEqual({ content: [{ type: "text", text: "The tool failed." }], isError: true });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ name: "ServerRequestUnavailableError", method: "roots/list" });
  });

  it("over stdio (a lasting connection) the same call is a real roots/list", async () => {
    const stdio = await connectStdio(app.outDir, "errors", { capabilities: { roots: {} } });
    try {
      stdio.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///tmp" }] }));
      expect(await stdio.callTool({ name: "ask", arguments: { what: "roots" } })).toEqual({
        content: [{ type: "text", text: "roots: 1" }],
      });
    } finally {
      await stdio.close();
    }
  });
});
