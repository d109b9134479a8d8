/**
 * The content-hash cache of extracted module models (docs/bundlers.md, "Watch mode and cache").
 *
 * An entry is the plain {@link ModuleModel} of one module — never generated code: code
 * generation is cheap and runs on every build, so a codegen change can never be served stale
 * from the cache. An entry is valid for a module when all of these are unchanged:
 * - the module's path and text (as the host hands it over),
 * - the content hash of every file whose declarations were consulted (recorded in the entry),
 *   or else the declarations of those files the model depends on ({@link stillValid}),
 * - the tsconfig the module is checked with (its text, and the text of the configs it extends:
 *   {@link tsconfigChain}),
 * - the extractor (its version and the hash of its own code and of the model package's), the
 *   TypeScript package the project's backend runs on (resolved from the tsconfig's directory,
 *   as the extractor picks it), and the project's lock file (declarations under
 *   `node_modules` are not tracked one by one).
 *
 * The first three plus the last form the entry's file name; the consulted hashes are checked on
 * lookup (they are only known once the module was extracted). Writes are atomic (a temp file,
 * then `rename`); an unreadable, corrupt or mismatching entry counts as a miss.
 *
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import type { ModuleModel } from "@typed-mcp/model";
import { DeclarationTables, dependencyDigest, findTypeScript } from "@typed-mcp/extract";
import { findTsconfig } from "@typed-mcp/extract";

/** Version of the entry format; bumped when it changes. */
const FORMAT = 1;

const sha = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

interface Stamp {
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  hash: string;
}

/**
 * Content hashes of files, memoized by (mtime, ctime, size): a file is re-read only when its
 * stat changed. A missing file hashes to `"missing"`.
 */
export class FileHashes {
  private readonly stamps = new Map<string, Stamp>();

  /** The SHA-256 of `file`'s bytes, or `"missing"` when it cannot be read. */
  hash(file: string): string {
    let st;
    try {
      st = statSync(file);
    } catch {
      this.stamps.delete(file);
      return "missing";
    }
    const known = this.stamps.get(file);
    if (known && known.mtimeMs === st.mtimeMs && known.ctimeMs === st.ctimeMs && known.size === st.size)
      return known.hash;
    let hash: string;
    try {
      hash = sha(readFileSync(file));
    } catch {
      return "missing";
    }
    this.stamps.set(file, { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, size: st.size, hash });
    return hash;
  }

  /** Forgets what is known about `file` (a watcher reported a change). */
  forget(file: string): void {
    this.stamps.delete(file);
  }
}

/**
 * A hash of the extractor's identity: the bytes of the built code of `@typed-mcp/extract` and
 * `@typed-mcp/model` (which holds the naming rules), their versions, and the entry format.
 * Computed once per process.
 */
let extractorSalt: string | undefined;
function saltOfExtractor(): string {
  if (extractorSalt) return extractorSalt;
  const h = createHash("sha256").update(`format ${FORMAT}\n`);
  const require = createRequire(import.meta.url);
  try {
    const entry = require.resolve("@typed-mcp/extract");
    const extractRequire = createRequire(entry);
    for (const [name, main] of [
      ["@typed-mcp/extract", entry],
      ["@typed-mcp/model", extractRequire.resolve("@typed-mcp/model")],
    ] as const) {
      const dist = dirname(main);
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          if (e.isDirectory()) walk(join(dir, e.name));
          else if (e.name.endsWith(".js")) files.push(join(dir, e.name));
        }
      };
      walk(dist);
      h.update(name);
      for (const f of files.sort()) h.update(f.slice(dist.length)).update(readFileSync(f));
      try {
        h.update(
          String((JSON.parse(readFileSync(join(dist, "../package.json"), "utf8")) as { version?: string }).version),
        );
      } catch {
        h.update("?");
      }
    }
  } catch {
    h.update("unknown extractor");
  }
  return (extractorSalt = h.digest("hex"));
}

const LOCK_FILES = ["pnpm-lock.yaml", "package-lock.json", "yarn.lock", "bun.lock", "bun.lockb", "deno.lock"];

/**
 * Whether `model`, extracted when its consulted files had the content hashes `consulted`, still
 * holds (docs/bundlers.md "Invalidation per declaration"): every consulted file still has its
 * recorded hash, or else the declarations the model depends on are unchanged
 * (`model.declarations`, checked with `@typed-mcp/extract`'s `dependencyDigest` over the files'
 * current text). A model without recorded declarations holds only while its files are unchanged.
 */
