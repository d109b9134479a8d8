// The middleware chain (`McpServer.use`, docs/observability.md "Middleware") driven by the real
// @modelcontextprotocol/client over `server.fetch` (both revision families) and over a lasting
// connection (the SDK server serveStdio builds, in memory): registration order, what the context
// holds, answering instead of next() (an isError result, a JSON-RPC error), the outcome the one
// pipeline notes, tasks (next() returns the CreateTaskResult, ctx.task.ended sees the end),
// 2026-07-28 input_required rounds (each passes, `inputRetry` tells the retries), and the three
// examples of the docs: per-caller rate limiting with rate-limiter-flexible (memory), audit
// logging, a per-tool allow list.
import { describe, expect, it } from "vitest";
import { Client, InMemoryTransport, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { McpServer, ProtocolError as ServerProtocolError } from "../../packages/typed-mcp/dist/index.js";
import type { Middleware, MiddlewareContext } from "../../packages/typed-mcp/dist/index.js";
import { SDK_FACTORY } from "../../packages/typed-mcp/dist/server.js";
import { generated } from "../../packages/typed-mcp/dist/internal.js";
import { createServer } from "./fixtures/tools.mjs";
import { createTaskServer } from "./fixtures/tasks-tools.mjs";
import { listenRequest, post2026 } from "../helpers/raw-http.ts";
import { createTask, getTask } from "../helpers/tasks.ts";
import { serveTransport } from "../../packages/typed-mcp/dist/transports/stdio.js";

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;
const text = (r: { content: unknown }): string =>
  (r.content as Array<{ text?: string }>).map((b) => b.text ?? "").join("");

/** A real client on `server.fetch`; `authInfo` (when given) is passed as FetchOptions.authInfo, as a verifying proxy would. */
async function connect(server: McpServer, options: Record<string, unknown> = {}, authInfo?: Record<string, unknown>) {
  const fetchFn = (input: string | URL | Request, init?: RequestInit) =>
    server.fetch(new Request(input, init), authInfo === undefined ? undefined : { authInfo: authInfo as never });
  const client = new Client({ name: "mw-client", version: "0.0.7" }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchFn }));
  return client;
}

