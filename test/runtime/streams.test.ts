// Bounded listen streams on server.fetch (issue 25 rows 7 and 8; docs/security.md "Limits" and
// "Streams"). The SDK's listen router had one server-wide limit of 1,024 streams (answered -32603
// "Subscription limit reached" to everyone once one client held them all), took any number of
// URIs in a filter and queued every notification of a stream nobody read. Expected answers are the
// ones docs/security.md documents; the counts are the documented defaults.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterEach, describe, expect, it } from "vitest";
import { heldBytes } from "../helpers/heap.ts";
import { sseMessages } from "../helpers/sse.ts";
import { listenRequest } from "../helpers/raw-http.ts";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import type { McpServerOptions } from "../../packages/typed-mcp/dist/index.js";

/** A token caller as an application's own auth hands it to server.fetch (caller.ts: issuer + sub + client_id). */
const token = (subject: string) => ({
  token: `t-${subject}`,
  clientId: "app",
  scopes: [],
  extra: { issuer: "https://as.example", subject },
});

/** A server advertising resources.subscribe (a ui:// resource) and tools.listChanged (`dynamic`). */
function makeServer(options: Partial<McpServerOptions> = {}): McpServer {
  const server = new McpServer({ name: "streams", version: "1.0.0", dynamic: true, ...options });
  server.addUiResource("ui://streams/view", "<html></html>");
  return server;
}

/** Every response body opened by a test, cancelled after it (the streams would otherwise stay open). */
const opened: Response[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.body?.cancel().catch(() => {})));
});

/** One raw 2026-07-28 subscriptions/listen POST to server.fetch. */
async function listen(
  server: McpServer,
  notifications: unknown,
  o: { id?: number; headers?: Record<string, string>; authInfo?: ReturnType<typeof token> } = {},
): Promise<Response> {
  const response = await server.fetch(
    listenRequest(notifications, { ...(o.id !== undefined && { id: o.id }), ...(o.headers && { headers: o.headers }) }),
    o.authInfo === undefined ? undefined : { authInfo: o.authInfo },
  );
  opened.push(response);
  return response;
}

const isStream = (r: Response) => (r.headers.get("content-type") ?? "").startsWith("text/event-stream");

/** The JSON-RPC error of a refused listen (an in-band answer, HTTP 200 as the SDK's own listen errors). */
async function errorOf(r: Response): Promise<Record<string, unknown>> {
  expect(isStream(r)).toBe(false);
  expect(r.status).toBe(200);
  return (await r.json()).error;
}

/** Opens `count` listen streams for one caller; the responses in order. */
async function openMany(server: McpServer, count: number, o: Parameters<typeof listen>[2] = {}): Promise<Response[]> {
  const out: Response[] = [];
  for (let i = 0; i < count; i++) out.push(await listen(server, { toolsListChanged: true }, { ...o, id: i + 1 }));
  return out;
}

/** The next message of a live stream's messages (test/helpers/sse.ts `sseMessages`); the stream must not have ended. */
async function nextMessage(messages: AsyncGenerator<Record<string, any>>): Promise<Record<string, any>> {
  const { value, done } = await messages.next();
  expect(done).toBe(false);
  return value as Record<string, any>;
}

const quotaError = (whose: string, verb: string, n: number, option: string) => ({
  code: -32000,
  message: `Too many subscriptions/listen streams: ${whose} already ${verb} ${n} open, the most streams.${option} allows; close one first`,
  data: { limit: `streams.${option}`, max: n },
});

