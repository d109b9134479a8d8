/**
 * What streams/listen-streams.ts and stdio-listen.ts rely on in the installed SDK beyond its documented API
 * (packages/typed-mcp/src/protocol/sdk-patches.ts, assumptions 6 and 7). Each failure names the pinned SDK
 * version and what changed, as test/runtime/sdk-patches.test.ts does for the other patches.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listenRequest } from "../helpers/raw-http.ts";
import { PINNED_SDK_VERSION } from "../../packages/typed-mcp/dist/protocol/sdk-patches.js";
import { applyListenRules } from "../../packages/typed-mcp/dist/streams/stdio-listen.js";

const SDK_DIR = new URL("../../packages/typed-mcp/node_modules/@modelcontextprotocol/server/", import.meta.url);
const sdk = (await import(new URL("dist/index.mjs", SDK_DIR).href)) as typeof import("@modelcontextprotocol/server");
const sdkStdio = (await import(
  new URL("dist/stdio.mjs", SDK_DIR).href
)) as typeof import("@modelcontextprotocol/server/stdio");
const installed = (JSON.parse(readFileSync(new URL("package.json", SDK_DIR), "utf8")) as { version: string }).version;

function changed(what: string): string {
  return `@modelcontextprotocol/server changed under typed-mcp's stream bounds (streams/listen-streams.ts, stdio-listen.ts; written for ${PINNED_SDK_VERSION}, installed ${installed}): ${what}`;
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const factory = () =>
  new sdk.Server({ name: "probe", version: "1" }, { capabilities: { tools: { listChanged: true } } });

describe("SDK assumptions of the stream bounds", () => {
  it("6. serveStdio sets transport.onmessage by assignment (applyListenRules intercepts it)", async () => {
    const sent: unknown[] = [];
    const transport = {
      onmessage: undefined as unknown,
      onclose: undefined,
      onerror: undefined,
      start: async () => {},
      close: async () => {},
      send: async (m: unknown) => void sent.push(m),
    };
    applyListenRules(transport as never, 1, 1);
    const handle = sdkStdio.serveStdio(factory, { transport: transport as never });
    expect(typeof transport.onmessage, changed("serveStdio no longer assigns transport.onmessage")).toBe("function");
    (transport.onmessage as (m: unknown) => void)({
      jsonrpc: "2.0",
      id: 3,
      method: "subscriptions/listen",
      params: { notifications: { resourceSubscriptions: ["a://1", "a://2"] }, _meta: ENVELOPE },
    });
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 3,
        error: {
          code: -32602,
          message:
            "Invalid params: notifications.resourceSubscriptions names 2 URIs; at most 1 are accepted (streams.maxListenUris)",
          data: { limit: "streams.maxListenUris", max: 1 },
        },
      },
    ]);
    await handle.close();
  });

  it("6b. serveStdio refuses a listen past maxSubscriptions with -32603 'Subscription limit reached' (the text applyListenRules rewrites)", async () => {
    const sent: { id?: unknown; error?: unknown }[] = [];
    const transport = {
      onmessage: undefined as unknown,
      onclose: undefined,
      onerror: undefined,
      start: async () => {},
      close: async () => {},
      send: async (m: { id?: unknown }) => void sent.push(m),
    };
    const handle = sdkStdio.serveStdio(factory, { transport: transport as never, maxSubscriptions: 1 });
    const onmessage = transport.onmessage as (m: unknown) => void;
    onmessage({ jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: ENVELOPE } });
    for (const id of [1, 2])
      onmessage({
        jsonrpc: "2.0",
        id,
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true }, _meta: ENVELOPE },
      });
    for (let i = 0; i < 50 && !sent.some((m) => m.id === 2); i++) await new Promise((r) => setTimeout(r, 10));
    expect(sent.find((m) => m.id === 2)?.error, changed("serveStdio's maxSubscriptions refusal changed")).toEqual({
      code: -32603,
      message: "Subscription limit reached",
    });
    await handle.close();
  });

  it("7. createMcpHandler answers a listen with a text/event-stream body whose cancel tears the subscription down (frees its maxSubscriptions slot)", async () => {
    const handler = sdk.createMcpHandler(factory, { maxSubscriptions: 1 });
    const listen = () => handler.fetch(listenRequest({ toolsListChanged: true }));
    const first = await listen();
    expect(first.headers.get("content-type"), changed("a listen stream is no longer text/event-stream")).toMatch(
      /^text\/event-stream/,
    );
    await first.body!.cancel();
    const second = await listen();
    expect(
      second.headers.get("content-type"),
      changed("cancelling a listen body no longer frees its subscription"),
    ).toMatch(/^text\/event-stream/);
    await second.body!.cancel();
    await handler.close();
  });
});