/** A real client on a lasting connection: the SDK server serveStdio would build, over an in-memory pair. */
async function connectLasting(server: McpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server[SDK_FACTORY]().connect(serverSide);
  const client = new Client({ name: "lasting-client", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** Records every context a middleware saw (after next() settled) and passes on. */
function recorder(seen: MiddlewareContext[]): Middleware {
  return async (ctx, next) => {
    try {
      return await next();
    } finally {
      seen.push(ctx);
    }
  };
}

describe("order and context", () => {
  it("runs in registration order around the handler, and sees method, target, client, revision, transport", async () => {
    const server = createServer();
    const order: string[] = [];
    const seen: MiddlewareContext[] = [];
    server.use(async (ctx, next) => {
      order.push(`a>${ctx.method}`);
      const result = await next();
      order.push(`a<${ctx.method}`);
      return result;
    });
    server.use(async (ctx, next) => {
      order.push(`b>${ctx.method}`);
      const result = await next();
      order.push(`b<${ctx.method}`);
      return result;
    });
    server.use(recorder(seen));
    const client = await connect(server);
    await client.listTools();
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(text(result)).toBe("5");
    // initialize and ping do not pass the chain.
    await client.ping();
    expect(order).toEqual([
      "a>tools/list",
      "b>tools/list",
      "b<tools/list",
      "a<tools/list",
      "a>tools/call",
      "b>tools/call",
      "b<tools/call",
      "a<tools/call",
    ]);
    const call = seen[1]!;
    expect(call.method).toBe("tools/call");
    expect(call.target).toBe("add");
    expect(call.params).toMatchObject({ name: "add", arguments: { a: 2, b: 3 } });
    expect(call.clientInfo).toEqual({ name: "mw-client", version: "0.0.7" });
    expect(call.protocolVersion).toBe("2025-11-25");
    expect(call.transport).toBe("http");
    expect(call.httpRequest).toBeInstanceOf(Request);
    expect(call.outcome).toBe("ok");
    expect(call.inputRetry).toBe(false);
    expect(call.task).toBeUndefined();
    expect(call.authInfo).toBeUndefined();
    // A stateless 2025-era request carries typed-mcp's Mcp-Session-Id.
    expect(typeof call.session).toBe("string");
    expect(seen[0]!.target).toBeUndefined();
    await client.close();
  });

  it("on 2026-07-28: no session; the revision of the request", async () => {
    const server = createServer();
    const seen: MiddlewareContext[] = [];
    server.use(recorder(seen));
    const client = await connect(server, MODERN);
    await client.callTool({ name: "version", arguments: {} });
    const call = seen.find((c) => c.method === "tools/call")!;
    expect(call.protocolVersion).toBe("2026-07-28");
    expect(call.session).toBeUndefined();
    expect(call.target).toBe("version");
    await client.close();
  });

  it("on a lasting connection: transport stdio, the connection's session and caller", async () => {
    const server = createServer();
    const seen: MiddlewareContext[] = [];
    server.use(recorder(seen));
    const client = await connectLasting(server);
    await client.callTool({ name: "version", arguments: {} });
    await client.callTool({ name: "version", arguments: {} });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.transport).toBe("stdio");
    expect(seen[0]!.httpRequest).toBeUndefined();
    expect(seen[0]!.session).toMatch(/^connection:/);
    expect(seen[1]!.session).toBe(seen[0]!.session);
    expect(seen[0]!.caller).toBe(seen[0]!.session);
    await client.close();
  });

  it("notes each outcome of the one pipeline: invalid argument, ToolError, failure, timeout", async () => {
    const server = createServer({ requestTimeoutMs: 200 });
    const seen: MiddlewareContext[] = [];
    server.use(recorder(seen));
    const client = await connect(server);
    await client.callTool({ name: "add", arguments: { a: "x", b: 1 } });
    await client.callTool({ name: "refuse", arguments: {} });
    await client.callTool({ name: "explode", arguments: {} });
    await client.callTool({ name: "wait_for_abort", arguments: {} });
    const outcomes = seen.filter((c) => c.method === "tools/call").map((c) => [c.target, c.outcome]);
    expect(outcomes).toEqual([
      ["add", "invalid_argument"],
      ["refuse", "tool_error"],
      ["explode", "failed"],
      ["wait_for_abort", "timeout"],
    ]);
    await client.close();
  });

  it("a middleware added after serving started is seen by later requests; use() refuses a non-function", async () => {
    const server = createServer();
    const client = await connect(server);
    await client.callTool({ name: "version", arguments: {} });
    const seen: MiddlewareContext[] = [];
    server.use(recorder(seen));
    await client.callTool({ name: "version", arguments: {} });
    expect(seen.map((c) => c.method)).toEqual(["tools/call"]);
    expect(() => server.use("audit" as never)).toThrow(
      new TypeError("use() takes a middleware function (ctx, next), got string"),
    );
    await client.close();
  });

  it("next() twice is an error of that middleware: -32603 Internal error, the Error to onError", async () => {
    const failures: { kind: string; name: string; error: unknown }[] = [];
    const server = createServer({ onError: (f: (typeof failures)[number]) => failures.push(f) });
    server.use(async (_ctx, next) => {
      await next();
      return next();
    });
    const client = await connect(server);
    await expect(client.listTools()).rejects.toMatchObject({ code: -32603, message: "Internal error" });
    expect(failures.map((f) => [f.kind, f.name, (f.error as Error).message])).toEqual([
      ["middleware", "tools/list", "typed-mcp: a middleware called next() twice."],
    ]);
    await client.close();
  });

  it("a middleware answering with no result object (undefined, a number) is that middleware's error: -32603 Internal error, onError names what it returned", async () => {
    const failures: { kind: string; name: string; error: unknown }[] = [];
    const server = createServer({ onError: (f: (typeof failures)[number]) => failures.push(f) });
    const answers: Record<string, unknown> = { add: undefined, version: 42 };
    // The outer middleware sees next() reject with that error, as for a throw.
    const outer: unknown[] = [];
    server.use(async (_ctx, next) => next().catch((e: unknown) => (outer.push(e), Promise.reject(e))));
    server.use((ctx, next) => (ctx.target! in answers ? (answers[ctx.target!] as never) : next()));
    const client = await connect(server);
    for (const name of ["add", "version"])
      await expect(client.callTool({ name, arguments: { a: 1, b: 2 } })).rejects.toMatchObject({
        code: -32603,
        message: "Internal error",
      });
    expect(failures.map((f) => [f.kind, f.name, (f.error as Error).message])).toEqual([
      [
        "middleware",
        "tools/call",
        "typed-mcp: a middleware answered tools/call with undefined; return next()'s result or a result object, or throw a ProtocolError.",
      ],
      [
        "middleware",
        "tools/call",
        "typed-mcp: a middleware answered tools/call with number; return next()'s result or a result object, or throw a ProtocolError.",
      ],
    ]);
    expect(outer).toHaveLength(2);
    await client.close();
  });

  it("an exception a middleware throws is -32603 Internal error on every transport: its message is never sent (JSON-RPC 2.0 §5.1), onError gets it", async () => {
    const failures: { kind: string; name: string; error: unknown }[] = [];
    const server = createServer({ onError: (f: (typeof failures)[number]) => failures.push(f) });
    server.use((ctx, next) => {
      if (ctx.target === "add") throw new Error("db=postgres://admin:pw@10.0.0.5");
      return next();
    });
    for (const client of [await connect(server), await connect(server, MODERN), await connectLasting(server)]) {
      const error = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: -32603, message: "Internal error" });
      expect(JSON.stringify(error)).not.toContain("postgres");
      await client.close();
    }
    expect(failures.map((f) => [f.kind, f.name, (f.error as Error).message])).toEqual(
      Array(3).fill(["middleware", "tools/call", "db=postgres://admin:pw@10.0.0.5"]),
    );
  });

  it("what next() rejects with passes an outer middleware unchanged (a ProtocolError from an inner one), and is not reported", async () => {
    const failures: unknown[] = [];
    const server = createServer({ onError: (f: unknown) => failures.push(f) });
    server.use(async (_ctx, next) => {
      try {
        return await next();
      } catch (error) {
        throw error; // an audit middleware rethrowing what it saw
      }
    });
    server.use((ctx, next) => {
      if (ctx.method === "tools/list") throw new ServerProtocolError(-32001, "Listing is closed.");
      return next();
    });
    const client = await connect(server);
    await expect(client.listTools()).rejects.toMatchObject({ code: -32001, message: "Listing is closed." });
    expect(failures).toEqual([]);
    await client.close();
  });
});