describe("row 7: listen streams are a quota per caller, with a server-wide ceiling above", () => {
  it("a caller opening 1,024 idle streams gets its 16; another caller can still listen", async () => {
    const server = makeServer();
    const alice = await openMany(server, 1024, { authInfo: token("alice") });
    expect(alice.filter(isStream)).toHaveLength(16);
    expect(await errorOf(alice[16]!)).toEqual(quotaError("this caller", "holds", 16, "maxListenStreamsPerCaller"));
    // Same client_id, another sub: another caller (RFC 9068 §2.2; docs/security.md "Callers").
    const bob = await listen(server, { toolsListChanged: true }, { authInfo: token("bob") });
    expect(isStream(bob)).toBe(true);
    expect((await nextMessage(sseMessages(bob.body!))).method).toBe("notifications/subscriptions/acknowledged");
  });

  it("anonymous callers share one bucket of 256 below the ceiling; a token caller still listens", async () => {
    const server = makeServer();
    const anonymous = await openMany(server, 257);
    expect(anonymous.filter(isStream)).toHaveLength(256);
    expect(await errorOf(anonymous[256]!)).toEqual(
      quotaError("anonymous callers", "hold", 256, "maxAnonymousListenStreams"),
    );
    expect(isStream(await listen(server, { toolsListChanged: true }, { authInfo: token("carol") }))).toBe(true);
  });

  it("made-up Mcp-Session-Id values do not escape the anonymous bucket (a session is no quota boundary)", async () => {
    const server = makeServer();
    const out: Response[] = [];
    for (let i = 0; i < 257; i++)
      out.push(
        await listen(server, { toolsListChanged: true }, { id: i + 1, headers: { "mcp-session-id": `made-up-${i}` } }),
      );
    expect(out.filter(isStream)).toHaveLength(256);
    expect(await errorOf(out[256]!)).toEqual(quotaError("anonymous callers", "hold", 256, "maxAnonymousListenStreams"));
    // The server-wide ceiling (1,024) is not reached: a token caller still listens.
    expect(isStream(await listen(server, { toolsListChanged: true }, { authInfo: token("dave") }))).toBe(true);
  });

  it("callerKey splits the anonymous bucket: each key gets the per-caller quota", async () => {
    const server = makeServer({ callerKey: (request) => request.headers.get("x-client") ?? undefined });
    const a = await openMany(server, 17, { headers: { "x-client": "10.0.0.1" } });
    expect(a.filter(isStream)).toHaveLength(16);
    expect(await errorOf(a[16]!)).toEqual(quotaError("this caller", "holds", 16, "maxListenStreamsPerCaller"));
    expect(isStream(await listen(server, { toolsListChanged: true }, { headers: { "x-client": "10.0.0.2" } }))).toBe(
      true,
    );
  });

  it("the server-wide ceiling is named when it is what is full", async () => {
    const server = makeServer({
      streams: { maxListenStreams: 4, maxListenStreamsPerCaller: 2, maxAnonymousListenStreams: 2 },
    });
    expect((await openMany(server, 2, { authInfo: token("a") })).every(isStream)).toBe(true);
    expect((await openMany(server, 2, { authInfo: token("b") })).every(isStream)).toBe(true);
    expect(await errorOf(await listen(server, { toolsListChanged: true }, { authInfo: token("c") }))).toEqual(
      quotaError("this server", "holds", 4, "maxListenStreams"),
    );
  });

  it("a stream that ends frees its slot", async () => {
    const server = makeServer({ streams: { maxListenStreamsPerCaller: 1 } });
    const first = await listen(server, { toolsListChanged: true }, { authInfo: token("dave") });
    expect(isStream(first)).toBe(true);
    expect(isStream(await listen(server, { toolsListChanged: true }, { authInfo: token("dave") }))).toBe(false);
    await first.body!.cancel();
    expect(isStream(await listen(server, { toolsListChanged: true }, { authInfo: token("dave") }))).toBe(true);
  });

  it("the options are checked at construction (RangeError naming the option)", () => {
    expect(() => makeServer({ streams: { maxListenStreamsPerCaller: 0 } })).toThrow(
      new RangeError("streams.maxListenStreamsPerCaller must be a positive integer, got 0"),
    );
    expect(() => makeServer({ streams: { maxQueuedBytes: 1.5 } })).toThrow(
      new RangeError("streams.maxQueuedBytes must be a positive integer, got 1.5"),
    );
    expect(() => makeServer({ streams: { maxListenStreams: 8 } })).toThrow(
      new RangeError("streams.maxListenStreamsPerCaller (16) must not exceed streams.maxListenStreams (8)"),
    );
  });
});

/** The diagnostics channel docs/security.md "Streams" names for streams the server closes. */
const STREAM_CLOSED_CHANNEL = "typed-mcp:stream-closed";

