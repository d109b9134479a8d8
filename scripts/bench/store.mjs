// The scale-out rows of `pnpm bench` (issue 20; docs/scaling.md): side by side in one run, on one
// Debian redis-server started here on a free loopback port (the row is skipped, saying so, when
// `redis-server` is not on PATH):
//   1. a 2026-07-28 tools/call without tasks through `server.fetch`: no store vs the Redis store,
//      for an anonymous caller and for a token owner (whose calls are made cancellable across
//      instances) — a call that keeps nothing must not pay for the store (goal ≥ 0.9×);
//   2. a task's create → completed round trip (2026-07-28: tools/call, then tasks/get until
//      completed): no store vs Redis;
//   3. fan-out latency of `resources/updated` across instances: two servers on one Redis, a
//      `subscriptions/listen` stream on A, `resourceUpdated` on B, time until the notification
//      arrives (p50, p99).
//
// `node scripts/bench/store.mjs [--quick]` (after `pnpm build`) runs these rows alone.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { interleavedRounds, median } from "./rounds.mjs";
import { request2026, resultOf } from "./call.mjs";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const OWNER = { token: "t", clientId: "bench", scopes: [], extra: { issuer: "https://issuer.example", subject: "u" } };

/** A 2026-07-28 POST of `method` with `params`, declaring the tasks extension. */
const request = (method, params) => request2026(method, params, { capabilities: TASKS });

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Starts redis-server (no persistence) in a temp dir; `{ url, stop }`. */
async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "typed-mcp-bench-redis-"));
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  return {
    url,
    stop: () => {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Servers with one ordinary tool (`echo`) and one task tool (`job`), quick path as the plugin writes it. */
function makeServer(typed, internal, store) {
  // `dynamic`: the listings advertise listChanged and resources, so a listen filter on a resource is kept.
  const server = new typed.McpServer({ name: "bench", version: "1.0.0", dynamic: true, ...(store && { store }) });
  const text = (value) => ({ content: [{ type: "text", text: value }] });
  const schema = {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  };
  const read = (args) =>
    typeof args?.text === "string" ? [args.text] : internal.invalid("text", "Expected a string.");
  server.tool(
    "echo",
    (t) => t,
    internal.generated({ listing: { name: "echo", inputSchema: schema }, read, write: text }),
  );
  server.tool(
    "job",
    (t) => t,
    internal.generated({
      listing: { name: "job", inputSchema: schema, execution: { taskSupport: "required" } },
      // A task tool's descriptor references the tasks runtime, as the plugin writes it.
      tasks: internal.installTasks,
      read,
      write: text,
    }),
  );
  return server;
}

/** Median calls/s per contestant over interleaved tinybench rounds. */
async function interleaved(contestants, quick) {
  const samples = await interleavedRounds(contestants, { rounds: quick ? 2 : 11, quick });
  return Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
}

/** One task created and polled until completed; throws on anything else. */
async function taskRoundTrip(server) {
  const created = await resultOf(await server.fetch(request("tools/call", { name: "job", arguments: { text: "x" } })));
  for (;;) {
    const task = await resultOf(await server.fetch(request("tasks/get", { taskId: created.taskId })));
    if (task?.status === "completed") return;
    if (task?.status !== "working") throw new Error(`task ended ${JSON.stringify(task)}`);
  }
}

/** p50 and p99 (ms) of `resources/updated` from B to a listen stream on A. */
async function fanOut(a, b, samples) {
  const response = await a.fetch(
    request("subscriptions/listen", { notifications: { resourceSubscriptions: ["bench://r"] } }),
  );
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream"))
    throw new Error(`subscriptions/listen answered ${response.status} ${await response.text()}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const next = async () => {
    for (;;) {
      const at = buffer.indexOf("\n\n");
      if (at >= 0) {
        const event = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (event.includes("notifications/resources/updated")) return;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`listen stream ended after ${JSON.stringify(buffer)}`);
      buffer += value;
    }
  };
  const times = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    const arrived = next();
    await b.resourceUpdated("bench://r");
    await arrived;
    times.push(performance.now() - start);
  }
  await reader.cancel();
  times.sort((x, y) => x - y);
  return {
    p50: times[Math.floor(times.length * 0.5)],
    p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))],
  };
}

/**
 * Runs the rows; `undefined` when redis-server is not installed.
 * @param {{ root: string, quick: boolean }} env
 */
export async function runStore({ root, quick }) {
  if (spawnSync("redis-server", ["--version"]).status !== 0) return undefined;
  const typed = await import(pathToFileURL(join(root, "packages/typed-mcp/dist/index.js")).href);
  const internal = await import(pathToFileURL(join(root, "packages/typed-mcp/dist/internal.js")).href);
  const { connectRedisStore } = await import(pathToFileURL(join(root, "packages/typed-mcp/dist/redis.js")).href);
  const redis = await startRedis();
  const stores = [];
  try {
    const connect = async () => {
      for (let i = 0; ; i++) {
        try {
          const store = await connectRedisStore({ url: redis.url, connectTimeoutMs: 2000 });
          stores.push(store);
          return store;
        } catch (error) {
          if (i > 20) throw error;
        }
      }
    };
    const memory = makeServer(typed, internal);
    const shared = makeServer(typed, internal, await connect());
    const other = makeServer(typed, internal, await connect());
    for (const s of [shared, other]) await s.storeReady();
    const call = (server, owner) => async () => {
      const result = await resultOf(
        await server.fetch(
          request("tools/call", { name: "echo", arguments: { text: "hi" } }),
          owner && { authInfo: OWNER },
        ),
      );
      if (result?.content?.[0]?.text !== "hi") throw new Error(`unexpected ${JSON.stringify(result)}`);
    };
    const calls = await interleaved(
      {
        memory: call(memory),
        redis: call(shared),
        "memory, token owner": call(memory, true),
        "redis, token owner": call(shared, true),
      },
      quick,
    );
    const tasks = await interleaved({ memory: () => taskRoundTrip(memory), redis: () => taskRoundTrip(shared) }, quick);
    const latency = await fanOut(shared, other, quick ? 20 : 200);
    return { calls, tasks, latency };
  } finally {
    try {
      for (const store of stores) await store.close();
    } finally {
      redis.stop();
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
  const r = await runStore({ root, quick: process.argv.includes("--quick") });
  if (r === undefined) console.log("redis-server not installed: no store rows");
  else {
    const x = (a, b) => `×${(a / b).toFixed(2)}`;
    console.log(
      `tools/call calls/s: memory ${Math.round(r.calls.memory)}, redis ${Math.round(r.calls.redis)} (${x(r.calls.redis, r.calls.memory)})`,
    );
    console.log(
      `  token owner: memory ${Math.round(r.calls["memory, token owner"])}, redis ${Math.round(r.calls["redis, token owner"])} (${x(r.calls["redis, token owner"], r.calls["memory, token owner"])})`,
    );
    console.log(
      `task round trips/s: memory ${r.tasks.memory.toFixed(0)}, redis ${r.tasks.redis.toFixed(0)} (${x(r.tasks.redis, r.tasks.memory)})`,
    );
    console.log(`resources/updated A→B: p50 ${r.latency.p50.toFixed(2)} ms, p99 ${r.latency.p99.toFixed(2)} ms`);
  }
  process.exit(0);
}
