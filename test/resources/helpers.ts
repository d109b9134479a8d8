// Shared helpers of the resource/prompt tests (spec §8). The fixtures are built with the real
// plugin in a real Vite build; the servers are driven with the official client through the
// server's own web-standard `fetch` (no sockets), and with raw JSON-RPC POSTs for exact bytes.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { rpcRequest } from "../helpers/raw-http.ts";
import { buildWithPlugin } from "../helpers/vite-build.ts";

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures");

/** A server as the built fixtures export it. */
export interface FetchServer {
  fetch(request: Request): Promise<Response>;
}

/** Builds `fixtures/<dir>/<entries>.ts` (default dir `app`) with the plugin into a fresh temp dir (`outDir`, one `<entry>.js` each) and imports them. */
export async function buildApp(
  entries: string[],
  dir = "app",
): Promise<{ modules: Record<string, Record<string, any>>; outDir: string; cleanup(): Promise<void> }> {
  const built = await buildWithPlugin(join(FIXTURES, dir), entries, "typed-mcp-resources-");
  const modules: Record<string, Record<string, any>> = {};
  for (const e of entries) modules[e] = await built.load(e);
  return { modules, outDir: built.outDir, cleanup: built.remove };
}

/** The official client talking to `server.fetch` directly; `bodies` records every raw response body of a POST. */
export async function connect(
  server: FetchServer,
  options: Record<string, unknown> = {},
  bodies: string[] = [],
): Promise<Client> {
  const client = new Client({ name: "vitest-client", version: "0.0.1" }, options);
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await server.fetch(new Request(input, init));
    if ((init?.method ?? "GET") === "POST") bodies.push(await response.clone().text());
    return response;
  };
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchImpl }));
  return client;
}

/** The JSON-RPC messages of a raw HTTP response body (test/helpers/sse.ts, the suite's one SSE reader). */
export { messagesOf } from "../helpers/sse.ts";

/** Pins the client to the 2026-07-28 revision (the client's `versionNegotiation` option). */
export const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

/** One raw stateless JSON-RPC request to `server.fetch` (a 2025-11-25 client); the parsed response message and the raw body. */
export async function rawRequest(
  server: FetchServer,
  method: string,
  params?: unknown,
): Promise<{ body: string; message: Record<string, any> }> {
  const response = await server.fetch(
    rpcRequest({ jsonrpc: "2.0", id: 7, method, ...(params !== undefined && { params }) }),
  );
  const body = await response.text();
  const trimmed = body.trim();
  const json = trimmed.startsWith("{")
    ? trimmed
    : body
        .split("\n")
        .find((l) => l.startsWith("data:"))!
        .slice(5)
        .trim();
  return { body, message: JSON.parse(json) };
}

/** The raw JSON text of the array under `key` in a raw response body (bytes as the server sent them). */
export function rawArray(body: string, key: string): string {
  const start = body.indexOf(`"${key}":[`);
  if (start < 0) throw new Error(`no ${key} in ${body}`);
  let depth = 0;
  let inString = false;
  const from = start + key.length + 4;
  for (let i = from; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      if (depth === 0) return body.slice(from - 1, i + 1);
      depth--;
    }
  }
  throw new Error("unterminated");
}

/**
 * The official client over stdio to the built `fixtures/app/stdio-main.ts` in a child Node
 * process; `fixture` selects the server (`TMCP_STDIO`: "shop" or "watch"). `options` are the
 * client's (e.g. {@link MODERN}).
 */
export async function connectStdio(
  outDir: string,
  fixture: string,
  options: Record<string, unknown> = {},
): Promise<Client> {
  const client = new Client({ name: "vitest-client", version: "0.0.1" }, options);
  const env = { ...process.env, TMCP_STDIO: fixture } as Record<string, string>;
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(outDir, "stdio-main.js")],
      env,
      stderr: "inherit",
    }),
  );
  return client;
}

/** The JSON-RPC error a request failed with, as the client reports it. */
export async function errorOf(p: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await p;
  } catch (e) {
    return e as { code: number; message: string; data?: unknown };
  }
  throw new Error("expected the request to fail");
}

/** The official client on `server.fetch` (no sockets), without reading response bodies ahead (a listen stream stays open). */
export async function connectStreaming(
  server: { fetch(r: Request): Promise<Response> },
  options: Record<string, unknown>,
): Promise<Client> {
  const client = new Client({ name: "vitest-client", version: "0.0.1" }, options);
  const fetchImpl = (input: string | URL | Request, init?: RequestInit) => server.fetch(new Request(input, init));
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchImpl }));
  return client;
}

/** Resolves once `check()` is true, polling; rejects after `ms` milliseconds (shared with the runtime tests). */
export { until } from "../runtime/helpers.ts";
