// Fair task limits and long retentions (docs/security.md "Tasks" and "Limits", docs/runtime.md
// "Tasks"), with the real client over real HTTP (serveHttp on 127.0.0.1; each client its own
// 2025-11-25 session, so its own caller — caller.ts) and raw anonymous POSTs:
// - per-caller quotas for running tasks and for kept results (count, and bytes: the UTF-8 length
//   of the result's JSON), under the server-wide ceilings tasks.maxTasks / tasks.maxResultBytes;
//   a full quota is -32603 naming the option, never another caller's loss;
// - the anonymous callers share one bucket, which the callerKey option splits;
// - a ttl or requestTimeoutMs above 2^31 - 1 ms (setTimeout's limit: it fires after 1 ms) is kept.
import { afterEach, describe, expect, it, vi } from "vitest";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpServer } from "../../packages/typed-mcp/dist/index.js";
import { oauth } from "../../packages/typed-mcp/dist/auth.js";
import * as __tmcp from "../../packages/typed-mcp/dist/internal.js";
import { serveHttp } from "../../packages/typed-mcp/dist/node.js";
import { MAX_TIMER_DELAY_MS, setLongTimeout } from "../../packages/typed-mcp/dist/protocol/timers.js";
import { FULL } from "../helpers/tier.ts";
import { createTaskServer } from "./fixtures/tasks-tools.mjs";
import { messagesOf } from "./helpers.js";
import { post2025 } from "../helpers/raw-http.ts";
import { cancelTask, createTask, getTask, listTasks, taskResult } from "../helpers/tasks.ts";

const DAY_MS = 86_400_000;
const MIB = 1024 * 1024;

/**
 * The task fixture plus `big_result` (task optional), as the plugin generates it for
 * `server.tool("big_result", { task: "optional" }, (chars: number) => "x".repeat(chars))`.
 */
function server(options: Record<string, unknown> = {}): McpServer {
  const s = createTaskServer(options) as McpServer;
  s.tool(
    "big_result",
    // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
    (chars: number) => "x".repeat(chars),
    __tmcp.generated({
      listing: {
        name: "big_result",
        inputSchema: {
          type: "object",
          properties: { chars: { type: "number" } },
          required: ["chars"],
          additionalProperties: false,
        },
        execution: { taskSupport: "optional" },
      },
      read: (args: { chars?: unknown }) =>
        typeof args?.chars === "number" ? [args.chars] : __tmcp.invalid("chars", "Expected a number."),
      write: (value: string) => ({ content: [{ type: "text", text: value }] }),
      tasks: __tmcp.installTasks,
    }) as never,
  );
  return s;
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/**
 * Serves the fixture. HTTP callers without a token are anonymous (a session is no quota boundary,
 * docs/security.md "Callers"), so each test client is told apart by `callerKey` from its
 * `x-test-caller` header — its own bucket with the `tasks.anonymous` quota.
 */
async function serve(options: Record<string, unknown> = {}): Promise<Awaited<ReturnType<typeof serveHttp>>> {
  const http = await serveHttp(
    server({ callerKey: (request: Request) => request.headers.get("x-test-caller") ?? undefined, ...options }),
    { port: 0 },
  );
  closers.push(() => http.close());
  return http;
}

let callers = 0;
/** A new real client on its own session and its own `callerKey` bucket (`x-test-caller`); `caller: null` sends no such header. */
async function session(url: URL, caller: string | null = `client-${++callers}`): Promise<Client> {
  const client = new Client({ name: "quota-client", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: caller === null ? {} : { "x-test-caller": caller } },
    }),
  );
  closers.push(() => client.close());
  return client;
}

/** A raw anonymous 2025-11-25 POST (no session, no token); the JSON-RPC answer to id 1. */
const anonymous = post2025;

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { code: number; message: string; data?: unknown }) => ({ code: e.code, message: e.message, data: e.data }),
  );
