/**
 * The `typed-mcp/redis` entry: a {@link StateStore} on Redis or Valkey (docs/scaling.md "Redis"),
 * through node-redis's core client `@redis/client` (an optional peer dependency: only a bundle
 * that imports this entry contains or resolves it).
 *
 * ```ts
 * import { connectRedisStore } from "typed-mcp/redis";
 * const server = new McpServer({ name, version, store: await connectRedisStore("redis://127.0.0.1:6379") });
 * ```
 *
 * Values are Redis strings with `PX` expiry; compare-and-set and the expiring sets (sorted sets
 * scored by expiry) are Lua scripts, so each is one atomic step; fan-out is Redis pub/sub on a
 * second connection. The client reconnects by itself (a growing delay up to 2 s); while it is
 * disconnected every command is rejected at once (no offline queue) and a command that gets no
 * answer within `commandTimeoutMs` is rejected too, so a request never hangs on the store. The
 * pub/sub connection re-subscribes after a reconnect; messages published meanwhile are missed
 * (pub/sub is at most once; docs/scaling.md "Guarantees").
 *
 * @packageDocumentation
 */
import { createClient, ErrorReply } from "@redis/client";
import type { StateStore, Unsubscribe } from "./store/state-store.js";
import { checkTtl } from "./store/state-store.js";

export type { StateStore, Unsubscribe } from "./store/state-store.js";

/** Options of {@link connectRedisStore}. */
export interface RedisStoreOptions {
  /** A `redis://[user:password@]host:port[/db]` or `rediss://` URL (node-redis's `url`). */
  url: string;
  /** Milliseconds a command may wait for its answer before it is rejected. Default 5,000. */
  commandTimeoutMs?: number;
  /** Milliseconds {@link connectRedisStore} waits for the first connection. Default 10,000. */
  connectTimeoutMs?: number;
  /** Called with each connection error (the client keeps reconnecting). Default: ignored. */
  onError?: (error: unknown) => void;
}

/** Sets `KEYS[1]` to `ARGV[3]` with `PX ARGV[4]` when its value is `ARGV[2]` (`ARGV[1]` "1") or it is absent (`ARGV[1]` "0"). */
const SWAP = `local cur = redis.call('GET', KEYS[1])
if ARGV[1] == '0' then
  if cur then return 0 end
elseif cur ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return 1`;

/** Expiring set `KEYS[1]`: drop members expired at `ARGV[3]`, refuse a new member past `ARGV[4]` live ones, add `ARGV[1]` until `ARGV[2]`; the key lasts as its latest member. */
const ENTER = `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if ARGV[4] ~= '' and not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local top = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], math.floor(tonumber(top[2])))
return 1`;

type Client = ReturnType<typeof createClient>;

/**
 * Connects to Redis (or Valkey) at `options.url` (or the URL given alone) and resolves with the
 * store once both connections (commands, pub/sub) are ready.
 *
 * @throws Error naming the URL's host when the first connection does not succeed within
 *   `connectTimeoutMs` (`typed-mcp/redis: connect to HOST:PORT took longer than N ms (last error:
 *   connect ECONNREFUSED …)`), or at once when the server refuses it (`… connect to HOST:PORT
 *   failed: WRONGPASS …`, `… ERR DB index is out of range`); TypeError for a URL that is not `redis:` or `rediss:`; Error on the
 *   Cloudflare Workers runtime (below).
 */
export async function connectRedisStore(options: string | RedisStoreOptions): Promise<StateStore> {
  refuseWorkers();
  const opts = typeof options === "string" ? { url: options } : options;
  const url = new URL(opts.url);
  if (url.protocol !== "redis:" && url.protocol !== "rediss:")
    throw new TypeError(`typed-mcp/redis: expected a redis:// or rediss:// URL, got ${url.protocol}//…`);
  // Until the first connection succeeds: the server's own refusal (a wrong password, a database
  // index it does not have) ends the attempt at once; a network error is retried until the
  // timeout, whose message then names the last one (e.g. ECONNREFUSED).
  let connecting = true;
  let lastError: unknown;
  const reconnectStrategy = (retries: number, cause: Error): number | Error => {
    lastError = cause;
    if (connecting && cause instanceof ErrorReply) return cause;
    return Math.min(50 * 2 ** Math.min(retries, 6), 2000);
  };
  const make = (): Client => createClient({ url: opts.url, disableOfflineQueue: true, socket: { reconnectStrategy } });
  const commands = make();
  const events = make();
  for (const client of [commands, events]) client.on("error", (error: unknown) => opts.onError?.(error));
  const timeout = opts.connectTimeoutMs ?? 10_000;
  try {
    await within(Promise.all([commands.connect(), events.connect()]), timeout, `connect to ${url.host}`);
  } catch (error) {
    commands.destroy();
    events.destroy();
    throw lastError instanceof Error && !(error instanceof Error && error.message.includes(lastError.message))
      ? new Error(`${error instanceof Error ? error.message : String(error)} (last error: ${lastError.message})`, {
          cause: lastError,
        })
      : error;
  }
  connecting = false;
  return new RedisStateStore(commands, events, opts.commandTimeoutMs ?? 5000, url.host);
}

