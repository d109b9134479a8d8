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
import { FileHashes } from "./hashes.js";
import { ModelCache } from "./cache.js";
import { ModuleKeys } from "./key.js";
import { ModuleMemory } from "./memory.js";

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
   * For hosts without a watcher (Babel, the webpack-loader entry): before each module, the
   * modules extracted earlier, the files their extractions consulted and their tsconfig files
   * are checked on disk, and the changed ones passed to the sidecar (a changed tsconfig closes it).
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
  /** Content hashes shared by the keys, both layers and the change checks. */
  readonly hashes = new FileHashes();
  /**
   * The memory layer: each module's last model, and the code generated from it, reused by its
   * next splice when the model did not change (memory.ts). A splice that generated code stores
   * the module's code with its model in the disk layer.
   */
  readonly memory = new ModuleMemory((file, key, model, generated, code) => {
    const unstored = this.unstored.get(file)?.key === key && this.unstored.delete(file);
    if (generated || unstored) this.layers?.disk?.store(file, key, model, code());
  });
  /**
   * Extracted models not yet in the disk layer, by module: each is stored with its code when its
   * splice is planned (one write, not two), or without it by {@link close}.
   */
  private readonly unstored = new Map<string, { key: string; model: ModuleModel }>();
  /** Declaration tables of consulted files, shared by both layers' validity checks. */
  readonly tables = new DeclarationTables();
  private extractor: MeasuredExtractor | undefined;
  private sidecarReported = false;
  /** The disk layer (`null` when the `cache` option is off) and the keys both layers share, made on first use. */
  private layers: { keys: ModuleKeys; disk: ModelCache | null } | undefined;
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
   * The model of module `file` (absolute, forward slashes) with text `code`, which the host's
   * screen (`mayDeclareTools` of `@typed-mcp/extract`) let through: the session's previous model
   * of the module (a `reuse` event) or the disk cache's (a `cache-hit`), when the module's key is
   * the same and every declaration it depends on unchanged (docs/bundlers.md "Watch mode and
   * cache"); else extracted (starting the sidecar when needed) and kept in both layers (on disk
   * with its generated code once its splice is planned, or at {@link close}). The model
   * is shared with later reuses: callers read it and never change it. Never throws for bad user
   * code: problems are the model's diagnostics (spec §10).
   */
  model(file: string, code: string): ModuleModel {
    if (this.options.pollChanges) this.poll();
    const { keys, disk } = this.layersOf();
    const key = keys.of(file, code);
    const remembered = this.memory.lookup(file, key, this.hashes, this.tables);
    if (remembered.model) {
      this.emit({ type: "reuse", file });
      this.armIdleTimer();
      return remembered.model;
    }
    // A stale memory entry of this key holds the model the disk entry of the key was stored with.
    const hit = remembered.stale ? undefined : disk?.lookup(file, key);
    if (hit) this.emit({ type: "cache-hit", file });
    else if (disk) this.emit({ type: "cache-miss", file });
    const model = hit?.model ?? this.extract(file, code);
    if (!hit && disk && model.diagnostics.length === 0) this.unstored.set(file, { key, model });
    if (this.options.pollChanges) {
      // The module itself too: the sidecar reads a module whose text equals the disk from its
      // snapshot, so an edit on disk must reach it as a change (as a watcher's event would).
      for (const f of [file, ...model.consultedFiles]) if (!this.polled.has(f)) this.polled.set(f, this.hashes.hash(f));
    }
    this.memory.remember(file, key, model, this.hashes, hit?.code);
    this.armIdleTimer();
    return model;
  }

  /** Extracts module `file` (an `extract` event), starting the sidecar when needed. */
  private extract(file: string, code: string): ModuleModel {
    this.emit({ type: "extract", file });
    const x = this.open();
    const model = x.extract(file, code, { screened: true });
    if (!this.sidecarReported && x.stats().coldStartMs > 0) {
      this.sidecarReported = true;
      this.emit({ type: "sidecar-start" });
    }
    return model;
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
    if (deleted || !this.memory.knows(file)) this.memory.clear();
    if (!this.extractor) return;
    this.extractor.invalidate(file, deleted);
    this.emit({ type: "invalidate", file, deleted });
  }

  /**
   * Ends the sidecar, if one runs (a `sidecar-close` event when it had started), and stores the
   * extracted models no splice stored. Idempotent.
   */
  close(): void {
    for (const [file, { key, model }] of this.unstored) this.layers?.disk?.store(file, key, model);
    this.unstored.clear();
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

  /**
   * The keys and the disk layer, made on first use (after the host's config hooks ran): the
   * lock file is looked for from the root, `cache.dir` resolves against it.
   */
  private layersOf(): { keys: ModuleKeys; disk: ModelCache | null } {
    if (this.layers) return this.layers;
    const { cache, tsconfig, typescript, cwd, profile } = this.options;
    const root = this.options.root?.() ?? cwd ?? process.cwd();
    const keys = new ModuleKeys({ root, tsconfig, cwd, typescript, profile, hashes: this.hashes });
    if (cache === false) return (this.layers = { keys, disk: null });
    const dir =
      typeof cache === "object" && cache.dir
        ? resolve(root, cache.dir)
        : (this.options.cacheDir?.() ?? join(root, "node_modules/.cache/typed-mcp"));
    const disk = new ModelCache({ dir, root, keys, tables: this.tables });
    return (this.layers = { keys, disk });
  }

  /**
   * `pollChanges`: a tsconfig {@link tsconfigOf} returned whose content changed closes the
   * extractor (as {@link changed} does for a watcher's event); the consulted files that changed on
   * disk since are passed to the running sidecar.
   */
  private poll(): void {
    for (const [config, seen] of this.configSeen) {
      if (this.hashes.hash(config) === seen) continue;
      this.configSeen.clear();
      this.close();
      break;
    }
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
