/**
 * Cloudflare's workerd (npm `workerd`, the real binary): the fixture built with Vite's worker-style
 * config is the Worker's only module, and `export default { fetch: server.fetch }` its handler.
 * Run twice: without `nodejs_compat` (no `process`, no `node:` modules: typed-mcp must not need
 * them, and `node:diagnostics_channel` is absent) and with it (failures are then published, §7).
 * workerd refuses `eval` and `new Function` ("Code generation from strings disallowed"), so every
 * call answered here also shows that the runtime and the generated code use neither.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build as esbuild } from "esbuild";
import typedMcpEsbuild from "@typed-mcp/unplugin/esbuild";
import { AUTH_MODULE, buildFixture, FIXTURE, RUNTIME_ALIASES, WORKERD_ESBUILD, type Built } from "./build.js";
import { CODE_GENERATION, httpScenario, ownModules, readText, startServer, type Running } from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
/** The native binary the `workerd` package installs (not the .bin shim: one process to stop). */
const WORKERD = resolve(here, "../../node_modules/workerd/bin/workerd");

let work: string;
let built: Built;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-workerd-"));
  built = await buildFixture("worker", "worker", join(work, "dist"));
  // The same entry built without Vite: esbuild with the plugin's esbuild entry, the options
  // docs/runtimes.md shows ("Without a bundler").
  await esbuild({
    absWorkingDir: FIXTURE,
    entryPoints: ["src/worker.ts"],
    outfile: join(work, "esbuild/worker.js"),
    ...WORKERD_ESBUILD,
    alias: RUNTIME_ALIASES,
    plugins: [typedMcpEsbuild()],
  });
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** A Worker with the same settings that tries to compile code from a string. */
const PROBE = `export default { fetch() {
  try { return new Response("allowed: " + new Function("return 1")()); }
  catch (e) { return new Response(String(e)); }
} };`;

/**
 * A workerd config serving dist/worker.js on 127.0.0.1 (port chosen by workerd, reported on
 * fd 3), and the probe Worker with the same compatibility settings on a second socket.
 */
function config(date: string, flags: string[], bundle: string): string {
  const compat = `compatibilityDate = "${date}",
  compatibilityFlags = [${flags.map((f) => JSON.stringify(f)).join(", ")}],`;
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .mcpWorker), (name = "probe", worker = .probeWorker) ],
  sockets = [
    (name = "http", address = "127.0.0.1:0", http = (), service = "main"),
    (name = "probe", address = "127.0.0.1:0", http = (), service = "probe"),
  ],
);

const mcpWorker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "${bundle}") ],
  ${compat}
);

const probeWorker :Workerd.Worker = (
  modules = [ (name = "probe.js", esModule = ${JSON.stringify(PROBE)}) ],
  ${compat}
);
`;
}

async function startWorkerd(
  name: string,
  date: string,
  flags: string[],
  bundle = "dist/worker.js",
): Promise<Running & { probe: string }> {
  const file = join(work, `${name}.capnp`);
  await writeFile(file, config(date, flags, bundle));
  const running = await startServer(WORKERD, ["serve", file, "--control-fd=3"], {
    cwd: work,
    controlFd: true,
    listening: /^(?=[\s\S]*"socket":"http","port":(\d+))(?=[\s\S]*"socket":"probe","port":(\d+))/,
    url: (m) => `http://127.0.0.1:${m[1]}/mcp|http://127.0.0.1:${m[2]}/`,
  });
  const [url, probe] = running.url.split("|") as [string, string];
  return { ...running, url, probe };
}

