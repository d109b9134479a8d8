// 2025-era SSE resumption across instances and 2026-07-28 re-listen after a cut (docs/scaling.md
// "After a stream is cut"; full tier only: test/helpers/tier.ts FULL_ONLY): Debian's redis-server,
// three instances of test/store/fixtures/instance.mjs, nginx round-robin in front (nginx's
// `X-Upstream` names the instance of every response).
//
// - 2025-11-25, the official client: a `tools/call` whose response stream (progress 1–6, then the
//   result) is cut by the client after progress 2; the client resumes with `Last-Event-ID`
//   (Streamable HTTP "Resumability and Redelivery") through another instance, and gets progress
//   3–6 and the result, in order, each once.
// - 2025-11-25, the server closes the stream on purpose (`ctx.closeStream()`, the polling style
//   of SEP-1699) after progress 1 on A: the client reconnects with `Last-Event-ID` through
//   another instance and gets progress 2 and the result, once.
// - 2026-07-28: a listen stream cut, then listened again on another instance: a `list_changed`
//   raised after the re-listen arrives on it.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startRedis, type RedisServer } from "../helpers/redis-server.ts";
import { eventually, listen, startCluster, steer, type Cluster } from "../helpers/cluster.ts";
import { post2026 } from "../helpers/raw-http.ts";

const INSTANCE = fileURLToPath(new URL("./fixtures/instance.mjs", import.meta.url));

let redis: RedisServer;
let fixture: Cluster;
beforeAll(async () => {
  redis = await startRedis();
  fixture = await startCluster(() => [INSTANCE, redis.url]);
});
afterAll(async () => {
  await fixture?.stop();
  await redis?.dispose();
});

/** A 2026-07-28 request through the balancer (SEP-2243 headers, the `_meta` envelope). */
const viaBalancer = (method: string, params: Record<string, unknown> = {}) =>
  post2026(fixture.balancer.url, method, params, { client: "resume" });

/** How many `drip` (or `poll`) calls finished on the instance `at` (its `counts` tool, steered there). */
async function finishedOn(at: string, tool: "dripped" | "polled" = "dripped"): Promise<number> {
  await steer(fixture, at);
  const { answer, upstream } = await viaBalancer("tools/call", { name: "counts", arguments: {} });
  expect(upstream).toBe(at);
  return JSON.parse(answer.result.content[0].text)[tool];
}

/** What the client's fetch sent: the upstream, the HTTP method and the request's `Last-Event-ID`. */
type Sent = { upstream: string; method: string; lastEventId: string | null };

/** A fetch that records every request into `log`, and hands the response to `shape` (for a cut). */
function recording(
  log: Sent[],
  shape: (response: Response, body: { params?: { name?: string } }) => Response = (r) => r,
): typeof fetch {
  return async (input, init) => {
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { params?: { name?: string } }) : {};
    const response = await fetch(input, init);
    const headers = new Headers(init?.headers);
    log.push({
      upstream: response.headers.get("x-upstream") ?? "?",
      method: init?.method ?? "GET",
      lastEventId: headers.get("last-event-id"),
    });
    return shape(response, body);
  };
}

/** A reconnection scheduler that waits until `tool` finished once more on `a`, then steers to `b` (not A) and reconnects. */
function afterFinishing(a: string, b: string, tool: "dripped" | "polled", before: number) {
  return (reconnect: () => void) => {
    void (async () => {
      await eventually(async () => (await finishedOn(a, tool)) > before, 20_000);
      await steer(fixture, b);
      reconnect();
    })();
  };
}

/**
 * A response whose SSE body the client stops reading after the event that carries
 * `"progress":<after>` (the connection is closed: nginx and the instance see a cut).
 */