/** Records what is published on typed-mcp:stream-closed while `fn` runs. */
async function noticesDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const record = (message: unknown) => void seen.push(message);
  subscribe(STREAM_CLOSED_CHANNEL, record);
  try {
    await fn();
  } finally {
    unsubscribe(STREAM_CLOSED_CHANNEL, record);
  }
  return seen;
}

describe("row 8: nothing a listen stream holds is unbounded", () => {
  it("a filter naming 90,000 URIs is -32602 naming streams.maxListenUris; 1,000 are accepted", async () => {
    const server = makeServer();
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `ui://streams/${i}`);
    expect(await errorOf(await listen(server, { resourceSubscriptions: uris(90_000) }))).toEqual({
      code: -32602,
      message:
        "Invalid params: notifications.resourceSubscriptions names 90000 URIs; at most 1000 are accepted (streams.maxListenUris)",
      data: { limit: "streams.maxListenUris", max: 1000 },
    });
    const accepted = await listen(server, { resourceSubscriptions: uris(1000) });
    expect(isStream(accepted)).toBe(true);
    expect((await nextMessage(sseMessages(accepted.body!))).params.notifications.resourceSubscriptions).toHaveLength(
      1000,
    );
  });

  it("a legal filter whose acknowledgement passes maxQueuedBytes (1,000 URIs of 1,100 characters) keeps its stream open", async () => {
    // Found by a fresh attack: the ~1.1 MB acknowledgement itself passed the 1 MiB ceiling, so the stream ended at once, every time.
    const server = makeServer();
    const uris = Array.from({ length: 1000 }, (_, i) => `ui://streams/${String(i).padStart(1100, "u")}`);
    const stream = await listen(server, { resourceSubscriptions: uris });
    expect(isStream(stream)).toBe(true);
    const messages = sseMessages(stream.body!);
    expect((await nextMessage(messages)).params.notifications.resourceSubscriptions).toHaveLength(1000);
    await server.resourceUpdated(uris[0]!);
    expect(await nextMessage(messages)).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: uris[0] },
    });
  });

  it("a stream never read, sent 10,000 notifications of 4 KB, is closed at 1 MiB queued: memory stays bounded", async () => {
    const server = makeServer({ streams: { maxListenStreamsPerCaller: 1 } });
    const uri = `ui://streams/${"a".repeat(4096)}`;
    const stream = await listen(server, { resourceSubscriptions: [uri] }, { authInfo: token("erin") });
    expect(isStream(stream)).toBe(true);
    const before = heldBytes();
    let held = 0;
    const notices = await noticesDuring(async () => {
      for (let i = 0; i < 10_000; i++) await server.resourceUpdated(uri);
      held = heldBytes() - before;
    });
    // Before: +42 MB held while connected (every notification queued). The ceiling is 1 MiB plus one notification.
    console.log(`never-read listen stream, 10,000 x 4 KB notifications: +${(held / 1e6).toFixed(1)} MB held`);
    expect(held).toBeLessThan(4 * 1024 * 1024);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ reason: "queue-full", limit: 1024 * 1024 });
    expect((notices[0] as { queuedBytes: number }).queuedBytes).toBeGreaterThan(1024 * 1024);
    // The stream ends for the client (it errors: the queue was discarded, not delivered) ...
    await expect(
      (async () => {
        for await (const _ of sseMessages(stream.body!));
        return "done";
      })(),
    ).rejects.toThrow();
    // ... and its slot is free again: the client re-listens.
    expect(isStream(await listen(server, { resourceSubscriptions: [uri] }, { authInfo: token("erin") }))).toBe(true);
  });

  it("a stream that is read gets every notification (2,000 of 4 KB, 8 MB in all) and stays open", async () => {
    const server = makeServer();
    const uri = `ui://streams/${"b".repeat(4096)}`;
    const stream = await listen(server, { resourceSubscriptions: [uri] });
    const messages = sseMessages(stream.body!);
    await nextMessage(messages);
    let seen = 0;
    for (let batch = 0; batch < 20; batch++) {
      for (let i = 0; i < 100; i++) await server.resourceUpdated(uri);
      while (seen < (batch + 1) * 100)
        if ((await nextMessage(messages)).method === "notifications/resources/updated") seen++;
    }
    expect(seen).toBe(2000);
  });
});