describe("answering instead of next()", () => {
  it("a per-tool allow list: an isError result for a tool the caller may not call, the tool never runs", async () => {
    const server = createServer();
    let ran = 0;
    const allowed: Record<string, ReadonlySet<string>> = { alice: new Set(["add"]) };
    server.use(async (ctx, next) => {
      if (ctx.method !== "tools/call") return next();
      const who = ctx.authInfo?.clientId ?? "";
      if (allowed[who]?.has(ctx.target ?? "") === true) {
        ran++;
        return next();
      }
      return { content: [{ type: "text", text: `Tool ${ctx.target} is not allowed for ${who}.` }], isError: true };
    });
    const alice = await connect(server, {}, { token: "t", clientId: "alice", scopes: [] });
    expect(text(await alice.callTool({ name: "add", arguments: { a: 1, b: 1 } }))).toBe("2");
    const refused = await alice.callTool({ name: "version", arguments: {} });
    expect(refused).toEqual({
      content: [{ type: "text", text: "Tool version is not allowed for alice." }],
      isError: true,
    });
    expect(ran).toBe(1);
    await alice.close();
  });

  it("a JSON-RPC error: a thrown ProtocolError is the answer, on a list too", async () => {
    const server = createServer();
    server.use((ctx, next) => {
      if (ctx.method === "tools/list") throw new ServerProtocolError(-32001, "Listing is closed.");
      return next();
    });
    const client = await connect(server);
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32001, message: "Listing is closed." });
    await client.close();
  });
});

describe("a list a middleware changes per caller", () => {
  it("2026-07-28: answered with cacheScope private (spec §11)", async () => {
    const server = createServer();
    let filter = false;
    server.use(async (ctx, next) => {
      const result = await next();
      if (!filter || ctx.method !== "tools/list") return result;
      return { ...result, tools: (result.tools as Array<{ name: string }>).filter((t) => t.name === "add") };
    });
    const raw = async () =>
      (await post2026(server, "tools/list", {}, { capabilities: {} })).answer.result as {
        tools: Array<{ name: string }>;
        cacheScope?: string;
      };
    // The SDK 2.4.0 answers every 2026-07-28 list `private` unless a cache hint says otherwise;
    // the chain sets it itself on a list a middleware built, whatever that default becomes.
    expect((await raw()).tools.length).toBeGreaterThan(1);
    filter = true;
    const changed = await raw();
    expect(changed.tools.map((t) => t.name)).toEqual(["add"]);
    expect(changed.cacheScope).toBe("private");
  });
});

