// Resource subscriptions (MCP spec, server / resources "Subscriptions"; docs/resources.md
// "Subscriptions"). Up to 2025-11-25 a client sends resources/subscribe / resources/unsubscribe
// (answered `{}`) and the server sends notifications/resources/updated `{ uri }` for subscribed
// URIs only; from 2026-07-28 the client opens subscriptions/listen with `resourceSubscriptions`
// and gets the same notification on that stream. fixtures/app/subscribe.ts is built with the real
// plugin; `touch(uri)` is a tool calling server.resourceUpdated(uri), so a stdio client in another
// process can trigger an announcement. To show that an unsubscribed URI is not delivered, it is
// announced first and a subscribed one after it: only the second may arrive.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, ResourceNotFoundError } from "@modelcontextprotocol/client";
import { MODERN, buildApp, connect, connectStdio, connectStreaming, rawRequest, until } from "./helpers.js";

let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  app = await buildApp(["completion", "subscribe", "stdio-main"]);
}, 120_000);
afterAll(() => app?.cleanup());

/** Records the `uri` of every notifications/resources/updated the client receives. */
function record(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler("notifications/resources/updated", (n) => {
    seen.push(n.params.uri);
  });
  return seen;
}

const touch = (client: Client, uri: string) => client.callTool({ name: "touch", arguments: { uri } });

describe("2025-11-25 over stdio: resources/subscribe, resources/unsubscribe, notifications/resources/updated", () => {
  let client: Client;
  let seen: string[];
  beforeAll(async () => {
    client = await connectStdio(app.outDir, "watch");
    seen = record(client);
  }, 30_000);
  afterAll(() => client?.close());

  it("advertises resources.subscribe", () => {
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true });
  });

  it("subscribe answers {} for a fixed URI and for a URI matching a template", async () => {
    expect(await client.subscribeResource({ uri: "watch://counter" })).toEqual({});
    expect(await client.subscribeResource({ uri: "watch://items/7" })).toEqual({});
  });

  it("an update of a subscribed URI is delivered; one of an unsubscribed URI is not", async () => {
    seen.length = 0;
    await touch(client, "watch://items/8");
    await touch(client, "watch://counter");
    await until(() => seen.length > 0);
    await touch(client, "watch://items/7");
    await until(() => seen.length > 1);
    expect(seen).toEqual(["watch://counter", "watch://items/7"]);
  });

  it("after unsubscribe the URI is no longer delivered; unsubscribe answers {}", async () => {
    expect(await client.unsubscribeResource({ uri: "watch://counter" })).toEqual({});
    seen.length = 0;
    await touch(client, "watch://counter");
    await touch(client, "watch://items/7");
    await until(() => seen.length > 0);
    expect(seen).toEqual(["watch://items/7"]);
  });

  it("unsubscribing a URI that was never subscribed answers {}", async () => {
    expect(await client.unsubscribeResource({ uri: "watch://items/99" })).toEqual({});
  });

  it("server.subscribedUris() lists the URIs subscribed and not unsubscribed, each once", async () => {
    await client.subscribeResource({ uri: "watch://items/7" });
    await client.subscribeResource({ uri: "watch://items/9" });
    // watch://counter was unsubscribed above; watch://items/7 subscribed twice is one subscription.
    expect(await client.callTool({ name: "subscribed", arguments: {} })).toEqual({
      content: [{ type: "text", text: '["watch://items/7","watch://items/9"]' }],
    });
    await client.unsubscribeResource({ uri: "watch://items/9" });
    expect(await client.callTool({ name: "subscribed", arguments: {} })).toEqual({
      content: [{ type: "text", text: '["watch://items/7"]' }],
    });
  });

  it("server.log sends notifications/message outside a request, at or above the client's logging/setLevel", async () => {
    const logged: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => void logged.push(n.params));
    await client.callTool({ name: "announce", arguments: { level: "debug", data: "before any level" } });
    await until(() => logged.length > 0);
    // MCP Logging: after logging/setLevel "warning", only warning and more severe messages are sent (RFC 5424 order).
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "announce", arguments: { level: "info", data: "below" } });
    await client.callTool({ name: "announce", arguments: { level: "error", data: "above" } });
    await until(() => logged.length > 1);
    expect(logged).toEqual([
      { level: "debug", logger: "watch", data: "before any level" },
      { level: "error", logger: "watch", data: "above" },
    ]);
  });

  it("subscribing to an unknown URI is resource-not-found with data.uri (the wire code -32002 is checked over HTTP below)", async () => {
    // The client turns -32002 into its ResourceNotFoundError.
    const error = await client.subscribeResource({ uri: "watch://nothing" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error).toMatchObject({ data: { uri: "watch://nothing" } });
  });
});

