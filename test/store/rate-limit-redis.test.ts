// Rate limiting per caller across instances (docs/observability.md "Rate limiting per caller";
// full tier only: test/helpers/tier.ts FULL_ONLY): the docs' middleware with rate-limiter-flexible's
// RateLimiterRedis on Debian's redis-server (a free loopback port), in two server instances, each
// with its own @redis/client connection, as two processes behind a balancer would have. The real
// client calls through `server.fetch` with the verified token of one user: the budget is shared,
// so the call after it on either instance is refused with the documented JSON-RPC error and never
// reaches the tool, while another user's budget is their own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createClient } from "@redis/client";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { ProtocolError, type McpServer } from "../../packages/typed-mcp/dist/index.js";
import { createServer } from "../runtime/fixtures/tools.mjs";
import { startRedis, type RedisServer } from "../helpers/redis-server.ts";

const POINTS = 3;
const DURATION_S = 60;

let redis: RedisServer;
const connections: Array<{ close(): Promise<unknown> }> = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const c of connections) await c.close();
  await redis?.dispose();
});

/** One instance: its own Redis connection and limiter (one shared key prefix), the docs' middleware. */
async function instance(reached: string[]): Promise<McpServer> {
  const redisClient = createClient({ url: redis.url });
  connections.push(redisClient);
  await redisClient.connect();
  const server = createServer();
  const limiter = new RateLimiterRedis({
    storeClient: redisClient,
    useRedisPackage: true,
    keyPrefix: "mcp-calls",
    points: POINTS,
    duration: DURATION_S,
  });
  server.use(async (ctx, next) => {
    if (ctx.method !== "tools/call" || ctx.inputRetry) return next();
    try {
      await limiter.consume(ctx.caller);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw new ProtocolError(-32000, `Rate limit exceeded; retry in ${Math.ceil(refusal.msBeforeNext / 1000)} s.`);
    }
    reached.push(ctx.authInfo?.clientId ?? "?");
    return next();
  });
  return server;
}

/** The real client on `server.fetch`, with the verified token of `user` (as a verifying proxy would pass it). */
async function connect(server: McpServer, user: string): Promise<Client> {
  const authInfo = { token: user, clientId: user, scopes: [], extra: { issuer: "https://issuer.test", subject: user } };
  const client = new Client({ name: "rl-client", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: (input, init) => server.fetch(new Request(input, init), { authInfo }),
    }),
  );
  return client;
}

describe("rate limiting per caller (rate-limiter-flexible, Redis)", () => {
  it("two instances share one caller's budget: the call after it is refused on either, another caller's is their own", async () => {
    const reachedA: string[] = [];
    const reachedB: string[] = [];
    const [a, b] = [await instance(reachedA), await instance(reachedB)];
    const aliceOnA = await connect(a, "alice");
    const aliceOnB = await connect(b, "alice");
    const version = { name: "version", arguments: {} };
    expect((await aliceOnA.callTool(version)).isError).toBeFalsy();
    expect((await aliceOnB.callTool(version)).isError).toBeFalsy();
    expect((await aliceOnA.callTool(version)).isError).toBeFalsy();
    // The fourth call (POINTS + 1), on either instance, is refused by the middleware.
    for (const client of [aliceOnB, aliceOnA]) {
      const over = await client.callTool(version).catch((e: unknown) => e);
      expect(over).toBeInstanceOf(Error);
      expect(over).toMatchObject({ code: -32000 });
      const seconds = Number(/Rate limit exceeded; retry in (\d+) s\./.exec((over as Error).message)?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(DURATION_S);
    }
    // Refused calls never reached the tool: three in all, split over the two instances.
    expect(reachedA).toEqual(["alice", "alice"]);
    expect(reachedB).toEqual(["alice"]);
    // Bob's budget is his own, on either instance.
    const bobOnB = await connect(b, "bob");
    expect((await bobOnB.callTool(version)).isError).toBeFalsy();
    expect(reachedB).toEqual(["alice", "bob"]);
    // One counter per caller in the shared Redis, not one per instance.
    expect(await redis.dbsize()).toBe(2);
    for (const c of [aliceOnA, aliceOnB, bobOnB]) await c.close();
  });
});
