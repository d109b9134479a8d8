/**
 * `@typed-mcp/unplugin`: the typed-mcp build plugin for every bundler unplugin supports.
 * Each bundler has a thin entry (`@typed-mcp/unplugin/vite`, …) whose default export is the
 * plugin factory.
 *
 * Pipeline per module (spec §1, §10): a cheap text filter → site finding and type extraction
 * (`@typed-mcp/extract`, one warm TypeScript checker per build) → code generation
 * (`@typed-mcp/codegen`) → splice with a source map. Diagnostics fail the build with file,
 * line, column and code.
 *
 * @packageDocumentation
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { createUnplugin, type UnpluginFactory, type UnpluginInstance } from "unplugin";
import { createExtractor, mayDeclareTools, type MeasuredExtractor, type TypeScriptChoice } from "@typed-mcp/extract";
import type { Diagnostic, ModuleModel } from "@typed-mcp/model";
import { spliceTools } from "./splice.js";
import { errorLocation } from "./frame.js";
import { FileHashes, ModelCache, tsconfigFor } from "./cache.js";

export { spliceTools, planSplice, RUNTIME_MODULE, type SpliceResult, type SplicePlan } from "./splice.js";

/** Options of the typed-mcp plugin. */
export interface TypedMcpOptions {
  /**
   * The tsconfig.json whose compiler options and files the type checker uses. Default: the
   * nearest `tsconfig.json` above each module. It must enable `strictNullChecks` (or `strict`).
   */
  tsconfig?: string;
  /**
   * Which TypeScript reads the types (see `@typed-mcp/extract`'s `ExtractorOptions.typescript`):
   * `"7.0"`, `"7.1"`, `"6"` (the classic API, also for 5.x) or a path to a TypeScript package
   * directory. Default: picked from the `typescript` the project has installed. Part of the
   * cache key. A choice that cannot be satisfied is an OMCG0000 build error.
   */
  typescript?: TypeScriptChoice;
  /** Modules to transform (matched against the module id). Default: `.ts`, `.mts`, `.cts`, `.tsx` files. */
  include?: RegExp | RegExp[];
  /** Modules to skip. Default: anything under `node_modules`. */
  exclude?: RegExp | RegExp[];
  /**
   * The content-hash cache of extracted models (docs/bundlers.md, "Watch mode and cache").
   * Default `true`: entries live in `<root>/node_modules/.cache/typed-mcp` (root: the
   * webpack/Rspack `context`, esbuild's `absWorkingDir`, Rolldown's `cwd`, else the working
   * directory), or in Vite's `cacheDir` (`…/typed-mcp`), or beside webpack's filesystem cache
   * when one is configured (`cache.cacheDirectory`). `{ dir }` picks the directory (relative to
   * the root); `false` turns the cache off. A hit skips the TypeScript sidecar entirely. Entries
   * hold the extracted model (not generated code); a corrupt entry is a miss, never an error.
   */
  cache?: boolean | { dir?: string };
  /**
   * Called for what the plugin does, for logging and tests: the sidecar starting and closing,
   * cache hits and misses, extractions, and invalidations from the bundler's change events.
   * Must not throw.
   */
  onEvent?: (event: TypedMcpEvent) => void;
}

/**
 * What the plugin reports through {@link TypedMcpOptions.onEvent}:
 * - `sidecar-start` / `sidecar-close`: a TypeScript sidecar process started (first module
 *   extracted) or was ended; `sidecar-close` names the backend that ran (`"7.0"`, `"7.1"`, `"6"`)
 *   and its TypeScript version when a module was checked;
 * - `cache-hit` / `cache-miss`: a module's model came from the cache, or had to be extracted;
 * - `extract`: a module was handed to the extractor (the sidecar, when it has tool sites);
 * - `invalidate`: a change event from the bundler's watcher was passed on to the sidecar
 *   (`deleted` for a removed file).
 */
export type TypedMcpEvent =
  | { type: "sidecar-start" }
  | { type: "sidecar-close"; backend?: string; typescriptVersion?: string }
  | { type: "cache-hit" | "cache-miss" | "extract"; file: string }
  | { type: "invalidate"; file: string; deleted: boolean };

const DEFAULT_INCLUDE = /\.[cm]?tsx?$/;
const DEFAULT_EXCLUDE = /[\\/]node_modules[\\/]/;

