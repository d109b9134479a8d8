/**
 * Build diagnostics (spec §10): source locations, the `OMCG` error and `OMCW` warning codes, and
 * their one-line text.
 *
 * @module
 */

/** A position in a source file. `line` and `column` are 1-based; `column` counts UTF-16 code units. */
export interface SourceLocation {
  /** Absolute file name, with forward slashes. */
  file: string;
  line: number;
  column: number;
}

/** Diagnostic codes of spec §10. */
export type DiagnosticCode =
  | "OMCG0001"
  | "OMCG0002"
  | "OMCG0003"
  | "OMCG0004"
  | "OMCG0005"
  | "OMCG0006"
  | "OMCG0007"
  | "OMCG0008"
  | "OMCG0009"
  | "OMCG0010"
  | "OMCG0011"
  | "OMCG0012"
  /** Not a spec code: the project's configuration is unusable (no `strictNullChecks`, no tsconfig, …). */
  | "OMCG0000";

/** A build diagnostic (spec §10). Every diagnostic is an error: it fails the build. */
export interface Diagnostic extends SourceLocation {
  code: DiagnosticCode;
  /** One sentence saying what is wrong and what to change. */
  message: string;
}

/**
 * The one line a build diagnostic or warning is printed as (spec §10): `file:line:column -
 * CODE: message`, `line` and `column` 1-based as TypeScript prints them. Every adapter (the
 * bundler plugin, Babel, the CLI) prints through it.
 *
 * @param file The file as printed: by default the diagnostic's own (absolute) path; the CLI
 *   passes it relative to its working directory (extract's `displayPath`).
 */
export function formatDiagnostic(d: Diagnostic | BuildWarning, file: string = d.file): string {
  return `${file}:${d.line}:${d.column} - ${d.code}: ${d.message}`;
}

/** Build warning codes (spec §10 "Build warnings"): shown, the build goes on. */
export type WarningCode = "OMCW0001" | "OMCW0002" | "OMCW0003";

/**
 * A build warning (spec §10): the diagnostic severity that never fails a build. Printed as
 * `file:line:column - OMCW000n: message` through each bundler's own warning channel.
 */
export interface BuildWarning extends SourceLocation {
  severity: "warning";
  code: WarningCode;
  /** One sentence naming the tool (and for OMCW0003 the path and keyword). */
  message: string;
}
