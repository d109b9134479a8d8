// Shared expectations and the MCP scenario of the runtime tests. The expected listing and texts
// are written by hand from docs/mapping.md (§1 names, descriptions, key order and
// annotations; §2 keyword order; §3 parameters; §4 types; §5 argument errors; §6 results; §7
// errors) for the fixture in test/runtimes/fixtures/src — never copied from output.
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const point =
  '{"type":"object","properties":{"x":{"type":"number","description":"Horizontal position."},' +
  '"y":{"type":"number","description":"Vertical position."}},"required":["x","y"]}';

/** tools/list of the fixture for a client on 2025-06-18 or later (both clients here), in registration order. */
const EXPECTED_TOOLS =
  "[" +
  [
    // Geometry.measureSegment: @tool({ title, readOnly }), imported interfaces, Int with a default.
    '{"name":"measure_segment","description":"Measures a segment.",' +
      '"inputSchema":{"type":"object","properties":{' +
      '"segment":{"type":"object","description":"The segment to measure.","properties":{' +
      `"from":${point},"to":${point},"label":{"type":"string","description":"A name to show."}},"required":["from","to"]},` +
      '"digits":{"type":"integer","description":"Digits after the decimal point.","default":2}},' +
      '"required":["segment"],"additionalProperties":false},' +
      '"outputSchema":{"type":"object","properties":{"length":{"type":"number"},"label":{"type":["string","null"]}},"required":["length","label"]},' +
      '"annotations":{"title":"Measure","readOnlyHint":true}}',
    // Geometry.translatePointAsync: @tool("translate"), Promise<Point> unwrapped.
    '{"name":"translate","description":"Moves a point.",' +
      `"inputSchema":{"type":"object","properties":{"point":${point},"dx":{"type":"number"},"dy":{"type":"number","default":0}},` +
      '"required":["point","dx"],"additionalProperties":false},' +
      `"outputSchema":${point}}`,
    // Geometry.divide: a number result has no outputSchema.
    '{"name":"divide","description":"Divides two numbers.",' +
      '"inputSchema":{"type":"object","properties":{"a":{"type":"number","description":"The dividend."},' +
      '"b":{"type":"number","description":"The divisor."}},"required":["a","b"],"additionalProperties":false}}',
    '{"name":"explode","description":"Always fails.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}',
    // server.tool("greet", { idempotent: true }, greet): the JSDoc of the const arrow function.
    '{"name":"greet","description":"Greets someone.",' +
      '"inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Who to greet."},' +
      '"excited":{"type":"boolean","description":"End with an exclamation mark.","default":false}},' +
      '"required":["name"],"additionalProperties":false},"annotations":{"idempotentHint":true}}',
    '{"name":"runtime","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}',
    '{"name":"published_errors","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}',
  ].join(",") +
  "]";

import { recordIncoming, type Raw } from "../helpers/wire.ts";
import { listenRequest } from "../helpers/raw-http.ts";
export { recordIncoming, type Raw };

/** A TCP port that was free a moment ago on 127.0.0.1 (for servers that cannot report theirs). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolvePort(port));
    });
  });
}

/**
 * Resolves once 127.0.0.1:`port` accepts a TCP connection (bounded: 20 s); rejects, naming `name`,
 * at once when `child` exits first, or after the 20 s.
 */
