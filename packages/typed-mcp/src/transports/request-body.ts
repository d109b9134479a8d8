/**
 * Reading a POST body once, ahead of the SDK's `createMcpHandler`, so that it is handed over as the
 * handler's documented `parsedBody` (docs/runtime.md "Request bodies"). Without it the SDK clones
 * every POST (`Request#clone`, a tee of the body stream) to keep a readable copy for its 2025-era
 * fallback, then reads the tee: on Node 20 that clone and read are the largest single cost of a
 * `tools/call` (about a tenth of it). Every request the SDK would answer with an error of its own
 * (415, 413, an unreadable or non-JSON body) reaches it with the same bytes, so it answers exactly
 * as before.
 *
 * @module
 */
import { isJsonContentType } from "@modelcontextprotocol/server";
import { isServedRevision, precedesBatches, takesBatches } from "../protocol/revisions.js";

/** UTF-8, replacement characters for bad sequences, a leading BOM dropped: the SDK's reading. Stateless without `stream`, so one serves every request. */
const UTF8 = new TextDecoder();

/** What {@link readJsonBody} gives the SDK handler: the request to pass on and, when read, its JSON body. */
export interface ReadBody {
  /** The request to hand to the SDK: `request` itself, or a copy that replays the bytes read. */
  readonly request: Request;
  /** The body as `JSON.parse` made it, when it was read within the limit and is JSON; else absent. */
  readonly parsedBody?: unknown;
}

/**
 * Reads the body of `request` when the SDK would read it to JSON-parse it — a `POST` with a
 * body, a JSON `Content-Type` (the SDK's `isJsonContentType`) and no declared `Content-Length`
 * over `maxBytes` — in the SDK's own way: at most `maxBytes` bytes (stopping as soon as more have
 * arrived), UTF-8 decoded as `TextDecoder` does, an empty text meaning no body, then `JSON.parse`.
 *
 * - Read and parsed: `{ request, parsedBody }` (the original request, its body consumed).
 * - Anything else — more than `maxBytes`, a stream failure, an empty or non-JSON text: `{ request }`
 *   with a copy of the request whose body yields the bytes already read, then the rest of the
 *   original stream (and its failure), so the SDK answers it as it would have (413, 400 `-32700`,
 *   its 2025-era fallback).
 * - Not a JSON POST with a body: `{ request }` unchanged, unread.
 *
 * @param request The incoming request (its body not yet read).
 * @param maxBytes The body limit in bytes (`McpServerOptions.maxRequestBodySize`), the same the SDK applies.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<ReadBody> {
  const body = request.body;
  if (
    body === null ||
    request.method.toUpperCase() !== "POST" ||
    !isJsonContentType(request.headers.get("content-type"))
  )
    return { request };
  if (Number(request.headers.get("content-length")) > maxBytes) return { request };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      if (received > maxBytes) return { request: replay(request, chunks, reader) };
    }
  } catch (error) {
    return { request: replay(request, chunks, { error }) };
  }
  const bytes = chunks.length === 1 ? chunks[0]! : concat(chunks, received);
  const text = UTF8.decode(bytes);
  if (text.length > 0) {
    try {
      return { request, parsedBody: JSON.parse(text) };
    } catch {
      // Not JSON: the SDK's own answer (its 2025-era fallback, or -32700).
    }
  }
  return { request: replay(request, chunks) };
}

/** `chunks` as one array of `length` bytes. */
function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * A copy of `request` (method, URL, headers, signal) whose body yields `chunks`, then what is left
 * of `rest` (a reader: the original stream, cancelled with the copy; `{ error }`: the original
 * stream's failure; absent: nothing).
 */
function replay(
  request: Request,
  chunks: readonly Uint8Array[],
  rest?: ReadableStreamDefaultReader<Uint8Array> | { readonly error: unknown },
): Request {
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next < chunks.length) return controller.enqueue(chunks[next++]!);
      if (rest === undefined) return controller.close();
      if ("error" in rest) return controller.error(rest.error);
      try {
        const { done, value } = await rest.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: (reason) => (rest !== undefined && "cancel" in rest ? rest.cancel(reason) : undefined),
  });
  return new Request(request, { body: stream, duplex: "half" } as RequestInit);
}

/**
 * The answer to a JSON-RPC batch (a JSON array body, JSON-RPC 2.0 §6) sent on a revision without
 * batches (docs/security.md "JSON-RPC batches"): HTTP 400 with the JSON-RPC error `-32600`
 * (Invalid Request, `id: null`), `JSON-RPC batches are not supported on MCP 2025-06-18 and later.`
 * (on 2024-11-05, which had no batches either: `… on MCP 2024-11-05.`); `undefined` (the SDK serves the request) for any other body, for a batch on 2025-03-26, and for a
 * batch without `MCP-Protocol-Version` (Streamable HTTP "Protocol Version Header": a server
 * without other means SHOULD assume 2025-03-26) or with a value that is no served revision
 * (revisions.ts `isServedRevision`; the SDK's own 400 for an unsupported version).
 *
 * @param request The request (only its `MCP-Protocol-Version` header is read).
 * @param body Its JSON body as parsed (`parsedBody`), or `undefined`.
 */
export function refuseBatch(request: Request, body: unknown): Response | undefined {
  if (!Array.isArray(body)) return undefined;
  const version = request.headers.get("mcp-protocol-version");
  if (version === null || takesBatches(version) || !isServedRevision(version)) return undefined;
  const message = precedesBatches(version)
    ? `JSON-RPC batches are not supported on MCP ${version}.`
    : "JSON-RPC batches are not supported on MCP 2025-06-18 and later.";
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message } }, { status: 400 });
}
