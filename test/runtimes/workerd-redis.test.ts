/**
 * `typed-mcp/redis` on Cloudflare's workerd (npm `workerd`, the real binary) is refused with a
 * message before it connects (docs/scaling.md "Topologies": a Worker keeps no lasting TCP
 * connection or timer outside a request, which node-redis needs). The Worker imports the entry as
 * an application would, bundled by esbuild for workerd with Node.js compatibility (the default
 * from compatibility date 2026-08-04), and answers with the message `connectRedisStore` rejected with.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { build as esbuild } from "esbuild";
import { startServer, type Running } from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const WORKERD = resolve(here, "../../node_modules/workerd/bin/workerd");
const REDIS_ENTRY = resolve(here, "../../packages/typed-mcp/dist/redis.js");

let work: string;
let server: Running | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-workerd-redis-"));
  await writeFile(
    join(work, "entry.js"),
    `import { connectRedisStore } from ${JSON.stringify(REDIS_ENTRY)};
export default { async fetch() {
  try { await connectRedisStore("redis://127.0.0.1:6379"); return new Response("connected"); }
  catch (error) { return new Response(error instanceof Error ? error.message : String(error)); }
} };`,
  );
  // node-redis is CommonJS: its require() of Node built-ins goes through node:module (workerd's Node compatibility).
  await esbuild({
    entryPoints: [join(work, "entry.js")],
    outfile: join(work, "worker.js"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    conditions: ["workerd", "worker"],
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire("/");',
    },
    logLevel: "silent",
  });
  await writeFile(
    join(work, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
);
`,
  );
  server = await startServer(WORKERD, ["serve", join(work, "config.capnp"), "--control-fd=3"], {
    cwd: work,
    controlFd: true,
    listening: /"socket":"http","port":(\d+)/,
    url: (m) => `http://127.0.0.1:${m[1]}/`,
  });
});
afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

it("connectRedisStore on workerd rejects with the message naming Workers and Durable Objects, before connecting", async () => {
  const answer = await (await fetch(server!.url)).text();
  expect(answer).toBe(
    'typed-mcp/redis: a Redis store cannot run on Cloudflare Workers (no lasting TCP connection to Redis there); share state through a Durable Object instead (docs/scaling.md "Topologies").',
  );
});
