/**
 * The one oxc parse of a module, shared by the site finder (sites.ts) and the declaration
 * dependencies (declarations.ts).
 *
 * @module
 */
import { parseSync, type Program } from "oxc-parser";
import type { SiteProblem } from "./site-options.js";

/** One oxc parse of a module, shared by everything that reads its sites. */
export interface ParsedModule {
  /** The ESTree program; `undefined` when oxc threw. */
  program: Program | undefined;
  /** oxc's syntax errors (first label offset and message), OMCG0000. */
  parseErrors: SiteProblem[];
}

/**
 * Parses a module once with oxc (spec §1, §8: sites are found syntactically). `file` only
 * selects the dialect (`.tsx` → TSX, `.js`/`.jsx`/`.mjs`/`.cjs` → JSX, else TS). Never throws:
 * an oxc failure gives no program and one OMCG0000 problem at offset 0.
 */
export function parseModule(file: string, code: string): ParsedModule {
  const lang = /\.tsx$/i.test(file) ? "tsx" : /\.[cm]?jsx?$/i.test(file) ? "jsx" : "ts";
  let result;
  try {
    result = parseSync(file, code, { sourceType: "module", lang: lang as "ts" });
  } catch (e) {
    return {
      program: undefined,
      parseErrors: [{ code: "OMCG0000", offset: 0, message: `Could not parse the module: ${String(e)}` }],
    };
  }
  const parseErrors: SiteProblem[] = result.errors
    .filter((e) => e.severity === "Error")
    .map((e) => ({
      code: "OMCG0000" as const,
      offset: e.labels[0]?.start ?? 0,
      message: `Syntax error: ${e.message}`,
    }));
  return { program: result.program, parseErrors };
}
