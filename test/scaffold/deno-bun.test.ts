/**
 * `npm create typed-mcp -- --runtime deno|bun` (issue 11): installed with plain npm from the
 * tarballs, built with Vite, and served by the Deno and Bun binaries from the workspace's npm
 * packages (`deno` 2.9.6, `bun` 1.4.5 — a user has them on PATH), through `npm start`; listed and
 * called with the official client over Streamable HTTP.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exerciseHttp, root, scaffold, type Project, passedTests } from "./helpers.ts";

const PATH = `${join(root, "node_modules/.bin")}:${process.env.PATH ?? ""}`;

describe.each([
  ["deno", "deno run --allow-net=127.0.0.1 --allow-env=PORT dist/server.js"],
  ["bun", "bun run dist/server.js"],
] as const)("create-typed-mcp --bundler vite --runtime %s", (runtime, start) => {
  let project: Project;
  beforeAll(async () => {
    project = await scaffold("vite", runtime, inject("packages"));
  });
  afterAll(() => project?.cleanup());

  it("builds, type-checks, and serves Streamable HTTP with npm start", async () => {
    expect(project.manifest.scripts.start).toBe(start);
    await project.npm("build");
    await project.npm("typecheck");
    await exerciseHttp(project.dir, { PATH });
  });

  it("npm test: the scaffolded typed-mcp/testing tests pass, 3 of 3", async () => {
    expect(await passedTests(project)).toBe("3 passed (3)");
  });
});
