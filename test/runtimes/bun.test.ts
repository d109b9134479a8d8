/**
 * Bun (npm `bun`): the fixture's Bun entry (`Bun.serve({ fetch: server.fetch })`), built with the
 * same worker-style Vite config as the Worker, run with `bun run`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, type Built } from "./build.js";
import { CODE_GENERATION, httpScenario, ownModules, startServer, type Running } from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const BUN = resolve(here, "../../node_modules/bun/bin/bun.exe");
const BUN_VERSION = "1.4.5";

let work: string;
let built: Built;
let server: Running | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-bun-"));
  built = await buildFixture("bun", "worker", join(work, "dist"));
  server = await startServer(BUN, ["run", built.file], {
    cwd: work,
    env: { PORT: "0", BUN_INSTALL_CACHE_DIR: join(work, "bun-cache"), NO_COLOR: "1" },
  });
});
afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe(`Bun ${BUN_VERSION}`, () => {
  it("the bundle has no eval / new Function in typed-mcp's runtime or the generated code", () => {
    const own = ownModules(built.modules);
    expect(Object.keys(own).some((id) => id.endsWith("/fixtures/src/bun.ts"))).toBe(true);
    for (const [id, code] of Object.entries(own)) expect(code, id).not.toMatch(CODE_GENERATION);
  });
  httpScenario({
    url: () => server!.url,
    runtime: new RegExp(`^Bun/${BUN_VERSION.replace(/\./g, "\\.")}$`),
    diagnosticsChannel: true,
  });
});
