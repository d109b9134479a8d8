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
import type { Backend, BackendStats, ModuleSession } from "./backend/host.js";
import { scanModule, type Site, type SiteScan } from "./sites.js";
import { parseModule } from "./parse.js";
import { mayDeclareTools, TOOL_CODE_FILTER } from "./screen.js";
import { extractTools, sortDiagnostics } from "./tools.js";
import type { ResourceSite } from "./sites.js";
import { extractResourcesAndPrompts } from "./resources-and-prompts.js";
import { extractCompletions } from "./completions.js";
import type { SiteKind } from "./site-options.js";
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

/** Options of one {@link Extractor.extract} call. */
export interface ExtractOptions {
  /**
   * The caller already ran {@link mayDeclareTools} on the text and it passed (the cheap screen
   * runs once per module: a build plugin screens before anything else); default `false`: the
   * extractor screens the text itself.
   */
  screened?: boolean;
}

/** Type extraction over one of the backends (TypeScript 7.0 / 7.1 IPC, classic TS 5/6 API) behind `backend/host.ts`. */
export interface Extractor {
  /**
   * Extracts the tools of one module; `code` is the module text as the bundler has it (may
   * differ from disk). Never throws for bad user code: problems are diagnostics (spec §10).
   * `file` is an absolute path.
   */
  extract(file: string, code: string, options?: ExtractOptions): ModuleModel;
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
  const tables = new DeclarationTables();
  const root = () => resolve(options.cwd ?? process.cwd());
  return {
    extract: (file, code, { screened = false } = {}) =>
      screened || mayDeclareTools(code)
        ? extractModule(backend, resolve(root(), file), code, root(), tables)
        : { file: resolve(root(), file).replace(/\\/g, "/"), tools: [], diagnostics: [], consultedFiles: [] },
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

/** The 1-based line:column location of a UTF-16 offset into `code`, in `file`. */
function locator(file: string, code: string): (offset: number) => SourceLocation {
  const starts = lineStarts(code);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file, line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

/** Where the extraction of one module writes: its model, and how its diagnostics are added. */
interface Output {
  model: ModuleModel;
  at: (offset: number) => SourceLocation;
  sink: { root: string; add(code: DiagnosticCode, loc: SourceLocation, message: string): void };
}

/** An empty model of `file` whose diagnostics the sink adds (paths in messages relative to `root`). */
function output(file: string, code: string, root: string): Output {
  const diagnostics: Diagnostic[] = [];
  const sink = {
    root,
    add(code: DiagnosticCode, loc: SourceLocation, message: string) {
      diagnostics.push({ file: loc.file, line: loc.line, column: loc.column, code, message });
    },
  };
  return { model: { file, tools: [], diagnostics, consultedFiles: [] }, at: locator(file, code), sink };
}

/**
 * Extracts one module (spec §1, §8, §10) whose text passed the {@link mayDeclareTools} screen:
 * one oxc parse and one walk find its sites, the backend session reads their types, and the
 * tools, resources and prompts are built with diagnostics sorted by position (the models'
 * reuse lives in the build plugins' layers, `@typed-mcp/transform`). Never throws: checker and
 * internal failures are OMCG0000.
 */
function extractModule(
  backend: Backend,
  rawFile: string,
  code: string,
  /** The extractor's `cwd`: paths inside messages are written relative to it. */
  root: string,
  /** The declaration tables of consulted files, for {@link ModuleModel.declarations}. */
  tables: DeclarationTables,
): ModuleModel {
  const file = rawFile.replace(/\\/g, "/");
  const out = output(file, code, root);
  const { model, at, sink } = out;
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
  if (session.configProblem) {
    const first = scan.sites.find((s) => s.what === "tool") ?? scan.sites[0]!;
    sink.add("OMCG0000", at(first.offset), session.configProblem);
    return model;
  }
  // Options that are not literals are folded by the checker (spec §1): the same walk again, with the session's folder.
  if (scan.foldPending) {
    const s = session;
    scan = scanModule(code, parsed, (span) => s.foldConstant(span));
  }
  extractSites(session, scan, out);
  model.consultedFiles = session.consulted().filter((f) => f !== file);
  sortDiagnostics(model.diagnostics);
  if (model.diagnostics.length === 0 && model.consultedFiles.length > 0) {
    model.declarations = recordDependencies(
      parsed.program,
      model.consultedFiles,
      session.consultedDeclarations(),
      (f) => tables.of(f),
    );
  }
  return model;
}

/** Builds the tools, resources, prompts and completion hooks of a module's sites into `out.model`. */
function extractSites(session: ModuleSession, scan: SiteScan<SiteKind>, { model, at, sink }: Output): void {
  const file = model.file;
  const toolSites = scan.sites.filter((s): s is Site<"tool"> => s.what === "tool");
  const resourceSites = scan.sites.filter((s): s is ResourceSite => s.what !== "tool");
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
}