export function stillValid(
  model: ModuleModel,
  consulted: Record<string, string>,
  hashes: FileHashes,
  tables: DeclarationTables,
): boolean {
  let changed = false;
  for (const [file, hash] of Object.entries(consulted)) {
    if (hashes.hash(file) !== hash) {
      changed = true;
      break;
    }
  }
  if (!changed) return true;
  const d = model.declarations;
  if (!d || typeof d.digest !== "string" || !Array.isArray(d.names) || !Array.isArray(d.whole)) return false;
  return dependencyDigest(model.consultedFiles, d.names, d.whole, (f) => tables.of(f, hashes.hash(f))) === d.digest;
}

/** The content hashes of `files` now, for {@link stillValid}. */
export function hashesOf(files: readonly string[], hashes: FileHashes): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) out[f] = hashes.hash(f);
  return out;
}

/**
 * The hash of a tsconfig and every config it extends ({@link tsconfigChain}), memoized per
 * config: the chain is read again only when one of its files' content hash changed.
 */
export class ConfigHashes {
  private readonly memo = new Map<string, { chain: string[]; stamps: string[]; digest: string }>();

  constructor(private readonly hashes: FileHashes) {}

  /** SHA-256 over the paths and content hashes of `config`'s chain. */
  of(config: string): string {
    const known = this.memo.get(config);
    if (known && known.chain.every((f, i) => this.hashes.hash(f) === known.stamps[i])) return known.digest;
    const chain = tsconfigChain(config);
    const stamps = chain.map((f) => this.hashes.hash(f));
    const h = createHash("sha256");
    chain.forEach((f, i) => {
      h.update(f).update("\0").update(stamps[i]!);
    });
    const digest = h.digest("hex");
    this.memo.set(config, { chain, stamps, digest });
    return digest;
  }
}

/** Options of {@link ModelCache}. */
export interface ModelCacheOptions {
  /** The cache directory (created on first write). */
  dir: string;
  /** Where to start looking for a lock file (walking up); usually the project root. */
  root: string;
  /** The fixed tsconfig.json, if the plugin was given one; else the nearest above each module. */
  tsconfig?: string;
  /** The extractor's working directory, against which a relative `tsconfig` resolves (extract's `findTsconfig`); default `process.cwd()`. */
  cwd?: string;
  /** The plugin's forced TypeScript choice, if any (a different choice is a different key). */
  typescript?: string;
  /** The `profile` build option (spec §11): part of the key, so a profile change never reuses another build's entry. */
  profile?: string;
  /** Hashes shared with the plugin (so a watcher's `forget` reaches the cache too). */
  hashes?: FileHashes;
  /** Declaration tables shared with the plugin, for {@link stillValid}. */
  tables?: DeclarationTables;
}

/** A cached model and the files it consulted. */
export interface CacheHit {
  /** The model as stored (it still holds: {@link stillValid}). */
  model: ModuleModel;
}

interface Entry {
  format: number;
  key: string;
  file: string;
  consulted: Record<string, string>;
  model: ModuleModel;
}

/**
 * The on-disk model cache. `lookup` and `store` never throw: a cache that cannot be read or
 * written only costs the work it would have saved.
 */
export class ModelCache {
  /** The content hashes the cache checks entries with (`options.hashes`, or its own). */
  readonly hashes: FileHashes;
  private readonly tables: DeclarationTables;
  private readonly configs: ConfigHashes;
  private readonly salt: string;
  /** Per tsconfig: the TypeScript package its project runs on (resolved once per process). */
  private readonly typescripts = new Map<string, string>();

  /** A cache in `options.dir`; the lock file above `options.root` is hashed once, here. */
  constructor(private readonly options: ModelCacheOptions) {
    this.hashes = options.hashes ?? new FileHashes();
    this.tables = options.tables ?? new DeclarationTables();
    this.configs = new ConfigHashes(this.hashes);
    const h = createHash("sha256").update(saltOfExtractor());
    const lock = findUp(options.root, LOCK_FILES);
    h.update(lock ? `${lock}\0${this.hashes.hash(lock)}` : "no lock file");
    this.salt = h.digest("hex");
  }

  /** The entry file name for a module text: hash of salt, path, text and tsconfig. */
  private keyOf(file: string, code: string): string {
    return createHash("sha256")
      .update(this.salt)
      .update("\0")
      .update(file)
      .update("\0")
      .update(this.configHash(file))
      .update("\0")
      .update(code)
      .digest("hex");
  }

  /**
   * The hash of the tsconfig used for `file` and of every config it extends (see
   * {@link tsconfigChain}), and of the TypeScript package the extractor picks for it (its
   * directory and version, resolved from the tsconfig's directory).
   */
  private configHash(file: string): string {
    const config = findTsconfig(this.options, file);
    if (!config) return "no tsconfig";
    const h = createHash("sha256").update(this.configs.of(config));
    let ts = this.typescripts.get(config);
    if (ts === undefined) {
      try {
        const found = findTypeScript(dirname(config));
        ts = found ? `typescript ${found.dir} ${found.version}` : "no project typescript";
      } catch {
        ts = "no project typescript";
      }
      this.typescripts.set(config, ts);
    }
    h.update(ts);
    h.update(`\0forced ${this.options.typescript ?? "-"}`);
    h.update(`\0profile ${this.options.profile ?? "default"}`);
    return h.digest("hex");
  }