describe.each([
  ["stdio", () => connectStdio(app.outDir, "watch", MODERN)],
  ["HTTP", () => connectStreaming(httpServer(), MODERN)],
])("2026-07-28 over %s: subscriptions/listen with resourceSubscriptions", (_transport, open) => {
  let client: Client;
  let seen: string[];
  beforeAll(async () => {
    client = await open();
    seen = record(client);
  }, 30_000);
  afterAll(() => client?.close());

  it("the server honours resourceSubscriptions (resources.subscribe is advertised)", async () => {
    const subscription = await client.listen({ resourceSubscriptions: ["watch://counter", "watch://items/7"] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ["watch://counter", "watch://items/7"] });
  });

  it("server.resourceUpdated reaches the listen stream for listed URIs only", async () => {
    seen.length = 0;
    // Over HTTP the touch tool runs on a per-request instance: resourceUpdated goes through the handler's bus.
    await touch(client, "watch://items/8");
    await touch(client, "watch://counter");
    await until(() => seen.length > 0);
    await touch(client, "watch://items/7");
    await until(() => seen.length > 1);
    expect(seen).toEqual(["watch://counter", "watch://items/7"]);
  });
});

let shared: ReturnType<typeof makeServer> | undefined;
function makeServer() {
  return app.modules.subscribe!.watchServer() as {
    fetch(r: Request): Promise<Response>;
    resourceUpdated(uri: string): Promise<void>;
  };
}
/** One server for the HTTP describe (its handler's bus is what the listen stream and the touch tool share). */
function httpServer() {
  shared ??= makeServer();
  return shared;
}

describe("2025-11-25 over stateless HTTP", () => {
  it("subscribe and unsubscribe answer {}; unknown URIs are -32002 with data.uri", async () => {
    const server = makeServer();
    const client = await connect(server);
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true });
    expect(await client.subscribeResource({ uri: "watch://counter" })).toEqual({});
    expect(await client.unsubscribeResource({ uri: "watch://counter" })).toEqual({});
    await client.close();
    const { message } = await rawRequest(server, "resources/subscribe", { uri: "watch://nothing" });
    expect(message.error).toMatchObject({ code: -32002, data: { uri: "watch://nothing" } });
  });

  it("server.log and subscribedUris have nobody to reach: nothing is sent, no URI is kept", async () => {
    const client = await connect(makeServer());
    const logged: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => void logged.push(n.params));
    await client.subscribeResource({ uri: "watch://counter" });
    expect(await client.callTool({ name: "announce", arguments: { level: "emergency", data: "x" } })).toEqual({
      content: [{ type: "text", text: "announced" }],
    });
    expect(await client.callTool({ name: "subscribed", arguments: {} })).toEqual({
      content: [{ type: "text", text: "[]" }],
    });
    expect(logged).toEqual([]);
    await client.close();
  });

  it("resourceUpdated with no stream to deliver on resolves (nothing is sent)", async () => {
    const server = makeServer();
    const client = await connect(server);
    const seen = record(client);
    await client.subscribeResource({ uri: "watch://counter" });
    await expect(server.resourceUpdated("watch://counter")).resolves.toBeUndefined();
    await touch(client, "watch://counter");
    expect(seen).toEqual([]);
    await client.close();
  });
});
