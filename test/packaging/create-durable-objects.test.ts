/**
 * `create-typed-mcp --runtime workers --store durable-objects` runs (docs/packaging.md, docs/scaling.md
 * "Durable Objects"): the project the bin writes (`--no-install`), its src/main.ts bundled with the
 * options of its own build.mjs but the workspace's packages (esbuild with `@typed-mcp/unplugin`'s
 * esbuild entry, typed-mcp linked from packages/typed-mcp), served by workerd from npm on the
 * project's own config.capnp (only the socket moved to a free port), and exercised with the
 * official client: the requests reach the Durable Object `McpObject` through `mcpWorker()`, whose
 * server answers the scaffold's tool, resource and prompt as spec §1–§6 say (test/scaffold's
 * `exercise`). The installed build of the same project is the scaffold tier's.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { build as esbuild } from "esbuild";
import typedMcpEsbuild from "@typed-mcp/unplugin/esbuild";
import { RUNTIME_ALIASES, WORKERD_ESBUILD } from "../runtimes/build.ts";
import { startServer, type Running } from "../runtimes/helpers.ts";
import { exercise, httpClient } from "../scaffold/helpers.ts";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "../../packages/create-typed-mcp/dist/bin.js");
const WORKERD = resolve(here, "../../node_modules/workerd/bin/workerd");
const tmp = mkdtempSync(join(tmpdir(), "typed-mcp-create-do-"));
let server: Running | undefined;
afterAll(async () => {
  // SIGKILL: a workerd holding an open stream ignores SIGTERM.
  if (server && server.child.exitCode === null) process.kill(-server.child.pid!, "SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

it("the scaffolded Worker forwards to its Durable Object, whose server answers the tool, resource and prompt", async () => {
  const created = spawnSync(
    process.execPath,
    [BIN, "do-server", "--bundler", "esbuild", "--runtime", "workers", "--store", "durable-objects", "--no-install"],
    { cwd: tmp, encoding: "utf8", input: "" },
  );
  expect(created).toMatchObject({ status: 0, stderr: "" });
  const dir = join(tmp, "do-server");
  // In place of npm install: typed-mcp is the workspace's package (the plugin's type checker reads its declarations).
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(resolve(here, "../../packages/typed-mcp"), join(dir, "node_modules/typed-mcp"), "dir");
  await esbuild({
    absWorkingDir: dir,
    entryPoints: ["src/main.ts"],
    outfile: "dist/server.js",
    ...WORKERD_ESBUILD,
    alias: RUNTIME_ALIASES,
    plugins: [typedMcpEsbuild()],
  });
  server = await startServer(
    WORKERD,
    ["serve", "config.capnp", "--socket-addr", "http=127.0.0.1:0", "--control-fd=3"],
    {
      cwd: dir,
      controlFd: true,
      listening: /"socket":"http","port":(\d+)/,
      url: (m) => `http://127.0.0.1:${m[1]}/mcp`,
    },
  );
  const client = await httpClient(new URL(server.url));
  try {
    await exercise(client, "do-server");
  } finally {
    await client.close();
  }
});
