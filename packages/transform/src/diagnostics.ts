/**
 * How the build plugins report what they do not transform: the one-line diagnostic format both
 * adapters print (spec §10), and the default module filters they share.
 *
 * @packageDocumentation
 */
import type { Diagnostic } from "@typed-mcp/model";

/**
 * Formats a diagnostic as one line: `file:line:column - OMCG0005: message` (spec §10; `line` and
 * `column` 1-based, as TypeScript and the CLI print them). Both `@typed-mcp/unplugin` and
 * `@typed-mcp/babel` fail a module with one such line per diagnostic.
 */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column} - ${d.code}: ${d.message}`;
}

/** The modules both plugins transform by default: `.ts`, `.mts`, `.cts`, `.tsx` files. */
export const DEFAULT_INCLUDE = /\.[cm]?tsx?$/;

/** The modules both plugins skip by default: anything under `node_modules`. */
export const DEFAULT_EXCLUDE = /[\\/]node_modules[\\/]/;
