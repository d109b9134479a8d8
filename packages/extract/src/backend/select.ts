/**
 * Picks the type-extraction backend from the TypeScript the *project* has installed.
 *
 * - `typescript` is resolved from the directory of the module's tsconfig (else the extractor's
 *   `cwd`) with Node's resolution, and its `package.json` version decides:
 *   `7.0.x` → the 7.0 IPC backend (`ts7.ts`) on that package; `7.1+` → the 7.1 IPC backend (`ts71.ts`,
 *   `typescript/sync`) on that very package; `5.x`/`6.x` → the classic backend (`classic.ts`)
 *   on that very module.
 * - Nothing resolvable falls back to the 7.0 backend on typed-mcp's own `typescript@7.0`
 *   dependency. Every TypeScript package is loaded on first use, so importing this package
 *   needs none (a project on TypeScript 6 has no `typescript/unstable/sync`).
 * - The `typescript` option forces one: `"7.0"` (the project's `typescript` if it is 7.0, else
 *   typed-mcp's own), `"6"` (the project's `typescript` if it is
 *   5.x/6.x, else `@typescript/typescript6` from the project, else typed-mcp's own
 *   `@typescript/typescript6`), `"7.1"` (the project's `typescript` if it is 7.1+, else an
 *   error), or a path to a TypeScript package directory (its version decides as above).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Backend, BackendStats, ModuleSession } from "./host.js";
import { ClassicBackend, type ClassicTs } from "./classic.js";
import { ts70Backend } from "./ts7.js";
import { ts71Backend } from "./ts71.js";
import { findTsconfig } from "./project.js";

/** Which backend to run: a version family, or a path to a TypeScript package directory. */
export type TypeScriptChoice = "7.0" | "7.1" | "6" | (string & {});

/** Options of {@link createBackend}. */
export interface BackendOptions {
  /** A fixed tsconfig.json; default: the nearest `tsconfig.json` above each file. */
  tsconfig?: string;
  /** Working directory; default `process.cwd()`. */
  cwd?: string;
  /** Forces a backend (see the module documentation); default: from the project's `typescript`. */
  typescript?: TypeScriptChoice;
}

/** A TypeScript package found for a project. */
export interface FoundTypeScript {
  /** The package directory (holding `package.json`). */
  dir: string;
  version: string;
}