function cutAfterProgress(response: Response, after: number): Response {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let text = "";
  const body = new ReadableStream<Uint8Array>({
    // Reads until the event is complete (a pull that enqueues nothing would not be called again).
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          controller.enqueue(encoder.encode(text));
          return controller.close();
        }
        text += decoder.decode(value, { stream: true });
        const at = text.indexOf(`"progress":${after},`);
        const end = at < 0 ? -1 : text.indexOf("\n\n", at);
        if (end < 0) continue;
        controller.enqueue(encoder.encode(text.slice(0, end + 2)));
        await reader.cancel();
        return controller.error(new Error("connection cut by the test"));
      }
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

describe("2025-era SSE resumption across instances", () => {
  it("a tools/call stream cut after progress 2 on A, resumed with Last-Event-ID through another instance, delivers progress 3–6 and the result in order, once", async () => {
    const [a, b] = fixture.upstreams as [string, string, string];
    const before = await finishedOn(a);
    const log: Sent[] = [];
    const cutting = recording(log, (response, body) =>
      body.params?.name === "drip" ? cutAfterProgress(response, 2) : response,
    );
    // Each reconnection waits until the call finished on A, then is steered to B (not A).
    const scheduler = afterFinishing(a, b, "dripped", before);
    const client = new Client({ name: "resume", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(fixture.balancer.url, { fetch: cutting, reconnectionScheduler: scheduler }),
    );
    await eventually(() => log.some((l) => l.method === "GET"));
    await steer(fixture, a);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "drip", arguments: {} },
      {
        timeout: 15_000,
        onprogress: (p) => progress.push(p.progress),
      },
    );
    expect((result.content as { text: string }[])[0]!.text).toBe("dripped 6");
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    const call = log.find((l) => l.method === "POST" && l.upstream === a);
    expect(call).toBeDefined();
    const resumed = log.filter((l) => l.lastEventId !== null);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.every((l) => l.upstream === b)).toBe(true);
    await client.close();
  });

  it("a tools/call stream the server closes on purpose (ctx.closeStream()) after progress 1 on A: the client reconnects with Last-Event-ID through another instance and gets progress 2 and the result, once", async () => {
    const [a, b] = fixture.upstreams as [string, string, string];
    const before = await finishedOn(a, "polled");
    const log: Sent[] = [];
    const client = new Client({ name: "resume", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(fixture.balancer.url, {
        fetch: recording(log),
        reconnectionScheduler: afterFinishing(a, b, "polled", before),
      }),
    );
    await eventually(() => log.some((l) => l.method === "GET"));
    await steer(fixture, a);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "poll", arguments: {} },
      { timeout: 15_000, onprogress: (p) => progress.push(p.progress) },
    );
    // closeStream() answered true: the stream was resumable, and the server ended it.
    expect((result.content as { text: string }[])[0]!.text).toBe("closed true");
    expect(progress).toEqual([1, 2]);
    expect(log.find((l) => l.method === "POST" && l.upstream === a)).toBeDefined();
    const resumed = log.filter((l) => l.lastEventId !== null);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.every((l) => l.upstream === b && l.method === "GET")).toBe(true);
    await client.close();
  });

  it("a Last-Event-ID that names no kept event of this caller is HTTP 404 with -32001, on every instance", async () => {
    for (const at of fixture.upstreams) {
      await steer(fixture, at);
      const response = await fetch(fixture.balancer.url, {
        headers: {
          accept: "text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          "last-event-id": "0b8e4c7e-2a8f-4a4e-9c39-3f0d1e6a9b11_3",
        },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get("x-upstream")).toBe(at);
      expect((await response.json()).error).toEqual({
        code: -32001,
        message:
          "Unknown or expired Last-Event-ID: events are kept 300000 ms (store.eventTtlMs), for the caller that received them.",
      });
    }
  });
});

describe("2026-07-28: after a listen stream is cut, the client listens again", () => {
  it("the SDK's listen events carry no id (nothing to resume); a list_changed raised after the re-listen on another instance arrives on it", async () => {
    const [a, b, c] = fixture.upstreams as [string, string, string];
    await steer(fixture, a);
    const first = await listen(fixture.balancer.url, { toolsListChanged: true });
    expect(first.upstream).toBe(a);
    expect(first.ids).toEqual([]);
    first.close();
    // docs/scaling.md: the client listens again (here on B), then re-lists what it cares about.
    await steer(fixture, b);
    const again = await listen(fixture.balancer.url, { toolsListChanged: true });
    expect(again.upstream).toBe(b);
    await steer(fixture, c);
    const listed = await viaBalancer("tools/list");
    expect(listed.upstream).toBe(c);
    expect(listed.answer.result.tools.some((t: { name: string }) => t.name === "drip")).toBe(true);
    const removed = await viaBalancer("tools/call", { name: "remove_greet", arguments: {} });
    expect(removed.upstream).toBe(a);
    await eventually(() => again.messages.some((m) => m.method === "notifications/tools/list_changed"));
    expect(again.messages.filter((m) => m.method === "notifications/tools/list_changed")).toHaveLength(1);
    again.close();
  });
});
