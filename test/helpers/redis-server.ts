/**
 * Debian's redis-server for the full tier (docs/scaling.md "Tests"; installed by
 * scripts/ensure-scale-tools.sh): one server per call on a free loopback port, with its own temp
 * directory, ended by `stop`. `appendfsync: "always"` turns on the append-only file synced on
 * every write (the durability scenario).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";
import { createClient } from "@redis/client";
import { freePort, waitForPort } from "../runtimes/helpers.ts";

/** A running redis-server. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops it: SHUTDOWN (saving when persistence is on) when `graceful`, else `kill -9`. */
  stop(graceful?: boolean): Promise<void>;
  /** Starts it again on the same port and directory (after {@link stop}). */
  start(): Promise<void>;
  /** Ends it and removes its directory. */
  dispose(): Promise<void>;
  /** `DBSIZE`: the number of keys. */
  dbsize(): Promise<number>;
  /** Runs `fn` with a node-redis client connected to this server (closed afterwards): `KEYS`, `INFO`, `MEMORY USAGE`, …. */
  query<T>(fn: (client: RedisClient) => Promise<T>): Promise<T>;
}

/** A node-redis client (RESP 2, no modules) for the server on `port`. */
const clientFor = (port: number) => createClient({ url: `redis://127.0.0.1:${port}` });

/** The node-redis client {@link RedisServer.query} hands out. */
type RedisClient = ReturnType<typeof clientFor>;

/** Starts redis-server on a free 127.0.0.1 port; resolves once it answers PING (its data loaded). */
export async function startRedis(options: { appendfsync?: "always" | "everysec" } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), "typed-mcp-redis-"));
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", ""];
  if (options.appendfsync !== undefined) args.push("--appendonly", "yes", "--appendfsync", options.appendfsync);
  else args.push("--appendonly", "no");
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn("redis-server", args, { stdio: "ignore" });
    await waitForPort(port, child, "redis-server");
    // A restarted server answers -LOADING until its append-only file is read.
    const deadline = Date.now() + 20_000;
    while (!(await redisReply(port, "PING").catch(() => "")).startsWith("+PONG")) {
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer PING within 20 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async (graceful = false): Promise<void> => {
    const running = child;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    if (graceful) await redisCommand(port, "SHUTDOWN");
    else running.kill("SIGKILL");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      await stop(false);
      await rm(dir, { recursive: true, force: true });
    },
    async dbsize() {
      const reply = await redisReply(port, "DBSIZE");
      const match = /^:(\d+)\r\n/.exec(reply);
      if (match === null) throw new Error(`DBSIZE answered ${JSON.stringify(reply)}`);
      return Number(match[1]);
    },
    async query(fn) {
      const client = clientFor(port);
      await client.connect();
      try {
        return await fn(client);
      } finally {
        client.destroy();
      }
    },
  };
}

/** Sends one inline command; resolves with the first reply chunk (RESP text). */
function redisReply(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${command}\r\n`));
    socket.once("data", (data) => {
      socket.end();
      resolve(data.toString("utf8"));
    });
    socket.on("error", reject);
  });
}

/** Sends one inline command and resolves when the server answers or closes the connection. */
function redisCommand(port: number, command: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${command}\r\n`));
    socket.on("data", () => socket.end());
    socket.on("close", () => resolve());
    socket.on("error", () => resolve());
  });
}
