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

/**
 * The unplugin factory behind every bundler entry.
 *
 * One extractor (and so one TypeScript sidecar process) is created lazily on the first module
 * that may declare tools and closed when the build ends; in watch mode it stays warm across
 * rebuilds, is told about changed files from the bundler's `watchChange` events, and is closed
 * when the watcher closes (or the process exits).
 */
export const unpluginFactory: UnpluginFactory<TypedMcpOptions | undefined, false> = (options = {}) => {
  let extractor: Extractor | undefined;
  let watching = false;
  const close = () => {
    extractor?.close();
    extractor = undefined;
  };
  const onExit = () => close();

  return {
    name: "typed-mcp",
    enforce: "pre",
    buildStart() {
      process.once("exit", onExit);
    },
    transform: {
      filter: {
        id: { include: options.include ?? DEFAULT_INCLUDE, exclude: options.exclude ?? DEFAULT_EXCLUDE },
      },
      handler(code, id) {
        if (!mayDeclareTools(code)) return undefined;
        const file = fileOf(id);
        extractor ??= createExtractor({ tsconfig: options.tsconfig });
        const model = extractor.extract(file, code);
        for (const consulted of model.consultedFiles) {
          if (consulted !== file) this.addWatchFile(consulted);
        }
        if (model.diagnostics.length > 0) {
          const first = model.diagnostics[0]!;
          this.error({
            message: model.diagnostics.map(formatDiagnostic).join("\n"),
            code: first.code,
            id: file,
            loc: { file: first.file, line: first.line, column: first.column - 1 },
          });
          return undefined;
        }
        return spliceTools(code, id, model.tools);
      },
    },
    watchChange(id, change) {
      watching = true;
      extractor?.invalidate(fileOf(id), change.event === "delete");
    },
    buildEnd() {
      if (!watching && !isWatchMode(this)) close();
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
  };
};

function isWatchMode(ctx: unknown): boolean {
  const meta = (ctx as { meta?: { watchMode?: boolean } }).meta;
  return meta?.watchMode === true;
}

/** The plugin for every bundler (unplugin instance). */
export const typedMcp: UnpluginInstance<TypedMcpOptions | undefined, false> = createUnplugin(unpluginFactory);
export default typedMcp;
