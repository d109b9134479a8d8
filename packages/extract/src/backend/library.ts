/**
 * Where a declaration's file lies — TypeScript's default library, an installed package, or the
 * project — decided in one place for every backend: whether a named type is a built-in
 * (`NamedInfo.builtin`, spec §4 "Built-ins" in docs/mapping.md), whether a file is watched
 * (consulted files), whether "declared at" names a line, and how a class in a package is imported.
 */
import { dirname, relative } from "node:path";

/** A path with forward slashes. */
export const norm = (f: string) => f.replace(/\\/g, "/");

/**
 * The origin of a file (absolute, forward slashes):
 * - `"lib"`: a default library file (`lib.*.d.ts`, TypeScript 7's `bundled:` libs), the
 *   `typescript` / `@typescript/*` packages, or `@types/*`;
 * - `"package"`: any other file under `node_modules`;
 * - `"project"`: everything else (user code, symlinked workspace packages after realpath).
 */
export function fileOrigin(path: string): "lib" | "package" | "project" {
  if (
    /\/node_modules\/typescript\/|\/lib\.[\w.]*\.d\.ts$|\/node_modules\/@types\/|\/node_modules\/@typescript\//.test(
      path,
    ) ||
    /^\/?bundled:/.test(path)
  )
    return "lib";
  return /\/node_modules\//.test(path) ? "package" : "project";
}

/**
 * Whether a declaration in `path` makes its symbol a built-in (`Date`, `Record`, an SDK type):
 * a default library file, `@types/*`, or a `.d.ts` file of an installed package.
 */
export function isBuiltinDeclaration(path: string): boolean {
  const origin = fileOrigin(path);
  return origin === "lib" || (origin === "package" && path.endsWith(".d.ts"));
}

/** A file belonging to the typed-mcp runtime package (installed or in the workspace). */
export function isTypedMcpFile(path: string): boolean {
  return (
    /\/typed-mcp\/(?:src|dist)\/[^/]+\.(?:d\.)?[cm]?ts$/.test(norm(path)) ||
    /\/node_modules\/typed-mcp\//.test(norm(path))
  );
}

/**
 * The module specifier that imports `declFile` from `fromFile`: the package name for a file
 * under `node_modules` (`undefined` when it cannot be read), else a relative `./…js` path.
 */
export function moduleSpecifier(fromFile: string, declFile: string): string | undefined {
  if (/\/node_modules\//.test(declFile)) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(declFile);
    return m ? m[1] : undefined;
  }
  let rel = relative(dirname(fromFile), declFile)
    .replace(/\\/g, "/")
    .replace(/\.(d\.)?([cm]?)tsx?$/, ".$2js");
  if (!rel.startsWith(".")) rel = "./" + rel;
  return rel;
}
