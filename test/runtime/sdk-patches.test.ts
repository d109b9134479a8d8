/**
 * The assumptions behind packages/typed-mcp/src/protocol/sdk-patches.ts, checked against the installed
 * SDK. Each failure names the pinned SDK version and what changed, so an SDK upgrade that breaks
 * a patch fails here loudly instead of somewhere on the wire.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  PINNED_SDK_VERSION,
  RESOURCE_NOT_FOUND_2025,
  patchRawMessages,
  installSessionHook,
  isLegacyHttpRequest,
  patchResourceNotFoundCode,
  servesConnection,
  wrapRequestHandlers,
} from "../../packages/typed-mcp/dist/protocol/sdk-patches.js";
import {
  adoptClientCapabilities,
  afterCancel,
  connectWithEventStore,
  deliverResponse,
  numberRequestsFrom,
} from "../../packages/typed-mcp/dist/protocol/sdk-patches-store.js";

const SDK_DIR = new URL("../../packages/typed-mcp/node_modules/@modelcontextprotocol/server/", import.meta.url);
// The same module instance typed-mcp's dist imports (ESM resolves the pnpm symlink to one real path).
const sdk = (await import(new URL("dist/index.mjs", SDK_DIR).href)) as typeof import("@modelcontextprotocol/server");
const installed = (JSON.parse(readFileSync(new URL("package.json", SDK_DIR), "utf8")) as { version: string }).version;

/** The message of every assertion here: the pinned version, the installed one, and what changed. */
function changed(what: string): string {
  return (
    `@modelcontextprotocol/server changed under typed-mcp's SDK patches (packages/typed-mcp/src/protocol/sdk-patches.ts, ` +
    `written for ${PINNED_SDK_VERSION}, installed ${installed}): ${what}`
  );
}

type Message = {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
};

/** A transport that records what the SDK sends and lets the test deliver messages. */
function fakeTransport() {
  const sent: Message[] = [];
  const transport = {
    onmessage: undefined as ((message: unknown, extra?: unknown) => void) | undefined,
    onclose: undefined as (() => void) | undefined,
    onerror: undefined as ((error: Error) => void) | undefined,
    async start() {},
    async close() {},
    async send(message: unknown) {
      sent.push(message as Message);
    },
  };
  return { transport, sent };
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
} as const;

