/**
 * Raw Streamable HTTP requests, as `curl` sends them (no MCP client, no session): one JSON-RPC
 * POST, to a served URL or a server's own `fetch`, and the answer to it (with the upstream that
 * served it, for the scale-out tests behind nginx).
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

/** The 2026-07-28 per-request `_meta` envelope: protocol version, `clientInfo` named `client`, `capabilities`. */
function envelope(client: string, capabilities: Record<string, unknown>): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: client, version: "1" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
}

/**
 * A 2026-07-28 `subscriptions/listen` POST (SEP-2575) asking for `notifications` (e.g.
 * `{ toolsListChanged: true }`): JSON-RPC id `id` (default 1), the SEP-2243 headers and the
 * `_meta` envelope of a client named `client` (default `raw`) declaring no capabilities; `url`
 * and `headers` as for {@link rpcRequest}.
 */
export function listenRequest(
  notifications: unknown,
  options: { id?: number; client?: string; url?: URL | string; headers?: Record<string, string> } = {},
): Request {
  const { id = 1, client = "raw", url, headers } = options;
  const params = { notifications, _meta: envelope(client, {}) };
  return rpcRequest(
    { jsonrpc: "2.0", id, method: "subscriptions/listen", params },
    {
      ...(url !== undefined && { url }),
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen", ...headers },
    },
  );
}

/** Where a raw request goes: a served URL (through `fetch`), or a server's own `fetch`. */
export type Target = URL | string | { fetch(request: Request): Promise<Response> };

/** What a raw POST got: its JSON-RPC answer, every message of the body, the HTTP status, and the upstream that served it (nginx's `X-Upstream`; `?` without a balancer). */
export interface Exchange {
  answer: Record<string, any>;
  messages: Array<Record<string, any>>;
  status: number;
  upstream: string;
}

/**
 * POSTs `{ jsonrpc: "2.0", id: 1, method, params }` to `target` (2025-11-25 headers unless
 * `headers` say otherwise); the answer to id 1 (JSON or SSE body) and the upstream that served it.
 */
export async function post(
  target: Target,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Exchange> {
  const message = { jsonrpc: "2.0", id: 1, method, params };
  const response =
    typeof target === "object" && "fetch" in target
      ? await target.fetch(rpcRequest(message, { headers }))
      : await fetch(rpcRequest(message, { url: target, headers }));
  const messages = messagesOf(await response.text());
  const answer = messages.find((m) => m.id === 1)!;
  return { answer, messages, status: response.status, upstream: response.headers.get("x-upstream") ?? "?" };
}

/** One raw 2025-11-25 POST without a session (`headers` added, e.g. `Authorization`); the JSON-RPC answer to id 1. */
export async function post2025(
  url: URL | string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Record<string, any>> {
  return (await post(url, method, params, headers)).answer;
}

/**
 * One raw 2026-07-28 POST to `target`: the SEP-2243 headers (`Mcp-Method`, and `Mcp-Name` from
 * `params.name`, `params.taskId` or `params.uri`), `params._meta` the per-request envelope
 * (protocol version, `clientInfo` named `client`, client capabilities `capabilities`, by default
 * `{ elicitation: {}, extensions }` with `extensions` by default declaring the tasks extension)
 * with the keys of the `params._meta` given added, `headers` added; what it got ({@link Exchange}).
 */
export function post2026(
  target: Target,
  method: string,
  params: Record<string, unknown>,
  options: {
    client?: string;
    extensions?: Record<string, object>;
    capabilities?: Record<string, unknown>;
    headers?: Record<string, string>;
  } = {},
): Promise<Exchange> {
  const { client = "raw", extensions = { [TASKS_EXTENSION]: {} }, headers = {} } = options;
  const capabilities = options.capabilities ?? { elicitation: {}, extensions };
  const name = params.name ?? params.taskId ?? params.uri;
  return post(
    target,
    method,
    {
      ...params,
      _meta: { ...envelope(client, capabilities), ...(params._meta as object | undefined) },
    },
    {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof name === "string" && { "mcp-name": name }),
      ...headers,
    },
  );
}