/** Every task of `client`'s caller, through all tasks/list pages. */
async function allTasks(client: Client): Promise<{ taskId: string; status: string }[]> {
  const out: { taskId: string; status: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await listTasks(client, cursor);
    out.push(...page.tasks);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return out;
}

/**
 * How many running tasks one client asks for, in batches of 100: 1,000 in the full tier (the
 * attack of docs/security.md "Tasks"), 200 in the fast one (docs/contributing.md "Test tiers") —
 * either way the first 100 run and every one after is refused.
 */
const ATTEMPTS = FULL ? 1000 : 200;

/**
 * How many results of 1 MiB one caller leaves: 200 in the full tier, 40 in the fast one — either
 * way more than the 32 MiB default quota holds, so the oldest are evicted.
 */
const RESULTS = FULL ? 200 : 40;

describe("running tasks: a quota per caller (tasks.anonymous.maxRunning, default 100)", () => {
  it(`one client's ${ATTEMPTS.toLocaleString("en-US")} running tasks: 100 run, ${ATTEMPTS - 100} are -32603 naming the limit, and another client's task call still works`, async () => {
    const http = await serve();
    const a = await session(http.url);
    const b = await session(http.url);
    const answers: (string | { code: number; message: string; data?: unknown })[] = [];
    for (let batch = 0; batch < ATTEMPTS / 100; batch++) {
      const results = await Promise.all(
        Array.from({ length: 100 }, () =>
          createTask(a, "slow_compute", { seconds: 60 }).then(
            (r) => r.task.taskId,
            (e) => ({ code: e.code, message: e.message, data: e.data }),
          ),
        ),
      );
      answers.push(...results);
    }
    const running = answers.filter((x): x is string => typeof x === "string");
    const refused = answers.filter((x) => typeof x !== "string");
    expect(running).toHaveLength(100);
    expect(refused).toHaveLength(ATTEMPTS - 100);
    expect(refused[0]).toEqual({
      code: -32603,
      message:
        "Too many tasks are running for this caller (tasks.anonymous.maxRunning is 100); wait for one to finish or cancel one.",
      data: { limit: "tasks.anonymous.maxRunning", max: 100 },
    });
    // Another caller is not affected: its task is created and completes.
    const { task } = await createTask(b, "slow_compute", { seconds: 0 });
    expect((await taskResult(b, task.taskId)).content).toEqual([{ type: "text", text: "Done after 0s" }]);
    // A finished or cancelled task frees the caller's slot.
    await cancelTask(a, running[0]!);
    expect((await createTask(a, "slow_compute", { seconds: 0 })).task.status).toBe("working");
    await Promise.all(running.slice(1).map((id) => cancelTask(a, id)));
  });
});

describe("stdio: the connection is the caller (tasks.perCaller, not the anonymous bucket)", () => {
  it("a connection's running quota: the third of two allowed is -32603 naming tasks.perCaller.maxRunning; a cancel frees a slot", async () => {
    const fixture = fileURLToPath(new URL("./fixtures/tasks-stdio.mjs", import.meta.url));
    const client = new Client({ name: "stdio-quota", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [fixture],
        env: { ...(process.env as Record<string, string>), TMCP_TASK_MAX_RUNNING: "2" },
      }),
    );
    closers.push(() => client.close());
    const first = (await createTask(client, "slow_compute", { seconds: 60 })).task;
    await createTask(client, "slow_compute", { seconds: 60 });
    expect(await failure(createTask(client, "slow_compute", { seconds: 60 }))).toEqual({
      code: -32603,
      message:
        "Too many tasks are running for this caller (tasks.perCaller.maxRunning is 2); wait for one to finish or cancel one.",
      data: { limit: "tasks.perCaller.maxRunning", max: 2 },
    });
    await cancelTask(client, first.taskId);
    expect((await createTask(client, "slow_compute", { seconds: 0 })).task.status).toBe("working");
    expect((await listTasks(client)).tasks).toHaveLength(3);
  });
});

