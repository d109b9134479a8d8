/**
 * The TypeScript 7.0 backend: the only module that loads `typescript/unstable/sync`
 * (`ipc-session.ts` uses its types only).
 *
 * One warm tsgo sidecar per extractor (spawned lazily on first use, reused across modules,
 * ended by `close()`). Module text handed over by the bundler is overlaid through the API's
 * virtual file system (`fs.readFile`), and changes are applied incrementally with
 * `updateSnapshot({ fileChanges })`. Queries are batched where the API accepts arrays, and
 * every answer is cached per snapshot (the API's round trips dominate the cost). This module
 * holds the sidecar and its snapshots; the type queries of one module are `ipc-session.ts`.
 *
 * The same code serves TypeScript 7.1 (`typescript/sync`, see `ts71.ts`): the backend is built by
 * {@link ipcBackend} from the loaded API modules (their enum values differ between 7.0 and 7.1),
 * and the few calls whose shape changed in 7.1 (snapshot creation and update, project lookup,
 * compiler options, file-system callbacks) go through {@link IpcLib}.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import type { ChildProcess } from "node:child_process";
import type * as sync70 from "typescript/unstable/sync";
import type { API, Project, Snapshot } from "typescript/unstable/sync";
import type * as ast70 from "typescript/unstable/ast";
import type { SourceFile } from "typescript/unstable/ast";
import type { Backend, BackendStats } from "./host.js";
import { IpcSession } from "./ipc-session.js";
import { norm } from "./library.js";
import { Caches } from "./primitives.js";
import { BackendBase, couldNotLoadMessage, type LoadedProject, type ProjectOptions } from "./project.js";

/** Options of the IPC backends. */
type Ts7BackendOptions = ProjectOptions;

/**
 * What differs between the TypeScript 7.0 and 7.1 IPC APIs. The rest of the API (checker,
 * symbols, types, node handles, AST) has the same shape; the enum values come from the modules.
 */
export interface IpcLib {
  /** `"7.0"` (`typescript/unstable/sync`) or `"7.1"` (`typescript/sync`). */
  family: "7.0" | "7.1";
  /** The TypeScript package version. */
  version: string;
  /** The API module (`API` and the flag enums). */
  sync: typeof sync70;
  /** The AST module (`SyntaxKind`, `NodeFlags`). */
  ast: typeof ast70;
  /** Starts the sidecar; `overlay(file)` is the bundler's text for a file, else `undefined` (read the disk). */
  createApi(cwd: string, overlay: (file: string) => string | undefined): API;
  /** The first snapshot, with the tsconfig `config` opened. */
  firstSnapshot(api: API, config: string): Snapshot;
  /** A new snapshot after `old`: more projects opened; files changed, deleted or created on disk or in overlays. */
  nextSnapshot(
    api: API,
    old: Snapshot,
    open: string[],
    changed: string[],
    deleted: string[],
    created?: string[],
  ): Snapshot;
  /** The project of the tsconfig `config` in `snapshot`. */
  project(snapshot: Snapshot, config: string): Project | undefined;
  /** The project's resolved compiler options. */
  compilerOptions(project: Project): { strict?: boolean; strictNullChecks?: boolean };
}

/**
 * TypeScript 7.0's API (`typescript/unstable/sync` + `/ast`) from the package directory `dir`
 * (default: typed-mcp's own `typescript` dependency), loaded on first use — so that importing
 * `@typed-mcp/extract` never needs a TypeScript 7 (a project on TypeScript 6 has none). Loaded
 * with `require` (Node ≥ 20.19 `require`s ES modules) from the package's own path. Throws
 * `ERR_PACKAGE_PATH_NOT_EXPORTED` / `MODULE_NOT_FOUND` when `dir` is not a TypeScript 7.0.
 */
