// Generated benchmark projects of `pnpm bench` (issue 12 rows "generated code per tool", "Vite
// bundle", "warm-cache vite build", "watch edit loop", "IPC round trips", "Worker bundle"): N
// tools over ⌈N/10⌉ modules of 10, each taking one of ⌈N/10⌉ shared 6-field types (so each type
// is used by 10 tools) and an `Int`, in two flavours written as their authors would:
// - `typed`: typed-mcp `@tool()` methods with TypeScript interfaces (built with the plugin);
// - `zod`: the official SDK's `McpServer.registerTool` with zod 4 schemas behind `createMcpHandler`.
// Both servers export `{ fetch }` (the Worker shape); the Vite configuration is the one
// docs/runtimes.md shows (test/runtimes/build.ts), repository aliases aside.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realEdit, writeRealProject } from "./project-real.mjs";

/** Conditions of the worker-style build (the SDK's `workerd` shims), as test/runtimes/build.ts. */
const WORKER_CONDITIONS = ["workerd", "worker", "browser", "module", "import", "default"];

/** How many shared types a project of `n` tools has (each used by 10 tools, or all by one type). */
export const typeCount = (n) => Math.max(1, Math.ceil(n / 10));

/** The text of the shared types module; `variant` 1 changes `Shape0.count` (the watch edit). */
export function typesModule(flavor, n, variant = 0) {
  const lines = [];
  if (flavor === "typed") {
    lines.push(`import type { Int } from "typed-mcp";`);
    for (let k = 0; k < typeCount(n); k++) {
      const count = k === 0 && variant === 1 ? "number" : "Int";
      lines.push(
        `/** Shape ${k}. */`,
        `export interface Shape${k} {`,
        `  id: string;`,
        `  count: ${count};`,
        `  ratio: number;`,
        `  active: boolean;`,
        `  tags: string[];`,
        `  note?: string;`,
        `}`,
      );
    }
  } else {
    lines.push(`import { z } from "zod";`);
    for (let k = 0; k < typeCount(n); k++) {
      const count = k === 0 && variant === 1 ? "z.number()" : "z.int()";
      lines.push(
        `/** Shape ${k}. */`,
        `export const Shape${k} = z.object({ id: z.string(), count: ${count}, ratio: z.number(), active: z.boolean(), tags: z.array(z.string()), note: z.string().optional() });`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

/** The text of tool module `m` (tools `10m … 10m+9`, fewer in a project below 10 tools). */
function toolsModule(flavor, n, m) {
  const ids = [];
  for (let i = m * 10; i < Math.min(n, m * 10 + 10); i++) ids.push(i);
  const shapes = [...new Set(ids.map((i) => `Shape${i % typeCount(n)}`))];
  if (flavor === "typed") {
    const methods = ids.map(
      (i) =>
        `  /**\n   * Tool ${i}.\n   * @param input The input.\n   * @param limit The limit.\n   */\n  @tool()\n  tool${i}(input: Shape${i % typeCount(n)}, limit: Int): string {\n    return input.id + limit;\n  }`,
    );
    return `import { tool, type Int } from "typed-mcp";\nimport type { ${shapes.join(", ")} } from "./types.js";\n\nexport class Tools${m} {\n${methods.join("\n\n")}\n}\n`;
  }
  const calls = ids.map(
    (i) =>
      `  server.registerTool("tool${i}", { description: "Tool ${i}.", inputSchema: z.object({ input: Shape${i % typeCount(n)}.describe("The input."), limit: z.int().describe("The limit.") }) }, async ({ input, limit }) => ({ content: [{ type: "text", text: input.id + limit }] }));`,
  );
  return `import { z } from "zod";\nimport type { McpServer } from "@modelcontextprotocol/server";\nimport { ${shapes.join(", ")} } from "./types.js";\n\nexport function register${m}(server: McpServer): void {\n${calls.join("\n")}\n}\n`;
}

/** The server entry of a project of `modules` tool modules. */
function serverModule(flavor, modules) {
  const ms = Array.from({ length: modules }, (_, m) => m);
  if (flavor === "typed") {
    return `import { McpServer } from "typed-mcp";\n${ms.map((m) => `import { Tools${m} } from "./tools${m}.js";`).join("\n")}\n\nexport const server = new McpServer({ name: "bench", version: "1.0.0" });\n${ms.map((m) => `server.addTools(new Tools${m}());`).join("\n")}\nexport default { fetch: server.fetch };\n`;
  }
  return `import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";\n${ms.map((m) => `import { register${m} } from "./tools${m}.js";`).join("\n")}\n\nconst handler = createMcpHandler(() => {\n  const server = new McpServer({ name: "bench", version: "1.0.0" });\n${ms.map((m) => `  register${m}(server);`).join("\n")}\n  return server;\n});\nexport default { fetch: handler.fetch };\n`;
}

/** Writes `dir`'s `tsconfig.json`, whose `paths` point `typed-mcp` at the workspace build. */
function writeBase(root, dir) {
  mkdirSync(join(dir, "src"), { recursive: true });
  const runtime = join(root, "packages/typed-mcp/dist");
  const tsconfig = {
    compilerOptions: {
      target: "es2022",
      module: "esnext",
      moduleResolution: "bundler",
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      lib: ["es2023"],
      types: [],
      paths: { "typed-mcp": [join(runtime, "index.d.ts")], "typed-mcp/*": [join(runtime, "*.d.ts")] },
    },
    include: ["src"],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
}

/**
 * Writes a project of `n` tools in `dir`: `shape` "simple" (`src/types.ts`, `src/tools<m>.ts`,
 * `src/server.ts`) or "real" (scripts/bench/project-real.mjs: domain files under src/domain), and
 * `tsconfig.json`. @returns the tool module paths (absolute).
 */
export function writeProject(root, dir, flavor, n, shape = "simple") {
  if (shape === "real") return writeRealProject(dir, flavor, n, { writeBase: (d) => writeBase(root, d), serverModule });
  const modules = Math.ceil(n / 10);
  writeBase(root, dir);
  writeFileSync(join(dir, "src/types.ts"), typesModule(flavor, n));
  const files = [];
  for (let m = 0; m < modules; m++) {
    const file = join(dir, `src/tools${m}.ts`);
    writeFileSync(file, toolsModule(flavor, n, m));
    files.push(file);
  }
  writeFileSync(join(dir, "src/server.ts"), serverModule(flavor, modules));
  return files;
}

/** The watch loop's edit: `[path under the project, text]` of the module holding the type 10 tools use, in `variant` 0 or 1. */
export function editedModule(shape, flavor, n, variant) {
  return shape === "real" ? realEdit(flavor, variant) : ["src/types.ts", typesModule(flavor, n, variant)];
}

/**
 * The Vite configuration of a benchmark build of the project in `dir`.
 * @param {{ root: string, dir: string, flavor: "typed" | "zod", target: "node" | "worker", minify: boolean, watch?: boolean, typedMcp: Function }} o
 */
export function viteConfig({ root, dir, flavor, target, minify, watch, typedMcp }) {
  const runtime = join(root, "packages/typed-mcp");
  // The SDK is typed-mcp's dependency (the zod flavour imports it as an application would). The
  // alias names the file its `exports` map gives an ES import: a bare directory would resolve to
  // the package's `main` (its CommonJS build), bundling the SDK twice and nothing tree-shaken.
  const sdkDir = realpathSync(join(runtime, "node_modules/@modelcontextprotocol/server"));
  const sdkEntry = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")).exports["."].import.default;
  const alias = [
    { find: /^typed-mcp$/, replacement: join(runtime, "dist/index.js") },
    { find: /^typed-mcp\/(internal|stdio|node|auth)$/, replacement: join(runtime, "dist/$1.js") },
    { find: /^@modelcontextprotocol\/server$/, replacement: join(sdkDir, sdkEntry) },
  ];
  return {
    root: dir,
    configFile: false,
    logLevel: "silent",
    plugins: flavor === "typed" ? [typedMcp({ cache: { dir: join(dir, ".typed-mcp-cache") } })] : [],
    resolve: { alias },
    build: {
      ssr: "src/server.ts",
      outDir: join(dir, `dist-${target}`),
      target: target === "worker" ? "es2022" : "node20",
      minify,
      emptyOutDir: true,
      ...(watch ? { watch: {} } : {}),
      rollupOptions: { output: { entryFileNames: "server.js" } },
    },
    ssr:
      target === "worker"
        ? { target: "webworker", noExternal: true, resolve: { conditions: WORKER_CONDITIONS } }
        : { noExternal: true },
  };
}
