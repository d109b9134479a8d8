/**
 * `@typed-mcp/unplugin`: the typed-mcp build plugin for every bundler unplugin supports.
 * Each bundler has a thin entry (`@typed-mcp/unplugin/vite`, …) whose default export is the
 * plugin factory.
 *
 * Pipeline per module (spec §1, §10): a cheap text filter → the model, from the cache or from
 * site finding and type extraction (one warm TypeScript checker per build) → code generation →
 * splice with a source map. All of that is `@typed-mcp/transform`'s {@link Driver} and
 * `spliceModule`, shared with `@typed-mcp/babel`; this package maps the bundlers' hooks onto
 * it. Diagnostics fail the build with file, line, column and code.
 *
 * @packageDocumentation
 */
import { createUnplugin, type UnpluginFactory, type UnpluginInstance } from "unplugin";
import { TOOL_CODE_FILTER, type TypeScriptChoice } from "@typed-mcp/extract";
import {
  DEFAULT_EXCLUDE,
  DEFAULT_INCLUDE,
  Driver,
  UNIT_FILE,
  UnitRegistry,
  type DriverEvent,
  type Profile,
  type WarningCode,
} from "@typed-mcp/transform";
import { BundlerHost } from "./host.js";
import { lifecycleHooks } from "./lifecycle.js";
import { sharedUnitHooks } from "./shared-units.js";
import { transformModule } from "./transform.js";

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
 * When a build ends, per bundler: see `lifecycle.ts`.
 *
 * Every file whose declarations a module consulted is reported with `addWatchFile` (type-only
 * imports are gone from the bundler's graph), whether the model was extracted or cached.
 */
export const unpluginFactory: UnpluginFactory<TypedMcpOptions | undefined, false> = (options = {}, meta) => {
  const host = new BundlerHost();
  const driver = new Driver({
    tsconfig: options.tsconfig,
    typescript: options.typescript,
    cache: options.cache,
    profile: options.profile,
    warnings: options.warnings,
    onEvent: options.onEvent,
    root: () => host.root(),
    cacheDir: () => host.cacheDir(),
  });
  /** The shared units (docs/architecture.md "Shared types") every transformed module of the session imports. */
  const units = new UnitRegistry();
  const include = options.include ?? DEFAULT_INCLUDE;
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
    ...sharedUnitHooks(units, () => host.root()),
    ...lifecycleHooks(host, driver),
    esbuild: {
      config(opts) {
        if (opts.absWorkingDir) host.workingDir = opts.absWorkingDir;
      },
      // unplugin runs `transform` inside one esbuild `onLoad`: only TypeScript modules (and shared units) need it.
      onLoadFilter:
        include instanceof RegExp ? new RegExp(`(?:${include.source})|${UNIT_FILE.source}`, include.flags) : /.*/,
    },
  };
};

/** The plugin for every bundler (unplugin instance). */
export const typedMcp: UnpluginInstance<TypedMcpOptions | undefined, false> = createUnplugin(unpluginFactory);
