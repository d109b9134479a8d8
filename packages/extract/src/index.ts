/**
 * `@typed-mcp/extract`: source → declaration sites (oxc) → types (TypeScript's checker through
 * a backend; TypeScript 7.0's IPC API today) → {@link ModuleModel} with diagnostics.
 *
 * ```ts
 * const extractor = createExtractor({ cwd: root });
 * const model = extractor.extract("/abs/src/tools.ts", code);   // never throws for bad user code
 * extractor.invalidate("/abs/src/types.ts");                      // watch mode
 * extractor.close();                                              // ends the sidecar
 * ```
 *
 * @packageDocumentation
 */
import type { Diagnostic, DiagnosticCode, ModuleModel, SourceLocation } from "@typed-mcp/model";
import { resolve } from "node:path";
import { createBackend } from "./backend/select.js";
import type { TypeScriptChoice } from "./backend/select.js";
import type { Backend, BackendStats } from "./backend/host.js";
import { mayDeclareTools, parseModule, scanModule, TOOL_CODE_FILTER, type Site } from "./sites.js";
import { extractTools, sortDiagnostics } from "./tools.js";
import type { ResourceSite } from "./resource-sites.js";
import { extractResourcesAndPrompts } from "./resources.js";
import { extractCompletions } from "./completions.js";
import { DeclarationTables, recordDependencies } from "./declarations.js";

export { mayDeclareTools, TOOL_CODE_FILTER };
export type { BackendStats, TypeScriptChoice };
export { findTypeScript, familyOf } from "./backend/select.js";
export { findTsconfig, type ProjectOptions } from "./backend/project.js";
export { displayPath } from "./convert-problems.js";
export { parseDocComment, normalizeDocText } from "./jsdoc.js";
export {
  declarationTable,
  dependencyDigest,
  DeclarationTables,
  type ConsultSeed,
  type DeclarationTable,
} from "./declarations.js";

/** Options of {@link createExtractor}. */
export interface ExtractorOptions {
  /** tsconfig.json path; default: the nearest tsconfig.json above each file. */
  tsconfig?: string;
  /** Working directory of the type-checker sidecar; default `process.cwd()`. */
  cwd?: string;
  /**
   * Which TypeScript backend runs (docs/extraction.md "Backends"). Default: picked from the
   * `typescript` package the project has installed (resolved from the tsconfig's directory):
   * 7.0 → the IPC API (`typescript/unstable/sync`); 7.1+ → the IPC API at `typescript/sync` of
   * that package; 5.x/6.x → the classic compiler API on that package. `"7.0"` / `"7.1"` / `"6"`
   * force a family (`"6"` falls back to `@typescript/typescript6`); a path to a TypeScript
   * package directory forces that package. A choice that cannot be satisfied (or TypeScript < 5)
   * is an OMCG0000 diagnostic at the module's first line.
   */
  typescript?: TypeScriptChoice;
}

/** Type extraction over one of the backends (TypeScript 7.0 / 7.1 IPC, classic TS 5/6 API) behind `backend/host.ts`. */
export interface Extractor {
  /**
   * Extracts the tools of one module; `code` is the module text as the bundler has it (may
   * differ from disk). Never throws for bad user code: problems are diagnostics (spec §10).
   * `file` is an absolute path.
   */
  extract(file: string, code: string): ModuleModel;
  /** A file changed or was deleted on disk (watch mode): update the sidecar incrementally. */
  invalidate(file: string, deleted?: boolean): void;
  /** Ends the sidecar process. Idempotent. */
  close(): void;
}

/** An {@link Extractor} that also reports measurements (IPC round trips, cold start). */
export interface MeasuredExtractor extends Extractor {
  /** Round trips to the sidecar so far and the cold-start time. */
  stats(): BackendStats;
}

/**
 * Creates an extractor. The TypeScript sidecar starts lazily on the first `extract` of a module
 * that may declare tools, stays warm across modules, and ends with `close()`.
 */
export function createExtractor(options: ExtractorOptions = {}): MeasuredExtractor {
  const backend = createBackend(options);
  const memo = new Map<string, { code: string; generation: number; model: ModuleModel }>();
  const tables = new DeclarationTables();
  return {
    extract: (file, code) =>
      extractModule(
        backend,
        resolve(options.cwd ?? process.cwd(), file),
        code,
        memo,
        resolve(options.cwd ?? process.cwd()),
        tables,
      ),
    invalidate: (file, deleted) => backend.invalidate(resolve(options.cwd ?? process.cwd(), file), deleted),
    close: () => backend.close(),
    stats: () => backend.stats(),
  };
}

