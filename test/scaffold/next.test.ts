/**
 * `create-typed-mcp --bundler next` with real Next.js 16.4.6 from npm (issue 21), installed with
 * plain npm from the packed tarballs: `next build` (Turbopack) and `next build --webpack`, each
 * served by `next start` on a loopback port, where the official client lists and calls at
 * /api/mcp on 2025-11-25 and on 2026-07-28, the listing's bytes equal to the Vite build of the
 * same src/server.ts, and the edge-runtime copy of the route answers the same listing; then
 * `next dev` in both modes: an edit to an interface in a file the tool module imports changes
 * the next tools/list without a restart, and a build error shows in Next's output as
 * `file:line:column - OMCG0005`. Auth: a server with `oauth(...)` behind a second route, its
 * RFC 9728 document served at /.well-known/oauth-protected-resource/api/mcp-auth by the template's
 * own config (withTypedMcp's rewrite; docs/nextjs.md "Auth"), found by the official client's OAuth
 * support, which gets a token from a real authorization server (oidc-provider, client
 * credentials) and calls. Profiles: the webpack build runs with `profile: "openai-strict"` in
 * next.config.ts and lists the bytes of the Vite build with that profile. The Redis store: a
 * Node-runtime route whose server has `store: await connectRedisStore(STORE_URL)` (typed-mcp/redis,
 * a real redis-server) creates a task that `tasks/get` then reads, its key in Redis.
 * basePath: the webpack build runs with `basePath: "/mcp-app"`, so every route above is under it,
 * and the auth document is at `/mcp-app/.well-known/oauth-protected-resource/api/mcp-auth`, which the
 * 401 names (Next.js serves nothing outside the basePath). Origin: a browser page of the server's
 * own origin is served in both builds (Next.js hands the route `http://localhost:<port>`).
 * NEXT_TELEMETRY_DISABLED=1 (the scripts and here); nothing fetches from the network at build time.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exercise, freePort, passedTests, scaffold, start, type Project, type Started } from "./helpers.ts";
import { M2M, startAuthorizationServer, type AuthorizationServer } from "../auth/authorization-server.ts";
import { startRedis, type RedisServer } from "../helpers/redis-server.ts";
import { createTask, getTask } from "../helpers/tasks.ts";

const run = promisify(execFile);
const ENV = { NEXT_TELEMETRY_DISABLED: "1" };
/** The MCP headers of a stateless 2025-11-25 `tools/list` (no session needed). */
const LIST = {
  method: "POST",
  headers: {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
};
/** The one SSE `data:` line of an answer (the JSON-RPC message's bytes), or the body when it is JSON. */
const dataOf = (text: string) => /^data: (.*)$/m.exec(text)?.[1] ?? text;

/** The protected server (issuer and audience from the environment `next start` is given) and its two routes. */
const AUTH_SERVER = `import { McpServer, type RequestContext } from "typed-mcp";
import { oauth } from "typed-mcp/auth";

export const authServer = new McpServer({
  name: "auth",
  version: "1.0.0",
  auth: oauth({ issuer: process.env.MCP_ISSUER ?? "http://127.0.0.1:1", audience: process.env.MCP_AUDIENCE ?? "http://127.0.0.1:1/api/mcp-auth" }),
});
authServer.tool("whoami", (ctx?: RequestContext) => ctx?.authInfo?.clientId ?? "nobody");
`;
const AUTH_ROUTE = `import { nextHandler } from "typed-mcp";\nimport { authServer } from "../../../auth-server";\n\nexport const { GET, POST, DELETE, OPTIONS, HEAD } = nextHandler(authServer);\n`;
/** A server whose listing the profile changes (a default and a `minimum`; docs/profiles.md), served at /api/mcp-profiled. */
const PROFILED_SERVER = `import { McpServer, tool, type Int, type Minimum } from "typed-mcp";

class Picks {
  /**
   * Picks a number.
   * @param count How many.
   * @param label A label to put first.
   */
  @tool()
  pick(count: Int & Minimum<1> = 1, label?: string): string {
    return \`\${label ?? ""}\${count}\`;
  }
}
export function createServer(): McpServer {
  return new McpServer({ name: "profiled", version: "1.0.0" }).add(new Picks());
}
`;
/** A Node-runtime route whose server keeps its tasks in Redis (STORE_URL from the environment `next start` is given). */
const REDIS_ROUTE = `import { McpServer, nextHandler, tool } from "typed-mcp";
import { connectRedisStore } from "typed-mcp/redis";

class Jobs {
  /** Echoes its text, as a task. */
  @tool({ task: "optional" })
  echo(text: string): string {
    return text;
  }
}
// Connected on the first request: \`next build\` evaluates the module (collecting page data) without STORE_URL.
let server: Promise<McpServer> | undefined;
const connect = () =>
  (server ??= connectRedisStore(process.env.STORE_URL!).then((store) =>
    new McpServer({ name: "redis", version: "1.0.0", store }).add(new Jobs()),
  ));

export const { GET, POST, DELETE, OPTIONS, HEAD } = nextHandler({
  fetch: async (request, options) => (await connect()).fetch(request, options),
});
`;

let project: Project;
let as: AuthorizationServer;
let redis: RedisServer;
/** Wall times (ms) of the phases, printed at the end (docs/contributing.md: the CI budget). */
const times: Record<string, number> = {};
async function timed<T>(name: string, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await f();
  } finally {
    times[name] = Math.round(performance.now() - t0);
  }
}
/** The bytes of the tools/list answer of the Vite build of the project's src/server.ts. */
let viteListing: string;
/** The Vite build's listing of src/profiled.ts, without a profile and with `openai-strict` (the webpack build's profile). */
const viteProfiled: { default?: string; "openai-strict"?: string } = {};

