/**
 * One build function per bundler, each configured the way docs/bundlers.md tells users to:
 * the typed-mcp plugin from `@typed-mcp/unplugin/<bundler>`, TypeScript stripped by the
 * bundler's usual tool, everything (typed-mcp, the MCP SDK, zod) bundled into one ES module for
 * Node with a source map. Each resolves with the bundle's path, or rejects with the bundler's
 * error text.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { builtinModules } from "node:module";

export interface BuildInput {
  /** The fixture project's directory (it holds tsconfig.json). */
  root: string;
  /** The entry module, absolute. */
  entry: string;
  /** Where to write the bundle. */
  outDir: string;
  /** The typed-mcp plugin's options (default: none). */
  options?: Record<string, unknown>;
  /** Receives the text of every warning the bundler reports (its own warning channel). */
  warnings?: string[];
}

export type Build = (input: BuildInput) => Promise<string>;

const OUT = "server.mjs";
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const vite: Build = async ({ root, entry, outDir, options, warnings = [] }) => {
  const { build } = await import("vite");
  const { default: typedMcp } = await import("@typed-mcp/unplugin/vite");
  await build({
    root,
    configFile: false,
    logLevel: "silent",
    plugins: [typedMcp(options as never)],
    build: {
      ssr: entry,
      outDir,
      target: "node20",
      sourcemap: true,
      emptyOutDir: true,
      minify: false,
      rollupOptions: { output: { entryFileNames: OUT }, onwarn: (w) => void warnings.push(w.message) },
    },
    ssr: { noExternal: true },
  });
  return join(outDir, OUT);
};

const rollup: Build = async ({ root, entry, outDir, options, warnings = [] }) => {
  const { rollup } = await import("rollup");
  const { default: typedMcp } = await import("@typed-mcp/unplugin/rollup");
  const { nodeResolve } = await import("@rollup/plugin-node-resolve");
  const { default: esbuild } = await import("rollup-plugin-esbuild");
  const bundle = await rollup({
    input: entry,
    external: nodeBuiltins,
    onwarn: (w) => void warnings.push(w.message),
    plugins: [
      typedMcp(options as never), // before the stripper: Rollup runs transforms in plugin order
      nodeResolve({ exportConditions: ["node"], preferBuiltins: true }),
      esbuild({ target: "node20", tsconfig: join(root, "tsconfig.json") }),
    ],
  });
  try {
    await bundle.write({ file: join(outDir, OUT), format: "es", sourcemap: true });
  } finally {
    await bundle.close();
  }
  return join(outDir, OUT);
};

const rolldown: Build = async ({ root, entry, outDir, options, warnings = [] }) => {
  const { rolldown } = await import("rolldown");
  const { default: typedMcp } = await import("@typed-mcp/unplugin/rolldown");
  const bundle = await rolldown({
    input: entry,
    cwd: root,
    platform: "node",
    onLog: (level, log) => void (level === "warn" && warnings.push(log.message)),
    plugins: [typedMcp(options as never)],
    tsconfig: join(root, "tsconfig.json"),
  });
  try {
    await bundle.write({ file: join(outDir, OUT), format: "es", sourcemap: true });
  } finally {
    await bundle.close();
  }
  return join(outDir, OUT);
};

const esbuild: Build = async ({ root, entry, outDir, options, warnings = [] }) => {
  const { build } = await import("esbuild");
  const { default: typedMcp } = await import("@typed-mcp/unplugin/esbuild");
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: join(outDir, OUT),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "silent",
    plugins: [typedMcp(options as never)],
  });
  for (const w of result.warnings) warnings.push(w.text);
  return join(outDir, OUT);
};

/** Runs a webpack-style compiler once and turns errors in its stats into a rejection. */
function runCompiler(
  compiler: {
    run(
      cb: (
        err: Error | null,
        stats?: {
          hasErrors(): boolean;
          toJson(o: unknown): { errors?: { message: string }[]; warnings?: { message: string }[] };
        },
      ) => void,
    ): void;
    close(cb: (err?: Error | null) => void): void;
  },
  warnings: string[] = [],
): Promise<void> {
  return new Promise((resolve, reject) => {
    compiler.run((err, stats) => {
      compiler.close(() => {
        if (err) return reject(err);
        if (stats?.hasErrors()) {
          const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
          return reject(new Error(errors.map((e) => e.message).join("\n")));
        }
        for (const w of stats?.toJson({ all: false, warnings: true }).warnings ?? []) warnings.push(w.message);
        resolve();
      });
    });
  });
}

const webpackLikeConfig = (root: string, entry: string, outDir: string, tsRule: object) => ({
  context: root,
  mode: "production" as const,
  target: "node20",
  entry,
  devtool: "source-map" as const,
  output: {
    path: outDir,
    filename: OUT,
    module: true,
    chunkFormat: "module" as const,
    library: { type: "module" as const },
    // Stack traces name the real file (the default is `webpack:///src/tools.ts`).
    devtoolModuleFilenameTemplate: "[absolute-resource-path]",
  },
  experiments: { outputModule: true },
  optimization: { minimize: false },
  resolve: { extensions: [".ts", ".js", ".mjs", ".json"], extensionAlias: { ".js": [".ts", ".js"] } },
  module: { rules: [tsRule] },
  infrastructureLogging: { level: "none" as const },
  stats: "none" as const,
});