  private pathOf(key: string): string {
    return join(this.options.dir, key.slice(0, 2), `${key}.json`);
  }

  /**
   * The cached model of `file` with text `code`, when it still holds ({@link stillValid}: every
   * file it consulted has the recorded content, or at least every declaration the model depends
   * on); `undefined` on a miss (including an unreadable or corrupt entry).
   */
  lookup(file: string, code: string): CacheHit | undefined {
    try {
      const key = this.keyOf(file, code);
      const entry = JSON.parse(readFileSync(this.pathOf(key), "utf8")) as Entry;
      if (
        !entry ||
        entry.format !== FORMAT ||
        entry.key !== key ||
        entry.file !== file ||
        typeof entry.consulted !== "object" ||
        !entry.model ||
        !Array.isArray(entry.model.tools) ||
        !Array.isArray(entry.model.diagnostics) ||
        !Array.isArray(entry.model.consultedFiles)
      ) {
        return undefined;
      }
      return stillValid(entry.model, entry.consulted, this.hashes, this.tables) ? { model: entry.model } : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Stores the model of `file` with text `code`. Models with diagnostics are not stored (they
   * fail the build anyway, and may stem from a file that does not exist yet, which no hash
   * tracks). Atomic: written to a temp file, then renamed over the entry.
   */
  store(file: string, code: string, model: ModuleModel): void {
    if (model.diagnostics.length > 0) return;
    let tmp: string | undefined;
    try {
      const key = this.keyOf(file, code);
      const consulted = hashesOf(model.consultedFiles, this.hashes);
      const entry: Entry = { format: FORMAT, key, file, consulted, model };
      const path = this.pathOf(key);
      mkdirSync(dirname(path), { recursive: true });
      tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(tmp, JSON.stringify(entry));
      renameSync(tmp, path);
      tmp = undefined;
    } catch {
      /* a read-only or full disk only costs the cache */
    } finally {
      if (tmp) {
        try {
          unlinkSync(tmp);
        } catch {
          /* never written */
        }
      }
    }
  }
}

/**
 * The tsconfig files `config` (an absolute path) consists of: itself, then, depth first, every
 * config its `extends` names — a string or an array, read as JSONC (comments and trailing commas
 * allowed, so a commented-out `extends` is no `extends`). A relative or absolute path resolves
 * as TypeScript resolves it (`.json` appended when the file does not exist as named); a package
 * specifier resolves with Node's resolution from the config's directory (the first of `<spec>`,
 * `<spec>.json`, `<spec>/tsconfig.json` that is a `.json` file) and is left out when it does not resolve (the lock file
 * covers `node_modules`). A missing or unparsable config is listed but not followed. Cycles are
 * broken; at most 17 files. Forward slashes.
 */
export function tsconfigChain(config: string): string[] {
  const seen: string[] = [];
  const visit = (path: string) => {
    if (seen.includes(path) || seen.length > 16) return;
    seen.push(path);
    let json: unknown;
    try {
      json = parseJsonc(readFileSync(path, "utf8"), [], { allowTrailingComma: true, allowEmptyContent: true });
    } catch {
      return;
    }
    const ext = (json as { extends?: unknown } | null)?.extends;
    const targets =
      typeof ext === "string" ? [ext] : Array.isArray(ext) ? ext.filter((t): t is string => typeof t === "string") : [];
    for (const target of targets) {
      const next = resolveExtends(path, target);
      if (next) visit(next.replace(/\\/g, "/"));
    }
  };
  visit(config.replace(/\\/g, "/"));
  return seen;
}

/** Where `extends: target` of the config at `from` points (see {@link tsconfigChain}), if anywhere. */
function resolveExtends(from: string, target: string): string | undefined {
  if (target.startsWith(".") || isAbsolute(target)) {
    const p = resolve(dirname(from), target);
    return p.endsWith(".json") || existsSync(p) ? p : `${p}.json`;
  }
  const require = createRequire(from);
  for (const candidate of target.endsWith(".json") ? [target] : [target, `${target}.json`, `${target}/tsconfig.json`]) {
    try {
      const found = require.resolve(candidate);
      if (found.endsWith(".json")) return found; // not a package's JavaScript main
    } catch {
      /* try the next form */
    }
  }
  return undefined;
}

/** The first of `names` found in `dir` or a directory above it. */
function findUp(dir: string, names: string[]): string | undefined {
  for (;;) {
    for (const n of names) {
      const candidate = join(dir, n);
      if (existsSync(candidate)) return candidate.replace(/\\/g, "/");
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
