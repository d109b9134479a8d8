// Hostile input over HTTP (server.fetch and serveHttp on 127.0.0.1), issue 13 items 1–6, 8, 9.
// Expected answers come from the contract (docs/mapping.md §5 argument error, §8
// resource-not-found), JSON-RPC 2.0 §5 and RFC 9112 §3.2 — never from what the code printed.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import { defineResources, generated, uriTemplate } from "../../packages/typed-mcp/dist/internal.js";
import type { RequestContext } from "../../packages/typed-mcp/dist/index.js";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import type { HttpServerHandle } from "../../packages/typed-mcp/dist/node.js";
import { createServer } from "./fixtures/tools.mjs";
import { APPS_CAPABILITIES, SHOW_WEATHER_APPS, invalid, messagesOf, rawTool } from "./helpers.js";
import { rpcRequest } from "../helpers/raw-http.ts";

/** Every error answer seen in this file (bodies and JSON-RPC errors), scanned at the end. */
const errorAnswers: string[] = [];

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** One raw POST of `body` (a JSON text) to `server.fetch` (`revision` "" sends no MCP-Protocol-Version): the status and the response with id 1. */
async function post(server: McpServer, body: string, revision: string, headers: Record<string, string> = {}) {
  const response = await server.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(revision !== "" && { "mcp-protocol-version": revision }),
        ...headers,
      },
      body,
    }),
  );
  const text = await response.text();
  if (response.status >= 400 || text.includes('"error"') || text.includes('"isError":true')) errorAnswers.push(text);
  return { status: response.status, headers: response.headers, message: messagesOf(text).find((m) => m.id === 1) };
}

/** A `tools/call` of `add` whose `arguments` JSON text is `args`, for `revision`. */
function callAdd(server: McpServer, args: string, revision: "2025-11-25" | "2026-07-28") {
  const meta = revision === "2026-07-28" ? `,"_meta":${JSON.stringify(ENVELOPE)}` : "";
  const headers: Record<string, string> =
    revision === "2026-07-28" ? { "mcp-method": "tools/call", "mcp-name": "add" } : {};
  return post(
    server,
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":${args}${meta}}}`,
    revision,
    headers,
  );
}

const nested = (depth: number, leaf = "1") => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = `{"a":${v}}`;
  return v;
};