function ts70Lib(dir?: string): IpcLib {
  dir ??= dirname(createRequire(import.meta.url).resolve("typescript/package.json"));
  const req = createRequire(join(dir, "package.json"));
  // Self-reference: the package is named "typescript", so its own exports map applies.
  const sync = req("typescript/unstable/sync") as typeof sync70;
  const ast = req("typescript/unstable/ast") as typeof ast70;
  const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  return {
    family: "7.0",
    version,
    sync,
    ast,
    createApi: (cwd, overlay) =>
      new sync.API({ cwd, collectTiming: true, fs: { readFile: (name: string) => overlay(norm(name)) } }),
    firstSnapshot: (api, config) => api.updateSnapshot({ openProjects: [config] }),
    nextSnapshot: (api, _old, open, changed, deleted, created = []) =>
      api.updateSnapshot({
        ...(open.length ? { openProjects: open } : {}),
        ...(changed.length || deleted.length || created.length ? { fileChanges: { changed, deleted, created } } : {}),
      }),
    project: (snapshot, config) => snapshot.getProject(config) ?? snapshot.getProjects()[0],
    compilerOptions: (project) => project.compilerOptions as { strict?: boolean; strictNullChecks?: boolean },
  };
}

/** A backend class over one IPC API version. */
export type IpcBackendClass = new (
  options?: Ts7BackendOptions,
) => Backend & {
  /** The tsconfig used for `file`. */
  configFor(file: string): string | undefined;
};

/** Builds the IPC backend class for `lib` (TypeScript 7.0 or 7.1). */
export function ipcBackend(lib: IpcLib): IpcBackendClass {
  return class extends IpcBackend {
    constructor(options?: Ts7BackendOptions) {
      super(lib, options);
    }
  };
}

/** The TypeScript 7.x IPC backend over the API `lib`. */
class IpcBackend extends BackendBase<SourceFile> {
  private api: API | undefined;
  private snapshot: Snapshot | undefined;
  private readonly openConfigs = new Set<string>();
  private readonly pendingChanged = new Set<string>();
  private readonly pendingDeleted = new Set<string>();
  /** Modules not in their program that were already reported to the sidecar as created. */
  private readonly createdTried = new Set<string>();
  private coldStartMs = 0;
  /** Per-snapshot caches, keyed by project. */
  private readonly caches = new Map<string, Caches>();

  constructor(
    private readonly lib: IpcLib,
    options?: Ts7BackendOptions,
  ) {
    super(options);
  }

  protected overlayChanged(file: string): void {
    if (this.snapshot) this.pendingChanged.add(file);
  }

  /** Starts the sidecar, or moves to a new snapshot with the pending changes and configs. */
  private update(config: string): void {
    const lib = this.lib;
    const newConfig = !this.openConfigs.has(config);
    if (!this.api) {
      const t0 = performance.now();
      this.api = lib.createApi(this.options.cwd ?? process.cwd(), (name) => this.overlays.get(name));
      this.openConfigs.add(config);
      this.snapshot = lib.firstSnapshot(this.api, config);
      this.pendingChanged.clear();
      this.coldStartMs = performance.now() - t0;
    } else if (newConfig || this.pendingChanged.size > 0 || this.pendingDeleted.size > 0) {
      if (newConfig) this.openConfigs.add(config);
      const changed = [...this.pendingChanged];
      const deleted = [...this.pendingDeleted];
      this.pendingChanged.clear();
      this.pendingDeleted.clear();
      this.replaceSnapshot((old) => lib.nextSnapshot(this.api!, old, newConfig ? [config] : [], changed, deleted));
    }
  }

  /** A new snapshot from the current one (whose caches become stale and which is disposed). */
  private replaceSnapshot(next: (old: Snapshot) => Snapshot): void {
    const old = this.snapshot!;
    this.snapshot = next(old);
    this.caches.clear();
    this.generation++;
    old.dispose();
  }

