// Issue 25 row 10, "every echo cut": 100,000-character names, URIs, ids, cursors, method names,
// progress tokens, log levels, prompt arguments and completion refs sent to every method the
// server answers, on MCP 2025-11-25 and 2026-07-28, over server.fetch and stdio. Every answer must
// be a well-formed JSON-RPC 2.0 response (JSON-RPC 2.0 §5: `jsonrpc`, the request's `id`, exactly
// one of `result` / `error` with an integer `code` and a string `message`) of the code the spec
// gives, and small: echoed client text is cut at 200 code units + "…" (docs/security.md "Echoed
// client text", `cutEchoed`). The request `id` is the one exception — JSON-RPC requires it
// back verbatim — so sizes are measured with the id taken out (a huge id is bounded by the body
// limit instead; checked at the end). The fixture is built with the real plugin
// (test/resources/fixtures/echo), the stdio server is a real child process.
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, messagesOf } from "../resources/helpers.js";
import { until } from "./helpers.js";

const LONG = "x".repeat(100_000);
const CUT = "x".repeat(200) + "…";
/** Largest answer accepted, in bytes of its JSON text without the `id`. */
const SMALL = 4096;
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
type Revision = (typeof REVISIONS)[number];

// JSON-RPC 2.0 §5.1 and the MCP spec's error codes.
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
/** MCP 2025-11-25 "Resources / Error Handling": resource not found. */
const RESOURCE_NOT_FOUND_2025 = -32002;

/**
 * One hostile request: a label, the method, its params, the JSON-RPC error code the spec gives
 * (undefined: a result); `headers` replace the SEP-2243 headers of a 2026-07-28 HTTP request
 * (which otherwise repeat the body), and `httpCode` is then the code expected there.
 */
type Probe = {
  label: string;
  method: string;
  params?: Record<string, unknown>;
  code: number | undefined;
  headers?: Record<string, string>;
  httpCode?: number;
};

/** SEP-2243 (MCP 2026-07-28): headers that disagree with the body are HTTP 400 with this code. */
const HEADER_MISMATCH = -32020;