/**
 * Formats a diagnostic as one line: `file:line:column - OMCG0005: message` (spec §10).
 */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column} - ${d.code}: ${d.message}`;
}

/** Strips a query (`?v=…`) or hash from a bundler module id, leaving the file name. */
function fileOf(id: string): string {
  const q = id.search(/[?#]/);
  return (q === -1 ? id : id.slice(0, q)).replace(/\\/g, "/");
}

/** The part of a webpack or Rspack compiler the plugin uses to learn when a build ends. */
interface CompilerLike {
  watchMode?: boolean;
  context?: string;
  options?: { cache?: unknown };
  hooks: {
    done: { tap(name: string, fn: () => void): void };
    failed: { tap(name: string, fn: () => void): void };
    watchClose: { tap(name: string, fn: () => void): void };
    shutdown?: { tap(name: string, fn: () => void): void };
  };
}

/** Files whose change can alter what the sidecar sees (not directories or assets). */
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|json)$/;
const TSCONFIG = /(?:^|\/)tsconfig[^/]*\.json$/;

/**
 * The unplugin factory behind every bundler entry.
 *
 * One extractor (and so one TypeScript sidecar process) is created lazily on the first module
 * that is not answered from the cache, and closed when the build ends; in watch mode it stays
 * warm across rebuilds, is updated incrementally from the bundler's change events
 * (`watchChange`: Rollup, Rolldown and Vite's watchers, webpack's/Rspack's modified and removed
 * files), and is closed when the watcher closes (or the process exits). A change to a tsconfig
 * closes it (the next module opens a fresh one with the new options).
 *
 * When a build ends, per bundler:
 * - Vite: `closeBundle` after `vite build`, and when the dev server closes; with
 *   `build.watch`, `closeWatcher`;
 * - Rollup, Rolldown: `buildEnd` (called on failure too), or `closeWatcher` in watch mode;
 * - esbuild: `onEnd` (unplugin's `buildEnd`), after every build or rebuild — esbuild reports
 *   no watch mode to plugins, so each rebuild of `context().watch()` starts a new sidecar for
 *   the modules the cache cannot answer;
 * - webpack, Rspack: the compiler's `done` or `failed` hook (also `buildEnd` at
 *   `processAssets`), or `watchClose`/`shutdown` in watch mode.
 *
 * Every file whose declarations a module consulted is reported with `addWatchFile` (type-only
 * imports are gone from the bundler's graph), whether the model was extracted or cached.
 */
export const unpluginFactory: UnpluginFactory<TypedMcpOptions | undefined, false> = (options = {}, meta) => {
  let extractor: MeasuredExtractor | undefined;
  let sidecarReported = false;
  let watching = false;
  let compiler: CompilerLike | undefined;
  /** Vite only: the command and whether `build.watch` is set. */
  let vite: { command: "build" | "serve"; watch: boolean; root: string; cacheDir: string } | undefined;
  const hashes = new FileHashes();
  /** The tsconfig files reported with `addWatchFile`, with their content hash when first seen. */
  const configSeen = new Map<string, string>();
  /** Per module: the files reported with `addWatchFile` on its last transform. */
  const watchedBy = new Map<string, string[]>();
  let modelCache: ModelCache | undefined | null;
  const emit = (event: TypedMcpEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      /* a reporter's failure must not fail the build */
    }
  };
  const onExit = () => close();
  const close = () => {
    if (!extractor) return;
    const { backend, typescriptVersion } = extractor.stats();
    extractor.close();
    extractor = undefined;
    process.off("exit", onExit);
    if (sidecarReported) emit({ type: "sidecar-close", backend, typescriptVersion });
    sidecarReported = false;
  };
  const open = (): MeasuredExtractor => {
    if (!extractor) {
      extractor = createExtractor({ tsconfig: options.tsconfig, typescript: options.typescript });
      // A build that dies without its end hooks must not leave the sidecar behind.
      process.once("exit", onExit);
    }
    return extractor;
  };
  /** esbuild's `absWorkingDir` or Rolldown's `cwd`, when given. */
  let workingDir: string | undefined;
  /**
   * The project root: Vite's root, the webpack/Rspack context, esbuild's `absWorkingDir`,
   * Rolldown's `cwd`, else the working directory.
   */
  const root = () => vite?.root ?? compiler?.context ?? workingDir ?? process.cwd();
  /** The cache, created on first use (after the bundler's config hooks ran); `null` when off. */
  const cache = (): ModelCache | null => {
    if (modelCache !== undefined) return modelCache;
    if (options.cache === false) return (modelCache = null);
    const dir = typeof options.cache === "object" && options.cache.dir ? resolve(root(), options.cache.dir) : defaultCacheDir();
    modelCache = new ModelCache({ dir, root: root(), tsconfig: options.tsconfig, typescript: options.typescript, hashes });
    return modelCache;
  };
  const defaultCacheDir = (): string => {
    if (vite) return join(vite.cacheDir, "typed-mcp");
    const wpCache = compiler?.options?.cache as { type?: string; cacheDirectory?: string } | undefined;
    if (wpCache && typeof wpCache === "object" && wpCache.type === "filesystem" && wpCache.cacheDirectory) {
      return join(wpCache.cacheDirectory, "typed-mcp");
    }
    return join(root(), "node_modules/.cache/typed-mcp");
  };
  const modelOf = (file: string, code: string): ModuleModel => {
    const c = cache();
    const hit = c?.lookup(file, code);
    if (hit) {
      emit({ type: "cache-hit", file });
      return hit.model;
    }
    if (c) emit({ type: "cache-miss", file });
    emit({ type: "extract", file });
    const x = open();
    const model = x.extract(file, code);
    if (!sidecarReported && x.stats().coldStartMs > 0) {
      sidecarReported = true;
      emit({ type: "sidecar-start" });
    }
    c?.store(file, code, model);
    return model;
  };
  const include = options.include ?? DEFAULT_INCLUDE;
  const isWatchMode = (ctx: unknown) =>
    watching || compiler?.watchMode === true || (ctx as { meta?: { watchMode?: boolean } } | undefined)?.meta?.watchMode === true;
  const hookCompiler = (c: CompilerLike) => {
    compiler = c;
    const name = "typed-mcp";
    c.hooks.done.tap(name, () => {
      if (!isWatchMode(undefined)) close();
    });
    c.hooks.failed.tap(name, close);
    c.hooks.watchClose.tap(name, close);
    c.hooks.shutdown?.tap(name, close);
  };
  // webpack and Rspack report a failed loader as a module error and go on bundling: throw so
  // the module fails as a whole and no untransformed code reaches the output.
  const throwsErrors = meta.framework === "webpack" || meta.framework === "rspack";

  return {
    name: "typed-mcp",
    enforce: "pre",
    transform: {
      filter: {
        id: { include, exclude: options.exclude ?? DEFAULT_EXCLUDE },
      },
      handler(code, id) {
        if (!mayDeclareTools(code)) return undefined;
        const file = fileOf(id);
        const model = modelOf(file, code);
        // Watch what the module consulted, and what it consulted before that is gone now: a
        // deleted declaration file fails the module (nothing consults it any more), and its
        // return must trigger a rebuild (webpack only watches the dependencies of the last run).
        const previous = watchedBy.get(file) ?? [];
        const watched = [...model.consultedFiles, ...previous.filter((f) => !model.consultedFiles.includes(f) && !existsSync(f))];
        watchedBy.set(file, watched);
        for (const consulted of watched) {
          if (consulted !== file) this.addWatchFile(consulted);
        }
        // The compiler options decide the model too (e.g. strictNullChecks): a tsconfig edit
        // reaches watchChange, which starts a fresh project.
        const config = tsconfigFor(file, options.tsconfig);
        if (config) {
          if (!configSeen.has(config)) configSeen.set(config, hashes.hash(config));
          this.addWatchFile(config);
        }
        if (model.diagnostics.length > 0) {
          const first = model.diagnostics[0]!;
          const message = model.diagnostics.map(formatDiagnostic).join("\n");
          if (throwsErrors) {
            const error = new Error(message) as Error & { hideStack?: boolean };
            error.hideStack = true; // webpack prints the message without the plugin's stack
            throw error;
          }
          this.error({
            message,
            code: first.code,
            id: file,
            ...errorLocation(first.file === file ? code : undefined, first.file, first.line, first.column, meta.framework === "esbuild"),
          });
          return undefined;
        }
        return spliceTools(code, id, model.tools, model);
      },
    },
    buildStart() {
      if ((this as { meta?: { watchMode?: boolean } }).meta?.watchMode === true) watching = true;
    },
    watchChange(id, change) {
      watching = true;
      const file = fileOf(id);
      hashes.forget(file);
      if (TSCONFIG.test(file)) {
        // New compiler options: the next module opens a fresh project. Only on a real change
        // (webpack and Rspack also report files whose timestamps moved).
        const now = hashes.hash(file);
        if (configSeen.get(file) !== now) {
          configSeen.clear();
          close();
        }
        return;
      }
      if (!extractor || !SOURCE_FILE.test(file)) return;
      const deleted = change.event === "delete";
      extractor.invalidate(file, deleted);
      emit({ type: "invalidate", file, deleted });
    },
    buildEnd() {
      // Vite: a one-off `vite build` (also on failure); the dev server and build.watch end it in
      // closeBundle / closeWatcher.
      if (vite ? vite.command === "build" && !vite.watch : !isWatchMode(this)) close();
    },
    vite: {
      configResolved(config) {
        vite = { command: config.command, watch: !!config.build.watch, root: config.root, cacheDir: config.cacheDir };
        if (config.command === "serve" || vite.watch) watching = true;
      },
      closeBundle() {
        // One `vite build`, or the dev server closing; with build.watch, after every rebuild.
        if (!(vite?.command === "build" && vite.watch)) close();
      },
      closeWatcher() {
        close();
      },
    },
    rollup: {
      closeWatcher() {
        close();
      },
    },
    rolldown: {
      options(opts) {
        if (typeof opts.cwd === "string") workingDir = opts.cwd;
      },
      closeWatcher() {
        close();
      },
    },
    esbuild: {
      config(opts) {
        if (opts.absWorkingDir) workingDir = opts.absWorkingDir;
      },
      // unplugin runs `transform` inside one esbuild `onLoad`: only TypeScript modules need it.
      onLoadFilter: include instanceof RegExp ? include : /.*/,
    },
    webpack(c) {
      hookCompiler(c as unknown as CompilerLike);
    },
    rspack(c) {
      hookCompiler(c as unknown as CompilerLike);
    },
  };
};

/** The plugin for every bundler (unplugin instance). */
export const typedMcp: UnpluginInstance<TypedMcpOptions | undefined, false> = createUnplugin(unpluginFactory);
export default typedMcp;
