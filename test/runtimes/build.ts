// Vite builds of test/runtimes/fixtures with the typed-mcp plugin: the worker-style build (one ES
// module for workerd, Deno and Bun) and the Node build (as the playground's). The configs are the
// ones docs/runtimes.md shows; only the repository-local aliases (below) are test plumbing.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildOptions } from "esbuild";
import { build, type InlineConfig, type Rollup } from "vite";
import typedMcp from "@typed-mcp/unplugin/vite";

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURE = join(here, "fixtures");
const RUNTIME = resolve(here, "../../packages/typed-mcp");

/**
 * The fixture imports `typed-mcp` as an application would; inside this repository it is
 * resolved to the workspace package's build output (the tsconfig's `paths` do the same for the
 * type checker).
 */
/** The same, as esbuild's exact-specifier `alias` option. */
export const RUNTIME_ALIASES: Record<string, string> = {
  "typed-mcp": join(RUNTIME, "dist/index.js"),
  "typed-mcp/internal": join(RUNTIME, "dist/internal.js"),
  "typed-mcp/stdio": join(RUNTIME, "dist/stdio.js"),
  "typed-mcp/node": join(RUNTIME, "dist/node.js"),
  "typed-mcp/auth": join(RUNTIME, "dist/auth.js"),
  "typed-mcp/otel": join(RUNTIME, "dist/otel.js"),
  "typed-mcp/durable-objects": join(RUNTIME, "dist/durable-objects.js"),
};

/**
 * esbuild's options for one self-contained ES module for workerd (docs/runtimes.md "Without a
 * bundler"): the SDK's Workers build through the `workerd` condition. Add `entryPoints`,
 * `outfile` and, for typed-mcp code, `alias: RUNTIME_ALIASES` and the plugin.
 */
export const WORKERD_ESBUILD: BuildOptions = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["module", "main"],
  target: "es2022",
  logLevel: "silent",
};

const alias = [
  { find: /^typed-mcp$/, replacement: join(RUNTIME, "dist/index.js") },
  { find: /^typed-mcp\/(internal|stdio|node|auth|otel|durable-objects)$/, replacement: join(RUNTIME, "dist/$1.js") },
];

/**
 * Module ids of the OAuth resource server: typed-mcp's auth.js and auth/ (oauth.js, verify.js,
 * scopes.js, …), jose, oauth4webapi (bundled only through `typed-mcp/auth`; auth/option.js, the
 * option's check, is the main runtime's).
 */
export const AUTH_MODULE =
  /\/packages\/typed-mcp\/dist\/auth(?:\/(?:oauth|verify|scopes|jwt|token|introspection))?\.js$|\/node_modules\/(?:jose|oauth4webapi)\//;

/** Conditions of the worker-style build: the SDK's `workerd` shims (no `node:` imports, no ajv). */
const WORKER_CONDITIONS = ["workerd", "worker", "browser", "module", "import", "default"];

export type Target = "worker" | "node";

export interface Built {
  /** The bundle: one self-contained ES module. */
  file: string;
  /** Rendered code of each module in the bundle, by module id. */
  modules: Record<string, string>;
}

/**
 * Builds `src/<entry>.ts` of the fixture folder `root` (default: test/runtimes/fixtures) into
 * `<outDir>/<entry>.js`; `extraPlugins` run after the typed-mcp plugin (a test's resolve recorder).
 */
export async function buildFixture(
  entry: string,
  target: Target,
  outDir: string,
  root: string = FIXTURE,
  extraPlugins: NonNullable<InlineConfig["plugins"]> = [],
): Promise<Built> {
  const common: InlineConfig = {
    root,
    configFile: false,
    logLevel: "silent",
    plugins: [typedMcp(), ...extraPlugins],
    resolve: { alias },
  };
  const config: InlineConfig =
    target === "worker"
      ? {
          ...common,
          build: {
            ssr: `src/${entry}.ts`,
            outDir,
            target: "es2022",
            minify: false,
            emptyOutDir: true,
            rollupOptions: { output: { entryFileNames: `${entry}.js` } },
          },
          ssr: { target: "webworker", noExternal: true, resolve: { conditions: WORKER_CONDITIONS } },
        }
      : {
          ...common,
          build: {
            ssr: `src/${entry}.ts`,
            outDir,
            target: "node20",
            minify: false,
            emptyOutDir: true,
            rollupOptions: { output: { entryFileNames: `${entry}.js` } },
          },
          ssr: { noExternal: true },
        };
  const result = (await build(config)) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  const chunks = outputs.filter((o): o is Rollup.OutputChunk => o.type === "chunk");
  if (chunks.length !== 1) throw new Error(`expected one chunk, got ${chunks.map((c) => c.fileName).join(", ")}`);
  const modules: Record<string, string> = {};
  for (const [id, m] of Object.entries(chunks[0]!.modules)) modules[id] = m.code ?? "";
  return { file: join(outDir, chunks[0]!.fileName), modules };
}