const webpack: Build = async ({ root, entry, outDir, options, warnings = [] }) => {
  const { default: webpackFn } = await import("webpack");
  const { default: typedMcp } = await import("@typed-mcp/unplugin/webpack");
  const config = webpackLikeConfig(root, entry, outDir, {
    test: /\.[cm]?ts$/,
    exclude: /node_modules/,
    use: {
      loader: "swc-loader",
      options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, sourceMaps: true },
    },
  });
  const compiler = webpackFn({ ...config, plugins: [typedMcp(options as never)] } as never);
  await runCompiler(compiler as never, warnings);
  return join(outDir, OUT);
};

/** webpack with ts-loader, which needs the classic compiler API: TypeScript 6's. */
const webpackTsLoader: Build = async ({ root, entry, outDir, options, warnings = [] }) => {
  const { default: webpackFn } = await import("webpack");
  const { default: typedMcp } = await import("@typed-mcp/unplugin/webpack");
  const config = webpackLikeConfig(root, entry, outDir, {
    test: /\.[cm]?ts$/,
    exclude: /node_modules/,
    use: {
      loader: "ts-loader",
      options: {
        compiler: "@typescript/typescript6",
        transpileOnly: true,
        configFile: join(root, "tsconfig.json"),
        compilerOptions: { noEmit: false, sourceMap: true },
      },
    },
  });
  const compiler = webpackFn({ ...config, plugins: [typedMcp(options as never)] } as never);
  await runCompiler(compiler as never, warnings);
  return join(outDir, OUT);
};

const rspack: Build = async ({ root, entry, outDir, options, warnings = [] }) => {
  const { rspack: rspackFn } = await import("@rspack/core");
  const { default: typedMcp } = await import("@typed-mcp/unplugin/rspack");
  const config = webpackLikeConfig(root, entry, outDir, {
    test: /\.[cm]?ts$/,
    exclude: /node_modules/,
    loader: "builtin:swc-loader",
    options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" } },
    type: "javascript/auto",
  });
  const compiler = rspackFn({ ...config, plugins: [typedMcp(options as never)] } as never);
  await runCompiler(compiler as never, warnings);
  return join(outDir, OUT);
};

/**
 * The loader entry (`@typed-mcp/unplugin/loader`) in a webpack-loader host, without the plugin:
 * last in `use`, so it runs before the stripper (webpack: swc-loader; Rspack: its builtin SWC).
 */
const loaderPath = () => import.meta.resolve("@typed-mcp/unplugin/loader").replace(/^file:\/\//, "");

const webpackLoader: Build = async ({ root, entry, outDir, options, warnings = [] }) => {
  const { default: webpackFn } = await import("webpack");
  const config = webpackLikeConfig(root, entry, outDir, {
    test: /\.[cm]?ts$/,
    exclude: /node_modules/,
    use: [
      {
        loader: "swc-loader",
        options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, sourceMaps: true },
      },
      { loader: loaderPath(), options },
    ],
  });
  await runCompiler(webpackFn(config as never) as never, warnings);
  return join(outDir, OUT);
};

const rspackLoader: Build = async ({ root, entry, outDir, options, warnings = [] }) => {
  const { rspack: rspackFn } = await import("@rspack/core");
  const config = webpackLikeConfig(root, entry, outDir, {
    test: /\.[cm]?ts$/,
    exclude: /node_modules/,
    use: [
      { loader: "builtin:swc-loader", options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" } } },
      { loader: loaderPath(), options },
    ],
    type: "javascript/auto",
  });
  await runCompiler(rspackFn(config as never) as never, warnings);
  return join(outDir, OUT);
};

/** Every bundler the plugin supports, by name (the full tier builds the bundler tests' fixtures in each). */
export const bundlers: Record<string, Build> = {
  vite,
  rollup,
  rolldown,
  esbuild,
  webpack,
  "webpack+ts-loader": webpackTsLoader,
  rspack,
  "webpack+loader": webpackLoader,
  "rspack+loader": rspackLoader,
};

/**
 * The bundlers the fast tier builds test/bundlers' fixtures with (docs/contributing.md "Test
 * tiers", "Repeats on more bundlers"): one of each plugin API typed-mcp implements — Vite and
 * Rolldown (Rollup's hooks, with and without hook filters), esbuild, Rspack (webpack's compiler
 * hooks) and the loader entry on Rspack. Rollup, webpack, webpack with ts-loader and the loader on
 * webpack run the same checks in the full tier; in the fast tier their plugin entries are built by
 * their watch tests (test/watch/*.test.ts) and test/unplugin/loader.test.ts.
 */
const FAST_TIER_BUNDLERS = ["vite", "rolldown", "esbuild", "rspack", "rspack+loader"] as const;

/** The bundler names a tier's bundler tests build with: all of them in the full tier, {@link FAST_TIER_BUNDLERS} in the fast. */
export function tierBundlers(full: boolean): string[] {
  return Object.keys(bundlers).filter((name) => full || (FAST_TIER_BUNDLERS as readonly string[]).includes(name));
}

/** True when `file` exists (a failed build must not leave a bundle behind). */
export const exists = (file: string) => existsSync(file);