describe("rate limiting per caller (rate-limiter-flexible, memory)", () => {
  it("each caller has its own budget; a call over it is a JSON-RPC error and never reaches the tool", async () => {
    const server = createServer();
    const limiter = new RateLimiterMemory({ points: 2, duration: 60 });
    const calls: string[] = [];
    server.use(async (ctx, next) => {
      if (ctx.method !== "tools/call" || ctx.inputRetry) return next();
      try {
        await limiter.consume(ctx.caller);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        throw new ServerProtocolError(
          -32000,
          `Rate limit exceeded; retry in ${Math.ceil(refusal.msBeforeNext / 1000)} s.`,
        );
      }
      calls.push(ctx.authInfo?.clientId ?? "?");
      return next();
    });
    const token = (clientId: string) => ({
      token: clientId,
      clientId,
      scopes: [],
      extra: { issuer: "https://issuer.test", subject: clientId },
    });
    const alice = await connect(server, {}, token("alice"));
    const bob = await connect(server, {}, token("bob"));
    await alice.callTool({ name: "version", arguments: {} });
    await alice.callTool({ name: "version", arguments: {} });
    const over = await alice.callTool({ name: "version", arguments: {} }).catch((e: unknown) => e);
    expect(over).toMatchObject({ code: -32000 });
    expect((over as Error).message).toMatch(/Rate limit exceeded; retry in \d+ s\./);
    // Bob's budget is his own.
    expect(text(await bob.callTool({ name: "version", arguments: {} }))).toBe("1.0");
    expect(calls).toEqual(["alice", "alice", "bob"]);
    await alice.close();
    await bob.close();
  });
});

describe("audit logging", () => {
  it("one line per request with method, target, caller's client id and outcome; nothing of the arguments", async () => {
    const server = createServer();
    const log: string[] = [];
    server.use(async (ctx, next) => {
      let answer = "ok";
      try {
        const result = await next();
        if (result.isError === true) answer = "isError";
        return result;
      } catch (error) {
        answer = `error ${(error as { code?: number }).code}`;
        throw error;
      } finally {
        log.push(
          `${ctx.method} ${ctx.target ?? "-"} ${ctx.authInfo?.clientId ?? "anonymous"} ${answer} ${ctx.outcome ?? "-"}`,
        );
      }
    });
    const client = await connect(server, {}, { token: "t", clientId: "ci", scopes: [] });
    await client.listTools();
    await client.callTool({ name: "add", arguments: { a: 40, b: 2 } });
    await client.callTool({ name: "refuse", arguments: {} });
    await client.callTool({ name: "nope", arguments: {} }).catch(() => {});
    expect(log).toEqual([
      "tools/list - ci ok -",
      "tools/call add ci ok ok",
      "tools/call refuse ci isError tool_error",
      "tools/call nope ci error -32602 -",
    ]);
    await client.close();
  });
});

