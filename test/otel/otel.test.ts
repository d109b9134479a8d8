// typed-mcp/otel with the real OpenTelemetry SDK (in-memory span exporter, pull metric reader)
// and the real @modelcontextprotocol/client, over server.fetch and over a lasting connection (the
// SDK server serveStdio builds, in memory). Expected names, attributes and values are those of
// the OpenTelemetry MCP semantic conventions (open-telemetry/semantic-conventions-genai
// docs/gen-ai/mcp.md @ 0393513): span `{mcp.method.name} {target}`, kind SERVER, the attribute
// table of "Server", `error.type` = the JSON-RPC code or `tool_error` for an isError result,
// histograms in seconds with the conventions' bucket boundaries; and docs/observability.md for
// what the conventions leave open (timeout, cancelled, typed_mcp.outcome, tasks, input_required).
import { describe, expect, it } from "vitest";
import { SpanKind, SpanStatusCode, propagation, trace } from "@opentelemetry/api";
import { W3CBaggagePropagator } from "@opentelemetry/core";
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import type { RequestContext } from "../../packages/typed-mcp/dist/index.js";
import { SDK_FACTORY } from "../../packages/typed-mcp/dist/server.js";
import { definePrompts, defineResources, generated } from "../../packages/typed-mcp/dist/internal.js";
import { instrument } from "../../packages/typed-mcp/dist/otel.js";
import { serveTransport } from "../../packages/typed-mcp/dist/transports/stdio.js";
import { createServer } from "../runtime/fixtures/tools.mjs";
import { createTaskServer } from "../runtime/fixtures/tasks-tools.mjs";
import { createTask, taskResult } from "../helpers/tasks.ts";
import { clientContext, expectedSessionHash, propagator as harnessPropagator, sdk } from "./harness.ts";

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

async function connect(server: McpServer, options: Record<string, unknown> = {}) {
  const sessions: string[] = [];
  const fetchFn = (input: string | URL | Request, init?: RequestInit) => {
    const id = new Headers(init?.headers).get("mcp-session-id");
    if (id !== null) sessions.push(id);
    return server.fetch(new Request(input, init));
  };
  const client = new Client({ name: "otel-client", version: "1.0.0" }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchFn }));
  return { client, sessions };
}

async function connectLasting(server: McpServer, options: Record<string, unknown> = {}) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server[SDK_FACTORY]().connect(serverSide);
  const client = new Client({ name: "lasting-client", version: "1.0.0" }, options);
  await client.connect(clientSide);
  return client;
}

/** Waits (bounded, 10 s) until `check` holds. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met within 10 s");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A server with one resource `notes://first` (slow when asked), a template and the prompt `greeting`. */
function resourceServer(options: Record<string, unknown> = {}): McpServer {
  class Notes {
    static {
      defineResources(this, [
        {
          listing: { uri: "notes://first", name: "first" },
          read: () => [],
          write: (value: unknown, uri: string) => ({ contents: [{ uri, text: value as string }] }),
          member: "first",
        } as never,
        {
          listing: { uri: "notes://slow", name: "slow" },
          read: (_v: unknown, ctx: RequestContext) => [ctx],
          write: (value: unknown, uri: string) => ({ contents: [{ uri, text: value as string }] }),
          member: "slow",
        } as never,
      ]);
      definePrompts(this, [
        {
          listing: { name: "greeting", description: "Greets." },
          read: () => [],
          write: (value: unknown) => ({
            messages: [{ role: "user", content: { type: "text", text: value as string } }],
          }),
          member: "greeting",
        } as never,
      ]);
    }
    first(): string {
      return "one";
    }
    slow(ctx: RequestContext): Promise<string> {
      return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("late")));
    }
    greeting(): string {
      return "Hello";
    }
  }
  const server = new McpServer({ name: "notes", version: "1.0.0", ...options });
  server.add(new Notes());
  return server;
}

