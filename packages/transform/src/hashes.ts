/**
 * Content hashes, and the validity half of the reuse rule (docs/bundlers.md, "Watch mode and
 * cache"): a module's model, extracted when its consulted files had some content hashes, still
 * holds while those hashes are unchanged, or else while every declaration it depends on is
 * ({@link stillValid}). Also the tsconfig chain a key hashes ({@link tsconfigChain}).
 *
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, resolve } from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import type { ModuleModel } from "@typed-mcp/model";
import { dependencyDigest, type DeclarationTables } from "@typed-mcp/extract";

/** SHA-256 of `text`, in hex. */
export const sha = (text: string | Buffer): string => createHash("sha256").update(text).digest("hex");

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
function tsconfigChain(config: string): string[] {
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
