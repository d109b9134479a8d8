/**
 * The project side shared by every backend: tsconfig discovery, the bundler's text as overlays,
 * and the session flow of {@link Backend.session} (find the tsconfig → overlay the module → load
 * or update the project → check `strictNullChecks` and that the module is in the program) with
 * its OMCG0000 messages. A backend supplies only how its API loads a project ({@link BackendBase.load}).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Backend, BackendStats, ModuleSession } from "./host.js";
import { norm } from "./library.js";

/** Options every backend takes. */
export interface ProjectOptions {
  /** A fixed tsconfig.json; default: the nearest `tsconfig.json` above each file. */
  tsconfig?: string;
  /** Working directory (resolves a relative `tsconfig`; the sidecar's cwd); default `process.cwd()`. */
  cwd?: string;
}

/** The tsconfig for `file`: the fixed `options.tsconfig`, else the nearest `tsconfig.json` above it. */
export function findTsconfig(options: ProjectOptions, file: string): string | undefined {
  if (options.tsconfig) return norm(resolve(options.cwd ?? process.cwd(), options.tsconfig));
  let dir = dirname(file);
  for (;;) {
    const candidate = join(dir, "tsconfig.json");
    if (existsSync(candidate)) return norm(candidate);
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * Records `code` as the overlay of `file` unless it equals what the checker already sees (the
 * previous overlay, or the disk on first sight). Returns whether the overlay changed.
 */
function setOverlay(overlays: Map<string, string>, file: string, code: string): boolean {
  const previous = overlays.get(file);
  if (previous === code) return false;
  let disk: string | undefined;
  if (previous === undefined) {
    try {
      disk = readFileSync(file, "utf8");
    } catch {
      disk = undefined;
    }
  }
  if (previous === undefined && disk === code) return false;
  overlays.set(file, code);
  return true;
}

/** A session of a module whose project is unusable (`message` is reported as OMCG0000). */
function failedSession(message: string): ModuleSession {
  return {
    host: undefined as never,
    configProblem: message,
    methodSignature: () => undefined,
    quickSites: () => [],
    foldConstant: () => ({ error: message }),
    consulted: () => [],
    consultedDeclarations: () => new Map(),
  };
}

/** OMCG0000 when the API could not load the project of `config`. */
export const couldNotLoadMessage = (config: string) => `TypeScript could not load the project ${config}.`;

/** The message for a project without `strictNullChecks`. */
const notStrictMessage = (config: string) =>
  `typed-mcp needs strictNullChecks: set "strict": true (or "strictNullChecks": true) in the compilerOptions of ${config}.`;

/** A project a backend has loaded (or updated) for one module, read in this order by {@link BackendBase.session}. */
export interface LoadedProject<SourceFile> {
  /** The project's resolved compiler options. */
  compilerOptions(): { strict?: boolean; strictNullChecks?: boolean };
  /** The module's source file in the program, `undefined` when the program does not hold it. */
  sourceFile(): SourceFile | undefined;
  /** The module's session over the project's per-program caches. */
  session(sf: SourceFile): ModuleSession;
}

/**
 * The session flow of every backend. Subclasses implement how their API loads a project, records
 * changes, measures and closes; messages and the order of checks are the same on every backend.
 */
export abstract class BackendBase<SourceFile> implements Backend {
  /** The bundler's text of modules, over the disk (absolute, forward slashes). */
  protected readonly overlays = new Map<string, string>();
  protected closed = false;
  /** Incremented whenever the program may have changed: models computed under an older value are stale. */
  generation = 0;

  constructor(protected readonly options: ProjectOptions = {}) {}

  /** Finds the tsconfig for `file`: the fixed one, else the nearest `tsconfig.json` above it. */
  configFor(file: string): string | undefined {
    return findTsconfig(this.options, file);
  }

  /**
   * Opens (or refreshes) the project for `file` with `code` as its text and returns a session;
   * an unusable project is a session with a `configProblem` (OMCG0000). Throws when the
   * extractor was closed, or when the checker itself fails.
   */
  session(file: string, code: string): ModuleSession {
    if (this.closed) throw new Error("The extractor was closed.");
    file = norm(file);
    const config = this.configFor(file);
    if (!config)
      return failedSession(`No tsconfig.json found above ${file}; typed-mcp needs one (with "strict": true).`);
    if (setOverlay(this.overlays, file, code)) this.overlayChanged(file);
    const project = this.load(config, file);
    if (typeof project === "string") return failedSession(project);
    const opts = project.compilerOptions();
    const strictNull = opts.strictNullChecks ?? opts.strict ?? false;
    if (!strictNull) return failedSession(notStrictMessage(config));
    const sf = project.sourceFile();
    if (!sf)
      return failedSession(
        `${file} is not part of the TypeScript project ${config}; include it there (tsconfig "include"/"files").`,
      );
    return project.session(sf);
  }

  /** Whether `file` exists, as an overlay or on disk (a module created since the project was loaded). */
  protected exists(file: string): boolean {
    return this.overlays.has(file) || existsSync(file);
  }

  /** The overlay of `file` changed: mark it for the next program. */
  protected abstract overlayChanged(file: string): void;
  /**
   * Loads or updates the project of `config` so that its program reflects every change so far,
   * including `file` when it was created since (watch mode). A string is the OMCG0000 message.
   */
  protected abstract load(config: string, file: string): LoadedProject<SourceFile> | string;
  abstract invalidate(file: string, deleted?: boolean): void;
  abstract stats(): BackendStats;
  abstract close(): void;
}