/** The tools/list answer's bytes of the Vite build of the project's `entry` (its `createServer()`) with the plugin's `options`. */
async function viteList(entry: string, options: { profile?: "openai-strict" }): Promise<string> {
  const { build } = await import("vite");
  const { default: typedMcp } = await import("@typed-mcp/unplugin/vite");
  const out = mkdtempSync(join(project.dir, "vite-out-"));
  try {
    await build({
      root: project.dir,
      configFile: false,
      logLevel: "silent",
      plugins: [typedMcp(options)],
      build: { ssr: join(project.dir, entry), outDir: out, target: "node20", emptyOutDir: true, minify: false },
      ssr: { noExternal: true },
    });
    const name = entry.replace(/^.*\/|\.ts$/g, "");
    const mod = (await import(pathToFileURL(join(out, `${name}.js`)).href)) as {
      createServer(): { fetch(r: Request): Promise<Response> };
    };
    return dataOf(await (await mod.createServer().fetch(new Request("http://127.0.0.1/mcp", LIST))).text());
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  project = await timed("scaffold + npm install", () => scaffold("next", "node", inject("packages")));
  const dir = project.dir;
  // The edge-runtime copy of the route.
  const route = readFileSync(join(dir, "src/app/api/mcp/route.ts"), "utf8");
  mkdirSync(join(dir, "src/app/api/mcp-edge"));
  writeFileSync(join(dir, "src/app/api/mcp-edge/route.ts"), `${route}export const runtime = "edge";\n`);
  writeFileSync(join(dir, "src/auth-server.ts"), AUTH_SERVER);
  mkdirSync(join(dir, "src/app/api/mcp-auth"));
  writeFileSync(join(dir, "src/app/api/mcp-auth/route.ts"), AUTH_ROUTE);
  // The Redis route: node-redis's core client is typed-mcp/redis's optional peer, installed as a user would.
  mkdirSync(join(dir, "src/app/api/mcp-redis"));
  writeFileSync(join(dir, "src/app/api/mcp-redis/route.ts"), REDIS_ROUTE);
  await timed("npm install @redis/client", () =>
    run("npm", ["install", "--no-audit", "--no-fund", "@redis/client@6.3.1"], { cwd: dir, maxBuffer: 64 << 20 }),
  );
  [as, redis] = await Promise.all([startAuthorizationServer(), startRedis()]);
  // The Vite builds of the same sources (the workspace's Vite and plugin; typed-mcp from the project).
  writeFileSync(join(dir, "src/profiled.ts"), PROFILED_SERVER);
  mkdirSync(join(dir, "src/app/api/mcp-profiled"));
  writeFileSync(join(dir, "src/app/api/mcp-profiled/route.ts"), route.replace("../../../server", "../../../profiled"));
  viteListing = await viteList("src/server.ts", {});
  viteProfiled.default = await viteList("src/profiled.ts", {});
  viteProfiled["openai-strict"] = await viteList("src/profiled.ts", { profile: "openai-strict" });
  expect(viteProfiled["openai-strict"]).not.toBe(viteProfiled.default);
}, 600_000);
afterAll(async () => {
  console.info(`next: wall times (ms) ${JSON.stringify(times)}`);
  await as?.stop();
  await redis?.dispose();
  project?.cleanup();
});

