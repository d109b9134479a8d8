// `RequestContext.closeStream()` in one process (docs/scaling.md "After a stream is cut", "Closed
// by the server on purpose"; the same across instances behind nginx: test/store/resumption.test.ts,
// full tier). Raw requests to `server.fetch`, the task fixture server with one more tool,
// written as the build plugin writes it:
//   server.tool("poll", async (ctx: RequestContext) => …)   progress 1; ctx.closeStream(); progress 2 once `release` is called; "closed <what closeStream returned>"
import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "typed-mcp";
import * as __tmcp from "../../packages/typed-mcp/dist/internal.js";
import { createTaskServer } from "../runtime/fixtures/tasks-tools.mjs";
import { post, post2026, rpcRequest } from "../helpers/raw-http.ts";
import { sseEvents, type SseEvent } from "../helpers/sse.ts";

type Server = ReturnType<typeof createTaskServer>;

/** The fixture server (with `store` when given) and its `poll` tool; `release()` lets a waiting `poll` go on. */
function pollServer(store?: MemoryStateStore): { server: Server; release: () => void } {
  let released = false;
  let wake = () => {};
  const server = createTaskServer(store === undefined ? {} : { store: { state: store } });
  server.tool(
    "poll",
    (async (ctx: { progress(p: number, t: number): Promise<void>; closeStream(): boolean }) => {
      await ctx.progress(1, 2);
      const closed = ctx.closeStream();
      if (!released) await new Promise<void>((resolve) => (wake = resolve));
      await ctx.progress(2, 2);
      return `closed ${closed}`;
    }) as never,
    __tmcp.generated({
      listing: { name: "poll", inputSchema: { type: "object", properties: {}, additionalProperties: false } },
      read: (_args: unknown, ctx: unknown) => [ctx],
      write: (value: string) => ({ content: [{ type: "text", text: value }] }),
    } as never) as never,
  );
  const release = () => {
    released = true;
    wake();
  };
  return { server, release };
}

/** Every SSE event of `response`'s body, to its end. */
async function eventsOf(response: Response): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of sseEvents(response.body!)) events.push(event);
  return events;
}

const CALL = { name: "poll", arguments: {}, _meta: { progressToken: 7 } };

describe("ctx.closeStream()", () => {
  it("2025-11-25 with a store: the client's stream ends without the result; GETs with the last Last-Event-ID get the rest — progress 1 and 2, then the result (closeStream answered true), each once", async () => {
    const store = new MemoryStateStore();
    const { server, release } = pollServer(store);
    await server.storeReady();
    const response = await server.fetch(rpcRequest({ jsonrpc: "2.0", id: 1, method: "tools/call", params: CALL }));
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const first = await eventsOf(response);
    // The priming event (an id, no message) first; the body ended without the result. (Progress 1,
    // when it was still queued in the SDK's stream as the body ended, comes with the replay.)
    expect(first[0]).toEqual({ id: expect.any(String), messages: [] });
    expect(first.flatMap((e) => e.messages).some((m) => m.id === 1)).toBe(false);
    release();
    let last = first.at(-1)!.id!;
    const later = first.flatMap((e) => e.messages);
    // Reconnects (as a client does after each end) until the response is there; bounded.
    for (let i = 0; i < 50 && !later.some((m) => m.id === 1); i++) {
      const resumed = await server.fetch(
        new Request("http://127.0.0.1/mcp", {
          headers: { accept: "text/event-stream", "mcp-protocol-version": "2025-11-25", "last-event-id": last },
        }),
      );
      expect(resumed.status).toBe(200);
      for (const event of await eventsOf(resumed)) {
        later.push(...event.messages);
        last = event.id ?? last;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    // Over both: progress 1 and 2, then the response, each once.
    expect(later.map((m) => m.method ?? `answer ${m.id}`)).toEqual([
      "notifications/progress",
      "notifications/progress",
      "answer 1",
    ]);
    expect(later.slice(0, 2).map((m) => m.params.progress)).toEqual([1, 2]);
    expect(later[2]!.result.content).toEqual([{ type: "text", text: "closed true" }]);
    await store.close();
  });

  it("answers false and leaves the stream alone where it is not resumable: no store; a 2025-06-18 client (no priming event); 2026-07-28", async () => {
    const store = new MemoryStateStore();
    const cases: Array<[string, (server: Server) => Promise<Record<string, any>>, MemoryStateStore | undefined]> = [
      ["no store", (s) => post(s, "tools/call", CALL).then((e) => e.answer), undefined],
      [
        "2025-06-18",
        (s) => post(s, "tools/call", CALL, { "mcp-protocol-version": "2025-06-18" }).then((e) => e.answer),
        store,
      ],
      ["2026-07-28", (s) => post2026(s, "tools/call", CALL).then((e) => e.answer), store],
    ];
    for (const [label, send, state] of cases) {
      const { server, release } = pollServer(state);
      await server.storeReady();
      release();
      expect((await send(server)).result?.content, label).toEqual([{ type: "text", text: "closed false" }]);
    }
    await store.close();
  });
});
