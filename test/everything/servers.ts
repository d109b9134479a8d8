/**
 * Starts the original everything server (`@modelcontextprotocol/server-everything`, its
 * published bin) or the typed-mcp port (built from examples/everything by {@link buildPort}), over stdio or
 * Streamable HTTP, and connects the official client (`@modelcontextprotocol/client`, protocol
 * 2025-11-25) with roots, sampling and elicitation (form and URL), answering those requests with
 * fixed values and recording every notification and server→client request it receives.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { freePort } from "../runtimes/helpers.ts";
import { recordIncoming, type Raw } from "../helpers/wire.ts";
import { cachedServerBuild } from "../helpers/build-cache.ts";

const here = dirname(fileURLToPath(import.meta.url));
/** The example package. */
const EXAMPLE = resolve(here, "../../examples/everything");
/** The port's bundle (built by the test's `beforeAll`). */
/** The port's bundle, once {@link buildPort} has built it. */
let portBundle: string | undefined;

/** Builds the port with its vite.config.ts (reused in the fast tier: test/helpers/build-cache.ts); before any {@link connect} to it. */
export async function buildPort(): Promise<void> {
  portBundle = await cachedServerBuild("examples/everything");
}

/** The port's bundle; throws before {@link buildPort}. */
function portBundlePath(): string {
  if (portBundle === undefined) throw new Error("buildPort() first: the port is not built");
  return portBundle;
}
/** The original's published bin (`bin.mcp-server-everything` of its package.json). */
const ORIGINAL_BIN = join(
  dirname(createRequire(join(EXAMPLE, "package.json")).resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

export type Which = "original" | "port";
export type Via = "stdio" | "http";

/** The fixed answers the client gives to the server's requests. */
const ROOTS = [{ uri: "file:///srv/project", name: "project" }, { uri: "file:///srv/other" }];
export const SAMPLED = {
  role: "assistant",
  content: { type: "text", text: "A sampled answer." },
  model: "test-model",
  stopReason: "endTurn",
} as const;
/** The answer to simulate-research-query's clarification (its `interpretation` choice for "python"). */
export const CLARIFIED = { interpretation: "snake" };
const ELICITED = { name: "Ada Lovelace", check: true, email: "ada@example.com", integer: 7, number: 2.5 };

/** A connected client and what it received. */
export interface Session {
  client: Client;
  /** Notifications (`method`, `params`) in arrival order. */
  notifications: Array<{ method: string; params: Record<string, unknown> }>;
  /** Server→client requests (`method`, `params`) in arrival order. */
  requests: Array<{ method: string; params: Record<string, unknown> }>;
  /** Every JSON-RPC message received, as parsed from the wire (key order kept). */
  raw: Raw[];
  close(): Promise<void>;
}

/** The environment both servers get: the same, so that `get-env` answers alike. */
const ENV = { PATH: process.env.PATH ?? "", HOME: "/tmp", LANG: "C", TZ: "UTC", EVERYTHING_TEST: "1" };

/** Waits until `child` prints `pattern` on stderr or stdout, at most 20 s. */
function waitFor(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((ok, fail) => {
    let seen = "";
    const timer = setTimeout(() => fail(new Error(`server did not start: ${seen}`)), 20_000);
    const on = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout?.on("data", on);
    child.stderr?.on("data", on);
    child.once("exit", (code) => fail(new Error(`server exited (${code}): ${seen}`)));
  });
}

/** How the client connects: by default 2025-11-25 with roots, sampling and elicitation (form and URL). */
export interface ConnectOptions {
  /** Pin 2026-07-28 (`server/discover`) instead of 2025-11-25. */
  modern?: boolean;
  /** Declare no client capabilities. */
  bare?: boolean;
}

/** Starts `which` over `via` and connects a client with every client capability the original tests for (unless `options.bare`). */
export async function connect(which: Which, via: Via, options: ConnectOptions = {}): Promise<Session> {
  // `tasks.requests`: the client may be asked for sampling and elicitation as tasks (MCP 2025-11-25
  // "Tasks"); it answers them at once (CreateMessageResult / ElicitResult), which the spec allows.
  const tasks = { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } };
  const capabilities = options.bare
    ? {}
    : { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} }, tasks };
  const revision = options.modern
    ? { versionNegotiation: { mode: { pin: "2026-07-28" } } }
    : { supportedProtocolVersions: ["2025-11-25"] };
  const client = new Client({ name: "everything-parity", version: "1.0.0" }, {
    capabilities,
    ...revision,
  } as ConstructorParameters<typeof Client>[1]);
  const notifications: Session["notifications"] = [];
  const requests: Session["requests"] = [];
  for (const method of [
    "notifications/message",
    "notifications/resources/updated",
    "notifications/resources/list_changed",
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
  ] as const) {
    client.setNotificationHandler(
      method,
      (n) => void notifications.push({ method, params: (n.params ?? {}) as Record<string, unknown> }),
    );
  }
  client.fallbackNotificationHandler = async (n) =>
    void notifications.push({ method: n.method, params: (n.params ?? {}) as Record<string, unknown> });
  // The client refuses a handler for a capability it did not declare.
  if (!options.bare) {
    client.setRequestHandler(
      "roots/list",
      (r) => (requests.push({ method: "roots/list", params: r.params ?? {} }), { roots: ROOTS }),
    );
    client.setRequestHandler(
      "sampling/createMessage",
      (r) => (
        requests.push({ method: "sampling/createMessage", params: r.params as Record<string, unknown> }), SAMPLED
      ),
    );
    client.setRequestHandler("elicitation/create", (r) => {
      const params = r.params as Record<string, unknown>;
      requests.push({ method: "elicitation/create", params });
      const asked = (params.requestedSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
      if (params.mode === "url") return { action: "accept" };
      return { action: "accept", content: "interpretation" in asked ? CLARIFIED : ELICITED };
    });
  }
  let child: ChildProcess | undefined;
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  if (via === "stdio") {
    const args = which === "original" ? [ORIGINAL_BIN, "stdio"] : [portBundlePath()];
    transport = new StdioClientTransport({ command: process.execPath, args, env: ENV, stderr: "ignore" });
  } else {
    const port = await freePort();
    const loopback = join(here, "fixtures/loopback.mjs");
    const args =
      which === "original"
        ? ["--import", loopback, ORIGINAL_BIN, "streamableHttp"]
        : [portBundlePath(), "--http", "--port", String(port)];
    child = spawn(process.execPath, args, { env: { ...ENV, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
    await waitFor(child, /listening on/i);
    transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
  }
  const raw = recordIncoming(transport);
  await client.connect(transport);
  return {
    client,
    notifications,
    requests,
    raw,
    async close() {
      await client.close().catch(() => {});
      if (child && child.exitCode === null) {
        const exited = new Promise((ok) => child!.once("exit", ok));
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

/** Resolves once `predicate` holds, polling every 20 ms, at most `ms`. @throws Error naming `what` on timeout. */
export async function until(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