describe("messages nested deeper than 64 levels outside tools/call arguments (found by a fresh attack: a stack overflow leaked)", () => {
  const DEEP = nested(5000, "{}");
  it("2025-11-25 initialize with a 5,000-level capabilities.experimental: HTTP 400 -32600, no stack", async () => {
    const server = createServer();
    const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":${DEEP}},"clientInfo":{"name":"x","version":"1"}}}`;
    const { status, message } = await post(server, body, "2025-11-25");
    expect(status).toBe(400);
    expect(message).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32600, message: "Invalid Request: the message is nested deeper than 64 levels" },
    });
  });

  it("2026-07-28 with a 5,000-level _meta client capability: HTTP 400 -32600", async () => {
    const server = createServer();
    const meta = { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": { experimental: "DEEP" } };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }).replace(
      '"DEEP"',
      DEEP,
    );
    const { status, message } = await post(server, body, "2026-07-28", { "mcp-method": "tools/list" });
    expect(status).toBe(400);
    expect(message!.error).toEqual({
      code: -32600,
      message: "Invalid Request: the message is nested deeper than 64 levels",
    });
  });

  it("tools/call arguments keep their own bound: 100 levels are the §5 argument error, not -32600", async () => {
    const { message } = await callAdd(createServer(), `{"a":${nested(100)},"b":1}`, "2025-11-25");
    expect(JSON.stringify({ content: message!.result.content, isError: message!.result.isError })).toBe(
      invalid("a", "Expected at most 64 levels of nesting."),
    );
  });
});

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  describe(`tools/call arguments, ${revision}`, () => {
    const server = createServer();

    it("item 1: 3,000 levels of nesting are the §5 argument error, not -32603 (depth bound 64)", async () => {
      const { message } = await callAdd(server, `{"a":${nested(3000)},"b":1}`, revision);
      expect(message?.error).toBeUndefined();
      expect(JSON.stringify({ content: message!.result.content, isError: message!.result.isError })).toBe(
        invalid("a", "Expected at most 64 levels of nesting."),
      );
    });

    it("item 9: arguments past maxArgumentValues (100,000 by default) are refused naming an argument; 330,000 keys", async () => {
      const keys = Array.from({ length: 330_000 }, (_, i) => `"k${i}":0`).join(",");
      const { message } = await callAdd(server, `{"a":1,"b":2,${keys}}`, revision);
      // The 100,001st value is key k99998 (a and b count 1 each): that is the argument being read when the bound was crossed.
      expect(JSON.stringify({ content: message!.result.content, isError: message!.result.isError })).toBe(
        invalid("k99998", "Expected at most 100000 values in all arguments together."),
      );
    });

    it("item 9: the bounds are McpServer options; within them the reader decides", async () => {
      const small = createServer({ maxArgumentDepth: 2, maxArgumentValues: 5 });
      const deep = await callAdd(small, `{"a":1,"b":{"x":{"y":1}}}`, revision);
      expect(JSON.stringify({ content: deep.message!.result.content, isError: true })).toBe(
        invalid("b", "Expected at most 2 levels of nesting."),
      );
      const many = await callAdd(small, `{"a":1,"b":2,"c":[1,2,3]}`, revision);
      expect(JSON.stringify({ content: many.message!.result.content, isError: true })).toBe(
        invalid("c", "Expected at most 5 values in all arguments together."),
      );
      const ok = await callAdd(small, `{"a":1,"b":2}`, revision);
      expect(ok.message!.result.content).toEqual([{ type: "text", text: "3" }]);
      expect(() => createServer({ maxArgumentDepth: 0 })).toThrow(
        new RangeError("maxArgumentDepth must be a positive integer, got 0"),
      );
    });

    it("item 3: a top-level __proto__ is an unknown argument exactly like constructor and prototype (spec §5)", async () => {
      for (const key of ["__proto__", "constructor", "prototype"]) {
        for (const value of ["{}", "5", "null"]) {
          const { message } = await callAdd(server, `{"a":1,"b":2,"${key}":${value}}`, revision);
          expect(JSON.stringify({ content: message!.result.content, isError: message!.result.isError })).toBe(
            invalid(key, "It is not a parameter of this tool."),
          );
        }
      }
      // Still an unknown argument past a known one in another position; and no prototype is ever changed.
      const { message } = await callAdd(server, `{"__proto__":{"a":1,"b":2}}`, revision);
      expect(JSON.stringify({ content: message!.result.content, isError: true })).toBe(invalid("a", "It is required."));
      expect(({} as Record<string, unknown>).a).toBeUndefined();
    });

    it("hostile top-level keys are written in the path as §5 says (quote, newline, dot, 10,000 characters)", async () => {
      const cases: Array<[string, string]> = [
        ["x' y", `["x\\u0027 y"]`],
        ["a.b", `["a.b"]`],
        ["new\nline", `["new\\u000aline"]`],
        ['q"', `["q\\""]`],
        ["", `[""]`],
      ];
      const small = createServer({ maxArgumentValues: 2 });
      for (const [key, path] of cases) {
        // Over the bound at this key: the path is written by the runtime's bound check.
        const { message } = await callAdd(small, `{"a":1,"b":2,${JSON.stringify(key)}:0}`, revision);
        expect(message!.result.content[0].text).toBe(
          `Argument '${path}' is not valid. Expected at most 2 values in all arguments together.`,
        );
      }
      const long = "k".repeat(10_000);
      const { message } = await callAdd(small, `{"a":1,"b":2,"${long}":0}`, revision);
      expect(message!.result.content[0].text).toBe(
        `Argument '${"k".repeat(200)}…' is not valid. Expected at most 2 values in all arguments together.`,
      );
    });
  });
}