describe("a tools/call span (conventions, Server span)", () => {
  it("name, kind, every attribute, the client's trace context from _meta.traceparent as parent", async () => {
    const otel = sdk();
    const server = instrument(createServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    const { client, sessions } = await connect(server);
    const caller = clientContext(otel.tracerProvider);
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3 }, _meta: caller.meta });
    expect(result.content).toEqual([{ type: "text", text: "5" }]);
    const span = await otel.span("tools/call add");
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(span.spanContext().traceId).toBe(caller.spanContext.traceId);
    expect(span.parentSpanContext?.spanId).toBe(caller.spanContext.spanId);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.spanContext().traceState?.serialize()).toBe("rojo=00f067aa0ba902b7");
    const session = sessions.at(-1)!;
    expect(span.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "add",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": expect.stringMatching(/^\d+$/),
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "mcp.session.id": await expectedSessionHash(session),
      "typed_mcp.outcome": "ok",
    });
    // Never the session id itself, nor any argument value.
    const everything = JSON.stringify((await otel.spans()).map((s) => s.attributes));
    expect(everything).not.toContain(session);
    expect(everything).not.toMatch(/"a":2|"b":3/);
    await client.listTools();
    expect((await otel.span("tools/list")).attributes).toMatchObject({ "mcp.method.name": "tools/list" });
    expect((await otel.span("tools/list")).attributes["gen_ai.tool.name"]).toBeUndefined();
    caller.span.end();
    await client.close();
  });

  it("each outcome ends its span with the right status and error.type", async () => {
    const otel = sdk();
    const server = instrument(createServer({ requestTimeoutMs: 300 }), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    const { client } = await connect(server);
    await client.callTool({ name: "add", arguments: { a: "x", b: 1 } });
    await client.callTool({ name: "refuse", arguments: {} });
    await client.callTool({ name: "explode", arguments: {} });
    await client.callTool({ name: "wait_for_abort", arguments: {} });
    await client.callTool({ name: "no_such_tool", arguments: {} }).catch(() => {});
    const ending = async (name: string) => {
      const s = await otel.span(name);
      return [
        s.status,
        s.attributes["error.type"],
        s.attributes["typed_mcp.outcome"],
        s.attributes["rpc.response.status_code"],
      ];
    };
    const error = (message: string) => ({ code: SpanStatusCode.ERROR, message });
    expect(await ending("tools/call add")).toEqual([
      error("Argument 'a' is not valid. Expected a number, got a string."),
      "tool_error",
      "invalid_argument",
      undefined,
    ]);
    expect(await ending("tools/call refuse")).toEqual([error("No such order."), "tool_error", "tool_error", undefined]);
    expect(await ending("tools/call explode")).toEqual([error("The tool failed."), "tool_error", "failed", undefined]);
    expect(await ending("tools/call wait_for_abort")).toEqual([
      error("The tool timed out."),
      "timeout",
      "timeout",
      undefined,
    ]);
    expect(await ending("tools/call no_such_tool")).toEqual([
      error("Tool no_such_tool not found"),
      "-32602",
      undefined,
      "-32602",
    ]);
    await client.close();
  });

  it("a cancelled call: error.type cancelled (the SDK sends nothing)", async () => {
    const otel = sdk();
    const server = instrument(createServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    // The tool's listener is attached synchronously within next() (reader, then the function).
    let running = false;
    server.use((ctx, next) => {
      const answer = next();
      if (ctx.method === "tools/call") running = true;
      return answer;
    });
    const client = await connectLasting(server);
    const controller = new AbortController();
    const pending = client.callTool({ name: "wait_for_abort", arguments: {} }, { signal: controller.signal });
    pending.catch(() => {});
    await until(() => running);
    controller.abort("user");
    await pending.catch(() => {});
    await until(async () => (await otel.spans()).some((s) => s.name === "tools/call wait_for_abort"));
    const span = await otel.span("tools/call wait_for_abort");
    expect(span.attributes["error.type"]).toBe("cancelled");
    expect(span.attributes["typed_mcp.outcome"]).toBe("cancelled");
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    await client.close();
  });

  it("clientContext 'link': a new trace, linked to the client's context", async () => {
    const otel = sdk();
    const server = instrument(createServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
      clientContext: "link",
    });
    const { client } = await connect(server);
    const caller = clientContext(otel.tracerProvider);
    await client.callTool({ name: "version", arguments: {}, _meta: caller.meta });
    const span = await otel.span("tools/call version");
    expect(span.spanContext().traceId).not.toBe(caller.spanContext.traceId);
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([
      [caller.spanContext.traceId, caller.spanContext.spanId],
    ]);
    caller.span.end();
    await client.close();
  });

  it("the propagator: none registered → W3C Trace Context still continues the client's trace; a registered global one wins", async () => {
    const otel = sdk();
    const server = instrument(createServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    const { client } = await connect(server);
    const caller = clientContext(otel.tracerProvider);
    try {
      // No global propagator (the API's no-op, as on workerd with only a tracer provider given).
      propagation.disable();
      expect(propagation.fields()).toEqual([]);
      await client.callTool({ name: "add", arguments: { a: 1, b: 1 }, _meta: caller.meta });
      const continued = await otel.span("tools/call add");
      expect(continued.spanContext().traceId).toBe(caller.spanContext.traceId);
      expect(continued.parentSpanContext?.spanId).toBe(caller.spanContext.spanId);
      expect(continued.spanContext().traceState?.serialize()).toBe("rojo=00f067aa0ba902b7");
      // A registered global propagator is used instead: W3C Baggage alone reads no traceparent,
      // so the same _meta starts a new trace.
      propagation.setGlobalPropagator(new W3CBaggagePropagator());
      await client.callTool({ name: "version", arguments: {}, _meta: caller.meta });
      const fresh = await otel.span("tools/call version");
      expect(fresh.spanContext().traceId).not.toBe(caller.spanContext.traceId);
      expect(fresh.parentSpanContext).toBeUndefined();
    } finally {
      propagation.disable();
      propagation.setGlobalPropagator(harnessPropagator);
      caller.span.end();
      await client.close();
    }
  });

  it("arguments and results only when asked (recordArguments, recordResults)", async () => {
    const otel = sdk();
    const server = instrument(createServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
      recordArguments: true,
      recordResults: true,
    });
    const { client } = await connect(server);
    await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    const span = await otel.span("tools/call add");
    expect(span.attributes["gen_ai.tool.call.arguments"]).toBe('{"a":2,"b":3}');
    expect(span.attributes["gen_ai.tool.call.result"]).toBe('[{"type":"text","text":"5"}]');
    await client.close();
  });

  it("2026-07-28: no mcp.session.id; the request's revision", async () => {
    const otel = sdk();
    const server = instrument(createServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    const { client } = await connect(server, MODERN);
    await client.callTool({ name: "version", arguments: {} });
    const span = await otel.span("tools/call version");
    expect(span.attributes["mcp.protocol.version"]).toBe("2026-07-28");
    expect(span.attributes["mcp.session.id"]).toBeUndefined();
    await client.close();
  });
});

