/**
 * Problems of the type → model conversion: the one OMCG0005/OMCG0009 report of a parameter or
 * return type (spec §4: it "names … where that type is declared") and OMCG0007 tag problems.
 */
import { isAbsolute, relative } from "node:path";
import type { SourceLocation } from "@typed-mcp/model";
import type { TypeRef } from "./backend/host.js";
import type { ConvertContext } from "./convert.js";

/**
 * Reports OMCG0005 (input) / OMCG0009 (output) for the type `t` at `path` — once per parameter or
 * return type: later calls are ignored — naming where `t` is declared. `unresolved` (spec §4: a
 * name TypeScript cannot resolve) names the type as written instead of the checker's text of
 * `t` (`any` in a union) and marks the problem. Returns `undefined`.
 */
export const fail = (
  ctx: ConvertContext,
  path: string,
  t: TypeRef | undefined,
  why: string,
  fix: string,
  unresolved?: { written: string },
): undefined => {
  if (ctx.problems.some((p) => p.code === "OMCG0005" || p.code === "OMCG0009")) return undefined;
  let where = "";
  if (t) {
    const at = ctx.host.declaredAt(t);
    if (at)
      where =
        at.line > 0
          ? ` (declared at ${displayPath(at.file, ctx.root)}:${at.line}:${at.column})`
          : ` (declared in ${at.file.split("/").pop()})`;
  }
  const typeText = unresolved?.written ?? (t ? ctx.host.text(t) : "?");
  ctx.problems.push({
    code: ctx.mode === "input" ? "OMCG0005" : "OMCG0009",
    message: `${ctx.subject}: '${path}' has type '${typeText}'${where}, which typed-mcp cannot ${ctx.mode === "input" ? "read" : "write"}: ${why}. ${fix}`,
    ...(unresolved && { unresolved: true }),
  });
  return undefined;
};

/**
 * A file as messages name it (spec §4: a diagnostic "names … where that type is declared"):
 * relative to `root` with forward slashes, as the CLI writes locations (`src/types.ts`,
 * `../shared/types.ts`); absolute when there is no root or the file is the root itself.
 */
export function displayPath(file: string, root: string | undefined): string {
  if (root === undefined) return file;
  const rel = relative(root, file);
  return (rel === "" || isAbsolute(rel) ? file : rel).replace(/\\/g, "/");
}

/** Reports a tag problem (OMCG0007); `loc`: where it is when that is not the parameter (the tag itself). */
export function tagProblem(ctx: ConvertContext, path: string, message: string, loc?: SourceLocation): void {
  ctx.problems.push({ code: "OMCG0007", message: `${ctx.subject}: '${path}': ${message}`, ...(loc && { loc }) });
}