describe("tasks and input_required rounds", () => {
  it("a task call: next() returns the CreateTaskResult, ctx.task.ended resolves with the task's end", async () => {
    const server = createTaskServer();
    const seen: MiddlewareContext[] = [];
    let created: Record<string, unknown> | undefined;
    server.use(async (ctx, next) => {
      const result = await next();
      if (ctx.method === "tools/call") created = result;
      seen.push(ctx);
      return result;
    });
    const client = await connectLasting(server);
    const answer = await createTask(client, "slow_compute", { seconds: 0.05 });
    expect(created).toEqual({ task: answer.task });
    const call = seen.find((c) => c.method === "tools/call")!;
    expect(call.task?.taskId).toBe(answer.task.taskId);
    await expect(call.task!.ended).resolves.toEqual({ status: "completed", isError: false });
    // tasks/* pass the chain too, with the task id as target.
    expect((await getTask(client, answer.task.taskId)).status).toBe("completed");
    const get = seen.find((c) => c.method === "tasks/get");
    expect(get?.target).toBe(answer.task.taskId);
    await client.close();
  });

  it("2026-07-28 input_required: every round passes the chain once; inputRetry is false only on the first", async () => {
    const server = new McpServer({ name: "rounds", version: "1.0.0" });
    const descriptor = generated({
      listing: { name: "ask", inputSchema: { type: "object", properties: {}, additionalProperties: false } },
      read: (_args, ctx) => [ctx],
      write: (value) => ({ content: [{ type: "text", text: value as string }] }),
    });
    const ask = async (ctx: { elicit: Function }) => {
      const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
      const a = await ctx.elicit({ message: "Name?", requestedSchema: schema }, { key: "name" });
      const b = await ctx.elicit({ message: "Again?", requestedSchema: schema }, { key: "again" });
      return `${a.content.name}/${b.content.name}`;
    };
    (server.tool as (...a: unknown[]) => unknown)("ask", ask, descriptor);
    const rounds: Array<[boolean, string | undefined]> = [];
    server.use(async (ctx, next) => {
      const result = await next();
      if (ctx.method === "tools/call") rounds.push([ctx.inputRetry, result.resultType as string | undefined]);
      return result;
    });
    const client = await connect(server, { ...MODERN, capabilities: { elicitation: {} } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ann" } }));
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(text(result)).toBe("Ann/Ann");
    expect(rounds).toEqual([
      [false, "input_required"],
      [true, "input_required"],
      [true, undefined],
    ]);
    await client.close();
  });
});

describe("2026-07-28 subscriptions/listen on server.fetch", () => {
  const listen = (server: McpServer, authInfo?: Record<string, unknown>) =>
    server.fetch(
      listenRequest({ toolsListChanged: true }, { id: 7, client: "listener" }),
      authInfo === undefined ? undefined : { authInfo: authInfo as never },
    );

  it("passes the chain (method, client, revision, caller); next() resolves once the stream is accepted", async () => {
    const server = new McpServer({ name: "listen", version: "1.0.0", dynamic: true });
    const seen: MiddlewareContext[] = [];
    let answer: unknown;
    server.use(async (ctx, next) => {
      answer = await next();
      seen.push(ctx);
      return answer as Record<string, unknown>;
    });
    const response = await listen(server);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await response.body?.cancel();
    expect(answer).toEqual({});
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: "subscriptions/listen",
      requestId: 7,
      protocolVersion: "2026-07-28",
      clientInfo: { name: "listener", version: "1" },
      transport: "http",
      caller: "anonymous",
      inputRetry: false,
    });
    expect(seen[0]!.session).toBeUndefined();
  });

  it("a middleware refuses a listen by throwing a ProtocolError: that JSON-RPC error, no stream opened", async () => {
    const server = new McpServer({ name: "listen", version: "1.0.0", dynamic: true });
    server.use((ctx, next) => {
      if (ctx.method === "subscriptions/listen" && ctx.authInfo === undefined)
        throw new ServerProtocolError(-32001, "Sign in to listen.");
      return next();
    });
    const response = await listen(server);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32001, message: "Sign in to listen." },
    });
    const allowed = await listen(server, { token: "t", clientId: "c", scopes: [], extra: { subject: "s" } });
    expect(allowed.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await allowed.body?.cancel();
  });
});

