// serveHttp's write timeout (issue 25 "Also found": 10 clients that never read x 16 MiB held
// +169 MB until they disconnected; docs/security.md "Streams"). Raw sockets on 127.0.0.1 only,
// bounded in count (10) and time (each wait has a 15 s bound); nothing here times the server.
import http from "node:http";
import net from "node:net";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterEach, describe, expect, it } from "vitest";
import { heldBytes } from "../helpers/heap.ts";
import { rpcRequest } from "../helpers/raw-http.ts";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import type { McpServerOptions } from "../../packages/typed-mcp/dist/index.js";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import type { HttpServerHandle } from "../../packages/typed-mcp/dist/node.js";
import { until } from "./helpers.js";

const MiB = 1024 * 1024;
/** The diagnostics channel docs/security.md "Streams" names for streams the server closes. */
const STREAM_CLOSED_CHANNEL = "typed-mcp:stream-closed";

let handle: HttpServerHandle | undefined;
const clients: net.Socket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  await handle?.close();
  handle = undefined;
});

/** serveHttp on 127.0.0.1 of a server with one ui:// resource of `size` characters; every server-side socket is recorded. */
async function start(size: number, options: Partial<McpServerOptions> = {}) {
  const body = "x".repeat(size);
  const server = new McpServer({ name: "big", version: "1.0.0", ...options });
  server.addUiResource("ui://big/view", () => body);
  handle = await serveHttp(server);
  const sockets: net.Socket[] = [];
  const closed = new Set<net.Socket>();
  handle.httpServer.on("connection", (s: net.Socket) => {
    sockets.push(s);
    s.once("close", () => closed.add(s));
  });
  return { server, sockets, closed, port: handle.port };
}

