/**
 * The create-typed-mcp bin without installing (`--no-install`; the installs are in
 * test/scaffold, `pnpm test:scaffold`): what it writes for each choice, the errors for bad
 * choices, and that without a terminal it asks nothing (issue 11, docs/packaging.md).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../packages/create-typed-mcp/dist/bin.js", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "typed-mcp-create-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the bin with stdin not a terminal (a closed pipe), in `tmp`. */
function create(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: tmp, encoding: "utf8", input: "", timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const read = (dir: string, file: string) => readFileSync(join(tmp, dir, file), "utf8");

describe("create-typed-mcp --no-install", () => {
  it.each([
    ["vite", "vite.config.ts", "vite build", /sourcemap: true/],
    ["esbuild", "build.mjs", "node build.mjs", /sourcemap: true/],
    ["rollup", "rollup.config.js", "rollup -c", /sourcemap: true/],
    ["webpack", "webpack.config.js", "webpack", /devtool: "source-map"/],
    ["rspack", "rspack.config.mjs", "rspack build", /devtool: "source-map"/],
  ])(
    "--bundler %s writes the ES-module project, its config with source maps, and the scripts",
    (bundler, config, build, sourceMap) => {
      const r = create(`p-${bundler}`, "--bundler", bundler, "--runtime", "node", "--no-install");
      expect(r).toMatchObject({ status: 0, stderr: "" });
      const pkg = JSON.parse(read(`p-${bundler}`, "package.json"));
      expect(pkg.type).toBe("module");
      expect(pkg.scripts).toEqual({
        build,
        start: "node --enable-source-maps dist/server.js",
        dev: `typed-mcp dev src/server.ts --build "${build}" --start "node --enable-source-maps dist/server.js"`,
        typecheck: "tsc --noEmit",
        test: "vitest run",
      });
      expect(pkg.dependencies).toEqual({ "typed-mcp": "0.1.0" });
      expect(pkg.devDependencies).toMatchObject({
        "@typed-mcp/unplugin": "0.1.0",
        "@typed-mcp/cli": "0.1.0",
        typescript: "7.0.2",
        // npm test (issue 24): vitest with the Vite plugin, whatever the bundler.
        vite: "8.3.8",
        vitest: "4.1.12",
      });
      expect(read(`p-${bundler}`, "vitest.config.ts")).toContain("plugins: [typedMcp()]");
      expect(read(`p-${bundler}`, "src/server.test.ts")).toContain('from "typed-mcp/testing"');
      expect(read(`p-${bundler}`, config)).toMatch(sourceMap);
      const ts = JSON.parse(read(`p-${bundler}`, "tsconfig.json")).compilerOptions;
      expect({ strict: ts.strict, types: ts.types }).toEqual({ strict: true, types: ["node"] });
      const server = read(`p-${bundler}`, "src/server.ts");
      expect([/@tool\(\)/g, /@resource\(/g, /@prompt\(\)/g].map((re) => server.match(re)?.length)).toEqual([1, 1, 1]);
      expect(existsSync(join(tmp, `p-${bundler}`, "README.md"))).toBe(true);
      expect(existsSync(join(tmp, `p-${bundler}`, ".gitignore"))).toBe(true);
      expect(existsSync(join(tmp, `p-${bundler}`, "node_modules"))).toBe(false);
    },
  );

  it("--bundler next writes an App Router app: the route in one line, withTypedMcp, the next scripts without telemetry", () => {
    expect(create("n", "--bundler", "next", "--no-install")).toMatchObject({ status: 0, stderr: "" });
    const pkg = JSON.parse(read("n", "package.json"));
    expect(pkg.scripts).toEqual({
      build: "NEXT_TELEMETRY_DISABLED=1 next build",
      start: "NEXT_TELEMETRY_DISABLED=1 next start",
      dev: "NEXT_TELEMETRY_DISABLED=1 next dev",
      typecheck: "tsc --noEmit",
      test: "vitest run",
    });
    expect(pkg.dependencies).toEqual({ next: "16.4.6", react: "19.3.1", "react-dom": "19.3.1", "typed-mcp": "0.1.0" });
    expect(read("n", "next.config.ts")).toContain("export default withTypedMcp(nextConfig);");
    expect(read("n", "src/app/api/mcp/route.ts")).toContain(
      "export const { GET, POST, DELETE, OPTIONS, HEAD } = nextHandler(createServer());",
    );
    const server = read("n", "src/server.ts");
    expect([/@tool\(\)/g, /@resource\(/g, /@prompt\(\)/g].map((re) => server.match(re)?.length)).toEqual([1, 1, 1]);
    expect(existsSync(join(tmp, "n", "src/main.ts"))).toBe(false);
    // Nothing that fetches at build time (next/font/google and the like).
    expect(JSON.stringify(pkg) + read("n", "next.config.ts") + read("n", "src/app/api/mcp/route.ts")).not.toMatch(
      /next\/font|https?:/,
    );
    expect(read("n", ".gitignore")).toContain(".next/");
  });

  it("--store redis writes the wiring: @redis/client a dependency, src/main.ts reads STORE_URL through typed-mcp/redis and waits for storeReady", () => {
    expect(create("p-redis", "--store", "redis", "--no-install")).toMatchObject({ status: 0, stderr: "" });
    const pkg = JSON.parse(read("p-redis", "package.json"));
    expect(pkg.dependencies).toEqual({ "@redis/client": "6.3.1", "typed-mcp": "0.1.0" });
    const main = read("p-redis", "src/main.ts");
    expect(main).toContain('import { connectRedisStore } from "typed-mcp/redis";\n');
    expect(main).toContain(
      "const server = createServer(process.env.STORE_URL ? { store: await connectRedisStore(process.env.STORE_URL) } : {});\n",
    );
    expect(main).toContain("\nawait server.storeReady();\n");
    expect(read("p-redis", "src/server.ts")).toContain(
      'new McpServer({ name: "p-redis", version: "0.1.0", ...options })',
    );
    // The default (memory) entry has none of it, and no line left where the wiring would be.
    expect(create("p-memory", "--no-install").status).toBe(0);
    const plain = read("p-memory", "src/main.ts");
    expect(plain).not.toMatch(/STORE|redis|storeReady/);
    expect(plain).toContain('import { createServer } from "./server.js";\n\n// `npm start`');
    expect(plain).toContain("const server = createServer();\nif (");
    expect(JSON.parse(read("p-memory", "package.json")).dependencies).toEqual({ "typed-mcp": "0.1.0" });
  });

  it("--runtime workers --store durable-objects writes the wiring: src/main.ts exports McpObject and forwards to it, config.capnp and wrangler.toml bind it as STORE", () => {
    expect(
      create("w-do", "--bundler", "esbuild", "--runtime", "workers", "--store", "durable-objects", "--no-install"),
    ).toMatchObject({ status: 0, stderr: "" });
    const main = read("w-do", "src/main.ts");
    expect(main).toContain('import { mcpDurableObject, mcpWorker } from "typed-mcp/durable-objects";\n');
    expect(main).toContain("\nexport const McpObject = mcpDurableObject((store) => createServer({ store }));\n");
    expect(main).toContain("\nexport default mcpWorker();\n");
    const config = read("w-do", "config.capnp");
    expect(config).toContain(
      '  durableObjectNamespaces = [ (className = "McpObject", uniqueKey = "mcp-object", enableSql = true) ],\n',
    );
    expect(config).toContain('  bindings = [ (name = "STORE", durableObjectNamespace = "McpObject") ],\n');
    // Local storage on disk, as docs/scaling.md promises of a restart (found by a fresh-user check: it was
    // inMemory, so `npm start` again forgot every task); workerd needs the folder, which the project keeps.
    expect(config).toContain('  durableObjectStorage = (localDisk = "do-disk"),\n');
    expect(config).toContain(
      '    (name = "do-disk", disk = (path = ".workerd/durable-objects", writable = true))\n  ],\n',
    );
    expect(config).not.toContain("inMemory");
    expect(existsSync(join(tmp, "w-do", ".workerd/durable-objects/.gitkeep"))).toBe(true);
    expect(read("w-do", "README.md")).toContain(
      "\n## State (`--store durable-objects`)\n\nEvery request goes to one Durable Object, `McpObject` (`src/main.ts`)",
    );
    expect(read("w-do", "README.md")).toContain("keeps the object's storage in `.workerd/durable-objects/`");
    expect(read("w-do", ".gitignore")).toBe(
      "node_modules/\ndist/\n.workerd/durable-objects/*\n!.workerd/durable-objects/.gitkeep\n",
    );
    const wrangler = read("w-do", "wrangler.toml");
    expect(wrangler).toContain('name = "w-do"\nmain = "dist/server.js"\n');
    expect(wrangler).toContain('[[durable_objects.bindings]]\nname = "STORE"\nclass_name = "McpObject"\n');
    expect(wrangler).toContain('[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["McpObject"]\n');
    // No dependency beyond typed-mcp: the entry is part of it.
    expect(JSON.parse(read("w-do", "package.json")).dependencies).toEqual({ "typed-mcp": "0.1.0" });
    // Without --store the Workers project has none of it, and no line left where the wiring would be.
    expect(create("w-plain", "--bundler", "esbuild", "--runtime", "workers", "--no-install").status).toBe(0);
    expect(read("w-plain", "config.capnp")).not.toMatch(/STORE|durableObject/);
    expect(read("w-plain", "config.capnp")).toContain('  compatibilityDate = "2026-08-01",\n);\n');
    expect(read("w-plain", "config.capnp")).toContain('  services = [ (name = "main", worker = .mcpWorker) ],\n');
    expect(read("w-plain", ".gitignore")).toBe("node_modules/\ndist/\n");
    expect(read("w-plain", "README.md")).not.toMatch(/STORE|## State/);
    expect(read("w-plain", "README.md")).toContain("prints build diagnostics without bundling.\n\n## Tests\n");
    expect(existsSync(join(tmp, "w-plain", ".workerd"))).toBe(false);
    expect(existsSync(join(tmp, "w-plain", "wrangler.toml"))).toBe(false);
  });

  it("--runtime workers writes the workerd config and a tsconfig without Node types", () => {
    expect(create("w", "--bundler", "esbuild", "--runtime", "workers", "--no-install").status).toBe(0);
    expect(JSON.parse(read("w", "package.json")).scripts.start).toBe("workerd serve config.capnp");
    expect(read("w", "config.capnp")).toContain('embed "dist/server.js"');
    expect(JSON.parse(read("w", "tsconfig.json")).compilerOptions).toMatchObject({ types: [], lib: ["es2023", "dom"] });
    expect(read("w", "src/main.ts")).toContain("export default { fetch:");
  });

  it("asks nothing without a terminal: missing choices default to vite and node", () => {
    const r = create("d", "--no-install");
    expect(r.status).toBe(0);
    // The next steps name every script a new user runs first, npm test among them (a fresh-user check found it missing).
    expect(r.stdout).toBe(`Created ${join(tmp, "d")}. Next:\ncd d\nnpm install\nnpm test\nnpm run build\nnpm start\n`);
    expect(JSON.parse(read("d", "package.json")).scripts.build).toBe("vite build");
    expect(read("d", "src/main.ts")).toContain('from "typed-mcp/node"');
  });

  it("--packages DIR installs every typed-mcp package from its tarball there", () => {
    const dir = join(tmp, "tarballs");
    mkdirSync(dir);
    for (const n of [
      "typed-mcp",
      "typed-mcp-unplugin",
      "typed-mcp-cli",
      "typed-mcp-transform",
      "typed-mcp-extract",
      "typed-mcp-codegen",
      "typed-mcp-model",
    ])
      writeFileSync(join(dir, `${n}-0.1.0.tgz`), "");
    expect(create("t", "--packages", dir, "--no-install").status).toBe(0);
    const pkg = JSON.parse(read("t", "package.json"));
    expect(pkg.dependencies["typed-mcp"]).toBe("file:../tarballs/typed-mcp-0.1.0.tgz");
    expect(pkg.overrides["@typed-mcp/extract"]).toBe("file:../tarballs/typed-mcp-extract-0.1.0.tgz");
    expect(Object.keys(pkg.overrides)).toHaveLength(7);
  });

  it.each([
    [
      ["x1", "--bundler", "parcel"],
      1,
      "create-typed-mcp: --bundler 'parcel' is not one of: vite, esbuild, rollup, webpack, rspack, next.\n",
    ],
    [
      ["x2", "--runtime", "lambda"],
      1,
      "create-typed-mcp: --runtime 'lambda' is not one of: node, workers, deno, bun.\n",
    ],
    [
      ["x3", "--bundler", "rollup", "--runtime", "workers"],
      1,
      `create-typed-mcp: --runtime workers is scaffolded with --bundler vite or esbuild (the Workers build needs the SDK's "workerd" export condition), not rollup.\n`,
    ],
    [
      ["x5", "--bundler", "next", "--runtime", "workers"],
      1,
      "create-typed-mcp: --bundler next is scaffolded with --runtime node, not workers.\n",
    ],
    [
      ["x6", "--store", "postgres"],
      1,
      "create-typed-mcp: --store 'postgres' is not one of: memory, redis, durable-objects.\n",
    ],
    [
      ["x9", "--store", "durable-objects"],
      1,
      "create-typed-mcp: --store durable-objects is scaffolded for --runtime workers with a bundler other than next, not --runtime node: Durable Objects exist only on Cloudflare Workers (Node, Deno and Bun entries are not scaffolded with it).\n",
    ],
    [
      ["x10", "--runtime", "deno", "--store", "durable-objects"],
      1,
      "create-typed-mcp: --store durable-objects is scaffolded for --runtime workers with a bundler other than next, not --runtime deno: Durable Objects exist only on Cloudflare Workers (Node, Deno and Bun entries are not scaffolded with it).\n",
    ],
    [
      ["x7", "--runtime", "workers", "--store", "redis"],
      1,
      "create-typed-mcp: --store redis is scaffolded for --runtime node with a bundler other than next, not --runtime workers: Workers, Deno and Bun entries are not scaffolded with it (Workers have no TCP).\n",
    ],
    [
      ["x8", "--bundler", "next", "--store", "redis"],
      1,
      "create-typed-mcp: --store redis is scaffolded for --runtime node with a bundler other than next, not --bundler next: the Next.js app's route (src/app/api/mcp/route.ts) gets no store wiring; pass { store } to createServer there yourself (typed-mcp docs/scaling.md).\n",
    ],
    [
      ["x4", "--packages", "/nonexistent-typed-mcp"],
      1,
      "create-typed-mcp: --packages /nonexistent-typed-mcp: no typed-mcp-0.1.0.tgz there (run pnpm pack:all in the typed-mcp workspace).\n",
    ],
  ])("refuses %j with exit %i and a message naming the value", (args, status, stderr) => {
    expect(create(...args, "--no-install")).toMatchObject({ status, stderr });
    expect(existsSync(join(tmp, args[0]!))).toBe(false);
  });

  it("refuses an unknown flag (exit 2) and a folder that is not empty (exit 1)", () => {
    const r = create("--frob");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^create-typed-mcp: Unknown option '--frob'/);
    mkdirSync(join(tmp, "full"));
    writeFileSync(join(tmp, "full", "x"), "");
    expect(create("full", "--no-install")).toMatchObject({
      status: 1,
      stderr: "create-typed-mcp: 'full' exists and is not empty: choose a new folder.\n",
    });
  });
});

describe("create-typed-mcp in a terminal", () => {
  // A real pseudo-terminal from util-linux `script` (given a size: a 0-column terminal wraps every
  // character); keys are sent when each prompt has appeared.
  it.skipIf(!existsSync("/usr/bin/script"))(
    "asks for the folder, bundler and runtime with @clack/prompts",
    async () => {
      const child = spawn(
        "/usr/bin/script",
        ["-qfec", `stty cols 120 rows 40; ${process.execPath} ${BIN} --no-install`, "/dev/null"],
        { cwd: tmp, stdio: ["pipe", "pipe", "pipe"] },
      );
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (t: string) => (out += t));
      const when = async (text: string, keys: string) => {
        for (let waited = 0; !out.includes(text); waited += 50) {
          if (waited > 15_000) throw new Error(`no '${text}' prompt:\n${out}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        child.stdin.write(keys);
      };
      const exited = new Promise<number | null>((r) => child.once("exit", r));
      await when("Project folder", "asked\r");
      await when("Bundler", "\x1b[B\r"); // down once: esbuild
      await when("Runtime", "\r"); // node
      expect(await exited).toBe(0);
      expect(out).toContain("Done. Next:");
      expect(JSON.parse(read("asked", "package.json")).scripts).toMatchObject({
        build: "node build.mjs",
        start: "node --enable-source-maps dist/server.js",
      });
    },
  );
});
