/**
 * `@typed-mcp/babel` (spec §0) builds the bundlers' fixture server (test/bundlers/fixtures/server)
 * three ways a Babel user would:
 * - `babel.config.js` (ESM, imports the plugin) + `transformFileAsync`, one `.js` file per module;
 * - `.babelrc` (JSON, options as strings) + `transformFileSync`: the plugin named
 *   `module:@typed-mcp/babel` (Babel would read a bare `@typed-mcp/babel` as
 *   `@typed-mcp/babel-plugin-babel`) and loaded with `require` (Node's require(esm));
 * - webpack 5 + `babel-loader`, one bundle, the plugin named in the loader options (loaded with
 *   `import()`).
 * Each output is run with `node --enable-source-maps` and driven by the official client: it must
 * list the hand-derived listing (test/bundlers/expected/tools.json, from the spec) byte for byte
 * on the wire, answer the calls the bundler builds answer with the answers the spec gives, and map
 * a tool's stack trace to the TypeScript line. A fixture with an unsupported parameter type fails
 * with OMCG0005 at the parameter (§10). The TypeScript sidecar never outlives a Babel process:
 * the `babel.config.js` build's process ends by itself right after its last transform.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transformFileAsync } from "@babel/core";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import typedMcpBabel from "@typed-mcp/babel";
import { recordIncoming, type Raw } from "../helpers/wire.ts";
import { childCommandLines } from "../helpers/processes.ts";
import { calls, explodeFrame } from "../bundlers/calls.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "../..");
const fixture = join(repo, "test/bundlers/fixtures/server");
const unsupported = join(repo, "test/bundlers/fixtures/unsupported");
const expected = JSON.parse(await readFile(join(repo, "test/bundlers/expected/tools.json"), "utf8")) as {
  tools: unknown[];
};

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-babel-"));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** What a build gives: the module to run, the `.ts` file a tool's stack must name, and facts about the Babel process. */
interface Built {
  entry: string;
  toolsTs: string;
  /** For child-process builds: sidecars alive when the last transform ended, and how long the process took to end after it. */
  child?: { sidecars: number[]; exitCode: number | null; exitDelayMs: number; stderr: string };
}

/** A copy of the fixture project in `work`, with `node_modules` linked to the workspace's. */
function project(name: string, config: { file: string; text: string }): string {
  const root = join(work, name);
  mkdirSync(root, { recursive: true });
  cpSync(join(fixture, "src"), join(root, "src"), { recursive: true });
  cpSync(join(fixture, "tsconfig.json"), join(root, "tsconfig.json"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: `babel-${name}`, private: true, type: "module" }));
  symlinkSync(join(repo, "node_modules"), join(root, "node_modules"), "dir");
  writeFileSync(join(root, config.file), config.text);
  return root;
}

/** Runs test/babel/runner.mjs on a project in its own Node process and waits for it to end by itself. */
function runBabelProcess(mode: "async" | "sync", root: string): Promise<Built> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, "runner.mjs"), mode, root], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("exit", (exitCode) => {
      const exitedAt = Date.now();
      clearTimeout(killer);
      const line = stdout.trim().split("\n").pop() ?? "";
      let report: { sidecars: number[]; finishedAt: number };
      try {
        report = JSON.parse(line);
      } catch {
        return reject(new Error(`runner printed no report (exit ${exitCode}):\n${stdout}\n${stderr}`));
      }
      resolve({
        entry: join(root, "out/server.js"),
        toolsTs: join(root, "src/tools.ts"),
        child: { sidecars: report.sidecars, exitCode, exitDelayMs: exitedAt - report.finishedAt, stderr },
      });
    });
  });
}

/** Runs a webpack compiler once; errors in its stats reject. */
function runCompiler(compiler: {
  run(
    cb: (
      err: Error | null,
      stats?: { hasErrors(): boolean; toJson(o: unknown): { errors?: { message: string }[] } },
    ) => void,
  ): void;
  close(cb: (err?: Error | null) => void): void;
}): Promise<void> {
  return new Promise((resolve, reject) => {
    compiler.run((err, stats) => {
      compiler.close(() => {
        if (err) return reject(err);
        if (stats?.hasErrors()) {
          const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
          return reject(new Error(errors.map((e) => e.message).join("\n")));
        }
        resolve();
      });
    });
  });
}

/** webpack 5 + babel-loader (preset-typescript + @typed-mcp/babel), configured as docs/bundlers.md shows. */
async function webpackBabel(root: string, entry: string, outDir: string): Promise<string> {
  const { default: webpackFn } = await import("webpack");
  const compiler = webpackFn({
    context: root,
    mode: "production",
    target: "node20",
    entry,
    devtool: "source-map",
    output: {
      path: outDir,
      filename: "server.mjs",
      module: true,
      chunkFormat: "module",
      library: { type: "module" },
      devtoolModuleFilenameTemplate: "[absolute-resource-path]",
    },
    experiments: { outputModule: true },
    optimization: { minimize: false },
    resolve: { extensions: [".ts", ".js", ".mjs", ".json"], extensionAlias: { ".js": [".ts", ".js"] } },
    module: {
      rules: [
        {
          test: /\.[cm]?ts$/,
          exclude: /node_modules/,
          use: {
            loader: "babel-loader",
            options: {
              babelrc: false,
              configFile: false,
              presets: ["@babel/preset-typescript"],
              // A short idle timeout so that the test can see the sidecar end soon after the build.
              plugins: [["module:@typed-mcp/babel", { idleTimeoutMs: 300 }]],
              sourceMaps: true,
            },
          },
        },
      ],
    },
    infrastructureLogging: { level: "none" },
    stats: "none",
  } as never);
  await runCompiler(compiler as never);
  return join(outDir, "server.mjs");
}

