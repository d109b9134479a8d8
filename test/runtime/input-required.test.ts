// MCP 2026-07-28 multi round-trip requests (SEP-2322, "input required"): the revision has no
// server→client requests. A tools/call / prompts/get that needs client input answers with
// `{ resultType: "input_required", inputRequests: { <key>: { method, params } }, requestState? }`;
// the client fulfils the embedded requests and retries the same request with `inputResponses`
// (bare results by key) and the echoed `requestState`, which the server MUST integrity-protect and
// MUST reject when it fails verification. In typed-mcp a tool asks through RequestContext.elicit /
// sample / listRoots (docs/runtime.md, RequestContext). On 2025-era connections the same calls
// stay real server→client requests.
import { describe, expect, it } from "vitest";
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import { SDK_FACTORY } from "../../packages/typed-mcp/dist/server.js";
import { definePrompts, defineResources, generated } from "../../packages/typed-mcp/dist/internal.js";
import type {
  CreateMessageRequestParams,
  ElicitRequestFormParams,
  ElicitResult,
  RequestContext,
} from "../../packages/typed-mcp/dist/index.js";
import { post2026 } from "../helpers/raw-http.ts";

const NAME_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
};
const COLOR_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { color: { type: "string" } },
  required: ["color"],
};
/** An embedded form-mode elicitation (MCP 2026-07-28 ElicitRequestFormParams; the SDK's builder writes `mode: "form"`). */
const form = (message: string, requestedSchema: object) => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema },
});
const SAMPLE_PARAMS: CreateMessageRequestParams = {
  messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
  maxTokens: 20,
};

/** How many times each tool's function ran (the function re-runs from the start on every retry). */
const runs: Record<string, number> = {};
const toolErrors: unknown[] = [];

/** A `(ctx: RequestContext) => Promise<string>` tool; the descriptor as the plugin writes it. */
function ctxTool(server: McpServer, name: string, body: (ctx: RequestContext) => Promise<string>): void {
  const fn = async (ctx: RequestContext): Promise<string> => {
    runs[name] = (runs[name] ?? 0) + 1;
    return body(ctx);
  };
  const descriptor = generated({
    listing: { name, inputSchema: { type: "object", properties: {}, additionalProperties: false } },
    read: (args, ctx) => (args !== undefined && Object.keys(args).length > 0 ? Object.keys(args)[0]! : [ctx]),
    write: (value) => ({ content: [{ type: "text", text: value as string }] }),
  });
  (server.tool as (...a: unknown[]) => unknown)(name, fn, descriptor);
}

const text = (r: { content: unknown }): string =>
  (r.content as Array<{ text?: string }>).map((b) => b.text ?? "").join("");

// class AskPrompts {
//   /** Greets. */ @prompt() greeting(ctx: RequestContext): Promise<string>
//   @resource("roots://first") firstRoot(ctx: RequestContext): Promise<string>
// }
class AskPrompts {
  static {
    defineResources(this, [
      {
        listing: { uri: "roots://first", name: "first_root" },
        read: (_vars: unknown, ctx: RequestContext) => [ctx],
        write: (value: unknown, uri: string) => ({
          contents: [{ uri, mimeType: "text/plain", text: value as string }],
        }),
        member: "firstRoot",
      } as never,
    ]);
    definePrompts(this, [
      {
        listing: { name: "greeting", description: "Greets." },
        read: (_args: unknown, ctx: RequestContext) => [ctx],
        write: (value: unknown) => ({ messages: [{ role: "user", content: { type: "text", text: value as string } }] }),
        member: "greeting",
      } as never,
    ]);
  }
  async firstRoot(ctx: RequestContext): Promise<string> {
    const { roots } = await ctx.listRoots();
    return roots[0]?.uri ?? "none";
  }
  async greeting(ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit({ message: "Whom to greet?", requestedSchema: NAME_SCHEMA }, { key: "who" });
    return `Greet ${String(answer.content?.name)}`;
  }
}

