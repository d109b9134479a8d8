/**
 * Three Node instances of one server behind Debian's nginx (round robin), for the full-tier
 * scale-out tests (docs/scaling.md "Tests"): starting them (raw POSTs through the balancer, with
 * the upstream that served each, are test/helpers/raw-http.ts's), a 2026-07-28 listen stream
 * opened through it, and steering the next request to a named instance with pings (round robin is
 * A, B, C, A, …).
 */
import { startServer, type Running } from "../runtimes/helpers.ts";
import { startBalancer, type Balancer } from "./balancer.ts";
import { listenRequest, post } from "./raw-http.ts";
import { sseEvents } from "./sse.ts";

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

/** Sends pings (no session) until the next request lands on `target` (round robin); bounded. */
export async function steer(c: Cluster, target: string): Promise<void> {
  const before = c.upstreams[(c.upstreams.indexOf(target) + c.upstreams.length - 1) % c.upstreams.length];
  for (let i = 0; i < 12; i++) if ((await post(c.balancer.url, "ping", {})).upstream === before) return;
  throw new Error(`could not steer to ${target}`);
}

/** Waits (bounded, `ms`) until `check` holds; the timeout's error shows `lastSeen()` when given. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
  lastSeen?: () => unknown,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(
        `condition not met within ${ms} ms${lastSeen === undefined ? "" : `; last seen: ${JSON.stringify(lastSeen())}`}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A 2026-07-28 `subscriptions/listen` stream: where it is held, what arrived on it (and the SSE ids its events carried), and its close. */
export interface Listen {
  /** The instance holding it (nginx's `X-Upstream`; `?` without a balancer). */
  upstream: string;
  /** The JSON-RPC messages that arrived, in order (the acknowledgement first). */
  messages: Array<Record<string, any>>;
  /** The `id` of every event that carried one, in order. */
  ids: string[];
  /** Closes it from the client's side (a cut, as the instance sees it). */
  close(): void;
}

/**
 * Opens a 2026-07-28 `subscriptions/listen` stream at `url` asking for `notifications`
 * (SEP-2575's filter, e.g. `{ toolsListChanged: true }`) and resolves once the SDK's
 * acknowledgement arrived (the stream is live after it; bounded by {@link eventually}). Throws
 * when the answer is not an SSE stream.
 */
export async function listen(url: URL, notifications: Record<string, unknown>): Promise<Listen> {
  const controller = new AbortController();
  const response = await fetch(listenRequest(notifications, { url, client: "listener" }), {
    signal: controller.signal,
  });
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/event-stream"))
    throw new Error(`subscriptions/listen answered ${response.status} ${type}: ${await response.text()}`);
  const messages: Array<Record<string, any>> = [];
  const ids: string[] = [];
  void (async () => {
    try {
      for await (const event of sseEvents(response.body!)) {
        if (event.id !== undefined) ids.push(event.id);
        messages.push(...event.messages);
      }
    } catch {
      // closed by the test
    }
  })();
  await eventually(() => messages.length > 0);
  return { upstream: response.headers.get("x-upstream") ?? "?", messages, ids, close: () => controller.abort() };
}
