// typed-mcp/otel in bundles and in Cloudflare's workerd (the real binary, npm `workerd`):
// - a Vite bundle that does not import typed-mcp/otel (the worker-style and the Node build of
//   test/runtimes/fixtures, `noExternal`) neither contains @opentelemetry/* nor asks to resolve it
//   (a resolveId recorder sees every specifier the build resolves);
// - the otel worker (test/runtimes/fixtures/src/otel-worker.ts: tracer provider given explicitly,
//   typed-mcp/otel's AsyncLocalStorage context manager) under nodejs_compat: a tools/call from the
//   real client is a SERVER span with the conventions' name and attributes, continuing the trace
//   of the client's `_meta.traceparent` with no propagator registered, and a span started
//   after an `await` inside the request is its child (the context survived the await).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { buildFixture, type Built } from "../runtimes/build.js";
import { startServer, type Running } from "../runtimes/helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const WORKERD = resolve(here, "../../node_modules/workerd/bin/workerd");
const OTEL = /@opentelemetry[/+]/;

let work: string;
const resolved: string[] = [];
const recorder = {
  name: "record-resolve",
  enforce: "pre" as const,
  resolveId(source: string) {
    resolved.push(source);
    return null;
  },
};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-otel-workerd-"));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("a bundle without typed-mcp/otel", () => {
  it.each(["worker", "node"] as const)(
    "%s build: no @opentelemetry module, no attempt to resolve one",
    async (target) => {
      resolved.length = 0;
      const built = await buildFixture(
        target === "worker" ? "worker" : "node",
        target,
        join(work, `plain-${target}`),
        undefined,
        [recorder],
      );
      expect(resolved.length).toBeGreaterThan(10);
      expect(resolved.filter((s) => OTEL.test(s))).toEqual([]);
      expect(Object.keys(built.modules).filter((id) => OTEL.test(id) || /typed-mcp\/dist\/otel/.test(id))).toEqual([]);
    },
  );
});

describe("workerd with nodejs_compat: the otel worker", () => {
  let built: Built;
  let server: Running | undefined;
  beforeAll(async () => {
    built = await buildFixture("otel-worker", "worker", join(work, "otel"));
    const file = join(work, "otel.capnp");
    await writeFile(
      file,
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "otel/otel-worker.js") ],
  compatibilityDate = "2026-08-01",
  compatibilityFlags = ["nodejs_compat"],
);
`,
    );
    server = await startServer(WORKERD, ["serve", file, "--control-fd=3"], {
      cwd: work,
      controlFd: true,
      listening: /"socket":"http","port":(\d+)/,
      url: (m) => `http://127.0.0.1:${m[1]}/mcp`,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the bundle holds typed-mcp/otel and the API", () => {
    const ids = Object.keys(built.modules);
    expect(ids.some((id) => id.endsWith("/packages/typed-mcp/dist/otel.js"))).toBe(true);
    expect(ids.some((id) => /@opentelemetry[/+]api/.test(id))).toBe(true);
  });

  it("a tools/call is a SERVER span; a span after an await in the request is its child", async () => {
    const client = new Client({ name: "workerd-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server!.url)));
    // The W3C Trace Context example traceparent (§3.2.2.4 examples): no propagator is registered
    // in the worker, so typed-mcp/otel's W3C default reads it (docs/observability.md "What is recorded").
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" }, _meta: { traceparent } });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada." }]);
    await client.close();
    const response = await fetch(new URL("/spans", server!.url));
    expect(response.status, server!.output()).toBe(200);
    const spans = (await response.json()) as Array<{
      name: string;
      kind: number;
      spanId: string;
      traceId: string;
      parentSpanId?: string;
      attributes: Record<string, unknown>;
    }>;
    const call = spans.find((s) => s.name === "tools/call greet");
    expect(call, JSON.stringify(spans.map((s) => s.name))).toBeDefined();
    expect(call!.kind).toBe(1); // SpanKind.SERVER
    expect([call!.traceId, call!.parentSpanId]).toEqual(["4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"]);
    expect(call!.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "greet",
      "gen_ai.operation.name": "execute_tool",
      "network.transport": "tcp",
      "typed_mcp.outcome": "ok",
    });
    const inner = spans.find((s) => s.name === "inner tools/call");
    expect(inner?.parentSpanId).toBe(call!.spanId);
    expect(inner?.traceId).toBe(call!.traceId);
  });
});