describe("item 1: the input_required digest is lazy and iterative (no recursion on client data)", () => {
  it("a tool that elicits on 2026-07-28 with arguments 5,000 levels deep (bounds raised) answers input_required, not -32603", async () => {
    const server = createServer({ maxArgumentDepth: 10_000 });
    // server.tool("ask", (deep: unknown, ctx: RequestContext) => …) as the plugin writes it; the reader keeps `deep` as is.
    const descriptor = generated({
      listing: { name: "ask", inputSchema: { type: "object", properties: { deep: {} }, additionalProperties: false } },
      read: (args: Record<string, unknown> | undefined, ctx: unknown) => [args?.deep, ctx],
      write: (value: unknown) => ({ content: [{ type: "text", text: String(value) }] }),
    });
    const ask = async (_deep: unknown, ctx: RequestContext) =>
      (await ctx.elicit({ message: "Sure?", requestedSchema: { type: "object", properties: {} } })).action;
    (server.tool as (...a: unknown[]) => unknown)("ask", ask, descriptor);
    const meta = JSON.stringify({ ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } });
    const { status, message } = await post(
      server,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"deep":${nested(5000)}},"_meta":${meta}}}`,
      "2026-07-28",
      { "mcp-method": "tools/call", "mcp-name": "ask" },
    );
    expect(status).toBe(200);
    expect(message?.error).toBeUndefined();
    expect(message!.result.resultType).toBe("input_required");
    expect(Object.keys(message!.result.inputRequests)).toEqual(["elicit-1"]);
    expect(typeof message!.result.requestState).toBe("string");
  });
});

describe("item 2: maxRequestBodySize is one option, honoured by server.fetch", () => {
  it("a 5 MiB body passes with maxRequestBodySize 8 MiB; 4 MiB default answers 413", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2,"pad":"${"x".repeat(5 * 1024 * 1024)}"}}}`;
    const big = await post(createServer({ maxRequestBodySize: 8 * 1024 * 1024 }), body, "2025-11-25");
    expect(big.status).toBe(200);
    expect(JSON.stringify({ content: big.message!.result.content, isError: true })).toBe(
      invalid("pad", "It is not a parameter of this tool."),
    );
    const small = await post(createServer(), body, "2025-11-25");
    expect(small.status).toBe(413);
    expect(() => createServer({ maxRequestBodySize: -1 })).toThrow(RangeError);
  });

  it("serveHttp refuses a second, different body limit instead of silently ignoring it", async () => {
    expect(() => serveHttp(createServer(), { maxRequestBodySize: 8 * 1024 * 1024 })).toThrow(RangeError);
  });
});

describe("item 4: the session id is bounded by what the gating needs", () => {
  for (const [what, clientInfo] of [
    ["a 3,100-character title", { name: "c", version: "1", title: "t".repeat(3100) }],
    ["a 20,000-character name", { name: "n".repeat(20_000), version: "1" }],
    ["20,000 escaped characters", { name: "\u0001".repeat(20_000), version: "\u0001".repeat(20_000) }],
  ] as const) {
    it(`${what}: the id fits the decoder's 4,096 and MCP Apps gating stays on`, async () => {
      const server = createServer({ apps: true });
      const capabilities = { ...APPS_CAPABILITIES, experimental: { pad: { text: "p".repeat(5000) } } };
      const init = await post(
        server,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities, clientInfo },
        }),
        "",
      );
      const id = init.headers.get("mcp-session-id")!;
      expect(id.startsWith("tmcp1.")).toBe(true);
      expect(id.length).toBeLessThanOrEqual(4096);
      const list = await server.fetch(
        rpcRequest({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { headers: { "mcp-session-id": id } }),
      );
      expect(rawTool(await list.text(), "show_weather")).toBe(SHOW_WEATHER_APPS);
    });
  }
});

describe("item 8: resources/read with a 1 MB URI", () => {
  class Notes {
    static {
      defineResources(this, [
        {
          listing: { uriTemplate: "notes://{id}", name: "note" },
          read: (vars: Record<string, string>) => [vars.id],
          write: (v: unknown, uri: string) => ({ contents: [{ uri, mimeType: "text/plain", text: String(v) }] }),
          template: uriTemplate,
          member: "note",
        } as never,
      ]);
    }
    note(id: string) {
      return `n${id}`;
    }
  }
  it("answers resource-not-found (-32002 on 2025-11-25, spec §8), never -32603", async () => {
    const server = new McpServer({ name: "r", version: "1" }).addResources(new Notes());
    for (const uri of [`notes://${"a".repeat(1_000_000)}`, `x://${"a".repeat(1_000_000)}`]) {
      const { message } = await post(
        server,
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } }),
        "2025-11-25",
      );
      expect(message!.error.code).toBe(-32002);
      // The URI is echoed cut at 200 code units + "…" (docs/security.md "Echoed client text"), in the message and data.uri.
      expect(message!.error.message).toBe(`Resource not found: ${uri.slice(0, 200)}…`);
      expect(message!.error.data).toEqual({ uri: `${uri.slice(0, 200)}…` });
    }
    const ok = await post(
      server,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "notes://7" } }),
      "2025-11-25",
    );
    expect(ok.message!.result.contents).toEqual([{ uri: "notes://7", mimeType: "text/plain", text: "n7" }]);
  });
});

