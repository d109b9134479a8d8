/**
 * `@typed-mcp/unplugin`: the typed-mcp build plugin for every bundler unplugin supports.
 * Each bundler has a thin entry (`@typed-mcp/unplugin/vite`, …) whose default export is the
 * plugin factory.
 *
 * Pipeline per module (spec §1, §10): a cheap text filter → the model, from the cache or from
 * site finding and type extraction (one warm TypeScript checker per build) → code generation →
 * splice with a source map. All of that is `@typed-mcp/transform`'s {@link Driver} and
 * `spliceTools`, shared with `@typed-mcp/babel`; this package maps the bundlers' hooks onto
 * it. Diagnostics fail the build with file, line, column and code.
 *
 * @packageDocumentation
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  createUnplugin,
  type UnpluginBuildContext,
  type UnpluginContext,
  type UnpluginFactory,
  type UnpluginInstance,
} from "unplugin";
import { mayDeclareTools, TOOL_CODE_FILTER, type TypeScriptChoice } from "@typed-mcp/extract";
import {
  DEFAULT_EXCLUDE,
  DEFAULT_INCLUDE,
  Driver,
  formatDiagnostic,
  RUNTIME_MODULE,
  spliceTools,
  UNIT_FILE,
  UNIT_SPECIFIER,
  unitFile,
  unitOfSpecifier,
  UnitRegistry,
  type DriverEvent,
  type Profile,
  type WarningCode,
} from "@typed-mcp/transform";
import { errorLocation } from "./frame.js";

export {
  formatDiagnostic,
  spliceTools,
  planSplice,
  RUNTIME_MODULE,
  type SpliceResult,
  type SplicePlan,
} from "@typed-mcp/transform";

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
   * The client profile (spec §11, docs/profiles.md): `"default"` (the seed's listing),
   * `"gemini"`, `"openai-strict"` or `"cursor"`; rewrites every tool's `inputSchema` at build
   * time (the same bytes on every connection). Part of the cache key. Default `"default"`.
   */
  profile?: Profile;
  /**
   * Build warnings (spec §10) to silence: `{ OMCW0002: false }`. Warnings go through the
   * bundler's own channel (`this.warn`: Vite/Rollup/Rolldown warnings, webpack/Rspack
   * `compilation.warnings`, esbuild `warnings`) as `file:line:column - OMCW000n: message`.
   */
  warnings?: Partial<Record<WarningCode, boolean>>;
  /**
   * Called for what the plugin does, for logging and tests: the sidecar starting and closing,
   * cache hits and misses, reused models, extractions, and invalidations from the bundler's change events.
   * Must not throw.
   */
  onEvent?: (event: TypedMcpEvent) => void;
}

/**
 * What the plugin reports through {@link TypedMcpOptions.onEvent} (`@typed-mcp/transform`'s
 * `DriverEvent`):
 * - `sidecar-start` / `sidecar-close`: a TypeScript sidecar process started (first module
 *   extracted) or was ended; `sidecar-close` names the backend that ran (`"7.0"`, `"7.1"`, `"6"`)
 *   and its TypeScript version when a module was checked;
 * - `cache-hit` / `cache-miss`: a module's model came from the cache, or had to be extracted;
 * - `reuse`: a module's model of this session was reused (same text, no declaration it depends
 *   on changed; docs/bundlers.md "Invalidation per declaration");
 * - `extract`: a module was handed to the extractor (the sidecar, when it has tool sites);
 * - `invalidate`: a change event from the bundler's watcher was passed on to the sidecar
 *   (`deleted` for a removed file).
 */
export type TypedMcpEvent = DriverEvent;

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

/**
 * The `transform` hook's handler: the module's model from the {@link Driver}, then either its
 * diagnostics as a build error (spec §10: webpack and Rspack get a thrown `Error`, since they
 * report a failed loader as a module error and go on bundling; the others `this.error` with a
 * location and code frame, see {@link errorLocation}) or the splice with its source map.
 *
 * Reports with `addWatchFile` what the module consulted, what it consulted before that is gone
 * now (a deleted declaration file fails the module — nothing consults it any more — and its
 * return must trigger a rebuild: webpack only watches the dependencies of the last run), and
 * its tsconfig (the compiler options decide the model too, e.g. `strictNullChecks`).
 */