export async function waitForPort(port: number, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before listening on ${port}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${name} did not listen on ${port} within 20 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A started server process, killed (with its process group) by `stop`. */
export interface Running {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Spawns a server and waits until `listening` matches its stdout/stderr (group 1: the MCP URL).
 */
export function startServer(
  command: string,
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string>;
    listening?: RegExp;
    /** The MCP URL from the `listening` match (default: group 1). */
    url?: (match: RegExpExecArray) => string;
    /** Also read file descriptor 3 (workerd's `--control-fd=3`). */
    controlFd?: boolean;
    timeoutMs?: number;
  } = {},
): Promise<Running> {
  const listening = options.listening ?? /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/;
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...options.env },
    stdio: options.controlFd ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      child.kill("SIGTERM");
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* gone */
      }
    }, 3000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise<Running>((resolveRunning, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const m = listening.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveRunning({ url: options.url ? options.url(m) : m[1]!, child, output: () => out, stop });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    if (options.controlFd) (child.stdio[3] as NodeJS.ReadableStream).on("data", onData);
    child.once("error", (e) => reject(e));
    child.once("exit", (code, signal) =>
      reject(new Error(`${command} exited (${code ?? signal}) before listening:\n${out}`)),
    );
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} did not start within ${options.timeoutMs ?? 30_000} ms:\n${out}`));
    }, options.timeoutMs ?? 30_000);
  });
}

/** The two clients every HTTP runtime is driven with. */
export const CLIENTS = [
  { label: "2025-11-25 client (the client's default)", revision: "2025-11-25", options: {} },
  {
    label: "2026-07-28 client",
    revision: "2026-07-28",
    options: { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  },
] as const;

function onlyText(result: { content?: unknown }): string {
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe("text");
  return content[0]!.text;
}

/** A request for the tools/list the client sent (2025: id of a `tools/list`; 2026: the same). */
function toolsListResult(raw: Raw[]): Record<string, unknown> | undefined {
  return raw.find((m) => m.result && Array.isArray(m.result.tools))?.result;
}

export interface ScenarioOptions {
  /** The URL of the running server (read after `beforeAll`). */
  url: () => string;
  /** What the `runtime` tool must answer (`navigator.userAgent` of the runtime). */
  runtime: RegExp;
  /** Whether `node:diagnostics_channel` is there (spec §7): failures are then published. */
  diagnosticsChannel: boolean;
}

/**
 * The MCP scenario over Streamable HTTP, once per client revision: the raw tools/list equals
 * {@link EXPECTED_TOOLS}, calls answer as spec §5–§7 say.
 */
export function httpScenario(opts: ScenarioOptions): void {
  // server.fetch reads JSON bodies ahead of the SDK and hands a body it cannot take to the SDK as a
  // replayed copy of the request (docs/runtime.md "Request bodies"): that copy must work on this
  // runtime too. JSON-RPC 2.0 §5.1: -32700 Parse error for a body that is not JSON.
  it("answers a POST whose body is not JSON with -32700 Parse error (the body replayed to the SDK)", async () => {
    for (const body of ["not json", '{"jsonrpc":"2.0",']) {
      const response = await fetch(opts.url(), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    }
  });
  // MCP 2025-06-18 removed JSON-RPC batching: server.fetch refuses a batch there and later with
  // HTTP 400, -32600 Invalid Request, id null (docs/security.md "JSON-RPC batches").
  it("refuses a JSON-RPC batch on 2025-11-25 with HTTP 400 -32600", async () => {
    const response = await fetch(opts.url(), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", id: 2, method: "ping" },
      ]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "JSON-RPC batches are not supported on MCP 2025-06-18 and later." },
    });
  });
  // 2026-07-28 subscriptions/listen through server.fetch's bounded stream (docs/security.md "Streams"):
  // a filter over streams.maxListenUris (1,000) is -32602 naming it; an accepted listen's SSE body
  // (re-streamed by typed-mcp with its byte ceiling) arrives whole on this runtime: the ack, then,
  // as the fixture advertises no listChanged, the listen result closing it.
  it("subscriptions/listen: 1,001 URIs is -32602 naming streams.maxListenUris; an accepted stream arrives whole", async () => {
    const listen = (notifications: unknown) => fetch(listenRequest(notifications, { id: 9, url: opts.url() }));
    const refused = await listen({ resourceSubscriptions: Array.from({ length: 1001 }, (_, i) => `x://${i}`) });
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: {
        code: -32602,
        message:
          "Invalid params: notifications.resourceSubscriptions names 1001 URIs; at most 1000 are accepted (streams.maxListenUris)",
        data: { limit: "streams.maxListenUris", max: 1000 },
      },
    });
    const accepted = await listen({ toolsListChanged: true });
    expect(accepted.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const messages = (await accepted.text())
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => JSON.parse(l.slice(5)));
    expect(messages.map((m) => m.method ?? m.id)).toEqual(["notifications/subscriptions/acknowledged", 9]);
  });
  for (const c of CLIENTS) {
    describe(c.label, () => {
      let client: Client;
      let raw: Raw[];
      beforeAll(async () => {
        const transport = new StreamableHTTPClientTransport(new URL(opts.url()));
        raw = recordIncoming(transport);
        client = new Client({ name: "runtimes-test", version: "1.0.0" }, c.options as never);
        await client.connect(transport);
      });
      afterAll(async () => {
        await client?.close();
      });
      toolScenario(
        () => client,
        () => raw,
        opts,
        c.revision,
      );
    });
  }
}