function createServer(options: { key?: string } = {}): McpServer {
  const server = new McpServer({
    name: "input-required",
    version: "1.0.0",
    onToolError: (error) => toolErrors.push(error),
    ...(options.key !== undefined && { requestState: { key: options.key } }),
  });
  ctxTool(server, "greet", async (ctx) => {
    const answer = await ctx.elicit(
      { message: "What is your name?", requestedSchema: NAME_SCHEMA },
      { key: "user_name" },
    );
    return answer.action === "accept" ? `Hello, ${String(answer.content?.name)}!` : `No name (${answer.action})`;
  });
  ctxTool(server, "survey", async (ctx) => {
    const name = await ctx.elicit({ message: "Step 1: name?", requestedSchema: NAME_SCHEMA }, { key: "step1" });
    const color = await ctx.elicit({ message: "Step 2: color?", requestedSchema: COLOR_SCHEMA }, { key: "step2" });
    return `${String(name.content?.name)} likes ${String(color.content?.color)}`;
  });
  ctxTool(server, "gather", async (ctx) => {
    const [who, said, roots] = await Promise.all([
      ctx.elicit({ message: "Name?", requestedSchema: NAME_SCHEMA }),
      ctx.sample(SAMPLE_PARAMS),
      ctx.listRoots(),
    ]);
    const reply = Array.isArray(said.content) ? said.content[0] : said.content;
    return `${String(who.content?.name)}|${reply?.type === "text" ? reply.text : "?"}|${roots.roots.map((r) => r.uri).join(",")}`;
  });
  ctxTool(server, "swallow", async (ctx) => {
    try {
      await ctx.elicit({ message: "Name?", requestedSchema: NAME_SCHEMA }, { key: "n" });
      return "answered";
    } catch {
      return "swallowed";
    }
  });
  ctxTool(server, "twice", async (ctx) => {
    const [a, b] = await Promise.all([ctx.listRoots({ key: "k" }), ctx.listRoots({ key: "k" })]);
    return `${a.roots.length}+${b.roots.length}`;
  });
  ctxTool(server, "mixed", async (ctx) => {
    await ctx.elicit({ message: "Name?", requestedSchema: NAME_SCHEMA }, { key: "k" }).catch(() => undefined);
    await ctx.listRoots({ key: "k" });
    return "never";
  });
  server.add(new AskPrompts());
  return server;
}

/** One raw 2026-07-28 POST to `server.fetch` (declaring elicitation, sampling and roots): HTTP status, the JSON-RPC response and every message. */
async function post(
  server: McpServer,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const capabilities = { elicitation: {}, sampling: {}, roots: {} };
  const { status, answer, messages } = await post2026(server, method, params, { capabilities, headers });
  return { status, message: answer, messages };
}

const call = (server: McpServer, name: string, extra: Record<string, unknown> = {}) =>
  post(server, "tools/call", { name, arguments: {}, ...extra });

