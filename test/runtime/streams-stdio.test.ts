// Bounded subscriptions on a lasting connection (issue 25 row 7's 2025-era half and row 8's URI
// cap; docs/security.md "Limits" and "Streams"), on a real child process
// (fixtures/streams-stdio.mjs: maxSubscribedUris 3, maxListenUris 5, maxListenStreamsPerCaller 2).
// Before, resources/subscribe kept any number of URIs per connection and a listen filter any
// number of URIs.
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { until } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/streams-stdio.mjs", import.meta.url));

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** The child's stdout, one parsed JSON-RPC message per line. */
class Connection {
  readonly child: ChildProcessWithoutNullStreams = spawn(process.execPath, [FIXTURE], { stdio: "pipe" });
  readonly messages: Array<Record<string, any>> = [];
  #buffer = "";
  constructor() {
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.#buffer += chunk;
      let nl: number;
      while ((nl = this.#buffer.indexOf("\n")) >= 0) {
        this.messages.push(JSON.parse(this.#buffer.slice(0, nl)));
        this.#buffer = this.#buffer.slice(nl + 1);
      }
    });
  }
  /** Sends a request and resolves with the first message carrying its id (a response, or a listen stream's ack). */
  async request(id: number, method: string, params?: unknown): Promise<Record<string, any>> {
    this.child.stdin.write(
      JSON.stringify({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) }) + "\n",
    );
    const mine = (m: Record<string, any>) =>
      m.id === id || m.params?._meta?.["io.modelcontextprotocol/subscriptionId"] === id;
    await until(() => this.messages.some(mine), 10_000);
    return this.messages.find(mine)!;
  }
}

let connection: Connection | undefined;
afterEach(() => {
  connection?.child.kill();
  connection = undefined;
});

describe("stdio, 2025-11-25: resources/subscribe holds at most streams.maxSubscribedUris URIs per connection", () => {
  it("the 4th distinct URI is -32000 naming the option; re-subscribing, and subscribing after an unsubscribe, succeed", async () => {
    const c = (connection = new Connection());
    await c.request(0, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    c.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    for (const n of [1, 2, 3])
      expect((await c.request(n, "resources/subscribe", { uri: `ui://s/${n}` })).result).toEqual({});
    expect((await c.request(4, "resources/subscribe", { uri: "ui://s/4" })).error).toEqual({
      code: -32000,
      message:
        "Too many resource subscriptions: this connection already holds 3, the most streams.maxSubscribedUris allows; unsubscribe one first",
      data: { limit: "streams.maxSubscribedUris", max: 3 },
    });
    expect((await c.request(5, "resources/subscribe", { uri: "ui://s/1" })).result).toEqual({});
    expect((await c.request(6, "resources/unsubscribe", { uri: "ui://s/1" })).result).toEqual({});
    expect((await c.request(7, "resources/subscribe", { uri: "ui://s/4" })).result).toEqual({});
  });
});

describe("stdio, 2026-07-28: subscriptions/listen", () => {
  const listen = (c: Connection, id: number, notifications: unknown) =>
    c.request(id, "subscriptions/listen", { notifications, _meta: ENVELOPE });

  it("a filter naming more than streams.maxListenUris URIs is -32602 naming the option; 5 are acknowledged", async () => {
    const c = (connection = new Connection());
    await c.request(0, "server/discover", { _meta: ENVELOPE });
    const six = ["ui://s/1", "ui://s/2", "ui://s/3", "ui://s/4", "ui://s/5", "ui://s/6"];
    expect((await listen(c, 1, { resourceSubscriptions: six })).error).toEqual({
      code: -32602,
      message:
        "Invalid params: notifications.resourceSubscriptions names 6 URIs; at most 5 are accepted (streams.maxListenUris)",
      data: { limit: "streams.maxListenUris", max: 5 },
    });
    const ack = await listen(c, 2, { resourceSubscriptions: six.slice(0, 5) });
    expect(ack.method).toBe("notifications/subscriptions/acknowledged");
    expect(ack.params.notifications.resourceSubscriptions).toEqual(six.slice(0, 5));
  });

  it("the connection (one caller) holds at most streams.maxListenStreamsPerCaller streams", async () => {
    const c = (connection = new Connection());
    await c.request(0, "server/discover", { _meta: ENVELOPE });
    expect((await listen(c, 1, { toolsListChanged: true })).method).toBe("notifications/subscriptions/acknowledged");
    expect((await listen(c, 2, { toolsListChanged: true })).method).toBe("notifications/subscriptions/acknowledged");
    // The SDK's per-connection limit, set from the option, answered as the HTTP quota is (docs/security.md "Limits").
    expect((await listen(c, 3, { toolsListChanged: true })).error).toEqual({
      code: -32000,
      message:
        "Too many subscriptions/listen streams: this connection already holds 2 open, the most streams.maxListenStreamsPerCaller allows; close one first",
      data: { limit: "streams.maxListenStreamsPerCaller", max: 2 },
    });
  });
});
