/**
 * Every bundler (and webpack a second time, with ts-loader on TypeScript 6) builds the same fixture server (test/bundlers/fixtures/server) with the
 * typed-mcp plugin, and webpack and Rspack once more with the loader entry `@typed-mcp/unplugin/loader`
 * instead of the plugin (`+loader`, the webpack-loader path Turbopack takes); each bundle is started over stdio and driven by the official
 * `@modelcontextprotocol/client`. All of them must list the hand-derived listing
 * (expected/tools.json, from the spec) byte for byte on the wire, answer the same calls with the
 * same bytes, map a tool's stack trace back to the TypeScript source, and fail the build on an
 * unsupported parameter type with the diagnostic's code and position. After every build, no
 * TypeScript sidecar may be left running. The full tier builds every bundle with every bundler;
 * the fast tier uses one bundler per plugin API (./build.ts `FAST_TIER_BUNDLERS`), reuses the
 * bundles of unchanged inputs (./cache.ts: keyed by content hash) and runs the sidecar check on
 * the builds that ran (always the failing ones).
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { bundlers, exists, tierBundlers } from "./build.ts";
import { cachedBuild } from "./cache.ts";
import { calls, explodeFrame } from "./calls.ts";
import { recordIncoming, type Raw } from "../helpers/wire.ts";
import { FULL } from "../helpers/tier.ts";

const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, "fixtures/server");
const unsupported = join(here, "fixtures/unsupported");
const expected = JSON.parse(await readFile(join(here, "expected/tools.json"), "utf8")) as { tools: unknown[] };
const names = tierBundlers(FULL);

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-bundlers-"));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * Live (non-zombie) child processes of this process that run the TypeScript 7 sidecar
 * (`…/@typescript/typescript-linux-x64/lib/tsc --api …`).
 */
function sidecars(): number[] {
  const pids: number[] = [];
  for (const task of readdirSync("/proc/self/task")) {
    let children = "";
    try {
      children = readFileSync(`/proc/self/task/${task}/children`, "utf8");
    } catch {
      continue;
    }
    for (const pid of children.split(" ").filter(Boolean).map(Number)) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        const state = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "")[0];
        const args = cmd.split("\0");
        if (/typescript/.test(args[0] ?? "") && args.includes("--api") && state !== "Z") pids.push(pid);
      } catch {
        /* gone meanwhile */
      }
    }
  }
  return pids;
}

/** Waits (up to 3 s) for the sidecars not in `before` to end; returns those still running. */
async function sidecarsLeft(before: readonly number[]): Promise<number[]> {
  const until = Date.now() + 3000;
  const started = () => sidecars().filter((pid) => !before.includes(pid));
  let left = started();
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    left = started();
  }
  return left;
}

/** Raw wire bytes of every listing and answer, per bundler: compared across bundlers at the end. */
const transcripts = new Map<string, string[]>();
const buildMs = new Map<string, number>();

