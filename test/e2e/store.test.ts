/**
 * The playground store across processes (issue 13 item 10): Vite builds the playground bundle
 * (test/helpers/build-cache.ts: reused in the fast tier when its inputs are unchanged);
 * real server processes on one MEMORY_FILE_PATH, driven over stdio by the official client.
 * Two processes writing at once lose no acknowledged write; writers killed with SIGKILL leave no
 * `*.tmp` behind once the next write ran and never a corrupt file; names stay unique.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { FULL } from "../helpers/tier.ts";
import { cachedServerBuild } from "../helpers/build-cache.ts";

/** Writers killed: 6 in the full tier, 3 in the fast one (docs/contributing.md "Test tiers"). */
const KILL_ROUNDS = FULL ? 6 : 3;
/** A killed writer's lock is taken over after proper-lockfile's shortest stale time (playground/src/store.ts). */
const LOCK_STALE_MS = "2000";
let work: string;
let bundle: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-store-"));
  bundle = await cachedServerBuild("playground");
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function connect(dataFile: string): Promise<Client> {
  const client = new Client({ name: "store-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bundle],
      env: { PATH: process.env.PATH ?? "", MEMORY_FILE_PATH: dataFile, MEMORY_LOCK_STALE_MS: LOCK_STALE_MS },
      stderr: "pipe",
    }),
  );
  return client;
}

const entity = (name: string) => ({ name, entityType: "test", observations: [] });
const stored = async (file: string) =>
  JSON.parse(await readFile(file, "utf8")) as { entities: Array<{ name: string }> };

describe("playground store", () => {
  it("two processes writing one file at once keep every acknowledged write", async () => {
    const file = join(work, "two.json");
    const [a, b] = await Promise.all([connect(file), connect(file)]);
    try {
      const acknowledged: string[] = [];
      await Promise.all(
        (["a", "b"] as const).flatMap((who, k) =>
          Array.from({ length: 40 }, async (_, i) => {
            const name = `${who}${i}`;
            const result = await (k === 0 ? a : b).callTool({
              name: "create_entities",
              arguments: { entities: [entity(name)] },
            });
            if (!result.isError) acknowledged.push(name);
          }),
        ),
      );
      expect(acknowledged).toHaveLength(80);
      expect(new Set((await stored(file)).entities.map((e) => e.name))).toEqual(new Set(acknowledged));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 120_000);

  it("a name repeated within one create_entities call is stored once", async () => {
    const file = join(work, "unique.json");
    const client = await connect(file);
    try {
      const result = await client.callTool({
        name: "create_entities",
        arguments: { entities: [entity("x"), entity("x"), entity("y")] },
      });
      expect(result.structuredContent).toEqual({ created: [entity("x"), entity("y")] });
      expect((await stored(file)).entities.map((e) => e.name)).toEqual(["x", "y"]);
    } finally {
      await client.close();
    }
  });

  it("writers killed with SIGKILL mid-write: no *.tmp left after the next write, the file stays a graph, acknowledged writes kept", async () => {
    const dir = await mkdtemp(join(work, "kill-"));
    const file = join(dir, "memory.json");
    const acknowledged: string[] = [];
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const child = spawn(process.execPath, [bundle], {
        env: { PATH: process.env.PATH ?? "", MEMORY_FILE_PATH: file, MEMORY_LOCK_STALE_MS: LOCK_STALE_MS },
        stdio: ["pipe", "pipe", "pipe"],
      });
      child.stdout.setEncoding("utf8");
      let out = "";
      child.stdout.on("data", (d: string) => (out += d));
      const write = (m: unknown) => child.stdin.write(JSON.stringify(m) + "\n");
      write({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "k", version: "1" } },
      });
      write({ jsonrpc: "2.0", method: "notifications/initialized" });
      for (let i = 1; i <= 200; i++)
        write({
          jsonrpc: "2.0",
          id: i,
          method: "tools/call",
          params: { name: "create_entities", arguments: { entities: [entity(`r${round}e${i}`)] } },
        });
      // Killed mid-stream, whatever the machine's load: once the first call was answered (the
      // process is up and writing), then a little later each round, with ~200 writes still queued.
      await new Promise<void>((r, reject) => {
        const timer = setTimeout(() => reject(new Error(`round ${round}: no answer in 60 s; stdout: ${out}`)), 60_000);
        const check = () => {
          if (/"id":[1-9]/.test(out)) {
            clearTimeout(timer);
            child.stdout.off("data", check);
            r();
          }
        };
        child.stdout.on("data", check);
        check();
      });
      await new Promise((r) => setTimeout(r, round * 15));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      for (const line of out.split("\n")) {
        if (line === "") continue;
        const m = JSON.parse(line);
        if (typeof m.id === "number" && m.id > 0 && m.result && !m.result.isError)
          acknowledged.push(`r${round}e${m.id}`);
      }
      // Never corrupt: absent (no write finished yet) or a graph that parses.
      if ((await readdir(dir)).includes("memory.json")) expect(Array.isArray((await stored(file)).entities)).toBe(true);
    }
    const client = await connect(file);
    try {
      await client.callTool({ name: "create_entities", arguments: { entities: [entity("after")] } });
    } finally {
      await client.close();
    }
    expect((await readdir(dir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    const names = new Set((await stored(file)).entities.map((e) => e.name));
    for (const name of acknowledged) expect(names.has(name)).toBe(true);
    expect(acknowledged.length).toBeGreaterThan(0);
  }, 120_000);
});
