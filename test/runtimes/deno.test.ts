/**
 * Deno (npm `deno`): the fixture's Deno entry (`Deno.serve(…, server.fetch)`), built with the same
 * worker-style Vite config as the Worker, run with `deno run --allow-net --allow-env`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, type Built } from "./build.js";
import { CODE_GENERATION, httpScenario, ownModules, startServer, type Running } from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const DENO = resolve(here, "../../node_modules/deno/deno");
const DENO_VERSION = "2.9.6";

let work: string;
let built: Built;
let server: Running | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-deno-"));
  built = await buildFixture("deno", "worker", join(work, "dist"));
  server = await startServer(
    DENO,
    ["run", "--no-config", "--no-prompt", "--allow-net=127.0.0.1", "--allow-env=PORT", built.file],
    {
      cwd: work,
      env: { PORT: "0", DENO_DIR: join(work, "deno-dir"), NO_COLOR: "1" },
    },
  );
});
afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe(`Deno ${DENO_VERSION}`, () => {
  it("the bundle has no eval / new Function in typed-mcp's runtime or the generated code", () => {
    const own = ownModules(built.modules);
    expect(Object.keys(own).some((id) => id.endsWith("/fixtures/src/deno.ts"))).toBe(true);
    for (const [id, code] of Object.entries(own)) expect(code, id).not.toMatch(CODE_GENERATION);
  });
  httpScenario({
    url: () => server!.url,
    runtime: new RegExp(`^Deno/${DENO_VERSION.replace(/\./g, "\\.")}$`),
    diagnosticsChannel: true,
  });
});