describe("items 5 and 6: serveHttp and malformed requests (RFC 9112 §3.2)", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(createServer(), { port: 0 });
  });
  afterAll(async () => {
    await http?.close();
  });

  /** Sends raw bytes (head, then `bodyBytes` spaces); resolves with the status line, head, body and any socket error. */
  function raw(head: string, bodyBytes = 0): Promise<{ status: string; head: string; body: string; error: string }> {
    return new Promise((resolve) => {
      const socket = net.connect(http.port, "127.0.0.1");
      let data = "";
      let error = "";
      socket.on("data", (d) => (data += d));
      socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
      socket.on("close", () => {
        const body = data.split("\r\n\r\n").slice(1).join("\r\n\r\n");
        if (!data.startsWith("HTTP/1.1 2")) errorAnswers.push(body);
        resolve({ status: data.split("\r\n")[0] ?? "", head: data.split("\r\n\r\n")[0] ?? "", body, error });
      });
      socket.write(head);
      const chunk = Buffer.alloc(65536, 32);
      let sent = 0;
      const pump = (): void => {
        while (sent < bodyBytes) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
      };
      pump();
    });
  }
  /** {@link raw}'s answer with its head's header lines lower-cased. */
  async function rawHead(head: string): Promise<{ status: string; head: string }> {
    const answer = await raw(head);
    return { status: answer.status, head: answer.head.toLowerCase() };
  }
  const POST = (target: string, host: string, extra = "") =>
    `POST ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\n`;
  const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

  it("a userinfo Host, two Host headers, a target that is not a path or absolute URL: 400, never 500", async () => {
    for (const head of [
      `${POST("/mcp", "evil.com@localhost")}Content-Length: ${PING.length}\r\n\r\n${PING}`,
      `${POST("/mcp", "127.0.0.1", "Host: evil.com\r\n")}Content-Length: ${PING.length}\r\n\r\n${PING}`,
      `${POST("*", "127.0.0.1")}Content-Length: ${PING.length}\r\n\r\n${PING}`,
      `${POST("127.0.0.1:80", "127.0.0.1")}Content-Length: ${PING.length}\r\n\r\n${PING}`,
    ]) {
      const { status, body } = await raw(head);
      expect(status).toBe("HTTP/1.1 400 Bad Request");
      // Ours carry a JSON-RPC error; Node's own parser (authority-form) answers 400 with no body.
      if (body !== "") expect(body).toContain('"code":-32600');
    }
  });

  it("an absolute-form target is served (RFC 9112 §3.2.2) and its authority, not Host, is checked against DNS rebinding", async () => {
    const good = await raw(
      `${POST(`http://127.0.0.1:${http.port}/mcp`, "127.0.0.1")}Content-Length: ${PING.length}\r\n\r\n${PING}`,
    );
    expect(good.status).toBe("HTTP/1.1 200 OK");
    const evil = await raw(`${POST("http://evil.com/mcp", "127.0.0.1")}Content-Length: ${PING.length}\r\n\r\n${PING}`);
    expect(evil.status).toBe("HTTP/1.1 403 Forbidden");
  });

  it("a request with Connection: close is answered with Connection: close, even on an SSE stream (RFC 9112 §9.6; the SDK's Connection: keep-alive is hop-by-hop, RFC 9110 §7.6.1)", async () => {
    // The POST is answered as text/event-stream: the SDK's response carries Connection: keep-alive,
    // which, copied onto Node's response, kept the connection open after the answer.
    const { status, head } = await rawHead(`${POST("/mcp", "127.0.0.1")}Content-Length: ${PING.length}\r\n\r\n${PING}`);
    expect(status).toBe("HTTP/1.1 200 OK");
    expect(head).toContain("content-type: text/event-stream");
    expect(head).toContain("connection: close");
    expect(head).not.toContain("keep-alive");
  });

  it("without Connection: close the connection persists (RFC 9112 §9.3): two answers on one socket", async () => {
    const one = `${POST("/mcp", "127.0.0.1").replace("Connection: close\r\n", "")}Content-Length: ${PING.length}\r\n\r\n${PING}`;
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(http.port, "127.0.0.1");
      let data = "";
      socket.on("error", reject);
      socket.on("data", (d) => {
        data += d;
        if (data.split("HTTP/1.1 200 OK").length === 2 && data.includes("\r\n0\r\n\r\n")) socket.write(one);
        if (data.split("HTTP/1.1 200 OK").length === 3 && data.endsWith("\r\n0\r\n\r\n")) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.write(one);
    });
    expect(answers.split('"result":{}')).toHaveLength(3);
    expect(answers.toLowerCase()).not.toContain("connection: close");
  });

  it("item 6: a client still writing a too-large body reads the 413, 10 times of 10 (no EPIPE/reset)", async () => {
    const size = 6 * 1024 * 1024;
    for (let i = 0; i < 10; i++) {
      const { status, body, error } = await raw(`${POST("/mcp", "127.0.0.1")}Content-Length: ${size}\r\n\r\n`, size);
      expect({ status, error }).toEqual({ status: "HTTP/1.1 413 Payload Too Large", error: "" });
      expect(body).toContain('"code":-32000');
    }
  });
});

