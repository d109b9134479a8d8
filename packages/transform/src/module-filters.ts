/**
 * The default module filters both build plugins share (the one-line diagnostic format they print
 * is `@typed-mcp/model`'s `formatDiagnostic`, spec §10).
 *
 * @packageDocumentation
 */
/** The modules both plugins transform by default: `.ts`, `.mts`, `.cts`, `.tsx` files. */
export const DEFAULT_INCLUDE = /\.[cm]?tsx?$/;

/** The modules both plugins skip by default: anything under `node_modules`. */
export const DEFAULT_EXCLUDE = /[\\/]node_modules[\\/]/;
