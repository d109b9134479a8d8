// `server.fetch` reads a JSON POST body once, ahead of the SDK's handler, and hands it over as
// `parsedBody` (packages/typed-mcp/src/transports/request-body.ts; docs/runtime.md "Request bodies"). Every
// body the SDK refuses must still get the SDK's answer: JSON-RPC 2.0 §5.1 codes (-32700 Parse
// error, -32600 Invalid Request), HTTP 413 with -32000 and id null past maxRequestBodySize
// (docs/security.md "Limits"), 415 for a non-JSON media type; and a body split anywhere (even
// inside a UTF-8 sequence) reads as the same JSON text.
import { describe, expect, it } from "vitest";
import { createServer } from "./fixtures/tools.mjs";
import { messagesOf } from "./helpers.js";

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};
const encoder = new TextEncoder();

/** A body stream yielding `parts` (strings as UTF-8, or raw bytes), then failing with `Error("reset")` when `fail` is set. */
function streamOf(parts: Array<string | Uint8Array>, fail = false): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < parts.length) {
        const part = parts[i++]!;
        controller.enqueue(typeof part === "string" ? encoder.encode(part) : part);
      } else if (fail) controller.error(new Error("reset"));
      else controller.close();
    },
  });
}

/** A POST to `/mcp` with `body` (a string, or a stream sent without Content-Length). */
function post(body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { ...HEADERS, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

/** Status and parsed JSON answer of `server.fetch(request)`. */
async function answer(request: Request, options?: { parsedBody?: unknown }, maxRequestBodySize = 1000) {
  const response = await createServer({ maxRequestBodySize }).fetch(request, options);
  const text = await response.text();
  return { status: response.status, messages: text === "" ? [] : messagesOf(text) };
}

const call = (a: number, b: number, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a, b } } });
const result = (text: string, id = 1) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });

describe("server.fetch reads the JSON body once and hands it to the SDK", () => {
  it("a body streamed in pieces, one split inside a UTF-8 sequence, is the same JSON text", async () => {
    // "é" is C3 A9 in UTF-8; the split puts C3 and A9 in different chunks.
    const text = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "add", arguments: { a: 1, b: 2, é: 0 } },
    });
    const bytes = encoder.encode(text);
    const at = bytes.indexOf(0xc3) + 1;
    const { status, messages } = await answer(post(streamOf([bytes.slice(0, 5), bytes.slice(5, at), bytes.slice(at)])));
    expect(status).toBe(200);
    // Spec §5: a name outside [A-Za-z_$][A-Za-z0-9_$-]* is a bracketed JSON string, non-ASCII as \uXXXX: é is U+00E9.
    expect(messages[0]!.result.content[0].text).toBe(
      `Argument '["\\u00e9"]' is not valid. It is not a parameter of this tool.`,
    );
  });

  it("a UTF-8 byte order mark is not part of the text (TextDecoder, as the SDK reads)", async () => {
    const { status, messages } = await answer(post(`\uFEFF${call(2, 3)}`));
    expect({ status, message: messages[0] }).toEqual({ status: 200, message: result("5") });
  });

  it("a parsedBody given by the caller is used, and the request body is not read", async () => {
    const { status, messages } = await answer(post("not JSON at all"), { parsedBody: JSON.parse(call(4, 5)) });
    expect({ status, message: messages[0] }).toEqual({ status: 200, message: result("9") });
  });
});

describe("bodies the SDK refuses still get its answers", () => {
  it("past maxRequestBodySize without Content-Length: 413, -32000 Payload Too Large, id null", async () => {
    const { status, messages } = await answer(post(streamOf(Array.from({ length: 10 }, () => "x".repeat(200)))));
    expect(status).toBe(413);
    expect(messages).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: "Payload Too Large: Request body must not exceed 1000 bytes" },
      },
    ]);
  });

  it("a declared Content-Length past the limit: the same 413, nothing read", async () => {
    const { status, messages } = await answer(post("{}", { "content-length": "5000" }));
    expect(status).toBe(413);
    expect(messages[0]!.error.code).toBe(-32000);
  });

  it("exactly maxRequestBodySize bytes are read and served", async () => {
    const text = call(1, 1);
    const padded = text.slice(0, -1) + " ".repeat(1000 - encoder.encode(text).byteLength) + "}";
    expect(encoder.encode(padded).byteLength).toBe(1000);
    const { status, messages } = await answer(post(streamOf([padded.slice(0, 600), padded.slice(600)])));
    expect({ status, message: messages[0] }).toEqual({ status: 200, message: result("2") });
  });

  it("a stream that fails after its first chunk, or at once: 400, -32700 Parse error", async () => {
    for (const parts of [['{"jsonrpc":'], []]) {
      const { status, messages } = await answer(post(streamOf(parts, true)));
      expect(status).toBe(400);
      expect(messages).toEqual([
        {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700, message: "Parse error: the request body could not be read" },
        },
      ]);
    }
  });

  it("a body that is not JSON, or empty: -32700 Parse error (JSON-RPC 2.0 §5.1)", async () => {
    for (const body of ["not json", "", '{"jsonrpc":"2.0",']) {
      const { status, messages } = await answer(post(body));
      expect(status).toBe(400);
      expect(messages[0]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    }
  });

  it("JSON that is not a JSON-RPC message: -32600 Invalid Request", async () => {
    const { status, messages } = await answer(post("null"));
    expect(status).toBe(400);
    expect(messages[0]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  });

  it("a media type other than application/json: 415, the body unread", async () => {
    const { status, messages } = await answer(post(call(1, 2), { "content-type": "text/plain" }));
    expect(status).toBe(415);
    expect(messages[0]).toMatchObject({ id: null, error: { code: -32000 } });
  });
});