/** The probes for `revision` (the 2026-07-28 envelope is added by the senders). */
function probes(revision: Revision): Probe[] {
  const notFound = revision === "2025-11-25" ? RESOURCE_NOT_FOUND_2025 : INVALID_PARAMS;
  const list: Probe[] = [
    // 2026-07-28 has no ping and no logging/setLevel (the SDK answers -32601 Method not found).
    {
      label: "ping with a long progress token",
      method: "ping",
      params: { _meta: { progressToken: LONG } },
      code: revision === "2025-11-25" ? undefined : METHOD_NOT_FOUND,
    },
    { label: "unknown method name", method: LONG, params: {}, code: METHOD_NOT_FOUND },
    // Lists typed-mcp does not page answer the whole list whatever the cursor (MCP "Pagination": SHOULD, not MUST, refuse it).
    { label: "tools/list cursor", method: "tools/list", params: { cursor: LONG }, code: undefined },
    {
      label: "tools/call unknown name",
      method: "tools/call",
      params: { name: LONG, arguments: {} },
      code: INVALID_PARAMS,
    },
    {
      label: "tools/call long argument name",
      method: "tools/call",
      params: { name: "add", arguments: { a: 1, b: 2, [LONG]: 3 } },
      code: undefined,
    },
    {
      label: "tools/call long argument value",
      method: "tools/call",
      params: { name: "add", arguments: { a: LONG, b: 2 } },
      code: undefined,
    },
    {
      label: "tools/call long progress token",
      method: "tools/call",
      params: { name: "add", arguments: { a: 1, b: 2 }, _meta: { progressToken: LONG } },
      code: undefined,
    },
    // Long arrays: the request walk for echoable text is bounded (2,000 values), never a spread of the whole array.
    {
      label: "tools/call with 2,000- and 300,000-element array arguments",
      method: "tools/call",
      params: { name: "add", arguments: { a: new Array(2_000).fill(0), b: new Array(300_000).fill(0) } },
      code: undefined,
    },
    {
      label: "tools/call name of the wrong type",
      method: "tools/call",
      params: { name: 5, arguments: {} },
      code: INVALID_PARAMS,
    },
    { label: "resources/list cursor", method: "resources/list", params: { cursor: LONG }, code: undefined },
    { label: "resources/read unknown URI", method: "resources/read", params: { uri: LONG }, code: notFound },
    {
      label: "resources/read template, value not in the set",
      method: "resources/read",
      params: { uri: `echo://items/${LONG}` },
      code: notFound,
    },
    {
      label: "resources/templates/list cursor",
      method: "resources/templates/list",
      params: { cursor: LONG },
      code: undefined,
    },
    { label: "prompts/list cursor", method: "prompts/list", params: { cursor: LONG }, code: undefined },
    { label: "prompts/get unknown name", method: "prompts/get", params: { name: LONG }, code: INVALID_PARAMS },
    {
      label: "prompts/get long argument value",
      method: "prompts/get",
      params: { name: "greet", arguments: { name: "a", color: LONG } },
      code: INVALID_PARAMS,
    },
    {
      label: "prompts/get long argument name",
      method: "prompts/get",
      params: { name: "greet", arguments: { name: "a", color: "red", [LONG]: "x" } },
      code: INVALID_PARAMS,
    },
    {
      label: "completion/complete unknown prompt",
      method: "completion/complete",
      params: { ref: { type: "ref/prompt", name: LONG }, argument: { name: "x", value: "" } },
      code: INVALID_PARAMS,
    },
    {
      label: "completion/complete unknown template",
      method: "completion/complete",
      params: { ref: { type: "ref/resource", uri: LONG }, argument: { name: "x", value: "" } },
      code: INVALID_PARAMS,
    },
    {
      label: "completion/complete long ref type",
      method: "completion/complete",
      params: { ref: { type: LONG, name: "greet" }, argument: { name: "x", value: "" } },
      code: INVALID_PARAMS,
    },
    {
      label: "completion/complete long argument name and value",
      method: "completion/complete",
      params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name: LONG, value: LONG } },
      code: undefined,
    },
    {
      label: "logging/setLevel long level",
      method: "logging/setLevel",
      params: { level: LONG },
      code: revision === "2025-11-25" ? INVALID_PARAMS : METHOD_NOT_FOUND,
    },
    { label: "tasks/get long id", method: "tasks/get", params: { taskId: LONG }, code: INVALID_PARAMS },
    { label: "tasks/cancel long id", method: "tasks/cancel", params: { taskId: LONG }, code: INVALID_PARAMS },
  ];
  if (revision === "2025-11-25") {
    list.push(
      {
        label: "initialize long client name and version",
        method: "initialize",
        params: { protocolVersion: LONG, capabilities: {}, clientInfo: { name: LONG, version: LONG } },
        code: undefined,
      },
      {
        label: "initialize protocol version of the wrong type",
        method: "initialize",
        params: { protocolVersion: 5, capabilities: {}, clientInfo: { name: LONG, version: "1" } },
        code: INVALID_PARAMS,
      },
      { label: "resources/subscribe long URI", method: "resources/subscribe", params: { uri: LONG }, code: notFound },
      // Unsubscribing from what was never subscribed is a no-op (typed-mcp answers {}).
      {
        label: "resources/unsubscribe long URI",
        method: "resources/unsubscribe",
        params: { uri: LONG },
        code: undefined,
      },
      { label: "tasks/result long id", method: "tasks/result", params: { taskId: LONG }, code: INVALID_PARAMS },
      { label: "tasks/list cursor", method: "tasks/list", params: { cursor: LONG }, code: INVALID_PARAMS },
    );
  } else {
    list.push(
      { label: "server/discover long client name", method: "server/discover", params: {}, code: undefined },
      // Over HTTP, SEP-2243 headers that disagree with the body: the SDK's -32020 message names both values.
      {
        label: "tools/call long name with Mcp-Name: x",
        method: "tools/call",
        params: { name: LONG, arguments: {} },
        code: INVALID_PARAMS,
        headers: { "mcp-name": "x" },
        httpCode: HEADER_MISMATCH,
      },
      {
        label: "resources/read long URI with Mcp-Name: x",
        method: "resources/read",
        params: { uri: LONG },
        code: notFound,
        headers: { "mcp-name": "x" },
        httpCode: HEADER_MISMATCH,
      },
      {
        label: "tasks/get long id with Mcp-Name: x",
        method: "tasks/get",
        params: { taskId: LONG },
        code: INVALID_PARAMS,
        headers: { "mcp-name": "x" },
        httpCode: HEADER_MISMATCH,
      },
      {
        label: "tools/call with a 100,000-character Mcp-Name header",
        method: "tools/call",
        params: { name: "add", arguments: { a: 1, b: 2 } },
        code: undefined,
        headers: { "mcp-name": LONG },
        httpCode: HEADER_MISMATCH,
      },
      {
        label: "tools/call long name of quotes and backslashes with Mcp-Name: x",
        method: "tools/call",
        params: { name: '"\\'.repeat(50_000), arguments: {} },
        code: INVALID_PARAMS,
        headers: { "mcp-name": "x" },
        httpCode: HEADER_MISMATCH,
      },
      {
        label: "unknown long method with Mcp-Method: x",
        method: LONG,
        params: {},
        code: METHOD_NOT_FOUND,
        headers: { "mcp-method": "x" },
        httpCode: HEADER_MISMATCH,
      },
      {
        label: "tasks/update long id",
        method: "tasks/update",
        params: { taskId: LONG, inputResponses: {} },
        code: INVALID_PARAMS,
      },
      {
        label: "subscriptions/listen filter of the wrong type",
        method: "subscriptions/listen",
        params: { notifications: LONG },
        code: INVALID_PARAMS,
      },
    );
  }
  return list;
}