/** Offsets at which each line starts (`\n`, `\r\n` and `\r` end a line), for 1-based line:column locations. */
function lineStarts(code: string): number[] {
  const starts = [0];
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (code.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/**
 * Extracts one module (spec §1, §8, §10): one oxc parse and one walk find its sites, the
 * backend session reads their types, and the tools, resources and prompts are built with
 * diagnostics sorted by position. Memoised per file while the text and the backend's
 * generation stay the same. Never throws: checker and internal failures are OMCG0000.
 */
function extractModule(
  backend: Backend,
  rawFile: string,
  code: string,
  memo: Map<string, { code: string; generation: number; model: ModuleModel }>,
  /** The extractor's `cwd`: paths inside messages are written relative to it. */
  root: string,
  /** The declaration tables of consulted files, for {@link ModuleModel.declarations}. */
  tables: DeclarationTables,
): ModuleModel {
  const file = rawFile.replace(/\\/g, "/");
  const starts = lineStarts(code);
  const at = (offset: number): SourceLocation => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file, line: lo + 1, column: offset - starts[lo]! + 1 };
  };
  const diagnostics: Diagnostic[] = [];
  const sink = {
    root,
    add(code: DiagnosticCode, loc: SourceLocation, message: string) {
      diagnostics.push({ file: loc.file, line: loc.line, column: loc.column, code, message });
    },
  };
  const model: ModuleModel = { file, tools: [], diagnostics, consultedFiles: [] };
  if (!mayDeclareTools(code)) return model;
  // One oxc parse, one walk: every kind of site.
  const parsed = parseModule(file, code);
  let scan = scanModule(code, parsed);
  // A syntax error is reported even when no site was found: oxc may have recovered nothing.
  for (const p of scan.parseErrors) sink.add(p.code, at(p.offset), p.message);
  if (scan.parseErrors.length) return model;
  if (scan.sites.length === 0) {
    // `@complete` with no prompt in the module: each is reported (OMCG0012).
    extractCompletions(scan.completions, [], [], at, sink);
    return model;
  }
  let session;
  try {
    session = backend.session(file, code);
  } catch (e) {
    sink.add("OMCG0000", at(0), `The TypeScript checker failed: ${(e as Error).message}`);
    return model;
  }
  // Options that are not literals are folded by the checker (spec §1): the same walk again, with the session's folder.
  if (scan.foldPending && !session.configProblem) {
    const s = session;
    scan = scanModule(code, parsed, (span) => s.foldConstant(span));
  }
  const toolSites = scan.sites.filter((s): s is Site<"tool"> => s.what === "tool");
  const resourceSites = scan.sites.filter((s): s is ResourceSite => s.what !== "tool");
  // Same text, no change anywhere since: the previous model still holds (a copy: callers own it).
  const hit = memo.get(file);
  if (hit && hit.code === code && hit.generation === backend.generation) return structuredClone(hit.model);
  if (session.configProblem) {
    sink.add("OMCG0000", at((toolSites[0] ?? resourceSites[0])!.offset), session.configProblem);
    return model;
  }
  try {
    for (const tool of extractTools(session, file, toolSites, at, sink)) model.tools.push(tool);
    if (resourceSites.length) {
      const found = extractResourcesAndPrompts(session, file, resourceSites, at, sink);
      if (found.resources.length) model.resources = found.resources;
      if (found.prompts.length) model.prompts = found.prompts;
    }
    const completions = extractCompletions(scan.completions, resourceSites, model.prompts ?? [], at, sink);
    if (completions.length) model.completions = completions;
  } catch (e) {
    sink.add("OMCG0000", at(0), `Internal error while extracting tools: ${(e as Error).stack ?? String(e)}`);
  }
  model.consultedFiles = session.consulted().filter((f) => f !== file);
  sortDiagnostics(diagnostics);
  if (diagnostics.length === 0 && model.consultedFiles.length > 0) {
    model.declarations = recordDependencies(
      parsed.program,
      model.consultedFiles,
      session.consultedDeclarations(),
      (f) => tables.of(f),
    );
  }
  memo.set(file, { code, generation: backend.generation, model: structuredClone(model) });
  return model;
}