describe("2026-07-28 raw HTTP: input_required results (SEP-2322)", () => {
  it("an unanswered ctx.elicit answers input_required with the request under its key and a requestState", async () => {
    const server = createServer();
    const { status, message, messages } = await call(server, "greet");
    expect(status).toBe(200);
    expect(messages.filter((m) => m.method !== undefined && m.id !== undefined)).toEqual([]); // no server→client request
    const result = message.result;
    // InputRequiredResult: resultType, inputRequests, requestState (plus the SDK's _meta serverInfo).
    expect(
      Object.keys(result)
        .filter((k) => k !== "_meta")
        .sort(),
    ).toEqual(["inputRequests", "requestState", "resultType"]);
    expect(result.resultType).toBe("input_required");
    expect(result.inputRequests).toEqual({ user_name: form("What is your name?", NAME_SCHEMA) });
    expect(typeof result.requestState).toBe("string");
    expect(result.requestState.length).toBeGreaterThan(0);
    expect(toolErrors).toEqual([]);
  });

  it("the retry with inputResponses and the echoed requestState completes with the answer", async () => {
    const server = createServer();
    const first = (await call(server, "greet")).message.result;
    const { status, message } = await call(server, "greet", {
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
      requestState: first.requestState,
    });
    expect(status).toBe(200);
    expect(message.error).toBeUndefined();
    expect(message.result.resultType).not.toBe("input_required");
    expect(message.result.content).toEqual([{ type: "text", text: "Hello, Alice!" }]);
  });

  it("a declined elicitation is an answer too (the tool sees action decline)", async () => {
    const { message } = await call(createServer(), "greet", { inputResponses: { user_name: { action: "decline" } } });
    expect(message.result.content).toEqual([{ type: "text", text: "No name (decline)" }]);
  });

  it("an answer of the wrong kind or under another key is not used: the input is asked again", async () => {
    const server = createServer();
    for (const inputResponses of [
      { other: { action: "accept", content: { name: "A" } } },
      { user_name: { roots: [] } },
    ]) {
      const { message } = await call(server, "greet", { inputResponses });
      expect(message.result.resultType).toBe("input_required");
      expect(Object.keys(message.result.inputRequests)).toEqual(["user_name"]);
    }
  });

  it("multi-round: the first round's answer travels in requestState; the last retry carries only its own", async () => {
    const server = createServer();
    const r1 = (await call(server, "survey")).message.result;
    expect(Object.keys(r1.inputRequests)).toEqual(["step1"]);
    const r2 = (
      await call(server, "survey", {
        inputResponses: { step1: { action: "accept", content: { name: "Alice" } } },
        requestState: r1.requestState,
      })
    ).message.result;
    expect(r2.resultType).toBe("input_required");
    expect(r2.inputRequests).toEqual({ step2: form("Step 2: color?", COLOR_SCHEMA) });
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = (
      await call(server, "survey", {
        inputResponses: { step2: { action: "accept", content: { color: "blue" } } },
        requestState: r2.requestState,
      })
    ).message.result;
    expect(r3.content).toEqual([{ type: "text", text: "Alice likes blue" }]);
  });

  it("requests made together (Promise.all) are asked in one result, keyed by kind and order", async () => {
    const server = createServer();
    const r1 = (await call(server, "gather")).message.result;
    expect(r1.inputRequests).toEqual({
      "elicit-1": form("Name?", NAME_SCHEMA),
      "sample-1": { method: "sampling/createMessage", params: SAMPLE_PARAMS },
      "roots-1": { method: "roots/list", params: {} },
    });
    const r2 = (
      await call(server, "gather", {
        inputResponses: {
          "elicit-1": { action: "accept", content: { name: "Bo" } },
          "sample-1": { role: "assistant", content: { type: "text", text: "hi!" }, model: "m", stopReason: "endTurn" },
          "roots-1": { roots: [{ uri: "file:///r", name: "R" }] },
          extra: { action: "accept", content: {} },
        },
        requestState: r1.requestState,
      })
    ).message.result;
    expect(r2.content).toEqual([{ type: "text", text: "Bo|hi!|file:///r" }]);
  });

  it("a tampered requestState is refused with -32602 before the tool runs", async () => {
    const server = createServer();
    const r1 = (await call(server, "greet")).message.result;
    const before = runs.greet;
    const { message } = await call(server, "greet", {
      inputResponses: { user_name: { action: "accept", content: { name: "Mallory" } } },
      requestState: `${r1.requestState}-TAMPERED`,
    });
    expect(message.result).toBeUndefined();
    expect(message.error.code).toBe(-32602);
    expect(message.error.message).toBe("Invalid or expired requestState");
    expect(runs.greet).toBe(before);
  });

  it("a requestState minted for one call is refused on another tool or other arguments", async () => {
    const server = createServer();
    const r1 = (await call(server, "survey")).message.result;
    const r2 = (
      await call(server, "survey", {
        inputResponses: { step1: { action: "accept", content: { name: "A" } } },
        requestState: r1.requestState,
      })
    ).message.result;
    const elsewhere = await call(server, "greet", { requestState: r2.requestState });
    expect(elsewhere.message.error?.code).toBe(-32602);
    const otherArgs = await call(server, "survey", { arguments: { x: 1 }, requestState: r2.requestState });
    expect(otherArgs.message.error?.code).toBe(-32602);
  });

  it("a requestState from another server key is refused; one from the same key is accepted", async () => {
    const key = "k".repeat(32);
    const r1 = (await call(createServer({ key }), "survey")).message.result;
    const answer = {
      inputResponses: { step1: { action: "accept", content: { name: "A" } } },
      requestState: r1.requestState,
    };
    expect((await call(createServer({ key }), "survey", answer)).message.result.inputRequests).toHaveProperty("step2");
    expect((await call(createServer(), "survey", answer)).message.error?.code).toBe(-32602);
  });

  it("requestState options are checked when the server is constructed (HMAC key ≥ 32 bytes, positive TTL)", () => {
    expect(() => new McpServer({ name: "x", version: "1", requestState: { key: "k".repeat(31) } })).toThrow(RangeError);
    expect(() => new McpServer({ name: "x", version: "1", requestState: { key: new Uint8Array(16) } })).toThrow(
      RangeError,
    );
    expect(() => new McpServer({ name: "x", version: "1", requestState: { ttlSeconds: 0 } })).toThrow(RangeError);
    expect(
      () => new McpServer({ name: "x", version: "1", requestState: { key: "é".repeat(16), ttlSeconds: 1 } }),
    ).not.toThrow();
  });

  it("a tool that catches the input signal still answers input_required, never a tool failure", async () => {
    const { message } = await call(createServer(), "swallow");
    expect(message.result.resultType).toBe("input_required");
    expect(Object.keys(message.result.inputRequests)).toEqual(["n"]);
    expect(toolErrors).toEqual([]);
  });

  it("calls sharing a key share one input request and its answer", async () => {
    const server = createServer();
    const r1 = (await call(server, "twice")).message.result;
    expect(r1.inputRequests).toEqual({ k: { method: "roots/list", params: {} } });
    const r2 = (
      await call(server, "twice", {
        inputResponses: { k: { roots: [{ uri: "file:///x" }] } },
        requestState: r1.requestState,
      })
    ).message.result;
    expect(r2.content).toEqual([{ type: "text", text: "1+1" }]);
  });

  it("a key used for two kinds of input is a tool failure (TypeError) once the first is answered", async () => {
    const server = createServer();
    const before = toolErrors.length;
    const { message } = await call(server, "mixed", {
      inputResponses: { k: { action: "accept", content: { name: "A" } } },
    });
    expect(message.result.content).toEqual([{ type: "text", text: "The tool failed." }]);
    expect(message.result.isError).toBe(true);
    expect(toolErrors.slice(before).map((e) => (e as Error).name)).toEqual(["TypeError"]);
  });

  it("without the elicitation capability the request is refused with -32021 (SEP-2575), not asked", async () => {
    const { status, message } = await call(createServer(), "greet", {
      _meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: {} } },
    });
    expect(status).toBe(400);
    expect(message.error.code).toBe(-32021);
    expect(message.error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
  });

  it("prompts/get: a prompt's ctx.elicit answers input_required and completes on the retry", async () => {
    const server = createServer();
    const r1 = (await post(server, "prompts/get", { name: "greeting" })).message.result;
    expect(r1.resultType).toBe("input_required");
    expect(r1.inputRequests).toEqual({ who: form("Whom to greet?", NAME_SCHEMA) });
    const r2 = (
      await post(server, "prompts/get", {
        name: "greeting",
        inputResponses: { who: { action: "accept", content: { name: "Zoe" } } },
        requestState: r1.requestState,
      })
    ).message.result;
    expect(r2.messages).toEqual([{ role: "user", content: { type: "text", text: "Greet Zoe" } }]);
  });

  it("resources/read: a resource's ctx.listRoots answers input_required; the state is bound to the URI", async () => {
    const server = createServer();
    const r1 = (await post(server, "resources/read", { uri: "roots://first" })).message.result;
    expect(r1.resultType).toBe("input_required");
    expect(r1.inputRequests).toEqual({ "roots-1": { method: "roots/list", params: {} } });
    const r2 = (
      await post(server, "resources/read", {
        uri: "roots://first",
        inputResponses: { "roots-1": { roots: [{ uri: "file:///w" }] } },
        requestState: r1.requestState,
      })
    ).message.result;
    expect(r2.contents).toEqual([{ uri: "roots://first", mimeType: "text/plain", text: "file:///w" }]);
    const prompt = await post(server, "prompts/get", { name: "greeting", requestState: r1.requestState });
    expect(prompt.message.error?.code).toBe(-32602);
  });
});