async function answered(sent: Message[], id: number): Promise<Message> {
  for (let i = 0; i < 100; i++) {
    const m = sent.find((x) => x.id === id);
    if (m !== undefined) return m;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(
    changed(
      `no response to request ${id} through transport.send (Server#connect no longer sends responses through the transport it was given)`,
    ),
  );
}

async function connected(server: InstanceType<typeof sdk.Server>) {
  const { transport, sent } = fakeTransport();
  await server.connect(transport as never);
  expect(typeof transport.onmessage, changed("Server#connect no longer sets transport.onmessage")).toBe("function");
  transport.onmessage!(INITIALIZE);
  await answered(sent, 0);
  return { deliver: (m: Message) => transport.onmessage!(m), sent };
}

describe("sdk-patches.ts assumptions", () => {
  it("patchRawMessages: transport.onmessage gets the raw message before the SDK's parse, which drops an own __proto__", async () => {
    const server = new sdk.Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
    const take = patchRawMessages(server, (args) => (Object.keys(args).length > 3 ? "big" : undefined));
    const seen: Array<Record<string, unknown> | undefined> = [];
    const captures: unknown[] = [];
    server.setRequestHandler("tools/call", (request, ctx) => {
      seen.push(request.params.arguments);
      captures.push(take(ctx.mcpReq.id));
      return { content: [] };
    });
    const { deliver, sent } = await connected(server);
    deliver(
      JSON.parse(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":1,"__proto__":{"p":1}}}}',
      ),
    );
    deliver({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "x", arguments: { a: 1, b: 2, c: 3, d: 4 } },
    });
    await answered(sent, 1);
    await answered(sent, 2);
    expect(
      Object.keys(seen[0]!),
      changed("the SDK's tools/call parse no longer drops an own __proto__ key (the capture may be unnecessary)"),
    ).toEqual(["a"]);
    expect(captures[0]).toEqual({ proto: { p: 1 } });
    expect(seen[1], changed("the message handed on by transport.onmessage is not the one the handler sees")).toEqual(
      {},
    );
    expect(captures[1]).toEqual({ refused: "big" });
  });

  it(`the installed SDK is the pinned ${PINNED_SDK_VERSION}`, () => {
    expect(
      installed,
      changed(
        "another version is installed: re-check every assumption listed in sdk-patches.ts, then update PINNED_SDK_VERSION",
      ),
    ).toBe(PINNED_SDK_VERSION);
  });

  it("wrapRequestHandlers: Server#setRequestHandler is overridable per instance and its handlers are the ones dispatched", async () => {
    expect(typeof sdk.Server.prototype.setRequestHandler, changed("Server#setRequestHandler is gone")).toBe("function");
    const server = new sdk.Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
    const wrapped: string[] = [];
    wrapRequestHandlers(server, new Set(["tools/call"]), (method, handler) => (request, ctx) => {
      wrapped.push(method);
      return handler(request, ctx);
    });
    server.setRequestHandler("tools/list", () => ({ tools: [] }));
    server.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: "ok" }] }));
    const { deliver, sent } = await connected(server);
    deliver({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {} } });
    deliver({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    expect(
      (await answered(sent, 1)).result,
      changed("a handler installed through the wrapped setRequestHandler did not answer tools/call"),
    ).toEqual({
      content: [{ type: "text", text: "ok" }],
    });
    await answered(sent, 2);
    expect(
      wrapped,
      changed("the SDK dispatched tools/call to a handler that bypassed the instance's setRequestHandler"),
    ).toEqual(["tools/call"]);
  });

  it("patchResourceNotFoundCode: the SDK sends a handler-thrown -32002 as -32602, and the patch puts -32002 back", async () => {
    const build = () => {
      const server = new sdk.Server({ name: "t", version: "1" }, { capabilities: { resources: {} } });
      const mark = patchResourceNotFoundCode(server);
      server.setRequestHandler("resources/read", (request, ctx) => {
        if (request.params.uri === "marked://x") mark(ctx.mcpReq.id);
        throw new sdk.ProtocolError(RESOURCE_NOT_FOUND_2025 as never, `Resource not found: ${request.params.uri}`, {
          uri: request.params.uri,
        });
      });
      return server;
    };
    const { deliver, sent } = await connected(build());
    deliver({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "plain://x" } });
    deliver({ jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "marked://x" } });
    expect(
      (await answered(sent, 1)).error?.code,
      changed(
        "a handler-thrown -32002 is no longer sent as -32602; patchResourceNotFoundCode may be unneeded (or wrong)",
      ),
    ).toBe(-32602);
    expect(
      (await answered(sent, 2)).error?.code,
      changed("the rewritten error code did not reach the wire through transport.send"),
    ).toBe(RESOURCE_NOT_FOUND_2025);
  });

  it("installSessionHook: the legacy HTTP fallback calls the factory with { era: 'legacy', requestInfo }, and connects a transport with handleRequest/send/onmessage", async () => {
    const contexts: unknown[] = [];
    const transports: Record<string, unknown>[] = [];
    const handler = sdk.createMcpHandler((ctx) => {
      contexts.push(ctx);
      const server = new sdk.Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
      const connect = server.connect.bind(server);
      server.connect = async (transport) => {
        await connect(transport);
        transports.push(transport as unknown as Record<string, unknown>);
      };
      if (isLegacyHttpRequest(ctx)) installSessionHook(server, "io.modelcontextprotocol/ui");
      return server;
    });
    const response = await handler.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    expect(response.status).toBe(200);
    const ctx = contexts[0] as { era?: unknown; requestInfo?: unknown } | undefined;
    expect(ctx?.era, changed("the factory context of a 2025-era HTTP request no longer has era 'legacy'")).toBe(
      "legacy",
    );
    expect(
      ctx?.requestInfo instanceof Request,
      changed("the factory context of an HTTP request no longer carries requestInfo (the Request)"),
    ).toBe(true);
    expect(isLegacyHttpRequest(ctx as never)).toBe(true);
    expect(servesConnection(ctx as never)).toBe(false);
    expect(servesConnection(undefined)).toBe(true);
    const transport = transports[0];
    for (const key of ["handleRequest", "send", "onmessage"]) {
      expect(typeof transport?.[key], changed(`the legacy per-request transport has no ${key} function`)).toBe(
        "function",
      );
    }
    expect(
      response.headers.get("mcp-session-id") ?? "",
      changed("the session hook no longer sets Mcp-Session-Id on the initialize response"),
    ).toMatch(/^tmcp1\./);
  });

  it("sdk-patches-store.ts: adopted client capabilities let elicitInput send without initialize, ids start where numberRequestsFrom says, deliverResponse resolves the waiting request", async () => {
    const server = new sdk.Server({ name: "t", version: "1" }, { capabilities: {} });
    const { transport, sent } = fakeTransport();
    await server.connect(transport as never);
    adoptClientCapabilities(server as never, { elicitation: { form: {} } });
    numberRequestsFrom(server as never, 5120);
    const asked = server.elicitInput({
      message: "ok?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
    });
    asked.catch(() => {});
    const request = await answered(sent, 5120).catch(() => undefined);
    expect(
      request?.method,
      changed("elicitInput did not send elicitation/create with id _requestMessageId (5120)"),
    ).toBe("elicitation/create");
    deliverResponse(server as never, { jsonrpc: "2.0", id: 5120, result: { action: "accept", content: { ok: true } } });
    expect(await asked, changed("_onresponse did not resolve the waiting request")).toEqual({
      action: "accept",
      content: { ok: true },
    });
  });

  it("sdk-patches-store.ts: afterCancel runs after the SDK's _oncancel for every notifications/cancelled", async () => {
    const server = new sdk.Server({ name: "t", version: "1" }, { capabilities: {} });
    const { transport } = fakeTransport();
    await server.connect(transport as never);
    const seen: unknown[] = [];
    afterCancel(server as never, async (id, reason) => void seen.push([id, reason]));
    transport.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "x" } });
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(seen, changed("notifications/cancelled no longer reaches Protocol._oncancel")).toEqual([[7, "x"]]);
  });

  it("sdk-patches-store.ts: connectWithEventStore makes a stateless transport store every event of a tools/call stream (the `_eventStore` it reads at each use)", async () => {
    const server = new sdk.Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: "ok" }] }));
    const stored: Array<[string, unknown]> = [];
    const events = {
      storeEvent: async (streamId: string, message: unknown) => String(stored.push([streamId, message])),
      replayEventsAfter: async () => "",
    };
    connectWithEventStore(server as never, events as never);
    const transport = new sdk.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    const body = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "x", arguments: {} } };
    const response = await transport.handleRequest(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    expect(
      stored.map(([, m]) => m),
      changed("the transport did not store the priming event and the response"),
    ).toEqual([{}, { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "ok" }] } }]);
    expect(text, changed("stored events are not written with their ids")).toContain("id: 2\n");
  });
});