describe("kept results: count and bytes per caller, the caller's own oldest dropped", () => {
  it(`${RESULTS} results of 1 MiB from one caller keep at most tasks.anonymous.maxResultBytes (32 MiB): the newest that fit; another caller's result stays`, async () => {
    const http = await serve();
    const a = await session(http.url);
    const b = await session(http.url);
    const small = (await createTask(b, "slow_compute", { seconds: 0 })).task;
    await taskResult(b, small.taskId);
    const ids: string[] = [];
    for (let i = 0; i < RESULTS; i++) {
      const { task } = await createTask(a, "big_result", { chars: MIB });
      ids.push(task.taskId);
      // Wait for the end of each (the result is not read: tasks/get polls the status).
      while ((await getTask(a, task.taskId)).status === "working") await new Promise((r) => setTimeout(r, 1));
    }
    // The rule (docs/security.md "Tasks"): a result weighs the UTF-8 length of its JSON.
    const { _meta, ...last } = await taskResult(a, ids[RESULTS - 1]!);
    const weight = Buffer.byteLength(JSON.stringify(last));
    expect(weight).toBeGreaterThan(MIB);
    const fit = Math.floor((32 * MIB) / weight);
    const kept = await allTasks(a);
    // Some were evicted: more results than fit.
    expect(fit).toBeLessThan(RESULTS);
    expect(kept.map((t) => t.taskId)).toEqual(ids.slice(RESULTS - fit));
    expect(kept.every((t) => t.status === "completed")).toBe(true);
    expect(await failure(getTask(a, ids[0]!))).toEqual({
      code: -32602,
      message: `Task not found: ${ids[0]}`,
      data: undefined,
    });
    // B's finished result is not evicted by A's flood.
    expect((await taskResult(b, small.taskId)).content).toEqual([{ type: "text", text: "Done after 0s" }]);
  });

  it("a single result larger than the caller's byte quota is not kept: the task is failed with -32603 naming the option", async () => {
    const http = await serve({ tasks: { anonymous: { maxResultBytes: 1000 } } });
    const a = await session(http.url);
    const { task } = await createTask(a, "big_result", { chars: 2000 });
    // {"content":[{"type":"text","text":"x…x"}]}: 2,000 + 39 bytes.
    const message =
      "The task's result (2039 bytes) is larger than tasks.anonymous.maxResultBytes (1000 bytes); it was not kept.";
    expect(await failure(taskResult(a, task.taskId))).toEqual({
      code: -32603,
      message,
      data: { limit: "tasks.anonymous.maxResultBytes", max: 1000 },
    });
    expect((await getTask(a, task.taskId)).status).toBe("failed");
    // A result within the quota is kept.
    const ok = (await createTask(a, "big_result", { chars: 500 })).task;
    expect((await taskResult(a, ok.taskId)).content).toEqual([{ type: "text", text: "x".repeat(500) }]);
  });

  it("tasks.anonymous.maxResults: past it the caller's own oldest finished task is dropped", async () => {
    const http = await serve({ tasks: { anonymous: { maxRunning: 3, maxResults: 3 } } });
    const a = await session(http.url);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { task } = await createTask(a, "slow_compute", { seconds: 0 });
      await taskResult(a, task.taskId);
      ids.push(task.taskId);
    }
    expect((await allTasks(a)).map((t) => t.taskId)).toEqual(ids.slice(2));
  });
});

describe("the server-wide ceiling tasks.maxTasks: refused rather than another caller's loss", () => {
  it("full of two callers' finished tasks: a third caller is -32603 naming tasks.maxTasks; a caller with finished tasks drops its own oldest", async () => {
    const quota = { maxRunning: 2, maxResults: 2 };
    const http = await serve({ tasks: { maxTasks: 4, anonymous: quota } });
    const [a, b, c] = [await session(http.url), await session(http.url), await session(http.url)];
    const finished = async (client: Client) => {
      const { task } = await createTask(client, "slow_compute", { seconds: 0 });
      await taskResult(client, task.taskId);
      return task.taskId;
    };
    const ofA = [await finished(a), await finished(a)];
    const ofB = [await finished(b), await finished(b)];
    expect(await failure(createTask(c, "slow_compute", { seconds: 0 }))).toEqual({
      code: -32603,
      message: "The server keeps too many tasks (tasks.maxTasks is 4); try again later.",
      data: { limit: "tasks.maxTasks", max: 4 },
    });
    for (const id of ofB) expect((await getTask(b, id)).status).toBe("completed");
    const third = await finished(a);
    expect((await allTasks(a)).map((t) => t.taskId)).toEqual([ofA[1], third]);
    expect((await allTasks(b)).map((t) => t.taskId)).toEqual(ofB);
  });
});

