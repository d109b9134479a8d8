/**
 * What `list` and `check` share after extraction: walking the modules' models, collecting each
 * module's diagnostics and code-generation failures as printable lines (spec §10), and the
 * summary line of a failed run.
 *
 * @module
 */
import { CodegenError } from "@typed-mcp/codegen";
import { displayPath } from "@typed-mcp/extract";
import { formatDiagnostic, type ModuleModel, type SourceLocation } from "@typed-mcp/model";

/** Runs `build`; a `CodegenError` becomes a problem line of the `kind` named `name` at `where`. */
export type Generate = (kind: string, name: string, where: SourceLocation, build: () => void) => void;

/** The problems of a run: one printable line each, and how many files had one. */
export interface Problems {
  lines: string[];
  files: number;
}

/**
 * Visits every model without diagnostics (`visit` builds its entries through `generate`), and
 * collects the diagnostics of the others and the code-generation failures, files relative to
 * `cwd`, in the order of `models`.
 */
export function collectProblems(
  models: readonly ModuleModel[],
  cwd: string,
  visit: (model: ModuleModel, generate: Generate) => void,
): Problems {
  const problems: Problems = { lines: [], files: 0 };
  const generate: Generate = (kind, name, where, build) => {
    try {
      build();
    } catch (e) {
      if (!(e instanceof CodegenError)) throw e;
      problems.lines.push(
        `${displayPath(where.file, cwd)}:${where.line}:${where.column} - error: ${kind} '${name}': ${e.message}`,
      );
    }
  };
  for (const model of models) {
    const before = problems.lines.length;
    for (const d of model.diagnostics) problems.lines.push(formatDiagnostic(d, displayPath(d.file, cwd)));
    if (model.diagnostics.length === 0) visit(model, generate);
    if (problems.lines.length > before) problems.files++;
  }
  return problems;
}

/** `n word` with an `s` unless `n` is 1. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The closing line of a run with problems: `typed-mcp <command>: 2 errors in 1 of 3 files.` */
export function problemSummary(command: string, problems: Problems, modules: number): string {
  return `typed-mcp ${command}: ${plural(problems.lines.length, "error")} in ${problems.files} of ${plural(modules, "file")}.\n`;
}
