/**
 * Shared pieces of the backend comparison tests: the fixture corpus and a CLI-style listing of
 * one module (what `typed-mcp list` prints for it, or its diagnostics' codes and positions).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ModuleModel } from "@typed-mcp/model";
import { promptListing, resourceListing, toolListing } from "../../packages/codegen/src/index.js";
import type { MeasuredExtractor } from "../../packages/extract/src/index.js";
import { FULL } from "../helpers/tier.ts";

/** Repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The `typescript71` dev dependency (typescript@7.1.0-dev): the 7.1 IPC backend's package directory. */
export const TYPESCRIPT71 = join(ROOT, "node_modules/typescript71");
/** The `typescript5` dev dependency (TypeScript 5.9): the classic backend over TypeScript 5. */
export const TYPESCRIPT5 = join(ROOT, "node_modules/typescript5");

/** The backends the full tier adds to {@link TIER_BACKENDS}. */
const FULL_TIER_BACKENDS: [string, string][] = [
  ["7.1", TYPESCRIPT71],
  ["classic 5.9", TYPESCRIPT5],
];

/**
 * The backends a check that holds on every backend runs on, as `[label, typescript option]`
 * (docs/contributing.md "Test tiers", "Repeats on more versions"): TypeScript 7.0 over IPC and
 * the classic backend over TypeScript 6 in both tiers; the full tier adds the 7.1 IPC backend
 * ({@link TYPESCRIPT71}) and the classic backend over TypeScript 5.9 ({@link TYPESCRIPT5}).
 */
export const TIER_BACKENDS: [string, string][] = [
  ["7.0", "7.0"],
  ["classic 6", "6"],
  ...(FULL ? FULL_TIER_BACKENDS : []),
];

/** The fixture directories whose every `.ts` module is compared across backends. */
const CORPUS_DIRS = ["test/extract/fixtures", "test/cli/fixtures", "test/resources/fixtures"];

/**
 * Every `.ts` module under `dirs` (relative to the repository root; default the corpus's three
 * fixture trees), as absolute paths, sorted, without `node_modules`, `dist` and `.d.ts`.
 */
export function corpus(dirs: string[] = CORPUS_DIRS): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === "node_modules" || name === "dist") continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(p);
    }
  };
  for (const d of dirs) walk(join(ROOT, d));
  return out;
}

/**
 * What the CLI shows for one module: `{ listing }` (tools/resources/prompts as `typed-mcp list`
 * builds them, spec §1/§8) when it has no diagnostics, else `{ diagnostics }` as
 * `file:line:column code` (the messages quote checker-printed types and are not compared).
 */
export function cliView(model: ModuleModel): unknown {
  if (model.diagnostics.length) {
    return { diagnostics: model.diagnostics.map((d) => `${relative(ROOT, d.file)}:${d.line}:${d.column} ${d.code}`) };
  }
  const listing = {
    tools: [] as unknown[],
    resources: [] as unknown[],
    resourceTemplates: [] as unknown[],
    prompts: [] as unknown[],
  };
  for (const t of model.tools) listing.tools.push(toolListing(t));
  for (const r of model.resources ?? []) {
    const e = resourceListing(r);
    if ("uri" in e) listing.resources.push(e);
    else listing.resourceTemplates.push(e);
  }
  for (const p of model.prompts ?? []) listing.prompts.push(promptListing(p));
  return { listing, consulted: model.consultedFiles.map((f) => relative(ROOT, f)) };
}

/** Extracts every file with `extractor` and returns `{ [relative path]: JSON of cliView }`. */
export function viewAll(extractor: MeasuredExtractor, files: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files)
    out[relative(ROOT, f)] = JSON.stringify(cliView(extractor.extract(f, readFileSync(f, "utf8"))), null, 2);
  return out;
}