describe("anonymous callers: one shared bucket (tasks.anonymous), split by callerKey", () => {
  it("the shared bucket's running quota is reached by anonymous requests and unauthenticated sessions alike; a callerKey bucket is not affected", async () => {
    const http = await serve({
      tasks: { anonymous: { maxRunning: 2 } },
      callerKey: (request: Request) => request.headers.get("x-client-address") ?? undefined,
    });
    const start = (headers: Record<string, string> = {}) =>
      anonymous(http.url, "tools/call", { name: "slow_compute", arguments: { seconds: 60 }, task: {} }, headers);
    const shared = [await start(), await start()];
    for (const answer of shared) expect(answer.result.task.status).toBe("working");
    expect((await start()).error).toEqual({
      code: -32603,
      message:
        "Too many tasks are running for this caller (tasks.anonymous.maxRunning is 2); wait for one to finish or cancel one.",
      data: { limit: "tasks.anonymous.maxRunning", max: 2 },
    });
    // A session is no quota boundary (any client can open sessions or make ids up): it shares the full bucket.
    const s = await session(http.url, null);
    expect(await failure(createTask(s, "slow_compute", { seconds: 0 }))).toEqual({
      code: -32603,
      message:
        "Too many tasks are running for this caller (tasks.anonymous.maxRunning is 2); wait for one to finish or cancel one.",
      data: { limit: "tasks.anonymous.maxRunning", max: 2 },
    });
    const madeUp = await start({ "mcp-session-id": "made-up-1" });
    expect(madeUp.error?.data).toEqual({ limit: "tasks.anonymous.maxRunning", max: 2 });
    // A callerKey bucket is its own (the anonymous quota again).
    const keyed = await start({ "x-client-address": "203.0.113.7" });
    expect(keyed.result.task.status).toBe("working");
    for (const answer of [...shared, keyed])
      await anonymous(http.url, "tasks/cancel", { taskId: answer.result.task.taskId });
  });
});

describe("2026-07-28 (SEP-2663, server-directed tasks): the same quota answer", () => {
  it("an anonymous 2026-07-28 caller past tasks.anonymous.maxRunning gets -32603 with data.limit", async () => {
    const http = await serve({ tasks: { anonymous: { maxRunning: 1 } } });
    const call = async () => {
      const response = await fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "slow_compute",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "slow_compute",
            arguments: { seconds: 60 },
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
              "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
            },
          },
        }),
      });
      return messagesOf(await response.text()).find((m) => m.id === 1)!;
    };
    const first = await call();
    expect(first.result).toMatchObject({ resultType: "task", status: "working" });
    expect((await call()).error).toEqual({
      code: -32603,
      message:
        "Too many tasks are running for this caller (tasks.anonymous.maxRunning is 1); wait for one to finish or cancel one.",
      data: { limit: "tasks.anonymous.maxRunning", max: 1 },
    });
    await anonymous(http.url, "tasks/cancel", { taskId: first.result.taskId });
  });
});

