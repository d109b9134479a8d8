// End to end over OTLP/HTTP: Vite builds the playground (test/helpers/build-cache.ts, reused in the
// fast tier when its inputs are unchanged; it exports with the OTel SDK for Node
// when OTEL_EXPORTER_OTLP_ENDPOINT is set, playground/src/telemetry.ts); the bundle runs over
// Streamable HTTP (serveHttp) and over stdio, driven by the official client, and exports to a
// loopback receiver (node:http, port 0) that decodes the protobuf bodies with the OTel packages'
// generated OTLP schema (@opentelemetry/otlp-transformer 0.52's protobufjs root). Export happens
// at the latest on SIGTERM (the playground flushes), so nothing waits on a timer. Without the
// variable the receiver gets nothing.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cachedServerBuild } from "../helpers/build-cache.ts";

const require = createRequire(import.meta.url);
// The generated OTLP protobuf schema (opentelemetry-proto) of the OTel JS packages.
const root = require("otlp-transformer-0.52/build/src/generated/root.js").opentelemetry.proto;
const TraceRequest = root.collector.trace.v1.ExportTraceServiceRequest;
const MetricsRequest = root.collector.metrics.v1.ExportMetricsServiceRequest;

type KeyValue = { key: string; value: Record<string, unknown> };
const attrs = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map((kv) => [kv.key, Object.values(kv.value)[0]])) as Record<string, unknown>;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

interface DecodedSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
}

/** A loopback OTLP/HTTP receiver: every POST body on /v1/traces and /v1/metrics, decoded. */
class Receiver {
  readonly spans: DecodedSpan[] = [];
  readonly metrics: Array<{ name: string; unit: string; points: Array<Record<string, unknown>> }> = [];
  readonly contentTypes: string[] = [];
  resource: Record<string, unknown> = {};
  server!: Server;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.contentTypes.push(`${req.url} ${req.headers["content-type"]}`);
        const body = Buffer.concat(chunks);
        if (req.url === "/v1/traces") this.#traces(body);
        if (req.url === "/v1/metrics") this.#metrics(body);
        res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}`;
  }

  #traces(body: Buffer): void {
    const request = TraceRequest.decode(body);
    for (const rs of request.resourceSpans) {
      this.resource = attrs(rs.resource?.attributes);
      for (const ss of rs.scopeSpans)
        for (const s of ss.spans)
          this.spans.push({
            name: s.name,
            kind: s.kind,
            traceId: hex(s.traceId),
            spanId: hex(s.spanId),
            parentSpanId: hex(s.parentSpanId ?? new Uint8Array()),
            attributes: attrs(s.attributes),
          });
    }
  }

  #metrics(body: Buffer): void {
    const request = MetricsRequest.decode(body);
    for (const rm of request.resourceMetrics)
      for (const sm of rm.scopeMetrics)
        for (const m of sm.metrics)
          this.metrics.push({
            name: m.name,
            unit: m.unit,
            points: (m.histogram?.dataPoints ?? []).map(
              (p: { attributes: KeyValue[]; count: unknown; explicitBounds: number[] }) => ({
                ...attrs(p.attributes),
                count: Number(p.count),
                bounds: p.explicitBounds,
              }),
            ),
          });
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

let work: string;
let bundle: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-otlp-"));
  bundle = await cachedServerBuild("playground");
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Starts the bundle over HTTP (PORT 0) with `env`; resolves with its URL. */
async function startHttp(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bundle, "--http"], {
    env: { PATH: process.env.PATH ?? "", MEMORY_FILE_PATH: join(work, "memory.json"), PORT: "0", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let err = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      err += chunk;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) resolveUrl(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code}): ${err}`)));
    setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000).unref();
  });
  return { child, url };
}

/** Sends SIGTERM (the playground flushes its exporters) and waits for the exit. */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((r) => {
    if (child.exitCode !== null) return r();
    child.once("exit", () => r());
    child.kill("SIGTERM");
  });
}

/**
 * One `graph_stats` call over HTTP, start to stop: a receiver started, the bundle started over
 * HTTP with `env` (and `OTEL_EXPORTER_OTLP_ENDPOINT` = the receiver, unless `exporting` is false),
 * the official client's call (with `meta` as its `_meta`), then SIGTERM (the playground flushes)
 * and the receiver closed; what it received and the call's result.
 */