describe("the worker bundle", () => {
  it("is one ES module that imports nothing (no node: built-ins)", async () => {
    const code = await readText(built.file);
    expect(code).not.toMatch(/^\s*import\s|^\s*export\s+\*\s+from|\bimport\s*\(|\brequire\s*\(/m);
    expect(code).toMatch(/^export \{ \w+ as default \};?\s*$/m);
  });

  it('holds no auth code: the server has no auth option (docs/runtimes.md "Bundle size")', () => {
    const ids = Object.keys(built.modules);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id) => AUTH_MODULE.test(id))).toEqual([]);
    // Nor the Node-only entry points.
    expect(
      ids.filter((id) =>
        /\/packages\/typed-mcp\/dist\/(?:node|stdio|transports\/node-http|transports\/stdio)\.js$/.test(id),
      ),
    ).toEqual([]);
  });

  it('holds no tasks runtime: no tool of the fixture has the task option (docs/runtimes.md "Bundle size")', () => {
    const ids = Object.keys(built.modules);
    expect(ids.some((id) => id.endsWith("/packages/typed-mcp/dist/tasks/capabilities.js"))).toBe(true);
    expect(
      ids.filter((id) =>
        /\/packages\/typed-mcp\/dist\/(?:tasks\/(?:tasks|input|wire)|store\/shared-tasks)\.js$/.test(id),
      ),
    ).toEqual([]);
    // Nor the task store: the tasks runtime makes it (tasks/access.ts TaskSource); ctx.taskStatus's helper stays.
    const store = Object.entries(built.modules).find(([id]) => id.endsWith("/packages/typed-mcp/dist/tasks/store.js"));
    expect(store?.[1] ?? "").not.toMatch(/\bclass TaskStore\b/);
  });

  it("holds no RFC 6570 matcher: the fixture has no resource template (the SDK's UriTemplate is left out)", () => {
    const sdk = Object.entries(built.modules).filter(([id]) => id.includes("/@modelcontextprotocol/server/dist/"));
    expect(sdk.length).toBeGreaterThan(0);
    // The SDK's matcher class and its length bound (`MAX_TEMPLATE_LENGTH`) are in none of the SDK's rendered modules.
    for (const [id, code] of sdk) expect(code, id).not.toMatch(/\bclass UriTemplate\b|\bMAX_TEMPLATE_LENGTH\b/);
  });

  it("contains no eval / new Function in typed-mcp's runtime or the generated code", () => {
    const own = ownModules(built.modules);
    const ids = Object.keys(own);
    // The runtime modules and every fixture module, the generated readers and writers included.
    expect(ids.some((id) => id.endsWith("/packages/typed-mcp/dist/server.js"))).toBe(true);
    expect(ids.some((id) => id.endsWith("/packages/typed-mcp/dist/internal.js"))).toBe(true);
    const tools = Object.entries(own).find(([id]) => id.endsWith("/fixtures/src/tools.ts"));
    expect(tools?.[1]).toMatch(/defineTools\(this, \[/);
    for (const [id, code] of Object.entries(own)) expect(code, id).not.toMatch(CODE_GENERATION);
  });
});

// Without nodejs_compat. workerd 1.20261117 turns Node.js compatibility on by default from a
// compatibility date between 2026-08-01 and 2026-09-01 (measured), so this one is pinned to
// 2026-08-01: no `process`, no `node:` modules; the scenario checks diagnostics_channel is absent.
describe("workerd without nodejs_compat (compatibility date 2026-08-01, no flags)", () => {
  let server: (Running & { probe: string }) | undefined;
  beforeAll(async () => {
    server = await startWorkerd("plain", "2026-08-01", []);
  });
  afterAll(async () => {
    await server?.stop();
  });
  httpScenario({ url: () => server!.url, runtime: /^Cloudflare-Workers$/, diagnosticsChannel: false });

  refusesCodeGeneration(() => server!);
  checksOrigin(() => server!);
});

/**
 * server.fetch validates Origin on Workers too (Streamable HTTP "Security Warning": present and
 * invalid → 403; docs/security.md "Origin"): the fixture sets no allowedOrigins, so same host only.
 */
function checksOrigin(server: () => Running): void {
  const initialize = (origin: string) =>
    fetch(server().url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", origin },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "o", version: "1" } },
      }),
    });
  it("answers a foreign Origin 403 with the JSON-RPC error without id, and serves the Worker's own host", async () => {
    const foreign = await initialize("https://evil.example.com");
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message: "Forbidden: Origin https://evil.example.com is not allowed (McpServerOptions.allowedOrigins)",
      },
      id: null,
    });
    const own = await initialize(new URL(server().url).origin);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('"protocolVersion":"2025-11-25"');
  });
}

/** The answers above prove typed-mcp needs no eval only if the same settings refuse it. */
function refusesCodeGeneration(server: () => Running & { probe: string }): void {
  it("refuses code generation from strings there, and logged no refusal for typed-mcp", async () => {
    const answer = await (await fetch(server().probe)).text();
    expect(answer).toBe("EvalError: Code generation from strings disallowed for this context");
    expect(server().output()).not.toMatch(/EvalError|Code generation from strings/);
  });
}

describe("workerd with nodejs_compat (compatibility date 2026-11-01)", () => {
  let server: (Running & { probe: string }) | undefined;
  beforeAll(async () => {
    server = await startWorkerd("compat", "2026-11-01", ["nodejs_compat"]);
  });
  afterAll(async () => {
    await server?.stop();
  });
  httpScenario({ url: () => server!.url, runtime: /^Cloudflare-Workers$/, diagnosticsChannel: true });
  refusesCodeGeneration(() => server!);
});

describe("workerd, the worker built with esbuild instead of Vite (no nodejs_compat)", () => {
  let server: (Running & { probe: string }) | undefined;
  beforeAll(async () => {
    server = await startWorkerd("esbuild", "2026-08-01", [], "esbuild/worker.js");
  });
  afterAll(async () => {
    await server?.stop();
  });
  httpScenario({ url: () => server!.url, runtime: /^Cloudflare-Workers$/, diagnosticsChannel: false });
});
