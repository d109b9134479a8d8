/**
 * The disk layer of the model reuse (docs/bundlers.md, "Watch mode and cache"): one JSON file per
 * module key ({@link ModuleKeys}), holding the plain {@link ModuleModel}, the content hashes of
 * the files it consulted, checked on lookup with the same {@link stillValid} as the memory layer
 * (they are only known once the module was extracted), and the code generated from the model
 * ({@link StoredCode}, once a splice generated it). The key covers the code generator's build
 * too, so stored code is never older than the generator that reads the entry.
 *
 * Writes are atomic (a temp file, then `rename`), and each entry ends with a `digest`: the
 * SHA-256 (hex) of the entry's JSON text without it. An unreadable, corrupt (its digest does not
 * match, so also an entry damaged into other well-formed JSON) or mismatching entry counts as a
 * miss.
 *
 * @packageDocumentation
 */
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ModuleModel } from "@typed-mcp/model";
import { DeclarationTables } from "@typed-mcp/extract";
import { FileHashes, hashesOf, sha, stillValid } from "./hashes.js";
import { FORMAT, ModuleKeys, type ModuleKeysOptions } from "./key.js";
import { isStoredCode, type StoredCode } from "./stored-code.js";

/** Options of {@link ModelCache}: where it lives, and what its keys are made of ({@link ModuleKeysOptions}). */
export interface ModelCacheOptions extends ModuleKeysOptions {
  /** The cache directory (created on first write). */
  dir: string;
  /** Declaration tables shared with the session, for {@link stillValid}. */
  tables?: DeclarationTables;
  /** The session's keys (made from the same options); default: its own. */
  keys?: ModuleKeys;
}

/** A cached model, and the code generated from it when the entry holds that. */
export interface CacheHit {
  /** The model as stored (it still holds: {@link stillValid}). */
  model: ModuleModel;
  /** The module's generated code stored with the model (well-formed), if any. */
  code?: StoredCode;
}

interface Entry {
  format: number;
  key: string;
  file: string;
  consulted: Record<string, string>;
  model: ModuleModel;
  code?: StoredCode;
}

/** The end of an entry's text: `,"digest":"<64 hex digits>"}`. */
const DIGEST_SUFFIX = /,"digest":"([0-9a-f]{64})"\}$/;
/** The length of {@link DIGEST_SUFFIX}'s match. */
const DIGEST_SUFFIX_LENGTH = ',"digest":""}'.length + 64;

/** The text of `entry` as stored: its JSON, with the digest of that JSON as its last property. */
function sealed(entry: Entry): string {
  const json = JSON.stringify(entry);
  return `${json.slice(0, -1)},"digest":"${sha(json)}"}`;
}

/** The entry a stored `text` holds, when its digest matches; else `null`. */
function unsealed(text: string): Entry | null {
  const digest = DIGEST_SUFFIX.exec(text.slice(-DIGEST_SUFFIX_LENGTH))?.[1];
  if (!digest) return null;
  const json = `${text.slice(0, -DIGEST_SUFFIX_LENGTH)}}`;
  return sha(json) === digest ? (JSON.parse(json) as Entry | null) : null;
}

/** Whether every item of `list` (when present) is an object. */
const objects = (list: unknown) =>
  list === undefined || (Array.isArray(list) && list.every((x) => typeof x === "object" && x !== null));

/** Whether `entry`, read from the file of `key`, is a well-formed entry of module `file`. */
function wellFormed(entry: Entry | null, key: string, file: string): entry is Entry {
  return (
    !!entry &&
    entry.format === FORMAT &&
    entry.key === key &&
    entry.file === file &&
    typeof entry.consulted === "object" &&
    !!entry.model &&
    Array.isArray(entry.model.tools) &&
    Array.isArray(entry.model.diagnostics) &&
    Array.isArray(entry.model.consultedFiles) &&
    objects(entry.model.tools) &&
    objects(entry.model.resources) &&
    objects(entry.model.prompts)
  );
}

/**
 * The on-disk model cache. `lookup` and `store` never throw: a cache that cannot be read or
 * written only costs the work it would have saved.
 */
export class ModelCache {
  /** The content hashes the cache checks entries with (`options.hashes`, or its own). */
  readonly hashes: FileHashes;
  /** The keys entries are stored under. */
  readonly keys: ModuleKeys;
  private readonly tables: DeclarationTables;

  /** A cache in `options.dir`. */
  constructor(private readonly options: ModelCacheOptions) {
    this.keys = options.keys ?? new ModuleKeys(options);
    this.hashes = this.keys.hashes;
    this.tables = options.tables ?? new DeclarationTables();
  }

  private pathOf(key: string): string {
    return join(this.options.dir, key.slice(0, 2), `${key}.json`);
  }

  /**
   * The cached model of `file` under `key` (its {@link ModuleKeys.of} key), when it still holds
   * ({@link stillValid}: every file it consulted has the recorded content, or at least every
   * declaration the model depends on); `undefined` on a miss (including an unreadable or corrupt
   * entry).
   */
  lookup(file: string, key: string): CacheHit | undefined {
    try {
      const entry = unsealed(readFileSync(this.pathOf(key), "utf8"));
      if (!wellFormed(entry, key, file)) return undefined;
      if (!stillValid(entry.model, entry.consulted, this.hashes, this.tables)) return undefined;
      return { model: entry.model, code: isStoredCode(entry.code) ? entry.code : undefined };
    } catch {
      return undefined;
    }
  }

  /**
   * Stores the model of `file` under `key` (its {@link ModuleKeys.of} key), and the code
   * generated from it (`generated`, once a splice made it). Models with diagnostics are not
   * stored (they fail the build anyway, and may stem from a file that does not exist yet, which
   * no hash tracks). Atomic: written to a temp file, then renamed over the entry.
   */
  store(file: string, key: string, model: ModuleModel, generated?: StoredCode): void {
    if (model.diagnostics.length > 0) return;
    let tmp: string | undefined;
    try {
      const consulted = hashesOf(model.consultedFiles, this.hashes);
      const entry: Entry = { format: FORMAT, key, file, consulted, model, code: generated };
      const path = this.pathOf(key);
      mkdirSync(dirname(path), { recursive: true });
      tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(tmp, sealed(entry));
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
