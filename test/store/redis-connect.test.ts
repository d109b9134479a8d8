/**
 * `connectRedisStore`'s first connection (docs/scaling.md "Failure modes": a store URL that is
 * wrong). Found by a fresh-user check: `STORE_URL=redis://127.0.0.1:1` (nothing listening) waited
 * the whole 10 s connect timeout and said only `took longer than 10000 ms`, and a URL the server
 * refuses (a database index it does not have, a wrong password) did the same, retrying forever
 * inside the timeout. Now a network error still retries until the timeout, whose message names
 * the last error, and the server's own refusal ends the attempt at once with its reply. The
 * refused-port case needs no Redis (fast tier); the server's refusals use Debian's redis-server
 * (full tier, test/helpers/redis-server.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedisStore } from "typed-mcp/redis";
import { FULL } from "../helpers/tier.ts";
import { startRedis, type RedisServer } from "../helpers/redis-server.ts";

describe("connectRedisStore: the first connection", () => {
  it("a port nothing listens on: rejects after connectTimeoutMs naming the host and the last error", async () => {
    const error = await connectRedisStore({ url: "redis://127.0.0.1:1", connectTimeoutMs: 300 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(
      "typed-mcp/redis: connect to 127.0.0.1:1 took longer than 300 ms (last error: connect ECONNREFUSED 127.0.0.1:1)",
    );
  });

  describe.skipIf(!FULL)("a server that refuses (redis-server)", () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.dispose();
    });

    // connectTimeoutMs is longer than the test's own timeout: a retry loop fails the test instead of passing late.
    it.each([
      ["a database index it does not have", "/99", "", "ERR DB index is out of range"],
      [
        "a wrong user and password",
        "",
        "nobody:wrong@",
        "WRONGPASS invalid username-password pair or user is disabled.",
      ],
    ])("%s: rejects with the server's reply, before the connect timeout", async (_label, path, auth, reply) => {
      const attempt = connectRedisStore({
        url: `redis://${auth}127.0.0.1:${redis.port}${path}`,
        connectTimeoutMs: 120_000,
      });
      await expect(attempt).rejects.toThrow(`typed-mcp/redis: connect to 127.0.0.1:${redis.port} failed: ${reply}`);
    });
  });
});
