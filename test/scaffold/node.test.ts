/**
 * `npm create typed-mcp` for every bundler on Node (issue 11): the real create-typed-mcp bin
 * from its tarball writes the project into a temp folder outside the workspace and installs it
 * with plain npm from the packed tarballs (pinned bundler versions); then `npm run build`,
 * `npm run typecheck`, `npm test` (the scaffolded vitest tests), and the built server over stdio (`npm start -- --stdio`'s command) and
 * Streamable HTTP (`npm start`'s), listed and called with the official client.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exercise, exerciseHttp, passedTests, scaffold, sdkCopies, stdioClient, type Project } from "./helpers.ts";

const BUNDLERS = ["vite", "esbuild", "rollup", "webpack", "rspack"] as const;

describe.each(BUNDLERS)("create-typed-mcp --bundler %s --runtime node", (bundler) => {
  let project: Project;
  beforeAll(async () => {
    project = await scaffold(bundler, "node", inject("packages"));
  });
  afterAll(() => project?.cleanup());

  it("writes an ES-module project with the scripts, a strict tsconfig with types [node], and a source-mapped config", () => {
    expect(project.manifest.type).toBe("module");
    expect(Object.keys(project.manifest.scripts).sort()).toEqual(["build", "dev", "start", "test", "typecheck"]);
    expect(project.manifest.scripts.start).toBe("node --enable-source-maps dist/server.js");
    expect(project.manifest.scripts.dev).toMatch(/^typed-mcp dev src\/server\.ts --build /);
    const tsconfig = JSON.parse(readFileSync(join(project.dir, "tsconfig.json"), "utf8")).compilerOptions;
    expect({ strict: tsconfig.strict, types: tsconfig.types }).toEqual({ strict: true, types: ["node"] });
    // Every devDependency is an exact version or a tarball: the install is reproducible.
    for (const [name, v] of Object.entries(project.manifest.devDependencies))
      expect(v, name).toMatch(/^(\d+\.\d+\.\d+|file:.+\.tgz)$/);
  });

  it("builds with a source map and type-checks", async () => {
    await project.npm("build");
    expect(readFileSync(join(project.dir, "dist/server.js.map"), "utf8")).toContain("src/server.ts");
    await project.npm("typecheck");
  });

  it("npm test: vitest with the Vite plugin runs src/server.test.ts (typed-mcp/testing), 3 of 3 pass", async () => {
    expect(await passedTests(project)).toBe("3 passed (3)");
  });

  it("bundles exactly one copy of the MCP SDK (the app imports only typed-mcp)", () => {
    const bundle = readFileSync(join(project.dir, "dist/server.js"), "utf8");
    expect(sdkCopies(bundle)).toEqual({ core: 1, server: 1 });
    expect(readFileSync(join(project.dir, "src/server.ts"), "utf8")).not.toContain("@modelcontextprotocol/");
  });

  it("serves stdio: lists and calls the tool, resource and prompt", async () => {
    const client = await stdioClient(project.dir, "node", ["--enable-source-maps", "dist/server.js", "--stdio"]);
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it("serves Streamable HTTP: lists and calls the tool, resource and prompt", async () => {
    await exerciseHttp(project.dir);
  });
});
