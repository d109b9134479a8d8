/**
 * Raw Streamable HTTP requests, as `curl` sends them (no MCP client, no session): one JSON-RPC
 * POST, to a served URL or a server's own `fetch`, and the answer to it.
 */
import { messagesOf } from "./sse.ts";

/** The SEP-2663 tasks extension's identifier, as a 2026-07-28 client declares it. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/**
 * A POST of `message` as JSON, as a Streamable HTTP client sends it (`Accept` of JSON and SSE,
 * `MCP-Protocol-Version: 2025-11-25`), for `fetch` or a server's own `fetch`; `headers` add to or
 * replace those. `url` defaults to `http://127.0.0.1/mcp`.
 */
export function rpcRequest(
  message: unknown,
  options: { url?: URL | string; headers?: Record<string, string> } = {},
): Request {
  return new Request(options.url ?? "http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...options.headers,
    },
    body: JSON.stringify(message),
  });
}

/** POSTs `{ jsonrpc: "2.0", id: 1, method, params }` with `headers`; the JSON-RPC answer to id 1 (JSON or SSE body). */
async function answerTo(
  url: URL | string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<Record<string, any>> {
  const response = await fetch(rpcRequest({ jsonrpc: "2.0", id: 1, method, params }, { url, headers }));
  return messagesOf(await response.text()).find((m) => m.id === 1)!;
}

/** One raw 2025-11-25 POST without a session (`headers` added, e.g. `Authorization`); the JSON-RPC answer to id 1. */
export function post2025(
  url: URL | string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Record<string, any>> {
  return answerTo(url, method, params, headers);
}

/**
 * One raw 2026-07-28 POST: the SEP-2243 headers (`Mcp-Method`, and `Mcp-Name` from `params.name`
 * or `params.taskId`), `params._meta` the per-request envelope (protocol version, `clientInfo`
 * named `client`, client capabilities `{ elicitation: {}, extensions }`, by default declaring the
 * tasks extension), `headers` added; the JSON-RPC answer to id 1.
 */
export function post2026(
  url: URL | string,
  method: string,
  params: Record<string, unknown>,
  options: { client?: string; extensions?: Record<string, object>; headers?: Record<string, string> } = {},
): Promise<Record<string, any>> {
  const { client = "raw", extensions = { [TASKS_EXTENSION]: {} }, headers = {} } = options;
  const name = params.name ?? params.taskId;
  return answerTo(
    url,
    method,
    {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: client, version: "1" },
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions },
      },
    },
    {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof name === "string" && { "mcp-name": name }),
      ...headers,
    },
  );
}