  protected load(config: string, file: string): LoadedProject<SourceFile> | string {
    this.update(config);
    let project = this.lib.project(this.snapshot!, config);
    if (!project) return couldNotLoadMessage(config);
    if (!project.program.getSourceFile(file) && !this.createdTried.has(file) && this.exists(file)) {
      // A module created since the project was loaded (watch mode): report it as created once,
      // so the config's include globs are matched again.
      this.createdTried.add(file);
      this.replaceSnapshot((old) => this.lib.nextSnapshot(this.api!, old, [], [], [], [file]));
      project = this.lib.project(this.snapshot!, config);
      if (!project) return couldNotLoadMessage(config);
    }
    const found = project;
    return {
      compilerOptions: () => this.lib.compilerOptions(found),
      sourceFile: () => found.program.getSourceFile(file),
      session: (sf) => new IpcSession(this.lib, found, sf, file, this.cachesOf(found)),
    };
  }

  private cachesOf(project: Project): Caches {
    let caches = this.caches.get(project.id);
    if (!caches) {
      caches = new Caches();
      this.caches.set(project.id, caches);
    }
    return caches;
  }

  /** Records a change on disk (watch mode); applied with the next `session`. */
  invalidate(file: string, deleted = false): void {
    file = norm(file);
    this.overlays.delete(file);
    this.createdTried.delete(file);
    if (!this.snapshot) return;
    if (deleted) {
      this.pendingDeleted.add(file);
      this.pendingChanged.delete(file);
    } else {
      this.pendingChanged.add(file);
    }
  }

  /** Measurements so far. */
  stats(): BackendStats {
    const { family, version } = this.lib;
    if (!this.api) return { roundTrips: 0, coldStartMs: 0, backend: family, typescriptVersion: version };
    const info = this.api.getTimingInfo();
    return {
      roundTrips: info.totals.requestCount,
      coldStartMs: this.coldStartMs,
      backend: family,
      typescriptVersion: version,
    };
  }

  /** Ends the sidecar. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.snapshot?.dispose();
    } catch {
      /* already gone */
    }
    const api = this.api;
    this.api = undefined;
    this.snapshot = undefined;
    if (api) endSidecar(api);
  }
}

/** How long a sidecar may take to end after the end of its input before it is killed. */
const SIDECAR_EXIT_MS = 5_000;

/**
 * Closes the API and ends its sidecar by the end of its input only. The API's own `close()` closes
 * the sidecar's stdin and at once sends SIGTERM; when the signal is handled before the end of
 * input, tsgo prints `context canceled` on the stderr it shares with this process (inherited:
 * seen as 1 run in 16 of `typed-mcp list` under load), so that signal is left out: tsgo exits by
 * itself at the end of its input, silently. A sidecar still running {@link SIDECAR_EXIT_MS}
 * later is killed (the timer holds no process open). When the API's internals are not the ones
 * expected (`client.channel.child`, TypeScript 7.0 and 7.1), its own `close()` is used as is.
 */
function endSidecar(api: API): void {
  const child = (api as unknown as { client?: { channel?: { child?: unknown } } }).client?.channel?.child as
    | ChildProcess
    | undefined;
  const kill = typeof child?.kill === "function" ? child.kill.bind(child) : undefined;
  if (child && kill) child.kill = () => false;
  try {
    api.close();
  } catch {
    /* already gone */
  }
  if (!child || !kill || child.exitCode !== null || child.signalCode !== null) return;
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) kill();
  }, SIDECAR_EXIT_MS);
  timer.unref();
  child.once("exit", () => clearTimeout(timer));
}

const ts70Classes = new Map<string, IpcBackendClass>();

/**
 * The TypeScript 7.0 IPC backend class over the 7.0 package at `dir` (default: typed-mcp's own
 * `typescript` dependency); loaded once per directory. Throws as {@link ts70Lib}.
 */
export function ts70Backend(dir?: string): IpcBackendClass {
  const key = dir ?? "";
  let cls = ts70Classes.get(key);
  if (!cls) {
    cls = ipcBackend(ts70Lib(dir));
    ts70Classes.set(key, cls);
  }
  return cls;
}
