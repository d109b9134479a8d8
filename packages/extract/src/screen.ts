/**
 * The cheap screen that runs first for every module (no parsing): could its text declare tools,
 * resources or prompts at all? Build plugins run it once per module, before anything else, and
 * pass the answer on (`ExtractOptions.screened`).
 *
 * @module
 */

/**
 * Cheap syntactic filter (no parsing): could this module declare tools? True when the text
 * mentions `typed-mcp` and contains a `@` (a decorator may be a renamed import), or contains
 * a `.tool(`, `.resource(` or `.prompt(` call (spec §8) (the quick path's receiver may be
 * imported from a module that does not mention typed-mcp).
 */
export function mayDeclareTools(code: string): boolean {
  return (code.includes("typed-mcp") && code.includes("@")) || QUICK_PATH_CALL.test(code);
}

/** A `.tool(`, `.resource(` or `.prompt(` call: the quick path's sites (spec §8). */
const QUICK_PATH_CALL = /\.\s*(?:tool|resource|prompt)\s*\(/;

/**
 * The {@link mayDeclareTools} screen as a bundler hook filter on the module text (Rolldown and
 * Vite 8 `transform` `filter.code`, matched natively, before any JavaScript runs): a module
 * passes when it contains any pattern (a string is a substring). Looser than
 * `mayDeclareTools` (`typed-mcp` without `@` passes), never stricter, so the in-handler check
 * still decides.
 */
export const TOOL_CODE_FILTER: readonly (string | RegExp)[] = ["typed-mcp", QUICK_PATH_CALL];