/**
 * The refusal on Cloudflare Workers (`navigator.userAgent` "Cloudflare-Workers", workerd too):
 * node-redis needs long-lived TCP connections and timers outside a request, which a Worker does
 * not keep (docs/scaling.md "Topologies"), so a Redis store there is refused before it connects.
 * @throws Error naming the runtime and what to use instead.
 */
function refuseWorkers(): void {
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  if (agent === "Cloudflare-Workers")
    throw new Error(
      'typed-mcp/redis: a Redis store cannot run on Cloudflare Workers (no lasting TCP connection to Redis there); share state through a Durable Object instead (docs/scaling.md "Topologies").',
    );
}

/** {@link StateStore} on two node-redis connections (commands; pub/sub). */
class RedisStateStore implements StateStore {
  readonly #commands: Client;
  readonly #events: Client;
  readonly #timeoutMs: number;
  readonly #host: string;

  constructor(commands: Client, events: Client, timeoutMs: number, host: string) {
    this.#commands = commands;
    this.#events = events;
    this.#timeoutMs = timeoutMs;
    this.#host = host;
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.#do("GET", () => this.#commands.get(key));
    return value ?? undefined;
  }

  async swap(key: string, expected: string | undefined, value: string, ttlMs: number): Promise<boolean> {
    checkTtl(ttlMs);
    const args = [expected === undefined ? "0" : "1", expected ?? "", value, String(ttlMs)];
    return (await this.#script(SWAP, key, args)) === 1;
  }

  async delete(key: string): Promise<void> {
    await this.#do("DEL", () => this.#commands.del(key));
  }

  async enter(key: string, member: string, expiresAt: number, max?: number): Promise<boolean> {
    const args = [member, String(Math.ceil(expiresAt)), String(Date.now()), max === undefined ? "" : String(max)];
    return (await this.#script(ENTER, key, args)) === 1;
  }

  async leave(key: string, member: string): Promise<void> {
    await this.#do("ZREM", () => this.#commands.zRem(key, member));
  }

  async members(key: string): Promise<string[]> {
    const now = String(Date.now());
    return await this.#do("ZRANGE", () => this.#commands.zRange(key, `(${now}`, "+inf", { BY: "SCORE" }));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#do("PUBLISH", () => this.#commands.publish(channel, message));
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<Unsubscribe> {
    const own = (message: string): void => listener(message);
    await this.#do("SUBSCRIBE", () => this.#events.subscribe(channel, own));
    return async () => {
      await this.#do("UNSUBSCRIBE", () => this.#events.unsubscribe(channel, own));
    };
  }

  async close(): Promise<void> {
    for (const client of [this.#commands, this.#events]) {
      try {
        await within(client.close(), this.#timeoutMs, "close");
      } catch {
        client.destroy();
      }
    }
  }

  /** Runs the Lua `script` on one key (`EVAL`, sent as a raw command). */
  #script(script: string, key: string, args: string[]): Promise<unknown> {
    return this.#do("EVAL", () => this.#commands.sendCommand(["EVAL", script, "1", key, ...args]));
  }

  /** Runs one command within the timeout; a failure names the command and the host. */
  #do<T>(command: string, run: () => Promise<T>): Promise<T> {
    return within(new Promise<T>((resolve) => resolve(run())), this.#timeoutMs, `${command} on ${this.#host}`);
  }
}

/**
 * `promise`, or a rejection `typed-mcp/redis: <what> failed: <reason>` (its cause the error) or
 * `… took longer than <ms> ms` when it does not settle in time.
 */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`typed-mcp/redis: ${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, late])
    .catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith("typed-mcp/redis:")) throw error;
      throw new Error(`typed-mcp/redis: ${what} failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    })
    .finally(() => clearTimeout(timer));
}
