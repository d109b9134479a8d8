/**
 * `npm create typed-mcp -- --runtime workers` (issue 11), with each bundler the Workers build
 * supports (vite, esbuild): installed with plain npm from the tarballs, built, and served by
 * workerd from npm (`npm start` = `workerd serve config.capnp`, on a free port through
 * `--socket-addr`), listed and called with the official client over Streamable HTTP.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exercise, freePort, httpClient, scaffold, sdkCopies, start, type Project, passedTests } from "./helpers.ts";

describe.each(["vite", "esbuild"] as const)("create-typed-mcp --bundler %s --runtime workers", (bundler) => {
  let project: Project;
  beforeAll(async () => {
    project = await scaffold(bundler, "workers", inject("packages"));
  });
  afterAll(() => project?.cleanup());

  it("builds one self-contained module (no imports) and type-checks without Node types", async () => {
    expect(project.manifest.scripts.start).toBe("workerd serve config.capnp");
    const tsconfig = JSON.parse(readFileSync(join(project.dir, "tsconfig.json"), "utf8")).compilerOptions;
    expect(tsconfig.types).toEqual([]);
    await project.npm("build");
    await project.npm("typecheck");
    const bundle = readFileSync(join(project.dir, "dist/server.js"), "utf8");
    expect(bundle.match(/^\s*import\s.*from\s*["'][^"']+["']/gm) ?? []).toEqual([]);
    expect(sdkCopies(bundle)).toEqual({ core: 1, server: 1 });
  });

  it("npm test: the scaffolded typed-mcp/testing tests pass under vitest (in Node), 3 of 3", async () => {
    expect(await passedTests(project)).toBe("3 passed (3)");
  });

  it("runs in workerd: lists and calls the tool, resource and prompt", async () => {
    const port = await freePort();
    // workerd prints no URL: wait for the socket, then connect.
    const server = start(project.dir, join(project.dir, "node_modules/.bin/workerd"), [
      "serve",
      "config.capnp",
      "--socket-addr",
      `http=127.0.0.1:${port}`,
      "--verbose",
    ]);
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    try {
      let client;
      for (let i = 0; client === undefined; i++) {
        try {
          client = await httpClient(url);
        } catch (e) {
          if (i > 100 || server.child.exitCode !== null)
            throw new Error(`workerd did not serve ${url}: ${(e as Error).message}\n${server.output()}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      try {
        await exercise(client);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });
});