describe.each(names)("%s", (name) => {
  let client: Client;
  let raw: Raw[];
  let stderr = "";
  let bundle: string;
  let sidecarsAfterBuild: number[];
  /** The bundle was reused from test/bundlers/cache.ts (fast tier): no build ran here. */
  let cached = false;

  beforeAll(async () => {
    const outDir = await mkdtemp(join(work, `${name}-`));
    const before = sidecars();
    const t0 = performance.now();
    ({ file: bundle, cached } = await cachedBuild(name, {
      root: fixture,
      entry: join(fixture, "src/server.ts"),
      outDir,
    }));
    if (!cached) buildMs.set(name, Math.round(performance.now() - t0));
    sidecarsAfterBuild = await sidecarsLeft(before);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--enable-source-maps", bundle],
      env: { PATH: process.env.PATH ?? "" },
      stderr: "pipe",
    });
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    raw = recordIncoming(transport);
    client = new Client({ name: `bundlers-${name}`, version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("closes the TypeScript sidecar when the build ends", (ctx) => {
    // A reused bundle had no build to watch; the full tier always builds (test/bundlers/cache.ts).
    if (cached) ctx.skip();
    expect(sidecarsAfterBuild).toEqual([]);
  });

  it("lists exactly the hand-derived listing, byte for byte", async () => {
    await client.listTools();
    const wire = raw.find((m) => m.result && Array.isArray(m.result.tools));
    expect(wire).toBeDefined();
    expect(JSON.stringify(wire!.result!.tools)).toBe(JSON.stringify(expected.tools));
    transcripts.set(name, [JSON.stringify(wire!.result)]);
  });

  it("answers valid calls, invalid arguments, a ToolError and an unexpected error as the spec says", async () => {
    for (const { name: tool, args, answer } of calls) {
      const before = raw.length;
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result, `${tool} ${JSON.stringify(args)}`).toEqual(answer);
      const wire = raw.slice(before).find((m) => m.result);
      transcripts.get(name)!.push(JSON.stringify(wire!.result));
    }
  });

  it("maps the stack trace of a tool's error to the TypeScript line (source maps)", async () => {
    // tools.ts line 38: `    throw new Error(\`exploded: ${reason}\`);` — `new` is at column 11.
    expect(await explodeFrame(client, () => stderr)).toBe(`${join(fixture, "src/tools.ts")}:38:11`);
  });
});

describe("every bundler", () => {
  it("lists and answers with the same bytes", () => {
    expect([...transcripts.keys()]).toEqual(names);
    const reference = transcripts.get(names[0]!)!;
    expect(reference).toHaveLength(1 + calls.length);
    for (const name of names) expect(transcripts.get(name), name).toEqual(reference);
    console.info(`bundlers: build times (ms) ${JSON.stringify(Object.fromEntries(buildMs))}`);
  });
});

describe.each(names)("%s with an unsupported parameter type", (name) => {
  it("fails the build with OMCG0005 at the parameter, writes no bundle, leaves no sidecar", async () => {
    const outDir = await mkdtemp(join(work, `${name}-fail-`));
    const file = join(unsupported, "src/server.ts");
    let error: unknown;
    let bundle: string | undefined;
    const before = sidecars();
    try {
      // The loader entry has no "build finished" hook: its sidecar ends `idleTimeoutMs` after the
      // last module (2 s by default); 200 ms here, so the check below waits for that, not the default.
      const options = name.endsWith("+loader") ? { idleTimeoutMs: 200 } : undefined;
      bundle = await bundlers[name]!({ root: unsupported, entry: file, outDir, options });
    } catch (e) {
      error = e;
    }
    expect(bundle).toBeUndefined();
    expect(error).toBeInstanceOf(Error);
    const text = String((error as Error).message);
    if (process.env.SHOW_BUILD_ERRORS) console.info(`${name}:\n${text}`);
    expect(text).toContain("OMCG0005");
    // `server.tool("either", (x: string | Date) => …)` on line 5: `x` is at column 24.
    expect(text).toContain(`${file}:5:24`);
    expect(text).toContain("'string | Date'");
    expect(exists(join(outDir, "server.mjs"))).toBe(false);
    expect(await sidecarsLeft(before)).toEqual([]);
  });
});

const profiled = join(here, "fixtures/profile");

describe.each(names)("%s with profile: openai-strict (spec §10 warnings, §11)", (name) => {
  const file = join(profiled, "src/server.ts");
  const warnings: string[] = [];
  let client: Client;
  beforeAll(async () => {
    const outDir = await mkdtemp(join(work, `${name}-profile-`));
    const { file: bundle } = await cachedBuild(name, {
      root: profiled,
      entry: file,
      outDir,
      options: { profile: "openai-strict" },
      warnings,
    });
    client = new Client({ name: `bundlers-profile-${name}`, version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [bundle], env: { PATH: process.env.PATH ?? "" } }),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  it("reports OMCW0001 and OMCW0002 through the bundler's own warning channel, as file:line:column - code: message", () => {
    const text = warnings.join("\n");
    // `server.tool("notes.search", …)` is the statement at line 5, `server.tool("find", …)` at line 6.
    expect(text).toContain(`${file}:5:1 - OMCW0001: Tool name 'notes.search' contains '.'`);
    expect(text).toContain(`${file}:6:1 - OMCW0002: Tool 'find' returns a T | null object-shaped result`);
  });

  it("lists every parameter required, the optional one nullable with its default in the description", async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "notes.search")!.inputSchema).toEqual({
      type: "object",
      properties: { query: { type: "string" }, limit: { type: ["number", "null"], description: "Default: 10." } },
      required: ["query", "limit"],
      additionalProperties: false,
    });
  });

  it("reads null for the optional parameter as absent: the default applies", async () => {
    expect(await client.callTool({ name: "notes.search", arguments: { query: "q", limit: null } })).toEqual({
      content: [{ type: "text", text: "q:10" }],
    });
    expect(await client.callTool({ name: "notes.search", arguments: { query: "q", limit: 3 } })).toEqual({
      content: [{ type: "text", text: "q:3" }],
    });
  });
});