describe("params the SDK's request schemas refuse are JSON-RPC -32602 Invalid params, without the SDK's Zod dump", () => {
  // JSON-RPC 2.0 §5.1: -32602 "Invalid params". The message names the first refused field with the
  // §5 safe-path rule (docs/security.md "Malformed params").
  const server = createServer();
  it("tools/call with a non-string name (2025-11-25 and 2026-07-28)", async () => {
    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      const meta = revision === "2026-07-28" ? `,"_meta":${JSON.stringify(ENVELOPE)}` : "";
      const headers: Record<string, string> =
        revision === "2026-07-28" ? { "mcp-method": "tools/call", "mcp-name": "add" } : {};
      const { message } = await post(
        server,
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,"arguments":{}${meta}}}`,
        revision,
        headers,
      );
      expect(message?.error, revision).toEqual({
        code: -32602,
        message: "Invalid tools/call params: 'params.name' expected string, received number.",
      });
    }
  });
  it("tools/call arguments that are not an object get the reader's §5 answer (2025-11-25 and 2026-07-28)", async () => {
    for (const revision of ["2025-11-25", "2026-07-28"] as const) {
      for (const [args, got] of [
        ["[1,2]", "an array"],
        ["null", "null"],
        ['"x"', "a string"],
      ]) {
        const { message } = await callAdd(server, args, revision);
        expect(
          JSON.stringify({ content: message!.result.content, isError: message!.result.isError }),
          `${revision} ${args}`,
        ).toBe(invalid("arguments", `Expected an object, got ${got}.`));
      }
    }
  });
  it("initialize with a non-object capability is -32602, not -32603", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":5},"clientInfo":{"name":"x","version":"1"}}}`;
    const { message } = await post(server, body, "");
    expect(message?.error).toEqual({
      code: -32602,
      message: "Invalid initialize params: 'params.capabilities.experimental' expected record, received number.",
    });
  });
  it("a refused record key is written with the safe-path rule", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"x' y":5}},"clientInfo":{"name":"x","version":"1"}}}`;
    const { message } = await post(server, body, "");
    expect(message?.error).toEqual({
      code: -32602,
      message: `Invalid initialize params: 'params.capabilities.experimental["x\\u0027 y"]' expected record, received number.`,
    });
  });
});

describe("every error answer above is free of stacks, paths and internal messages", () => {
  it("scans them all", () => {
    expect(errorAnswers.length).toBeGreaterThan(40);
    for (const answer of errorAnswers) {
      const head = answer.slice(0, 2000);
      expect(head).not.toMatch(
        /\n\s+at |file:\/\/|\/work\/|node_modules|Maximum call stack|TypeError|RangeError|ReadBuffer|exceeds maximum length|Internal server error|invalid_type|\"expected\"/,
      );
    }
  });
});