describe("2026-07-28 subscriptions/listen on a lasting connection (serveTransport, as serveStdio serves it)", () => {
  const ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "listener", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  /** A raw 2026-07-28 peer on the SDK's in-memory pair: sends requests, resolves with the first message of each id (answer or listen ack). */
  async function rawConnection(server: McpServer) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const messages: Array<Record<string, any>> = [];
    clientSide.onmessage = (m) => void messages.push(m as Record<string, any>);
    await clientSide.start();
    const handle = serveTransport(server, { transport: serverSide });
    const mine = (id: number) => (m: Record<string, any>) =>
      m.id === id || m.params?._meta?.["io.modelcontextprotocol/subscriptionId"] === id;
    const request = async (id: number, method: string, params: Record<string, unknown>) => {
      await clientSide.send({ jsonrpc: "2.0", id, method, params: { ...params, _meta: ENVELOPE } });
      const deadline = Date.now() + 10_000;
      while (!messages.some(mine(id))) {
        if (Date.now() > deadline) throw new Error(`no answer to ${id}: ${JSON.stringify(messages)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return messages.find(mine(id))!;
    };
    return { request, messages, mine, send: (m: object) => clientSide.send(m as never), close: () => handle.close() };
  }

  it("passes the chain as on HTTP: the connection's session and caller, next() resolves with {} at the ack; a ProtocolError refuses it", async () => {
    const server = new McpServer({ name: "listen", version: "1.0.0", dynamic: true });
    const seen: MiddlewareContext[] = [];
    const answers: unknown[] = [];
    server.use(async (ctx, next) => {
      if (
        ctx.method === "subscriptions/listen" &&
        (ctx.params?.["notifications"] as Record<string, unknown> | undefined)?.["promptsListChanged"] === true
      )
        throw new ServerProtocolError(-32001, "Not this one.");
      const answer = await next();
      answers.push(answer);
      seen.push(ctx);
      return answer;
    });
    const c = await rawConnection(server);
    await c.request(1, "tools/list", {});
    const ack = await c.request(2, "subscriptions/listen", { notifications: { toolsListChanged: true } });
    expect(ack.method).toBe("notifications/subscriptions/acknowledged");
    await until(() => seen.length === 2);
    const [list, listen] = seen as [MiddlewareContext, MiddlewareContext];
    expect(list.method).toBe("tools/list");
    expect(listen).toMatchObject({
      method: "subscriptions/listen",
      requestId: 2,
      protocolVersion: "2026-07-28",
      clientInfo: { name: "listener", version: "1.0.0" },
      transport: "stdio",
      inputRetry: false,
    });
    expect(answers[1]).toEqual({});
    // The same connection as its other requests: one session, one caller (docs/security.md "Callers").
    expect(listen.session).toMatch(/^connection:[0-9a-f-]{36}$/);
    expect([listen.session, listen.caller]).toEqual([list.session, list.caller]);
    // A middleware's ProtocolError is that JSON-RPC error; the SDK never saw the listen (no ack).
    const refused = await c.request(3, "subscriptions/listen", { notifications: { promptsListChanged: true } });
    expect(refused).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32001, message: "Not this one." } });
    expect(c.messages.filter(c.mine(3))).toHaveLength(1);
    await c.close();
  });

  it("a listen cancelled while in the chain aborts ctx.signal and is neither opened nor answered; one refused after next() is closed", async () => {
    const server = new McpServer({ name: "listen", version: "1.0.0", dynamic: true });
    const aborted: unknown[] = [];
    let entered = false;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(async (ctx, next) => {
      if (ctx.method !== "subscriptions/listen" || ctx.requestId === 5) return next();
      if (ctx.requestId === 1) {
        ctx.signal.addEventListener("abort", () => aborted.push(ctx.requestId));
        entered = true;
        await held;
        return next();
      }
      await next();
      throw new ServerProtocolError(-32002, "Changed my mind.");
    });
    const c = await rawConnection(server);
    const sent = c.request(1, "subscriptions/listen", { notifications: { resourcesListChanged: true } });
    sent.catch(() => {});
    await until(() => entered);
    await c.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    await until(() => aborted.length === 1);
    release();
    // Refused after next(): the SDK's ack went out, then the listen is answered with the error.
    const refused = await c.request(2, "subscriptions/listen", { notifications: { resourcesListChanged: true } });
    expect(refused.method).toBe("notifications/subscriptions/acknowledged");
    await until(() => c.messages.some((m) => m.id === 2));
    expect(c.messages.find((m) => m.id === 2)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32002, message: "Changed my mind." },
    });
    // A list change reaches only the open stream 5: 1 was never opened, 2 was closed.
    const open = { notifications: { resourcesListChanged: true } };
    expect((await c.request(5, "subscriptions/listen", open)).method).toBe("notifications/subscriptions/acknowledged");
    server.addUiResource("ui://late/view", "<html></html>");
    const changed = (m: Record<string, any>) => m.method === "notifications/resources/list_changed";
    await until(() => c.messages.some(changed));
    expect(c.messages.filter(changed).map((m) => m.params?._meta?.["io.modelcontextprotocol/subscriptionId"])).toEqual([
      5,
    ]);
    expect(c.messages.filter(c.mine(1))).toEqual([]);
    await c.close();
  });
});

/** Waits (bounded, 10 s) until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met within 10 s");
    await new Promise((r) => setTimeout(r, 5));
  }
}
