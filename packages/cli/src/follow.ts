/**
 * Import following for `typed-mcp list`, `check` and `dev` (docs/cli.md "Which files are
 * listed"): from the files given on the command line, every module they reach through static
 * relative imports and re-exports, so an entry such as `src/server.ts` that only registers tools
 * declared in `./orders.js` and `./totals.js` lists those tools.
 *
 * Imports are read with oxc-parser (the parser the extractor uses) and resolved with
 * oxc-resolver, which applies the project's tsconfig.json (found above each file, or the
 * `--project` file) and TypeScript's `.js` → `.ts` extension substitution.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { extname, sep } from "node:path";
import { parseSync } from "oxc-parser";
import { ResolverFactory } from "oxc-resolver";

/** Extensions of the TypeScript modules that are followed (declaration files never are). */
const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts"];

/** The relative specifiers of the value imports and re-exports of `code` (type-only ones are erased by the build, so never run). */
function relativeRequests(file: string, code: string): string[] {
  const { module } = parseSync(file, code, { sourceType: "module", lang: file.endsWith(".tsx") ? "tsx" : "ts" });
  const requests: string[] = [];
  for (const i of module.staticImports) {
    // `import "./x"` has no entries and runs the module; `import type { A }` (every entry a type) does not.
    if (i.entries.length === 0 || i.entries.some((e) => !e.isType)) requests.push(i.moduleRequest.value);
  }
  for (const e of module.staticExports) {
    for (const entry of e.entries) if (entry.moduleRequest && !entry.isType) requests.push(entry.moduleRequest.value);
  }
  return requests.filter((r) => r.startsWith("./") || r.startsWith("../"));
}

/**
 * The files given (absolute paths, in the order given) followed by every TypeScript module they
 * reach through static relative `import` / `export … from` declarations, transitively, in
 * breadth-first order (each file's imports in source order). Not followed: bare specifiers
 * (packages, `node:` builtins, tsconfig `paths` aliases), type-only imports, dynamic `import()`,
 * declaration files (`.d.ts`), anything under `node_modules`, and a specifier that does not
 * resolve (the bundler reports it). Each file is visited once, so an import cycle ends; the walk
 * is iterative and bounded by the number of files reachable.
 *
 * @param roots Absolute paths of the files given on the command line (already checked to exist).
 * @param tsconfig The `--project` tsconfig.json (absolute), else the nearest one above each file.
 * @returns The roots first, then each newly reached module, without duplicates.
 */
export function followImports(roots: string[], tsconfig: string | undefined): string[] {
  const resolver = new ResolverFactory({
    tsconfig: tsconfig === undefined ? "auto" : { configFile: tsconfig, references: "auto" },
    extensions: SOURCE_EXTENSIONS,
    // TypeScript resolves `./x.js` to `./x.ts` (and `.mjs` → `.mts`, `.cjs` → `.cts`).
    extensionAlias: {
      ".js": [".ts", ".tsx", ".js"],
      ".jsx": [".tsx", ".jsx"],
      ".mjs": [".mts", ".mjs"],
      ".cjs": [".cts", ".cjs"],
    },
  });
  const seen = new Set(roots);
  const order = [...seen];
  for (let next = 0; next < order.length; next++) {
    const file = order[next]!;
    let code: string;
    try {
      code = readFileSync(file, "utf8");
    } catch {
      continue; // vanished since; the caller reports the files it reads
    }
    for (const request of relativeRequests(file, code)) {
      const found = resolver.resolveFileSync(file, request).path;
      if (found === undefined || seen.has(found) || !SOURCE_EXTENSIONS.includes(extname(found))) continue;
      if ([".d.ts", ".d.mts", ".d.cts"].some((d) => found.endsWith(d)) || found.split(sep).includes("node_modules"))
        continue;
      seen.add(found);
      order.push(found);
    }
  }
  return order;
}