/** The assertions, for any connected client (HTTP or stdio). */
export function toolScenario(
  getClient: () => Client,
  raw: () => Raw[],
  opts: Omit<ScenarioOptions, "url">,
  revision: string,
): void {
  // On 2026-07-28 the SDK's codec adds the server's identity to every result's _meta (MCP
  // 2026-07-28, stateless); 2025-era results carry none. Checked, then set aside, so the rest
  // compares exactly what typed-mcp answered.
  const serverMeta = { "io.modelcontextprotocol/serverInfo": { name: "runtimes-fixture", version: "1.0.0" } };
  const client = () => {
    const c = getClient();
    return {
      listTools: () => c.listTools(),
      callTool: async (params: { name: string; arguments?: Record<string, unknown> }) => {
        const { _meta, ...rest } = (await c.callTool(params)) as Record<string, unknown>;
        expect(_meta).toEqual(revision === "2026-07-28" ? serverMeta : undefined);
        return rest as { content?: unknown; structuredContent?: unknown; isError?: boolean };
      },
      getNegotiatedProtocolVersion: () => c.getNegotiatedProtocolVersion(),
    };
  };
  it("negotiated the intended revision", () => {
    expect(client().getNegotiatedProtocolVersion()).toBe(revision);
  });

  it("lists exactly the hand-derived tools, byte for byte", async () => {
    const listed = await client().listTools();
    expect(listed.tools.map((t) => t.name)).toEqual([
      "measure_segment",
      "translate",
      "divide",
      "explode",
      "greet",
      "runtime",
      "published_errors",
    ]);
    const wire = toolsListResult(raw());
    expect(wire).toBeDefined();
    expect(JSON.stringify(wire!.tools)).toBe(EXPECTED_TOOLS);
  });

  it("runs on the intended runtime", async () => {
    const result = await client().callTool({ name: "runtime", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(onlyText(result)).toMatch(opts.runtime);
  });

  it("answers valid calls: structured content with the same JSON as text, plain text, JSON text", async () => {
    const m = await client().callTool({
      name: "measure_segment",
      arguments: { segment: { from: { x: 0, y: 0 }, to: { x: 3, y: 4 }, label: "hyp" } },
    });
    expect(m).toEqual({
      content: [{ type: "text", text: '{"length":5,"label":"hyp"}' }],
      structuredContent: { length: 5, label: "hyp" },
    });
    const unlabelled = await client().callTool({
      name: "measure_segment",
      arguments: { segment: { from: { x: 1, y: 1 }, to: { x: 2, y: 2 } }, digits: 3 },
    });
    expect(onlyText(unlabelled)).toBe('{"length":1.414,"label":null}');

    const t = await client().callTool({ name: "translate", arguments: { point: { x: 1, y: 2 }, dx: 3 } });
    expect(onlyText(t)).toBe('{"x":4,"y":2}');
    expect(t.structuredContent).toEqual({ x: 4, y: 2 });

    const d = await client().callTool({ name: "divide", arguments: { a: 1, b: 4 } });
    expect(d).toEqual({ content: [{ type: "text", text: "0.25" }] });

    const g = await client().callTool({ name: "greet", arguments: { name: "Ada", excited: true } });
    expect(onlyText(g)).toBe("Hello, Ada!");
  });

  it("answers invalid arguments with the exact text naming the argument", async () => {
    // The §5 text: the seed's sentence, then the §5 table's second sentence.
    const cases: [string, Record<string, unknown> | undefined, string, string][] = [
      [
        "measure_segment",
        { segment: { from: { x: 0, y: 0 }, to: { x: "3", y: 4 } } },
        "segment.to.x",
        "Expected a number, got a string.",
      ],
      ["measure_segment", { segment: { from: { x: 0 }, to: { x: 3, y: 4 } } }, "segment.from.y", "It is required."],
      [
        "measure_segment",
        { segment: { from: { x: 0, y: 0 }, to: { x: 3, y: 4 } }, digits: 1.5 },
        "digits",
        "Expected an integer.",
      ],
      ["measure_segment", undefined, "segment", "It is required."],
      ["translate", { point: null, dx: 1 }, "point", "Expected an object, got null."],
      ["divide", { a: 1, b: 2, c: 3 }, "c", "It is not a parameter of this tool."],
      ["greet", { name: "Ada", excited: "yes" }, "excited", "Expected a boolean, got a string."],
      ["explode", { now: true }, "now", "It is not a parameter of this tool."],
    ];
    for (const [name, args, path, second] of cases) {
      const result = await client().callTool({ name, arguments: args });
      expect(result, `${name} ${JSON.stringify(args)}`).toEqual({
        content: [{ type: "text", text: `Argument '${path}' is not valid. ${second}` }],
        isError: true,
      });
    }
  });

  it("answers a ToolError with its message", async () => {
    const result = await client().callTool({ name: "divide", arguments: { a: 1, b: 0 } });
    expect(result).toEqual({ content: [{ type: "text", text: "Cannot divide by zero." }], isError: true });
  });

  it("answers a throwing tool with 'The tool failed.', sends nothing of the error, publishes it where it can", async () => {
    const count = async () => onlyText(await client().callTool({ name: "published_errors", arguments: {} }));
    const before = await count();
    const start = raw().length;
    const result = await client().callTool({ name: "explode", arguments: {} });
    expect(result).toEqual({ content: [{ type: "text", text: "The tool failed." }], isError: true });
    expect(JSON.stringify(raw().slice(start))).not.toMatch(/secret|internal detail|\bError\b|stack/);
    const after = await count();
    if (opts.diagnosticsChannel) {
      expect(Number(after)).toBe(Number(before) + 1);
    } else {
      expect([before, after]).toEqual(["no diagnostics channel", "no diagnostics channel"]);
    }
  });

  it("answers an unknown tool with JSON-RPC error -32602", async () => {
    await expect(client().callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
}

/** Neither eval nor the Function constructor, in any form, in this code. */
export const CODE_GENERATION = /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|\bAsyncFunction\b|\bGeneratorFunction\b/;

/** The rendered code of the typed-mcp runtime modules and of the fixture (with the generated code). */
export function ownModules(modules: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(modules).filter(([id]) => /\/packages\/typed-mcp\/dist\/|\/test\/runtimes\/fixtures\//.test(id)),
  );
}

export async function readText(file: string): Promise<string> {
  return readFile(file, "utf8");
}