/** The 2026-07-28 per-request envelope (docs/runtime.md "A raw 2026-07-28 request"), the client's name long. */
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: LONG, version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};

/** The request message of `probe` with `id`. */
function requestOf(probe: Probe, id: number | string, revision: Revision): Record<string, unknown> {
  const params =
    revision === "2026-07-28"
      ? { ...probe.params, _meta: { ...(probe.params?._meta as object), ...ENVELOPE } }
      : probe.params;
  return { jsonrpc: "2.0", id, method: probe.method, ...(params !== undefined && { params }) };
}

/** Checks one answer: well formed, the code the spec gives, small without its id. */
function checkAnswer(
  probe: Probe,
  id: number | string,
  answer: Record<string, any> | undefined,
  where: string,
  code = probe.code,
): void {
  const label = `${where}: ${probe.label}`;
  expect(answer, `${label}: no answer`).toBeDefined();
  expect(answer!.jsonrpc, label).toBe("2.0");
  expect(answer!.id, label).toBe(id);
  expect("result" in answer! !== "error" in answer!, `${label}: exactly one of result / error`).toBe(true);
  if (code === undefined) expect(answer!.error, label).toBeUndefined();
  else {
    expect(
      Number.isInteger(answer!.error?.code) && typeof answer!.error?.message === "string",
      `${label}: error shape`,
    ).toBe(true);
    expect(answer!.error.code, `${label}: ${String(answer!.error.message).slice(0, 300)}`).toBe(code);
  }
  const text = JSON.stringify({ ...answer, id: null });
  const size = Buffer.byteLength(text);
  expect(size, `${label}: ${size} bytes: ${JSON.stringify(answer).slice(0, 300)}`).toBeLessThan(SMALL);
  // The one rule: at most 200 code units of any echoed text, then "…".
  expect(/x{201}/.test(text), `${label}: more than 200 echoed characters`).toBe(false);
}

let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  app = await buildApp(["echo", "echo-stdio"], "echo");
}, 120_000);
afterAll(() => app?.cleanup());

/** The methods whose 2026-07-28 HTTP request carries `Mcp-Name` (SEP-2243): params.name, .uri or .taskId. */
const NAMED = new Set(["tools/call", "resources/read", "prompts/get", "tasks/get", "tasks/cancel", "tasks/update"]);

/** One raw POST to `server.fetch`: the HTTP status and the answer to `id`. */
async function post(
  server: { fetch(r: Request): Promise<Response> },
  probe: Probe,
  id: number | string,
  revision: Revision,
) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": revision,
  };
  if (revision === "2026-07-28") {
    const p = probe.params ?? {};
    const name = p.name ?? p.uri ?? p.taskId;
    headers["mcp-method"] = probe.method;
    if (NAMED.has(probe.method) && typeof name === "string") headers["mcp-name"] = name;
    Object.assign(headers, probe.headers);
  }
  const response = await server.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers,
      body: JSON.stringify(requestOf(probe, id, revision)),
    }),
  );
  const text = await response.text();
  return { status: response.status, answer: messagesOf(text).find((m) => m.id === id) };
}

for (const revision of REVISIONS) {
  describe(`server.fetch, ${revision}: every answer to 100,000-character input is small and well formed`, () => {
    it.each(probes(revision).map((p) => [p.label, p] as const))("%s", async (_label, probe) => {
      const { status, answer } = await post(app.modules.echo!.echoServer(), probe, 1, revision);
      const code = probe.httpCode ?? probe.code;
      checkAnswer(probe, 1, answer, `server.fetch ${revision}`, code);
      if (code === HEADER_MISMATCH) expect(status).toBe(400);
    });
  });
}

