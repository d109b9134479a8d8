/**
 * Lifecycle hooks (docs/runtime.md "Lifecycle hooks"), with the official client:
 * - stdio: `initialized` fires once per connection, after `notifications/initialized`, with the
 *   client's info and capabilities and the negotiated revision; `rootsListChanged` fires on
 *   `notifications/roots/list_changed`; `session.id` is `RequestContext.sessionId` of that
 *   connection's calls and differs between connections — so the fixture asks `roots/list` once per
 *   session and again only after the roots changed.
 * - stateless 2025-era HTTP (`server.fetch`): the same, scoped by the typed-mcp Mcp-Session-Id.
 * - 2026-07-28 (no `initialize`): nothing fires and `sessionId` is undefined.
 * "Eventually" waits are bounded (10 s): a notification has no answer to wait for.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createServer } from "./fixtures/lifecycle.mjs";

const FIXTURE = fileURLToPath(new URL("./fixtures/lifecycle.mjs", import.meta.url));
const CLIENT_INFO = { name: "lifecycle-client", version: "1.2.3" };
const CAPABILITIES = { roots: { listChanged: true } };

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

type Events = { session: string | null; events: Array<Record<string, any>> };
const json = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0]!.text);
const events = async (client: Client): Promise<Events> =>
  json(await client.callTool({ name: "events", arguments: {} }));

/** Calls `events` until `done` holds (at most 10 s). */
async function eventually(client: Client, done: (e: Events) => boolean): Promise<Events> {
  let last = await events(client);
  for (const end = Date.now() + 10_000; !done(last) && Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 20));
    last = await events(client);
  }
  return last;
}

/** A client whose roots are `roots[0]` (mutable), answering roots/list. */
function rootsClient(roots: string[][], options: Record<string, unknown> = {}): Client {
  const client = new Client(CLIENT_INFO, { capabilities: CAPABILITIES, ...options });
  client.setRequestHandler("roots/list", async () => ({ roots: roots[0]!.map((uri) => ({ uri })) }));
  open.push(client);
  return client;
}

async function stdioClient(roots: string[][]): Promise<Client> {
  const client = rootsClient(roots);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [FIXTURE],
      env: { ...(process.env as Record<string, string>), TMCP_SERVE_STDIO: "1" },
      stderr: "pipe",
    }),
  );
  return client;
}

/** The hook calls and roots caching of one session, identical over every transport that has sessions. */
async function expectSessionLifecycle(client: Client, roots: string[][], transport: "stdio" | "http"): Promise<string> {
  const first = await eventually(client, (e) => e.events.length >= 1);
  expect(first.events).toHaveLength(1);
  const init = first.events[0]!;
  expect(init).toEqual({
    hook: "initialized",
    id: first.session,
    transport,
    protocolVersion: "2025-11-25",
    clientInfo: CLIENT_INFO,
    clientCapabilities: CAPABILITIES,
  });
  expect(typeof first.session).toBe("string");
  // Asked once, then served from the session's cache.
  expect(json(await client.callTool({ name: "roots", arguments: {} }))).toEqual({
    session: first.session,
    roots: ["file:///a"],
    asked: 1,
  });
  expect(json(await client.callTool({ name: "roots", arguments: {} })).asked).toBe(1);
  roots[0] = ["file:///a", "file:///b"];
  await client.sendRootsListChanged();
  const changed = await eventually(client, (e) => e.events.length >= 2);
  expect(changed.events[1]).toEqual({ ...init, hook: "rootsListChanged" });
  expect(json(await client.callTool({ name: "roots", arguments: {} }))).toEqual({
    session: first.session,
    roots: ["file:///a", "file:///b"],
    asked: 2,
  });
  return first.session!;
}

describe("stdio: scoped by the connection", () => {
  it("initialized and rootsListChanged fire with the client's info; a second connection is another session", async () => {
    const roots = [["file:///a"]];
    const id = await expectSessionLifecycle(await stdioClient(roots), roots, "stdio");
    const other = await eventually(await stdioClient([["file:///c"]]), (e) => e.events.length >= 1);
    expect(other.session).not.toBe(id);
    expect(other.events.map((e) => [e.hook, e.id])).toEqual([["initialized", other.session]]);
  }, 60_000);
});

/** A client on `server.fetch` of a fresh in-process server, pinned to `revision`. */
async function httpClient(roots: string[][], revision: string, events: unknown[]): Promise<Client> {
  const server = createServer(events);
  const client = rootsClient(
    roots,
    revision >= "2026"
      ? { versionNegotiation: { mode: { pin: revision } } }
      : { supportedProtocolVersions: [revision] },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: async (input, init) => server.fetch(new Request(input, init)),
    }),
  );
  return client;
}

describe("stateless 2025-era HTTP: scoped by the Mcp-Session-Id", () => {
  it("initialized fires with the session's client; rootsListChanged with the same id", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const client = await httpClient([["file:///a"]], "2025-11-25", seen);
    const first = await eventually(client, (e) => e.events.length >= 1);
    expect(first.session).toMatch(/^tmcp1\./);
    expect(first.events).toEqual([
      {
        hook: "initialized",
        id: first.session,
        transport: "http",
        protocolVersion: "2025-11-25",
        clientInfo: CLIENT_INFO,
        clientCapabilities: CAPABILITIES,
      },
    ]);
    // Stateless HTTP has no back channel: roots/list cannot be asked, but the change is still announced.
    await client.sendRootsListChanged();
    const changed = await eventually(client, (e) => e.events.length >= 2);
    expect(changed.events[1]).toEqual({ ...first.events[0], hook: "rootsListChanged" });
  }, 60_000);
});

describe("2026-07-28: no initialize, no session", () => {
  it("fires nothing and gives no sessionId", async () => {
    const seen: unknown[] = [];
    const client = await httpClient([["file:///a"]], "2026-07-28", seen);
    expect(await events(client)).toEqual({ session: null, events: [] });
    expect(seen).toEqual([]);
  }, 60_000);
});