function transformModule(driver: Driver, framework: string, units: UnitRegistry) {
  const throwsErrors = framework === "webpack" || framework === "rspack";
  /** Per module: the files reported with `addWatchFile` on its last transform. */
  const watchedBy = new Map<string, string[]>();
  return function handler(this: UnpluginBuildContext & UnpluginContext, code: string, id: string) {
    if (!mayDeclareTools(code)) return undefined;
    const file = fileOf(id);
    const model = driver.model(file, code);
    const previous = watchedBy.get(file) ?? [];
    const watched = [
      ...model.consultedFiles,
      ...previous.filter((f) => !model.consultedFiles.includes(f) && !existsSync(f)),
    ];
    watchedBy.set(file, watched);
    for (const consulted of watched) {
      if (consulted !== file) this.addWatchFile(consulted);
    }
    const config = driver.tsconfigOf(file);
    if (config) this.addWatchFile(config);
    if (model.diagnostics.length > 0) {
      const first = model.diagnostics[0]!;
      const message = model.diagnostics.map((d) => formatDiagnostic(d)).join("\n");
      if (throwsErrors) {
        const error = new Error(message) as Error & { hideStack?: boolean };
        error.hideStack = true; // webpack prints the message without the plugin's stack
        throw error;
      }
      this.error({
        message,
        code: first.code,
        id: file,
        ...errorLocation(
          first.file === file ? code : undefined,
          first.file,
          first.line,
          first.column,
          framework === "esbuild",
        ),
      });
      return undefined;
    }
    for (const w of driver.warnings(model)) this.warn(formatDiagnostic(w));
    const result = spliceTools(
      code,
      id,
      model.tools,
      { ...model, profile: driver.profile, share: "virtual" },
      driver.generated,
    );
    if (result) units.add(result.units);
    return result && { code: result.code, map: result.map };
  };
}

/**
 * The unplugin factory behind every bundler entry.
 *
 * One {@link Driver} per plugin instance: its extractor (and so one TypeScript sidecar process)
 * is created lazily on the first module that is not answered from the cache, and closed when
 * the build ends; in watch mode it stays
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
  let watching = false;
  let compiler: CompilerLike | undefined;
  /** Vite only: the command and whether `build.watch` is set. */
  let vite: { command: "build" | "serve"; watch: boolean; root: string; cacheDir: string } | undefined;
  /** esbuild's `absWorkingDir` or Rolldown's `cwd`, when given. */
  let workingDir: string | undefined;
  const driver = new Driver({
    tsconfig: options.tsconfig,
    typescript: options.typescript,
    cache: options.cache,
    profile: options.profile,
    warnings: options.warnings,
    onEvent: options.onEvent,
    // Vite's root, the webpack/Rspack context, esbuild's `absWorkingDir`, Rolldown's `cwd`, else the working directory.
    root: () => root(),
    // Vite's cacheDir, else beside webpack's filesystem cache, else the default (under the root).
    cacheDir: () => {
      if (vite) return join(vite.cacheDir, "typed-mcp");
      const wpCache = compiler?.options?.cache as { type?: string; cacheDirectory?: string } | undefined;
      if (wpCache && typeof wpCache === "object" && wpCache.type === "filesystem" && wpCache.cacheDirectory) {
        return join(wpCache.cacheDirectory, "typed-mcp");
      }
      return undefined;
    },
  });
  const close = () => driver.close();
  const root = () => vite?.root ?? compiler?.context ?? workingDir ?? process.cwd();
  /** The shared units (docs/architecture.md "Shared types") every transformed module of the session imports. */
  const units = new UnitRegistry();
  const include = options.include ?? DEFAULT_INCLUDE;
  const isWatchMode = (ctx: unknown) =>
    watching ||
    compiler?.watchMode === true ||
    (ctx as { meta?: { watchMode?: boolean } } | undefined)?.meta?.watchMode === true;
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

  return {
    name: "typed-mcp",
    enforce: "pre",
    // Hook filters (Rolldown, Vite 8 and Rollup ≥ 4.38 match them natively, before calling into
    // JavaScript; unplugin applies them itself for esbuild, webpack and Rspack). Each handler
    // still checks, for bundlers that ignore filters.
    transform: {
      filter: {
        id: { include, exclude: options.exclude ?? DEFAULT_EXCLUDE },
        code: { include: [...TOOL_CODE_FILTER] },
      },
      handler: transformModule(driver, meta.framework, units),
    },
    // Shared units: `@typed-mcp/unit/<id>` is one module per unit, under one id per build.
    resolveId: {
      filter: { id: UNIT_SPECIFIER },
      handler(id) {
        const unit = unitOfSpecifier(id);
        return unit === undefined ? undefined : unitFile(root(), unit);
      },
    },
    load: {
      filter: { id: UNIT_FILE },
      handler(id) {
        const unit = UNIT_FILE.exec(id)?.[1];
        if (unit === undefined) return undefined;
        const text = units.moduleText(unit, RUNTIME_MODULE);
        if (text === undefined) {
          throw new Error(
            `typed-mcp: the generated module ${id} is not one this build produced (a module restored from a stale bundler cache?); clear the bundler's cache and build again.`,
          );
        }
        return text;
      },
    },
    buildStart() {
      if ((this as { meta?: { watchMode?: boolean } }).meta?.watchMode === true) watching = true;
    },
    watchChange(id, change) {
      watching = true;
      driver.changed(fileOf(id), change.event === "delete");
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
      // unplugin runs `transform` inside one esbuild `onLoad`: only TypeScript modules (and shared units) need it.
      onLoadFilter:
        include instanceof RegExp ? new RegExp(`(?:${include.source})|${UNIT_FILE.source}`, include.flags) : /.*/,
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
