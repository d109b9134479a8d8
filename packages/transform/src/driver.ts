/**
 * The driver: one build session's extractor, model cache and invalidation lifecycle, shared by
 * the bundler plugin (`@typed-mcp/unplugin`) and the Babel plugin (`@typed-mcp/babel`). Each
 * adapter turns its host's hooks into calls of {@link Driver.model}, {@link Driver.changed} and
 * {@link Driver.close}; everything between the module text and its {@link ModuleModel} happens
 * here (docs/bundlers.md, "Watch mode and cache").
 *
 * @packageDocumentation
 */
import { join, resolve } from "node:path";
import {
  createExtractor,
  DeclarationTables,
  findTsconfig,
  type MeasuredExtractor,
  type TypeScriptChoice,
} from "@typed-mcp/extract";
import { moduleWarnings, PROFILES, type Profile } from "@typed-mcp/codegen";
import type { BuildWarning, ModuleModel, WarningCode } from "@typed-mcp/model";
import { ConfigHashes, FileHashes, hashesOf, ModelCache, stillValid } from "./cache.js";
import { GeneratedCodeMemo } from "./memo.js";

/**
 * What a driver reports through {@link DriverOptions.onEvent}:
 * - `sidecar-start` / `sidecar-close`: a TypeScript sidecar process started (first module
 *   extracted) or was ended; `sidecar-close` names the backend that ran (`"7.0"`, `"7.1"`, `"6"`)
 *   and its TypeScript version when a module was checked;
 * - `reuse`: a module's model was reused from earlier in the session — same text, and every
 *   declaration it depends on unchanged (docs/bundlers.md "Invalidation per declaration");
 * - `cache-hit` / `cache-miss`: a module's model came from the cache, or had to be extracted;
 * - `extract`: a module was handed to the extractor (the sidecar, when it has tool sites);
 * - `invalidate`: a changed file was passed on to the sidecar (`deleted` for a removed file):
 *   from the host's watcher ({@link Driver.changed}) or, with `pollChanges`, found on disk.
 */
export type DriverEvent =
  | { type: "sidecar-start" }
  | { type: "sidecar-close"; backend?: string; typescriptVersion?: string }
  | { type: "cache-hit" | "cache-miss" | "extract" | "reuse"; file: string }
  | { type: "invalidate"; file: string; deleted: boolean };

/** Options of a {@link Driver}: the plugin options it acts on, and what the host knows. */
export interface DriverOptions {
  /** The fixed tsconfig.json (the plugins' `tsconfig` option); default: the nearest above each module. */
  tsconfig?: string;
  /** The plugins' `typescript` option: which TypeScript reads the types (part of the cache key). */
  typescript?: TypeScriptChoice;
  /** The plugins' `cache` option: `true` (default), `{ dir }` (relative to the root) or `false`. */
  cache?: boolean | { dir?: string };
  /** Working directory of the extractor (module paths resolve against it); default `process.cwd()`. */
  cwd?: string;
  /**
   * The project root, asked once when the cache is first used (after the host's config hooks
   * ran): `cache.dir` resolves against it and the lock file is looked for from it. Default: `cwd`.
   */
  root?: () => string;
  /**
   * The host's cache directory when `cache` names none (e.g. inside Vite's `cacheDir`), or
   * `undefined` for the default, `<root>/node_modules/.cache/typed-mcp`.
   */
  cacheDir?: () => string | undefined;
  /**
   * Milliseconds without a module after which the sidecar is ended (for hosts without a "build
   * finished" hook, such as Babel); default: never (the host calls {@link Driver.close}).
   */
  idleTimeoutMs?: number;
  /**
   * For hosts without a watcher (Babel): before each module, the files earlier extractions
   * consulted are checked on disk and the changed ones passed to the sidecar.
   */
  pollChanges?: boolean;
  /**
   * The plugins' `profile` option (spec §11): the listing rewrite of every tool of the build;
   * part of the cache key. Default `"default"`. An unknown name throws a TypeError at creation.
   */
  profile?: Profile;
  /** The plugins' `warnings` option (spec §10): `{ OMCW0002: false }` silences one warning code. */
  warnings?: Partial<Record<WarningCode, boolean>>;
  /** Called for what the driver does (see {@link DriverEvent}); a throwing listener is ignored. */
  onEvent?: (event: DriverEvent) => void;
}