describe("retentions and timeouts above 2^31 - 1 ms (setTimeout would fire after 1 ms)", () => {
  it("tasks.maxTtlMs of 40 days: a task asking for 30 days is kept (its ttl answered, still there after the overflowed timer would have fired)", async () => {
    const http = await serve({ tasks: { maxTtlMs: 40 * DAY_MS } });
    const a = await session(http.url);
    const { task } = await createTask(a, "slow_compute", { seconds: 60 }, { ttl: 30 * DAY_MS });
    expect(task.ttl).toBe(2_592_000_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(await getTask(a, task.taskId)).toMatchObject({ taskId: task.taskId, status: "working", ttl: 2_592_000_000 });
    // A finished one keeps its result too.
    const done = (await createTask(a, "slow_compute", { seconds: 0 }, { ttl: 30 * DAY_MS })).task;
    await new Promise((r) => setTimeout(r, 100));
    expect((await taskResult(a, done.taskId)).content).toEqual([{ type: "text", text: "Done after 0s" }]);
    await cancelTask(a, task.taskId);
  });

  it("requestTimeoutMs of 30 days does not time a 50 ms call out", async () => {
    const http = await serve({ requestTimeoutMs: 30 * DAY_MS });
    const a = await session(http.url);
    expect((await a.callTool({ name: "slow_compute", arguments: { seconds: 0.05 } })).content).toEqual([
      { type: "text", text: "Done after 0.05s" },
    ]);
  });

  it("auth.timeoutMs, which library timers (AbortSignal.timeout, jose) take as is, is refused above 2^31 - 1 ms", () => {
    const make = (timeoutMs: number) => () =>
      new McpServer({
        name: "t",
        version: "1",
        auth: oauth({ issuer: "http://127.0.0.1:9", audience: "http://127.0.0.1:8/mcp", timeoutMs }),
      });
    expect(make(2 ** 31)).toThrow(
      new TypeError("auth.timeoutMs must be at most 2147483647 ms (the longest timer), got 2147483648"),
    );
    expect(make(2 ** 31 - 1)).not.toThrow();
  });

  it("setLongTimeout fires once at the delay, not before, in steps of at most 2^31 - 1 ms; clear() stops it", () => {
    vi.useFakeTimers();
    try {
      expect(MAX_TIMER_DELAY_MS).toBe(2_147_483_647);
      const fired = vi.fn();
      setLongTimeout(fired, 30 * DAY_MS);
      vi.advanceTimersByTime(30 * DAY_MS - 1);
      expect(fired).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fired).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(60 * DAY_MS);
      expect(fired).toHaveBeenCalledTimes(1);
      const stopped = vi.fn();
      setLongTimeout(stopped, 30 * DAY_MS).clear();
      vi.advanceTimersByTime(31 * DAY_MS);
      expect(stopped).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("tasks options are checked by the constructor", () => {
  const make = (tasks: unknown) => () => new McpServer({ name: "t", version: "1", tasks: tasks as never });
  it("RangeError naming the option for a non-positive quota or one above its server-wide ceiling; TypeError for a non-object quota", () => {
    expect(make({ perCaller: { maxRunning: 0 } })).toThrow(
      new RangeError("tasks.perCaller.maxRunning must be a positive integer, got 0"),
    );
    expect(make({ anonymous: { maxResults: 1.5 } })).toThrow(
      new RangeError("tasks.anonymous.maxResults must be a positive integer, got 1.5"),
    );
    expect(make({ maxResultBytes: -1 })).toThrow(
      new RangeError("tasks.maxResultBytes must be a positive integer, got -1"),
    );
    expect(make({ maxTasks: 50, perCaller: { maxRunning: 100 } })).toThrow(
      new RangeError("tasks.perCaller.maxRunning (100) must not exceed the server-wide tasks.maxTasks (50)"),
    );
    // A default quota is lowered to a smaller server-wide ceiling rather than refused.
    expect(make({ maxTasks: 40 })).not.toThrow();
    expect(make({ perCaller: { maxResultBytes: 512 * MIB } })).toThrow(
      new RangeError(
        "tasks.perCaller.maxResultBytes (536870912) must not exceed the server-wide tasks.maxResultBytes (268435456)",
      ),
    );
    expect(make({ anonymous: "small" })).toThrow(new TypeError("tasks.anonymous must be an object, got string"));
  });
});
