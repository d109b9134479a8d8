/**
 * The resource and prompt sites of a module (spec §8), as found by the one site finder
 * ({@link scanModule} in `sites.ts`, which finds every kind in one walk).
 */
import { parseModule, scanModule, type ParsedModule, type Site } from "./sites.js";

/** A resource or prompt declaration site. */
export type ResourceSite = Site<"resource" | "prompt">;

/**
 * The resource and prompt sites of one module, in source order (spec §8). `parsed` is the
 * module's one oxc parse ({@link parseModule}); parsed here when absent. Never throws; a module
 * that does not parse gives no sites (the tool finder reports its syntax errors).
 */
export function findResourceSites(
  file: string,
  code: string,
  parsed: ParsedModule = parseModule(file, code),
): ResourceSite[] {
  const scan = scanModule(code, parsed);
  if (scan.parseErrors.length) return [];
  return scan.sites.filter((s): s is ResourceSite => s.what !== "tool");
}
