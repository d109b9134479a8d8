/**
 * Three Node instances of one server behind Debian's nginx (round robin), for the full-tier
 * scale-out tests (docs/scaling.md "Tests"): starting them, one raw JSON-RPC POST through the
 * balancer with the upstream that served it (nginx's `X-Upstream`), and steering the next request
 * to a named instance with pings (round robin is A, B, C, A, …).
 */
import { startServer, type Running } from "../runtimes/helpers.ts";
import { startBalancer, type Balancer } from "./balancer.ts";
import { rpcRequest } from "./raw-http.ts";
import { messagesOf } from "./sse.ts";

/** Three instances behind one balancer, and the upstream (`host:port`) of each. */
export interface Cluster {
  balancer: Balancer;
  instances: Running[];
  upstreams: string[];
  stop(): Promise<void>;
}

/** Starts three instances (`node <args(i)>`, with `env` added to the environment) and nginx in front of them. */
export async function startCluster(args: (i: number) => string[], env: Record<string, string> = {}): Promise<Cluster> {
  const instances: Running[] = [];
  for (let i = 0; i < 3; i++) instances.push(await startServer(process.execPath, args(i), { env, timeoutMs: 60_000 }));
  const upstreams = instances.map((r) => new URL(r.url).host);
  const balancer = await startBalancer(upstreams);
  return {
    balancer,
    instances,
    upstreams,
    async stop() {
      await balancer.stop();
      for (const instance of instances) await instance.stop();
    },
  };
}

/** One raw JSON-RPC POST (2025-11-25 headers unless `headers` say otherwise); the answer to it and the upstream that served it. */
export async function post(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ answer: Record<string, any>; upstream: string }> {
  const response = await fetch(rpcRequest({ jsonrpc: "2.0", id: 1, method, params }, { url, headers }));
  const answer = messagesOf(await response.text()).find((m) => m.id === 1)!;
  return { answer, upstream: response.headers.get("x-upstream") ?? "?" };
}

/** Sends pings (no session) until the next request lands on `target` (round robin); bounded. */
export async function steer(c: Cluster, target: string): Promise<void> {
  const before = c.upstreams[(c.upstreams.indexOf(target) + c.upstreams.length - 1) % c.upstreams.length];
  for (let i = 0; i < 12; i++) if ((await post(c.balancer.url, "ping", {})).upstream === before) return;
  throw new Error(`could not steer to ${target}`);
}

/** Waits (bounded, `ms`) until `check` holds. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