/** Runs `npx next <args>` in the project; resolves with its output, rejects with it on failure. */
async function next(...args: string[]): Promise<string> {
  const s = start(project.dir, "npx", ["next", ...args], ENV);
  const code = await new Promise<number | null>((r) => s.child.once("exit", (c) => r(c)));
  if (code !== 0) throw new Error(`next ${args.join(" ")} exited with ${code}:\n${s.output()}`);
  return s.output();
}

/**
 * Starts `npx next <args> -H 127.0.0.1 -p <a free port>` (the protected server's audience is its
 * URL) and resolves with the server and its URL once it printed it.
 */
async function serve(basePath: string, ...args: string[]): Promise<Started & { base: string }> {
  const port = await freePort();
  const env = {
    ...ENV,
    MCP_ISSUER: as.issuer,
    MCP_AUDIENCE: `http://127.0.0.1:${port}${basePath}/api/mcp-auth`,
    STORE_URL: redis.url,
  };
  const s = start(project.dir, "npx", ["next", ...args, "-H", "127.0.0.1", "-p", String(port)], env);
  for (let waited = 0; waited < 120_000; waited += 100) {
    const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(s.output());
    if (m && /Ready in/.test(s.output())) return { ...s, base: `${m[0]}${basePath}` };
    if (s.child.exitCode !== null) throw new Error(`next ${args.join(" ")} exited:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await s.stop();
  throw new Error(`next ${args.join(" ")} printed no URL within 120 s:\n${s.output()}`);
}

const listBytes = async (url: string) => dataOf(await (await fetch(url, LIST)).text());

async function client(url: string, modern: boolean): Promise<Client> {
  const c = new Client(
    { name: "scaffold-next", version: "0.0.1" },
    modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : undefined,
  );
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

it("npm test: the scaffolded typed-mcp/testing tests pass under vitest, 3 of 3", async () => {
  expect(await timed("npm test", () => passedTests(project))).toBe("3 passed (3)");
});

/** An app's own Turbopack loader for `*.ts`: records each file it ran on (read at /api/stamps). */
const STAMP_LOADER = `module.exports = function (source) {
  const name = require("node:path").basename(this.resourcePath);
  return \`\${source}\\n;(globalThis.__stamps ??= []).push(\${JSON.stringify(name)});\\n\`;
};
`;
const STAMPS_ROUTE = `import "../../../server";
export const GET = () => Response.json((globalThis as { __stamps?: string[] }).__stamps ?? []);
`;

describe.each([
  ["next build (Turbopack), with an own turbopack.rules['*.ts']", [], undefined, "", true],
  ["next build --webpack, profile openai-strict, basePath /mcp-app", ["--webpack"], "openai-strict", "/mcp-app", false],
] as const)("%s, then next start", (_name, flags, profile, basePath, ownRule) => {
  let server: (Started & { base: string }) | undefined;
  const config = () => join(project.dir, "next.config.ts");
  let configText: string;
  beforeAll(async () => {
    configText = readFileSync(config(), "utf8");
    if (profile) {
      const withProfile = configText.replace(
        "withTypedMcp(nextConfig)",
        `withTypedMcp(nextConfig, { profile: "${profile}" })`,
      );
      expect(withProfile).not.toBe(configText);
      writeFileSync(config(), withProfile);
    }
    if (ownRule) {
      writeFileSync(join(project.dir, "stamp-loader.cjs"), STAMP_LOADER);
      mkdirSync(join(project.dir, "src/app/api/stamps"), { recursive: true });
      writeFileSync(join(project.dir, "src/app/api/stamps/route.ts"), STAMPS_ROUTE);
      const text = readFileSync(config(), "utf8");
      const withRule = text.replace(
        "const nextConfig: NextConfig = {};",
        `const nextConfig: NextConfig = { turbopack: { rules: { "*.ts": { condition: { not: "foreign" }, loaders: ["./stamp-loader.cjs"], as: "*.ts" } } } };`,
      );
      expect(withRule).not.toBe(text);
      writeFileSync(config(), withRule);
    }
    if (basePath) {
      const text = readFileSync(config(), "utf8");
      const withBase = text.replace(
        "const nextConfig: NextConfig = {};",
        `const nextConfig: NextConfig = { basePath: "${basePath}" };`,
      );
      expect(withBase).not.toBe(text);
      writeFileSync(config(), withBase);
    }
    await timed(`next build ${flags.join(" ")}`.trim(), () => next("build", ...flags));
    server = await serve(basePath, "start");
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    writeFileSync(config(), configText);
    rmSync(join(project.dir, "src/app/api/stamps"), { recursive: true, force: true });
  });

  it.runIf(ownRule)("runs the app's own *.ts rule after typed-mcp's loader, on the tool module too", async () => {
    const stamps = (await (await fetch(`${server!.base}/api/stamps`)).json()) as string[];
    // Turbopack names the module after typed-mcp's `as: "*.ts"` server.ts.ts; the listing test shows typed-mcp ran.
    expect(stamps.some((name) => name.startsWith("server.ts"))).toBe(true);
    expect(stamps).toContain("route.ts");
  });

  it("lists at /api/mcp the bytes the Vite build lists, and the edge route the same", async () => {
    expect(await listBytes(`${server!.base}/api/mcp`)).toBe(viteListing);
    expect(await listBytes(`${server!.base}/api/mcp-edge`)).toBe(viteListing);
  });

  it(`lists at /api/mcp-profiled the bytes the Vite build with profile ${profile ?? "default"} lists`, async () => {
    expect(await listBytes(`${server!.base}/api/mcp-profiled`)).toBe(viteProfiled[profile ?? "default"]);
  });

  it("serves a browser page of its own origin (Origin http://127.0.0.1:<port>: Next.js says localhost); refuses another, 403", async () => {
    const own = new URL(server!.base).origin;
    const asked = (origin: string) =>
      fetch(`${server!.base}/api/mcp`, { ...LIST, headers: { ...LIST.headers, origin } });
    const served = await asked(own);
    expect(served.status).toBe(200);
    expect(dataOf(await served.text())).toBe(viteListing);
    const refused = await asked("http://evil.example");
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toBe(
      "Forbidden: Origin http://evil.example is not allowed (McpServerOptions.allowedOrigins)",
    );
  });

  it("the official client lists and calls the tool, resource and prompt on 2025-11-25", async () => {
    const c = await client(`${server!.base}/api/mcp`, false);
    try {
      await exercise(c);
    } finally {
      await c.close();
    }
  });

  it("auth: 401 names the RFC 9728 document, served at its well-known path; the official client gets a token and calls", async () => {
    const audience = `${server!.base}/api/mcp-auth`;
    const metadata = `${server!.base}/.well-known/oauth-protected-resource/api/mcp-auth`;
    const denied = await fetch(audience, LIST);
    expect(denied.status).toBe(401);
    expect(denied.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata}"`);
    expect(await (await fetch(metadata)).json()).toEqual({ resource: audience, authorization_servers: [as.issuer] });
    const c = new Client({ name: "scaffold-next-auth", version: "0.0.1" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(audience), {
        authProvider: new ClientCredentialsProvider({ ...M2M, expectedIssuer: as.issuer }),
      }),
    );
    try {
      expect((await c.callTool({ name: "whoami", arguments: {} })).content).toEqual([{ type: "text", text: "m2m" }]);
    } finally {
      await c.close();
    }
  });

  it("the Redis store on the Node runtime: a task created, then read by tasks/get, its key in Redis", async () => {
    const before = await redis.dbsize();
    const c = await client(`${server!.base}/api/mcp-redis`, false);
    try {
      const { task } = await createTask(c, "echo", { text: "in redis" });
      expect(task.taskId).toMatch(/\S/);
      expect(await redis.dbsize()).toBeGreaterThan(before);
      const got = await getTask(c, task.taskId);
      expect(got.taskId).toBe(task.taskId);
      expect(["working", "completed"]).toContain(got.status);
    } finally {
      await c.close();
    }
  });

  it("the official client lists and calls on 2026-07-28, at the Node and the edge route", async () => {
    for (const route of ["mcp", "mcp-edge"]) {
      const c = await client(`${server!.base}/api/${route}`, true);
      try {
        const { tools } = await c.listTools();
        expect(JSON.stringify(tools)).toBe(JSON.stringify(JSON.parse(viteListing).result.tools));
        const bad = await c.callTool({ name: "add_note", arguments: { text: 5 } });
        expect(bad).toMatchObject({
          content: [{ type: "text", text: "Argument 'text' is not valid. Expected a string, got a number." }],
          isError: true,
        });
        const call = await c.callTool({ name: "add_note", arguments: { text: "Call" } });
        expect((call.structuredContent as { text: string }).text).toBe("Call");
      } finally {
        await c.close();
      }
    }
  });
});

describe.each([
  ["next dev (Turbopack)", []],
  ["next dev --webpack", ["--webpack"]],
])("%s", (_name, flags) => {
  let server: (Started & { base: string }) | undefined;
  const file = (f: string) => join(project.dir, f);
  const original = () => readFileSync(file("src/server.ts"), "utf8");
  let serverText: string;
  beforeAll(async () => {
    serverText = original();
    // The interface the tool's result uses moves to a file the tool module imports (type-only).
    writeFileSync(
      file("src/note.ts"),
      'import type { Int } from "typed-mcp";\n\nexport interface Note {\n  id: Int;\n  /** The note\'s text. */\n  text: string;\n}\n',
    );
    const moved = serverText.replace(/interface Note \{[^}]*\}\n/, 'import type { Note } from "./note";\n');
    expect(moved).not.toBe(serverText);
    writeFileSync(file("src/server.ts"), moved);
    server = await timed(`next dev ${flags.join(" ")} ready`.trim(), () => serve("", "dev", ...flags));
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    writeFileSync(file("src/server.ts"), serverText);
    rmSync(file("src/note.ts"), { force: true });
  });

  /** Polls tools/list at /api/mcp (each request compiles what changed) until `check` holds; bounded. */
  async function until(check: (answer: string) => boolean, ms = 90_000): Promise<string> {
    const end = Date.now() + ms;
    let last = "";
    while (Date.now() < end) {
      last = await listBytes(`${server!.base}/api/mcp`).catch((e: Error) => e.message);
      if (check(last)) return last;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(
      `no matching answer within ${ms} ms; last: ${last.slice(0, 400)}\n${server!.output().slice(-2000)}`,
    );
  }

  it("re-lists after an edit to an interface in an imported file, without a restart", async () => {
    await until((a) => a.includes('"description":"The note\'s text."'));
    const note = readFileSync(file("src/note.ts"), "utf8");
    writeFileSync(file("src/note.ts"), note.replace("The note's text.", "The text of the note."));
    const after = await timed(`next dev ${flags.join(" ")} re-list`.trim(), () =>
      until((a) => a.includes('"description":"The text of the note."')),
    );
    expect(after).not.toContain("The note's text.");
  });

  // The bound covers Turbopack's recovery below: 90 s for the error, 30 s for the fix, a restart and 90 s.
  it("shows a build error in Next's output as file:line:column - OMCG0005", { timeout: 360_000 }, async () => {
    const text = readFileSync(file("src/server.ts"), "utf8");
    const broken = text.replace("async addNote(text: string,", "async addNote(text: string | Date,");
    writeFileSync(file("src/server.ts"), broken);
    const lines = broken.split("\n");
    const line = lines.findIndex((l) => l.includes("text: string | Date")) + 1;
    const column = lines[line - 1]!.indexOf("text: string | Date") + 1;
    const where = `${file("src/server.ts")}:${line}:${column} - OMCG0005: `;
    const end = Date.now() + 90_000;
    while (!server!.output().includes(where) && Date.now() < end) {
      await fetch(`${server!.base}/api/mcp`, LIST).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(server!.output()).toContain(where);
    writeFileSync(file("src/server.ts"), text);
    const fixed = (a: string) => a.includes('"name":"add_note"');
    if (flags.length > 0) {
      await until(fixed);
      return;
    }
    // Turbopack (Next.js 16.4.6) now and then keeps the module's failure after the fix is saved:
    // every request answers at once (no compile) with "Could not parse module …server.ts.ts".
    // Turbopack's own, not the loader's: after the first build error since
    // `next dev` started, a plain module with a syntax error and no loader on it stayed broken 2
    // times in 6 here, as often as this module (docs/nextjs.md "The loader"); a second save did
    // not help, a restart did every time. So the test, as an author would, restarts `next dev`
    // once, logged with the server's output; webpack gets no allowance. The error line above and
    // the fixed listing are asserted either way.
    if ((await until(fixed, 30_000).catch(() => undefined)) !== undefined) return;
    console.info(
      `next dev (Turbopack): the fix was not picked up within 30 s; restarting next dev\n${server!.output().slice(-1500)}`,
    );
    await server!.stop();
    server = await serve("", "dev", ...flags);
    await until(fixed);
  });
});