const sidecarsOfThisProcess = () => childCommandLines().filter((c) => /typescript/.test(c) && / --api( |$)/.test(c));

const builds: Record<string, () => Promise<Built>> = {
  "babel.config.js + transformFileAsync": () =>
    runBabelProcess(
      "async",
      project("config-async", {
        file: "babel.config.js",
        text: `import typedMcp from "@typed-mcp/babel";\nexport default { presets: ["@babel/preset-typescript"], plugins: [typedMcp] };\n`,
      }),
    ),
  ".babelrc + transformFileSync": () =>
    runBabelProcess(
      "sync",
      project("babelrc-sync", {
        file: ".babelrc",
        text: JSON.stringify({
          presets: ["@babel/preset-typescript"],
          plugins: [["module:@typed-mcp/babel", { include: "\\.ts$" }]],
        }),
      }),
    ),
  "webpack + babel-loader": async () => {
    const outDir = await mkdtemp(join(work, "webpack-"));
    return {
      entry: await webpackBabel(fixture, join(fixture, "src/server.ts"), outDir),
      toolsTs: join(fixture, "src/tools.ts"),
    };
  },
};

describe.each(Object.keys(builds))("%s", (name) => {
  let built: Built;
  let client: Client;
  let raw: Raw[];
  let stderr = "";

  beforeAll(async () => {
    built = await builds[name]!();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--enable-source-maps", built.entry],
      env: { PATH: process.env.PATH ?? "" },
      stderr: "pipe",
    });
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    raw = recordIncoming(transport);
    client = new Client({ name: `babel-${name}`, version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("lists exactly the hand-derived listing, byte for byte", async () => {
    await client.listTools();
    const wire = raw.find((m) => m.result && Array.isArray(m.result.tools));
    expect(wire).toBeDefined();
    expect(JSON.stringify(wire!.result!.tools)).toBe(JSON.stringify(expected.tools));
  });

  it("answers the bundler test's calls as the spec says", async () => {
    for (const { name: tool, args, answer } of calls) {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result, `${tool} ${JSON.stringify(args)}`).toEqual(answer);
    }
  });

  it("maps the stack trace of a tool's error to the TypeScript line (source maps)", async () => {
    // tools.ts line 38: `    throw new Error(\`exploded: ${reason}\`);` — `new` is at column 11.
    expect(await explodeFrame(client, () => stderr)).toBe(`${built.toolsTs}:38:11`);
  });

  it("leaves no TypeScript sidecar running once Babel is done", async () => {
    if (built.child) {
      // The sidecar was still warm when the last file was done (the idle timer had not fired)…
      expect(built.child.sidecars.length, built.child.stderr).toBeGreaterThan(0);
      // …yet the process ended by itself, promptly, with success…
      expect(built.child.exitCode, built.child.stderr).toBe(0);
      expect(built.child.exitDelayMs).toBeLessThan(1500);
      // …and took its sidecar with it.
      const alive = (pid: number) =>
        existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      const until = Date.now() + 3000;
      while (built.child.sidecars.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(built.child.sidecars.filter(alive)).toEqual([]);
    } else {
      // In a long-lived process (webpack here) the sidecar ends after the idle timeout (300 ms).
      const until = Date.now() + 3000;
      while (sidecarsOfThisProcess().length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(sidecarsOfThisProcess()).toEqual([]);
    }
  });
});

describe("an unsupported parameter type", () => {
  const file = join(unsupported, "src/server.ts");

  it("fails transformFileAsync with OMCG0005 at the parameter (file:line:column, code, loc)", async () => {
    let error: (Error & { code?: string; loc?: unknown }) | undefined;
    try {
      await transformFileAsync(file, {
        configFile: false,
        babelrc: false,
        presets: ["@babel/preset-typescript"],
        plugins: [typedMcpBabel],
        highlightCode: false,
      });
    } catch (e) {
      error = e as Error;
    }
    expect(error).toBeInstanceOf(Error);
    // `server.tool("either", (x: string | Date) => …)` on line 5: `x` is at column 24.
    expect(error!.message).toContain(`${file}:5:24 - OMCG0005: `);
    expect(error!.message).toContain("'string | Date'");
    expect(error!.code).toBe("OMCG0005");
    expect(error!.loc).toEqual({ line: 5, column: 23 });
  });

  it("fails the webpack + babel-loader build with the diagnostic and writes no bundle", async () => {
    const outDir = await mkdtemp(join(work, "webpack-fail-"));
    let error: unknown;
    try {
      await webpackBabel(unsupported, file, outDir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    const text = (error as Error).message;
    expect(text).toContain(`${file}:5:24 - OMCG0005: `);
    expect(existsSync(join(outDir, "server.mjs"))).toBe(false);
  });
});