/** A real SDK client on `server.fetch`, recording every tools/call POST body. */
async function connect(server: McpServer, options: Record<string, unknown>) {
  const calls: Array<Record<string, any>> = [];
  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    if (typeof init?.body === "string" && init.body.includes('"tools/call"')) calls.push(JSON.parse(init.body));
    return server.fetch(new Request(input, init));
  };
  const client = new Client({ name: "vitest-client", version: "0.0.1" }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchFn }));
  return { client, calls };
}

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

describe("2026-07-28 with the real client: its handlers answer the input requests, the call completes", () => {
  it("elicitation over two rounds (survey): the client retries with inputResponses and requestState", async () => {
    const { client, calls } = await connect(createServer(), { ...MODERN, capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request): Promise<ElicitResult> => {
      asked.push(request.params.message);
      return {
        action: "accept",
        content: request.params.message.startsWith("Step 1") ? { name: "Ann" } : { color: "red" },
      };
    });
    const result = await client.callTool({ name: "survey", arguments: {} });
    expect(text(result)).toBe("Ann likes red");
    expect(asked).toEqual(["Step 1: name?", "Step 2: color?"]);
    expect(calls).toHaveLength(3);
    expect(calls[0]!.params.inputResponses).toBeUndefined();
    expect(Object.keys(calls[1]!.params.inputResponses)).toEqual(["step1"]);
    expect(Object.keys(calls[2]!.params.inputResponses)).toEqual(["step2"]);
    expect(typeof calls[2]!.params.requestState).toBe("string");
    await client.close();
  });

  it("sampling and roots answered by the client's handlers (gather)", async () => {
    const { client } = await connect(createServer(), {
      ...MODERN,
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
    });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Cy" } }));
    client.setRequestHandler("sampling/createMessage", async () => ({
      role: "assistant",
      content: { type: "text", text: "yo" },
      model: "m",
    }));
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///a" }, { uri: "file:///b" }] }));
    const result = await client.callTool({ name: "gather", arguments: {} });
    expect(text(result)).toBe("Cy|yo|file:///a,file:///b");
    await client.close();
  });
});

describe("2025-11-25: ctx.elicit stays a real server→client request", () => {
  it("over a 2025-era connection the client's elicitation handler is called during the call, in one round", async () => {
    const server = createServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await (server as unknown as Record<symbol, () => { connect(t: unknown): Promise<void> }>)
      [SDK_FACTORY]()
      .connect(serverSide);
    const client = new Client({ name: "legacy", version: "1" }, { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler("elicitation/create", async () => {
      asked++;
      return { action: "accept", content: { name: "Dee" } };
    });
    await client.connect(clientSide);
    expect(client.getNegotiatedProtocolVersion?.() ?? "2025-11-25").toBe("2025-11-25");
    const before = runs.greet ?? 0;
    const result = await client.callTool({ name: "greet", arguments: {} });
    expect(text(result)).toBe("Hello, Dee!");
    expect(asked).toBe(1);
    expect(runs.greet).toBe(before + 1);
    await client.close();
  });
});