/** A raw stdio connection to the echo fixture (a real child process). */
class StdioLines {
  readonly child: ChildProcessWithoutNullStreams;
  readonly answers = new Map<unknown, Record<string, any>>();
  #buffer = "";
  constructor(outDir: string) {
    this.child = spawn(process.execPath, [join(outDir, "echo-stdio.js")], {
      env: { ...process.env, TMCP_STDIO: "echo" },
      stdio: "pipe",
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.#buffer += chunk;
      let nl: number;
      while ((nl = this.#buffer.indexOf("\n")) >= 0) {
        const message = JSON.parse(this.#buffer.slice(0, nl));
        this.#buffer = this.#buffer.slice(nl + 1);
        if ("id" in message && !("method" in message)) this.answers.set(message.id, message);
      }
    });
  }
  async request(message: Record<string, unknown>): Promise<Record<string, any> | undefined> {
    this.child.stdin.write(JSON.stringify(message) + "\n");
    await until(() => this.answers.has(message.id), 10_000).catch(() => {});
    return this.answers.get(message.id);
  }
  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

for (const revision of REVISIONS) {
  describe(`stdio, ${revision}: every answer to 100,000-character input is small and well formed`, () => {
    let stdio: StdioLines;
    let next = 100;
    beforeAll(async () => {
      stdio = new StdioLines(app.outDir);
      const open =
        revision === "2025-11-25"
          ? {
              jsonrpc: "2.0",
              id: 0,
              method: "initialize",
              params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "echo", version: "1" } },
            }
          : { jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: ENVELOPE } };
      expect((await stdio.request(open))?.result).toBeDefined();
      if (revision === "2025-11-25")
        stdio.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    });
    afterAll(() => stdio?.close());

    it.each(probes(revision).map((p) => [p.label, p] as const))("%s", async (_label, probe) => {
      const id = next++;
      checkAnswer(probe, id, await stdio.request(requestOf(probe, id, revision)), `stdio ${revision}`);
    });
  });
}

describe("the cut texts, as docs/security.md 'Echoed client text' gives them", () => {
  it.each(REVISIONS)(
    "resources/read of an unknown 100,000-character URI, %s: 'Resource not found: <uri cut>', data.uri cut (2025: -32002)",
    async (revision) => {
      const probe: Probe = {
        label: "resources/read",
        method: "resources/read",
        params: { uri: LONG },
        code: undefined,
      };
      const { answer } = await post(app.modules.echo!.echoServer(), probe, 1, revision);
      expect(answer!.error).toEqual({
        code: revision === "2025-11-25" ? RESOURCE_NOT_FOUND_2025 : INVALID_PARAMS,
        message: `Resource not found: ${CUT}`,
        data: { uri: CUT },
      });
    },
  );

  it("2026-07-28 params.name of 100,000 characters with Mcp-Name: x: HTTP 400 -32020, the body's value cut in the message and in data", async () => {
    const probe: Probe = {
      label: "tools/call",
      method: "tools/call",
      params: { name: LONG, arguments: {} },
      code: undefined,
      headers: { "mcp-name": "x" },
    };
    const { status, answer } = await post(app.modules.echo!.echoServer(), probe, 1, "2026-07-28");
    expect(status).toBe(400);
    expect(answer!.error.code).toBe(HEADER_MISMATCH);
    expect(answer!.error.message).toContain(`params.name="${CUT}"`);
    expect(JSON.stringify(answer!.error.data)).toContain(`params.name=\\"${CUT}\\"`);
  });
});

describe("no budget to hide behind: a long string after thousands of other values is cut too", () => {
  // Found by a fresh attack: the walk looked at 2,000 values only, so 2,100 filler keys before the URI let it through uncut.
  const filler = Object.fromEntries(Array.from({ length: 2100 }, (_, i) => [`k${i}`, i]));
  it.each(REVISIONS)(
    "resources/read after 2,100 filler params, %s: the URI is cut in the message and in data",
    async (revision) => {
      const probe: Probe = {
        label: "resources/read",
        method: "resources/read",
        params: { ...filler, uri: LONG },
        code: undefined,
      };
      const { answer } = await post(app.modules.echo!.echoServer(), probe, 1, revision);
      expect(answer!.error.message).toBe(`Resource not found: ${CUT}`);
      expect(answer!.error.data).toEqual({ uri: CUT });
    },
  );

  it("2026-07-28 -32020 mismatch after 2,100 filler params: the body's value is cut", async () => {
    const probe: Probe = {
      label: "tools/call",
      method: "tools/call",
      params: { ...filler, name: LONG, arguments: {} },
      code: undefined,
      headers: { "mcp-name": "x" },
    };
    const { status, answer } = await post(app.modules.echo!.echoServer(), probe, 1, "2026-07-28");
    expect(status).toBe(400);
    expect(/x{201}/.test(JSON.stringify({ ...answer, id: null }))).toBe(false);
  });
});

describe("the request id is echoed verbatim (JSON-RPC 2.0 §5), bounded by the body limit", () => {
  it("a 100,000-character string id comes back whole, on an answer otherwise small", async () => {
    const probe: Probe = {
      label: "tools/call unknown name, long id",
      method: "tools/call",
      params: { name: LONG, arguments: {} },
      code: INVALID_PARAMS,
    };
    const { answer } = await post(app.modules.echo!.echoServer(), probe, LONG, "2025-11-25");
    checkAnswer(probe, LONG, answer, "server.fetch 2025-11-25");
    expect(answer!.error.message).toBe(`Tool ${CUT} not found`);
  });
});