/** Files whose change can alter what the sidecar sees (not directories or assets). */
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|json)$/;
const TSCONFIG = /(?:^|\/)tsconfig[^/]*\.json$/;

/**
 * One build session: the extractor (and so one TypeScript sidecar process), created lazily on
 * the first module the cache cannot answer and ended by {@link Driver.close}, after
 * `idleTimeoutMs` without a module, or when the process exits; the {@link ModelCache}; and the
 * content hashes both share. A tsconfig change closes the extractor (the next module opens a
 * fresh one with the new options); other changes update it incrementally.
 */
export class Driver {
  /** Content hashes shared by the cache and the change checks. */
  readonly hashes = new FileHashes();
  /** Generated code of the session's modules, reused by their next splice when their models did not change. */
  readonly generated = new GeneratedCodeMemo();
  /** Declaration tables of consulted files, shared by the cache and the session's reuse checks. */
  readonly tables = new DeclarationTables();
  /** Hashes of each module's tsconfig chain (part of what a reused model must match). */
  private readonly configs = new ConfigHashes(this.hashes);
  /**
   * Per module: the last model without diagnostics, with the text, tsconfig hash and consulted
   * files' hashes it holds for (see {@link stillValid}).
   */
  private readonly live = new Map<
    string,
    { code: string; config: string; consulted: Record<string, string>; model: ModuleModel }
  >();
  private extractor: MeasuredExtractor | undefined;
  private sidecarReported = false;
  private modelCache: ModelCache | null | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The tsconfig files {@link tsconfigOf} returned, with their content hash when first seen. */
  private readonly configSeen = new Map<string, string>();
  /** With `pollChanges`: the hash of every file an extraction consulted, as last passed on. */
  private readonly polled = new Map<string, string>();
  private readonly onExit = () => this.close();

  /** A session; nothing starts before the first {@link model} call. */
  constructor(private readonly options: DriverOptions = {}) {
    const p = options.profile;
    if (p !== undefined && !PROFILES.includes(p)) {
      throw new TypeError(
        `typed-mcp: unknown profile ${JSON.stringify(p)}; expected one of ${PROFILES.join(", ")} (spec §11).`,
      );
    }
  }

  /** The build's profile (spec §11). */
  get profile(): Profile {
    return this.options.profile ?? "default";
  }

  /** The build warnings of a module's model (spec §10), derived on every build, cached or not. */
  warnings(model: ModuleModel): BuildWarning[] {
    return model.diagnostics.length > 0 ? [] : moduleWarnings(model.tools, this.profile, this.options.warnings);
  }

  /**
   * The model of module `file` (absolute, forward slashes) with text `code`: from the cache when
   * it has a valid entry, else extracted (starting the sidecar when needed) and stored; or the
   * session's previous model of the module, when its text and every declaration it depends on are
   * unchanged (a `reuse` event). The model is shared with later reuses: callers read it and never
   * change it. Never throws for bad user code: problems are the model's diagnostics (spec §10).
   */
  model(file: string, code: string): ModuleModel {
    if (this.options.pollChanges) this.poll();
    const config = this.configKey(file);
    const live = this.live.get(file);
    if (
      live &&
      live.code === code &&
      live.config === config &&
      stillValid(live.model, live.consulted, this.hashes, this.tables)
    ) {
      this.emit({ type: "reuse", file });
      live.consulted = hashesOf(live.model.consultedFiles, this.hashes);
      this.armIdleTimer();
      return live.model;
    }
    const cache = this.cache();
    // The entry of this text and tsconfig holds the model just found stale (it was stored with it).
    const staleHere = live !== undefined && live.code === code && live.config === config;
    const hit = staleHere ? undefined : cache?.lookup(file, code);
    let model: ModuleModel;
    if (hit) {
      this.emit({ type: "cache-hit", file });
      model = hit.model;
    } else {
      if (cache) this.emit({ type: "cache-miss", file });
      this.emit({ type: "extract", file });
      const x = this.open();
      model = x.extract(file, code);
      if (!this.sidecarReported && x.stats().coldStartMs > 0) {
        this.sidecarReported = true;
        this.emit({ type: "sidecar-start" });
      }
      cache?.store(file, code, model);
    }
    if (this.options.pollChanges) {
      for (const f of model.consultedFiles) if (!this.polled.has(f)) this.polled.set(f, this.hashes.hash(f));
    }
    if (model.diagnostics.length === 0) {
      this.live.set(file, { code, config, consulted: hashesOf(model.consultedFiles, this.hashes), model });
    } else {
      this.live.delete(file);
    }
    this.armIdleTimer();
    return model;
  }

