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
import { createUnplugin, type UnpluginFactory, type UnpluginInstance } from "unplugin";
import { createExtractor, mayDeclareTools, type Extractor } from "@typed-mcp/extract";
import type { Diagnostic } from "@typed-mcp/model";
import { spliceTools } from "./splice.js";

export { spliceTools, RUNTIME_MODULE, type SpliceResult } from "./splice.js";

/** Options of the typed-mcp plugin. */
export interface TypedMcpOptions {
  /**
   * The tsconfig.json whose compiler options and files the type checker uses. Default: the
   * nearest `tsconfig.json` above each module. It must enable `strictNullChecks` (or `strict`).
   */
  tsconfig?: string;
  /** Modules to transform (matched against the module id). Default: `.ts`, `.mts`, `.cts`, `.tsx` files. */
  include?: RegExp | RegExp[];
  /** Modules to skip. Default: anything under `node_modules`. */
  exclude?: RegExp | RegExp[];
}

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
  hooks: {
    done: { tap(name: string, fn: () => void): void };
    failed: { tap(name: string, fn: () => void): void };
    watchClose: { tap(name: string, fn: () => void): void };
    shutdown?: { tap(name: string, fn: () => void): void };
  };
}

/**
 * The unplugin factory behind every bundler entry.
 *
 * One extractor (and so one TypeScript sidecar process) is created lazily on the first module
 * that may declare tools and closed when the build ends; in watch mode it stays warm across
 * rebuilds, is told about changed files from the bundler's `watchChange` events, and is closed
 * when the watcher closes (or the process exits).
 *
 * When a build ends, per bundler:
 * - Vite: `closeBundle` (or `closeWatcher` in watch mode);
 * - Rollup, Rolldown: `buildEnd` (called on failure too), or `closeWatcher` in watch mode;
 * - esbuild: `onEnd` (unplugin's `buildEnd`), after every build or rebuild — a rebuild starts a
 *   new sidecar, since esbuild reports no watch mode to plugins;
 * - webpack, Rspack: the compiler's `done` or `failed` hook (also `buildEnd` at
 *   `processAssets`), or `watchClose`/`shutdown` in watch mode.
 */
export const unpluginFactory: UnpluginFactory<TypedMcpOptions | undefined, false> = (options = {}, meta) => {
  let extractor: Extractor | undefined;
  let watching = false;
  let compiler: CompilerLike | undefined;
  const onExit = () => close();
  const close = () => {
    if (!extractor) return;
    extractor.close();
    extractor = undefined;
    process.off("exit", onExit);
  };
  const open = (): Extractor => {
    if (!extractor) {
      extractor = createExtractor({ tsconfig: options.tsconfig });
      // A build that dies without its end hooks must not leave the sidecar behind.
      process.once("exit", onExit);
    }
    return extractor;
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
        const model = open().extract(file, code);
        for (const consulted of model.consultedFiles) {
          if (consulted !== file) this.addWatchFile(consulted);
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
            loc: { file: first.file, line: first.line, column: first.column - 1 },
          });
          return undefined;
        }
        return spliceTools(code, id, model.tools, model);
      },
    },
    watchChange(id, change) {
      watching = true;
      extractor?.invalidate(fileOf(id), change.event === "delete");
    },
    buildEnd() {
      if (!isWatchMode(this)) close();
    },
    vite: {
      closeBundle() {
        if (!watching) close();
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
      closeWatcher() {
        close();
      },
    },
    esbuild: {
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