describe("resources and prompts", () => {
  it("resources/read: mcp.resource.uri, not in the name; prompts/get {name}: gen_ai.prompt.name; a timeout is error.type timeout, -32603", async () => {
    const otel = sdk();
    const server = instrument(resourceServer({ requestTimeoutMs: 300 }), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    const { client } = await connect(server);
    await client.readResource({ uri: "notes://first" });
    await client.getPrompt({ name: "greeting" });
    await client.readResource({ uri: "notes://slow" }).catch(() => {});
    const reads = (await otel.spans()).filter((s) => s.name === "resources/read");
    expect(reads.map((s) => s.attributes["mcp.resource.uri"])).toEqual(["notes://first", "notes://slow"]);
    expect(reads[0]!.attributes["typed_mcp.outcome"]).toBe("ok");
    expect(reads[1]!.attributes["error.type"]).toBe("timeout");
    expect(reads[1]!.attributes["rpc.response.status_code"]).toBe("-32603");
    expect(reads[1]!.status).toEqual({ code: SpanStatusCode.ERROR, message: "The resource read timed out." });
    const prompt = await otel.span("prompts/get greeting");
    expect(prompt.attributes["gen_ai.prompt.name"]).toBe("greeting");
    expect(prompt.attributes["gen_ai.operation.name"]).toBeUndefined();
    await client.close();
  });
});

describe("metrics (conventions, Metrics)", () => {
  it("mcp.server.operation.duration: seconds, the conventions' buckets, attributes with error.type", async () => {
    const otel = sdk();
    const server = instrument(createServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    const { client } = await connect(server);
    await client.callTool({ name: "add", arguments: { a: 1, b: 1 } });
    await client.callTool({ name: "refuse", arguments: {} });
    const { unit, points } = await otel.histogram("mcp.server.operation.duration");
    expect(unit).toBe("s");
    const add = points.find((p) => p.attributes["gen_ai.tool.name"] === "add")!;
    expect(add.boundaries).toEqual(BUCKETS);
    expect(add.count).toBe(1);
    expect(add.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "add",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "typed_mcp.outcome": "ok",
    });
    const refuse = points.find((p) => p.attributes["gen_ai.tool.name"] === "refuse")!;
    expect(refuse.attributes["error.type"]).toBe("tool_error");
    await client.close();
  });

  it("mcp.server.session.duration: one point per lasting connection when it closes; notifications are SERVER spans", async () => {
    const otel = sdk();
    const server = instrument(createServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    const client = await connectLasting(server);
    await client.callTool({ name: "version", arguments: {} });
    expect((await otel.histogram("mcp.server.session.duration")).points).toEqual([]);
    await client.close();
    await until(async () => true);
    const { unit, points } = await otel.histogram("mcp.server.session.duration");
    expect(unit).toBe("s");
    expect(points.map((p) => [p.attributes, p.count, p.boundaries])).toEqual([
      [{ "network.transport": "pipe", "mcp.protocol.version": "2025-11-25" }, 1, BUCKETS],
    ]);
    const initialized = await otel.span("notifications/initialized");
    expect(initialized.kind).toBe(SpanKind.SERVER);
    expect(initialized.attributes["mcp.method.name"]).toBe("notifications/initialized");
    expect(initialized.attributes["network.transport"]).toBe("pipe");
    expect((await otel.span("tools/call version")).attributes["mcp.session.id"]).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("server→client requests, tasks, input_required", () => {
  it("elicitation/create is a CLIENT span, child of the tool's span; its trace context reaches the client in _meta", async () => {
    const otel = sdk();
    const server = instrument(createTaskServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    const client = await connectLasting(server, { capabilities: { elicitation: {} } });
    const seen: Array<Record<string, unknown> | undefined> = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      seen.push(request.params._meta as Record<string, unknown> | undefined);
      return { action: "accept", content: { ok: true } };
    });
    const result = await client.callTool({ name: "confirm", arguments: { file: "a.txt" } });
    expect(result.content).toEqual([{ type: "text", text: "Deleted a.txt" }]);
    const call = await otel.span("tools/call confirm");
    const elicit = await otel.span("elicitation/create");
    expect(elicit.kind).toBe(SpanKind.CLIENT);
    expect(elicit.attributes["mcp.method.name"]).toBe("elicitation/create");
    expect(elicit.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    const { traceId, spanId } = elicit.spanContext();
    expect(seen[0]?.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    await client.close();
  });

  it("a task: the tools/call span ends at the CreateTaskResult (typed_mcp.result_type task), tasks/run {tool} at the task's end", async () => {
    const otel = sdk();
    const server = instrument(createTaskServer(), {
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    const client = await connectLasting(server);
    const { task } = await createTask(client, "slow_compute", { seconds: 0.05 });
    await taskResult(client, task.taskId);
    await until(async () => (await otel.spans()).some((s) => s.name === "tasks/run slow_compute"));
    const call = await otel.span("tools/call slow_compute");
    expect(call.attributes["typed_mcp.result_type"]).toBe("task");
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    const run = await otel.span("tasks/run slow_compute");
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(run.attributes["error.type"]).toBeUndefined();
    // The task id (it reaches an anonymous caller's task) is never recorded.
    expect(JSON.stringify((await otel.spans()).map((s) => s.attributes))).not.toContain(task.taskId);
    await client.close();
  });

  it("2026-07-28 input_required: a SERVER span per round, typed_mcp.result_type input_required, the retry marked", async () => {
    const otel = sdk();
    const server = new McpServer({ name: "rounds", version: "1.0.0" });
    const descriptor = generated({
      listing: { name: "ask", inputSchema: { type: "object", properties: {}, additionalProperties: false } },
      read: (_args, ctx) => [ctx],
      write: (value) => ({ content: [{ type: "text", text: value as string }] }),
    });
    const ask = async (ctx: RequestContext) => {
      const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;
      const a = await ctx.elicit({ message: "Name?", requestedSchema: schema as never }, { key: "name" });
      return String(a.content?.name);
    };
    (server.tool as (...a: unknown[]) => unknown)("ask", ask, descriptor);
    instrument(server, { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
    const { client } = await connect(server, { ...MODERN, capabilities: { elicitation: {} } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ann" } }));
    await client.callTool({ name: "ask", arguments: {} });
    const rounds = (await otel.spans()).filter((s) => s.name === "tools/call ask");
    expect(
      rounds.map((s) => [s.attributes["typed_mcp.result_type"], s.attributes["typed_mcp.input_retry"], s.status.code]),
    ).toEqual([
      ["input_required", undefined, SpanStatusCode.UNSET],
      [undefined, true, SpanStatusCode.UNSET],
    ]);
    await client.close();
  });
});

describe("2026-07-28 subscriptions/listen on a lasting connection (serveTransport, as serveStdio serves it)", () => {
  it("a SERVER span continuing the client's _meta trace, network.transport pipe, the connection's session as its other requests", async () => {
    const otel = sdk();
    const server = new McpServer({ name: "listen", version: "1.0.0", dynamic: true });
    instrument(server, { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const messages: Array<Record<string, any>> = [];
    clientSide.onmessage = (m) => void messages.push(m as Record<string, any>);
    await clientSide.start();
    const handle = serveTransport(server, { transport: serverSide });
    const caller = clientContext(otel.tracerProvider);
    const envelope = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "listener", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    await clientSide.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope } });
    await until(() => messages.some((m) => m.id === 1));
    const listen = { notifications: { toolsListChanged: true }, _meta: { ...envelope, ...caller.meta } };
    await clientSide.send({ jsonrpc: "2.0", id: 2, method: "subscriptions/listen", params: listen });
    await until(async () => (await otel.spans()).some((s) => s.name === "subscriptions/listen"));
    expect(messages.some((m) => m.method === "notifications/subscriptions/acknowledged")).toBe(true);
    const span = await otel.span("subscriptions/listen");
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(caller.spanContext.traceId);
    expect(span.parentSpanContext?.spanId).toBe(caller.spanContext.spanId);
    expect(span.attributes).toMatchObject({
      "mcp.method.name": "subscriptions/listen",
      "jsonrpc.request.id": "2",
      "mcp.protocol.version": "2026-07-28",
      "network.transport": "pipe",
    });
    expect(span.attributes["error.type"]).toBeUndefined();
    expect(span.attributes["mcp.session.id"]).toBe((await otel.span("tools/list")).attributes["mcp.session.id"]);
    caller.span.end();
    await handle.close();
  });
});

describe("no SDK registered (last: it registers a global tracer provider)", () => {
  it("instrument() with the API's no-op providers: calls answer as without it; a later SDK is used; instrumenting twice is refused", async () => {
    const server = instrument(createServer());
    const { client } = await connect(server);
    expect((await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).content).toEqual([
      { type: "text", text: "3" },
    ]);
    expect(() => instrument(server)).toThrow(new Error("typed-mcp: this server is already instrumented."));
    // An SDK registered after instrument() (through the API's global proxy) records from then on.
    const otel = sdk();
    trace.setGlobalTracerProvider(otel.tracerProvider);
    await client.callTool({ name: "version", arguments: {} });
    expect((await otel.span("tools/call version")).kind).toBe(SpanKind.SERVER);
    expect(() => instrument(createServer(), { clientContext: "trust" as never })).toThrow(
      new TypeError('clientContext must be "parent", "link" or "ignore", got trust'),
    );
    await client.close();
  });
});