async function callOverHttp(
  env: Record<string, string>,
  { exporting = true, meta }: { exporting?: boolean; meta?: Record<string, unknown> } = {},
): Promise<{ receiver: Receiver; result: Awaited<ReturnType<Client["callTool"]>> }> {
  const receiver = new Receiver();
  await receiver.start();
  const { child, url } = await startHttp({ ...(exporting && { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }), ...env });
  try {
    const client = new Client({ name: "otlp-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({ name: "graph_stats", arguments: {}, ...(meta && { _meta: meta }) });
    await client.close();
    return { receiver, result };
  } finally {
    await stop(child);
    await receiver.close();
  }
}

const BOUNDS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Waits (bounded, 10 s) until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met within 10 s");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("the playground with OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("over serveHttp: the tools/call span, child of the client's traceparent, and the operation histogram, in OTLP protobuf", async () => {
    const { receiver, result } = await callOverHttp(
      { OTEL_SERVICE_NAME: "memory-e2e" },
      { meta: { traceparent: TRACEPARENT } },
    );
    expect(result.isError).toBeUndefined();
    expect(receiver.contentTypes).toContain("/v1/traces application/x-protobuf");
    expect(receiver.resource["service.name"]).toBe("memory-e2e");
    const span = receiver.spans.find((s) => s.name === "tools/call graph_stats");
    expect(span, JSON.stringify(receiver.spans.map((s) => s.name))).toBeDefined();
    expect(span!.kind).toBe(2); // SPAN_KIND_SERVER
    expect(span!.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(span!.parentSpanId).toBe("00f067aa0ba902b7");
    expect(span!.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "graph_stats",
      "gen_ai.operation.name": "execute_tool",
      "network.transport": "tcp",
      "mcp.protocol.version": "2025-11-25",
      "typed_mcp.outcome": "ok",
    });
    expect(span!.attributes["mcp.session.id"]).toMatch(/^[0-9a-f]{32}$/);
    const operation = receiver.metrics.find((m) => m.name === "mcp.server.operation.duration");
    expect(operation?.unit).toBe("s");
    expect(operation?.points.find((p) => p["gen_ai.tool.name"] === "graph_stats")).toMatchObject({
      "mcp.method.name": "tools/call",
      count: 1,
      bounds: BOUNDS,
    });
  });

  it("over stdio: notifications/initialized and the tools/call as SERVER spans (network.transport pipe), mcp.server.session.duration at close", async () => {
    const receiver = new Receiver();
    await receiver.start();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundle],
      env: {
        PATH: process.env.PATH ?? "",
        MEMORY_FILE_PATH: join(work, "memory.json"),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      },
      stderr: "pipe",
    });
    const client = new Client({ name: "otlp-stdio", version: "1.0.0" });
    await client.connect(transport);
    await client.callTool({ name: "graph_stats", arguments: {} });
    // Closing the client ends stdin: the connection closes (session.duration is recorded), and the
    // playground flushes its exporters before the process exits (beforeExit; SIGTERM if it lingers).
    await client.close();
    await until(() => receiver.metrics.some((m) => m.name === "mcp.server.session.duration"));
    const session = receiver.metrics.find((m) => m.name === "mcp.server.session.duration")!;
    expect(session.unit).toBe("s");
    expect(session.points).toEqual([
      { "network.transport": "pipe", "mcp.protocol.version": "2025-11-25", count: 1, bounds: BOUNDS },
    ]);
    const call = receiver.spans.find((s) => s.name === "tools/call graph_stats");
    expect(call?.attributes["network.transport"]).toBe("pipe");
    expect(receiver.spans.find((s) => s.name === "notifications/initialized")?.kind).toBe(2);
    await receiver.close();
  });

  it("OTEL_RESOURCE_ATTRIBUTES reaches the exported resource beside OTEL_SERVICE_NAME's default", async () => {
    const { receiver } = await callOverHttp({ OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=e2e" });
    expect(receiver.resource).toMatchObject({
      "deployment.environment.name": "e2e",
      "service.name": "typed-mcp-memory",
    });
  });

  it("without it: nothing is exported", async () => {
    const { receiver, result } = await callOverHttp({ OTEL_SERVICE_NAME: "memory-e2e" }, { exporting: false });
    expect(result.isError).toBeUndefined();
    expect(receiver.contentTypes).toEqual([]);
  });
});