  /** Whether `file` is a module with a live model, or consulted by one. */
  private knows(file: string): boolean {
    if (this.live.has(file)) return true;
    for (const { model } of this.live.values()) if (model.consultedFiles.includes(file)) return true;
    return false;
  }

  /** What a module's model depends on besides its text and consulted files: its tsconfig chain. */
  private configKey(file: string): string {
    const config = findTsconfig(this.options, file);
    return config ? this.configs.of(config) : "no tsconfig";
  }

  /**
   * The tsconfig.json module `file` is checked with (extract's `findTsconfig`, the extractor's own rule), for the host to
   * watch; its content hash is remembered, so that {@link changed} can tell a real edit.
   */
  tsconfigOf(file: string): string | undefined {
    const config = findTsconfig(this.options, file);
    if (config && !this.configSeen.has(config)) this.configSeen.set(config, this.hashes.hash(config));
    return config;
  }

  /**
   * A watcher reported that `file` (absolute, forward slashes) changed or was `deleted`. A
   * tsconfig whose content differs from what {@link tsconfigOf} saw closes the extractor (hosts
   * also report files whose timestamps only moved); a source or JSON file is passed on to the
   * running sidecar (an `invalidate` event). A deleted source file, or one that no model of the
   * session is or consulted (it may be new, and change how imports resolve), ends the reuse of
   * every model of the session; a consulted file's edit is checked per declaration on reuse.
   */
  changed(file: string, deleted: boolean): void {
    this.hashes.forget(file);
    if (TSCONFIG.test(file)) {
      if (this.configSeen.get(file) !== this.hashes.hash(file)) {
        this.configSeen.clear();
        this.close();
      }
      return;
    }
    if (!SOURCE_FILE.test(file)) return;
    if (deleted || !this.knows(file)) this.live.clear();
    if (!this.extractor) return;
    this.extractor.invalidate(file, deleted);
    this.emit({ type: "invalidate", file, deleted });
  }

  /** Ends the sidecar, if one runs (a `sidecar-close` event when it had started). Idempotent. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.extractor) return;
    const { backend, typescriptVersion } = this.extractor.stats();
    this.extractor.close();
    this.extractor = undefined;
    process.off("exit", this.onExit);
    if (this.sidecarReported) this.emit({ type: "sidecar-close", backend, typescriptVersion });
    this.sidecarReported = false;
  }

  private open(): MeasuredExtractor {
    if (!this.extractor) {
      const { tsconfig, typescript, cwd } = this.options;
      this.extractor = createExtractor({ tsconfig, typescript, cwd });
      this.polled.clear();
      // A build that dies without its end hooks must not leave the sidecar behind.
      process.once("exit", this.onExit);
    }
    return this.extractor;
  }

  /** The cache, created on first use (after the host's config hooks ran); `null` when off. */
  private cache(): ModelCache | null {
    if (this.modelCache !== undefined) return this.modelCache;
    const { cache, tsconfig, typescript, cwd, profile } = this.options;
    if (cache === false) return (this.modelCache = null);
    const root = this.options.root?.() ?? cwd ?? process.cwd();
    const dir =
      typeof cache === "object" && cache.dir
        ? resolve(root, cache.dir)
        : (this.options.cacheDir?.() ?? join(root, "node_modules/.cache/typed-mcp"));
    this.modelCache = new ModelCache({
      dir,
      root,
      tsconfig,
      cwd,
      typescript,
      profile,
      hashes: this.hashes,
      tables: this.tables,
    });
    return this.modelCache;
  }

  /** `pollChanges`: passes the consulted files that changed on disk since to the running sidecar. */
  private poll(): void {
    if (!this.extractor) return;
    for (const [file, seen] of this.polled) {
      const now = this.hashes.hash(file);
      if (now === seen) continue;
      this.polled.set(file, now);
      this.extractor.invalidate(file, now === "missing");
      this.emit({ type: "invalidate", file, deleted: now === "missing" });
    }
  }

  private armIdleTimer(): void {
    const ms = this.options.idleTimeoutMs;
    if (ms === undefined || !this.extractor) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.close(), ms);
    this.timer.unref(); // the sidecar's pipes are unref'd too: neither keeps the process alive
  }

  private emit(event: DriverEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      /* a reporter's failure must not fail the build */
    }
  }
}
