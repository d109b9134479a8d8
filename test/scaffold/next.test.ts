/**
 * `create-typed-mcp --bundler next` with real Next.js 16.4.6 from npm (issue 21), installed with
 * plain npm from the packed tarballs: `next build` (Turbopack) and `next build --webpack`, each
 * served by `next start` on a loopback port, where the official client lists and calls at
 * /api/mcp on 2025-11-25 and on 2026-07-28, the listing's bytes equal to the Vite build of the
 * same src/server.ts, and the edge-runtime copy of the route answers the same listing; then
 * `next dev` in both modes: an edit to an interface in a file the tool module imports changes
 * the next tools/list without a restart, and a build error shows in Next's output as
 * `file:line:column - OMCG0005`. NEXT_TELEMETRY_DISABLED=1 (the scripts and here); nothing
 * fetches from the network at build time.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exercise, scaffold, start, type Project, type Started } from "./helpers.ts";

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

let project: Project;
/** The bytes of the tools/list answer of the Vite build of the project's src/server.ts. */
let viteListing: string;

beforeAll(async () => {
  project = await scaffold("next", "node", inject("packages"));
  const dir = project.dir;
  // The edge-runtime copy of the route.
  const route = readFileSync(join(dir, "src/app/api/mcp/route.ts"), "utf8");
  mkdirSync(join(dir, "src/app/api/mcp-edge"));
  writeFileSync(join(dir, "src/app/api/mcp-edge/route.ts"), `${route}export const runtime = "edge";\n`);
  // The Vite build of the same sources (the workspace's Vite and plugin; typed-mcp from the project).
  const { build } = await import("vite");
  const { default: typedMcp } = await import("@typed-mcp/unplugin/vite");
  const out = mkdtempSync(join(dir, "vite-out-"));
  await build({
    root: dir,
    configFile: false,
    logLevel: "silent",
    plugins: [typedMcp()],
    build: { ssr: join(dir, "src/server.ts"), outDir: out, target: "node20", emptyOutDir: true, minify: false },
    ssr: { noExternal: true },
  });
  const mod = (await import(pathToFileURL(join(out, "server.js")).href)) as {
    createServer(): { fetch(r: Request): Promise<Response> };
  };
  viteListing = dataOf(await (await mod.createServer().fetch(new Request("http://127.0.0.1/mcp", LIST))).text());
  rmSync(out, { recursive: true, force: true });
}, 600_000);
afterAll(() => project?.cleanup());

/** Runs `npx next <args>` in the project; resolves with its output, rejects with it on failure. */
async function next(...args: string[]): Promise<string> {
  const s = start(project.dir, "npx", ["next", ...args], ENV);
  const code = await new Promise<number | null>((r) => s.child.once("exit", (c) => r(c)));
  if (code !== 0) throw new Error(`next ${args.join(" ")} exited with ${code}:\n${s.output()}`);
  return s.output();
}

/** Starts `npx next <args> -H 127.0.0.1 -p 0` and resolves with the server and its URL once it printed it. */
async function serve(...args: string[]): Promise<Started & { base: string }> {
  const s = start(project.dir, "npx", ["next", ...args, "-H", "127.0.0.1", "-p", "0"], ENV);
  for (let waited = 0; waited < 120_000; waited += 100) {
    const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(s.output());
    if (m && /Ready in/.test(s.output())) return { ...s, base: m[0] };
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

describe.each([
  ["next build (Turbopack)", []],
  ["next build --webpack", ["--webpack"]],
])("%s, then next start", (_name, flags) => {
  let server: (Started & { base: string }) | undefined;
  beforeAll(async () => {
    await next("build", ...flags);
    server = await serve("start");
  }, 600_000);
  afterAll(() => server?.stop());

  it("lists at /api/mcp the bytes the Vite build lists, and the edge route the same", async () => {
    expect(await listBytes(`${server!.base}/api/mcp`)).toBe(viteListing);
    expect(await listBytes(`${server!.base}/api/mcp-edge`)).toBe(viteListing);
  });

  it("the official client lists and calls the tool, resource and prompt on 2025-11-25", async () => {
    const c = await client(`${server!.base}/api/mcp`, false);
    try {
      await exercise(c);
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
    server = await serve("dev", ...flags);
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
    const after = await until((a) => a.includes('"description":"The text of the note."'));
    expect(after).not.toContain("The note's text.");
  });

  it("shows a build error in Next's output as file:line:column - OMCG0005", async () => {
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
    await until((a) => a.includes('"name":"add_note"'));
  });
});