/** Reads `dir/package.json`'s version, or `undefined`. */
function versionAt(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Resolves the package `name` (`typescript`, `@typescript/typescript6`) as the project at `from`
 * (a directory) would, returning its directory and version, or `undefined`.
 */
export function findTypeScript(from: string, name = "typescript"): FoundTypeScript | undefined {
  let dir = resolve(from);
  // Walk node_modules folders upward (what Node's resolution does for a bare specifier);
  // reading package.json directly avoids the package's "exports" restrictions.
  for (;;) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) {
      const version = versionAt(candidate);
      if (version) return { dir: candidate, version };
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  try {
    const pkg = createRequire(join(resolve(from), "noop.js")).resolve(`${name}/package.json`);
    const version = versionAt(dirname(pkg));
    if (version) return { dir: dirname(pkg), version };
  } catch {
    /* not installed */
  }
  return undefined;
}

/** The backend family a TypeScript version runs on: `"7.0"`, `"7.1"` (7.1 and later) or `"6"` (5.x/6.x). */
export function familyOf(version: string): "7.0" | "7.1" | "6" | undefined {
  const m = /^(\d+)\.(\d+)/.exec(version);
  if (!m) return undefined;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  if (major === 7 && minor === 0) return "7.0";
  if (major >= 7) return "7.1";
  if (major === 5 || major === 6) return "6";
  return undefined;
}

function loadClassic(dir: string): ClassicTs {
  const req = createRequire(join(dir, "package.json"));
  return req(dir) as ClassicTs;
}

/** Where typed-mcp's own TypeScript packages are looked up (`@typed-mcp/extract`'s dependencies). */
const OWN_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * Picks and constructs the backend for a project whose tsconfig (or root) directory is
 * `projectDir`. Throws an `Error` with a readable message for an unsupported TypeScript version,
 * a 7.1+ package whose API cannot be loaded, or a forced choice that cannot be found.
 */
function pickBackend(projectDir: string, options: BackendOptions): Backend {
  const forced = options.typescript;
  const own = (name: string) => findTypeScript(OWN_DIR, name);
  const classic = (found: FoundTypeScript) => new ClassicBackend(loadClassic(found.dir), options);
  const byVersion = (found: FoundTypeScript, why: string): Backend => {
    const family = familyOf(found.version);
    if (family === "6") return classic(found);
    if (family === "7.0") {
      let Backend70;
      try {
        Backend70 = ts70Backend(found.dir);
      } catch (e) {
        throw new Error(
          `${why} is TypeScript ${found.version} (${found.dir}), whose API (typescript/unstable/sync) could not be loaded: ${(e as Error).message}.`,
        );
      }
      return new Backend70(options);
    }
    if (family === "7.1") {
      let Backend71;
      try {
        Backend71 = ts71Backend(found.dir, found.version);
      } catch (e) {
        throw new Error(
          `${why} is TypeScript ${found.version} (${found.dir}), whose API (typescript/sync) could not be loaded: ${(e as Error).message}. Set the typescript option to "7.0" or "6".`,
        );
      }
      return new Backend71(options);
    }
    throw new Error(
      `${why} is TypeScript ${found.version} (${found.dir}); typed-mcp supports TypeScript 5.x, 6.x and 7.0.`,
    );
  };
  if (forced === undefined) {
    const found = findTypeScript(projectDir);
    return found ? byVersion(found, "The project's typescript") : new (ts70Backend())(options);
  }
  if (forced === "7.0") {
    const project = findTypeScript(projectDir);
    return project && familyOf(project.version) === "7.0"
      ? byVersion(project, `typescript: "7.0"`)
      : new (ts70Backend())(options);
  }
  if (forced === "7.1") {
    const project = findTypeScript(projectDir);
    if (!project || familyOf(project.version) !== "7.1")
      throw new Error(
        `typescript: "7.1" — the project's typescript is ${project ? project.version : "not installed"}; install typescript@7.1 (or pass its package directory).`,
      );
    return byVersion(project, `typescript: "7.1"`);
  }
  if (forced === "6") {
    const project = findTypeScript(projectDir);
    if (project && familyOf(project.version) === "6") return classic(project);
    const found =
      findTypeScript(projectDir, "@typescript/typescript6") ?? own("@typescript/typescript6") ?? own("typescript6");
    if (!found)
      throw new Error(
        `typescript: "6" — neither the project's typescript (5.x/6.x) nor @typescript/typescript6 is installed.`,
      );
    return classic(found);
  }
  const dir = resolve(options.cwd ?? process.cwd(), forced);
  const version = versionAt(dir);
  if (!version) throw new Error(`typescript: "${forced}" — no TypeScript package.json at ${dir}.`);
  return byVersion({ dir, version }, `typescript: "${forced}"`);
}

/**
 * A {@link Backend} that picks the real one on the first module (from the TypeScript installed
 * next to that module's tsconfig) and delegates to it afterwards. A failure to pick is reported
 * by `session` throwing (the extractor turns it into OMCG0000).
 */
export function createBackend(options: BackendOptions = {}): Backend {
  let backend: Backend | undefined;
  let pending: { file: string; deleted: boolean }[] = [];
  let closed = false;
  const cwd = options.cwd ?? process.cwd();
  const get = (file: string): Backend => {
    if (!backend) {
      if (closed) throw new Error("The extractor was closed.");
      const config = findTsconfig({ tsconfig: options.tsconfig, cwd }, file);
      backend = pickBackend(config ? dirname(config) : cwd, options);
      for (const p of pending) backend.invalidate(p.file, p.deleted);
      pending = [];
    }
    return backend;
  };
  return {
    session: (file: string, code: string): ModuleSession => get(file).session(file, code),
    get generation() {
      return backend?.generation ?? 0;
    },
    invalidate(file: string, deleted = false) {
      if (backend) backend.invalidate(file, deleted);
      else pending.push({ file, deleted });
    },
    stats: (): BackendStats => backend?.stats() ?? { roundTrips: 0, coldStartMs: 0 },
    close: () => {
      closed = true;
      backend?.close();
    },
  };
}