/** A raw HTTP/1.1 POST of one JSON-RPC message (2025-11-25, stateless). */
function rawPost(port: number, message: unknown): string {
  const body = JSON.stringify(message);
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `MCP-Protocol-Version: 2025-11-25\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

const MODERN_ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A raw HTTP/1.1 POST of a 2026-07-28 subscriptions/listen request body. */
function listenPost(port: number, body: string): string {
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

const READ = { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "ui://big/view" } };

/** A client that sends `request` and never reads a byte of the answer. */
function neverReads(port: number, request: string): net.Socket {
  const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
  socket.pause();
  socket.on("error", () => {});
  clients.push(socket);
  return socket;
}

describe("serveHttp: a peer that does not read is disconnected after streams.writeTimeoutMs", () => {
  it("10 clients never reading a 16 MiB answer: each connection is closed and the memory is freed", async () => {
    const { server, sockets, closed, port } = await start(16 * MiB, { streams: { writeTimeoutMs: 300 } });
    // Warm up (the resource string is flattened by its first read) before the baseline.
    await server.fetch(rpcRequest(READ)).then((r) => r.text());
    const notices: any[] = [];
    const record = (m: unknown) => void notices.push(m);
    subscribe(STREAM_CLOSED_CHANNEL, record);
    try {
      const before = heldBytes();
      for (let i = 0; i < 10; i++) neverReads(port, rawPost(port, READ));
      // Every answer is written and stuck: the server's sockets hold unsent bytes.
      await until(() => sockets.length === 10 && sockets.every((s) => s.destroyed || s.writableLength > 0), 15_000);
      const peak = heldBytes() - before;
      // Closed: the socket's handle is closed (its 'close' event), which is when libuv lets go of the unsent buffers.
      await until(() => closed.size === 10, 15_000);
      // libuv lets go of the unsent buffers as the closed handles' write requests are cancelled: wait (bounded) for it.
      let after = heldBytes() - before;
      await until(() => (after = heldBytes() - before) < 16 * MiB, 10_000).catch(() => {});
      console.log(
        `10 clients x 16 MiB never read: +${(peak / 1e6).toFixed(0)} MB while blocked, +${(after / 1e6).toFixed(1)} MB after the write timeout`,
      );
      // Freed: less than one stuck answer stays held.
      expect(after).toBeLessThan(16 * MiB);
      expect(notices).toHaveLength(10);
      for (const n of notices) expect(n).toMatchObject({ reason: "write-timeout", limit: 300 });
    } finally {
      unsubscribe(STREAM_CLOSED_CHANNEL, record);
    }
  }, 40_000);

  it("a reader that keeps taking bytes is not cut: it receives all of a 4 MiB answer that takes longer than the timeout", async () => {
    // 4 MiB reach the reader in chunks of at most 64 KiB (a socket's highWaterMark), each followed by
    // a 10 ms pause: at least 64 x 10 ms = 640 ms for the whole answer, more than twice the timeout.
    const { port } = await start(4 * MiB, { streams: { writeTimeoutMs: 300 } });
    const socket = net.connect(port, "127.0.0.1", () => socket.write(rawPost(port, READ)));
    clients.push(socket);
    let text = "";
    let closed = false;
    socket.setEncoding("latin1").on("data", (chunk: string) => {
      text += chunk;
      // Reads one chunk, then waits 10 ms: longer than the timeout for the whole answer, progress all along.
      socket.pause();
      setTimeout(() => socket.resume(), 10);
    });
    socket.on("close", () => (closed = true));
    const complete = () => text.includes('"}]}}') || text.endsWith("\r\n0\r\n\r\n");
    await until(() => complete() || closed, 30_000);
    expect(complete()).toBe(true);
    expect(text.includes(`"text":"${"x".repeat(4 * MiB)}"`)).toBe(true);
  }, 40_000);

  it("a listen stream whose peer never reads: closed at the queue ceiling, then its connection after the write timeout", async () => {
    const { server, sockets, closed, port } = await start(16, { streams: { writeTimeoutMs: 500 } });
    const uri = `ui://big/${"u".repeat(4096)}`;
    const notices: any[] = [];
    const record = (m: unknown) => void notices.push(m);
    subscribe(STREAM_CLOSED_CHANNEL, record);
    try {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "subscriptions/listen",
        params: { notifications: { resourceSubscriptions: [uri] }, _meta: MODERN_ENVELOPE },
      });
      neverReads(port, listenPost(port, body));
      await until(() => sockets.length === 1 && sockets[0]!.bytesWritten > 0, 15_000);
      // Up to 4,000 notifications of 4 KB (16 MB), yielding to I/O every 50 so the socket writes what
      // the kernel takes: more than the kernel's socket buffers plus the 1 MiB queue ceiling.
      for (let i = 0; i < 4000 && notices.length === 0; i++) {
        await server.resourceUpdated(uri);
        if (i % 50 === 49) await new Promise((r) => setImmediate(r));
      }
      await until(() => closed.size === 1, 15_000);
      // The stream overflowed its queue, and the connection, blocked on a full socket, hit the write timeout.
      expect(notices.map((n) => n.reason).sort()).toEqual(["queue-full", "write-timeout"]);
      expect(notices.find((n) => n.reason === "write-timeout")).toMatchObject({ limit: 500 });
    } finally {
      unsubscribe(STREAM_CLOSED_CHANNEL, record);
    }
  }, 40_000);

  it("a keep-alive connection serving 200 responses keeps no watcher of earlier ones (no listener piles up)", async () => {
    const { sockets, port } = await start(16);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = JSON.stringify(READ);
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      "content-length": Buffer.byteLength(body),
    };
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const once = () =>
        new Promise<void>((resolve, reject) => {
          const request = http.request(
            { host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers },
            (res) => res.resume().on("end", () => resolve()),
          );
          request.on("error", reject).end(body);
        });
      await once();
      const counts = () => [sockets[0]!.listenerCount("drain"), sockets[0]!.listenerCount("close")];
      const afterOne = counts();
      for (let i = 1; i < 200; i++) await once();
      expect(sockets).toHaveLength(1);
      // As many listeners after 200 responses as after the first one.
      expect(counts()).toEqual(afterOne);
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
      agent.destroy();
    }
  });

  it("an idle listen stream (nothing waiting) stays open past the timeout and still delivers", async () => {
    const { server, port } = await start(16, { dynamic: true, streams: { writeTimeoutMs: 100 } });
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: { notifications: { resourcesListChanged: true }, _meta: MODERN_ENVELOPE },
    });
    const socket = net.connect(port, "127.0.0.1", () => socket.write(listenPost(port, body)));
    clients.push(socket);
    let text = "";
    socket.setEncoding("utf8").on("data", (c: string) => (text += c));
    await until(() => text.includes("notifications/subscriptions/acknowledged"), 15_000);
    // Four times the timeout with nothing to write.
    await new Promise((r) => setTimeout(r, 400));
    server.addUiResource("ui://big/other", "<html></html>");
    await until(() => text.includes("notifications/resources/list_changed") || socket.destroyed, 15_000);
    expect(socket.destroyed).toBe(false);
  }, 40_000);
});
