/**
 * Built bundles cached by content hash, shared by the bundler tests of the fast tier
 * (docs/contributing.md "Test tiers"). A bundle is reused when everything it is built from is
 * byte-identical: the bundler's name, the plugin options, every file of the fixture project, every
 * file of `packages/*\/dist` (the plugin, the extractor, the runtime), pnpm-lock.yaml (the
 * bundlers' and TypeScript's versions) and this folder's build.ts and cache.ts. Any change is a
 * new key, so a stale bundle is never reused. Entries live in `<repo>/.tmp/bundles/<slot>-<key>/`,
 * where the slot names what is built (bundler, fixture, entry, options): writing an entry
 * removes the older entries of its slot, so the folder holds one bundle per slot (delete it at will).
 *
 * The full tier (`TYPED_MCP_TIER=full`) never reads the cache: every bundle is built, so what a
 * build itself shows (the sidecar closed when it ends, its warnings, its time) is checked there
 * on every run. A failed build is never cached.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { FULL } from "../helpers/tier.ts";
import { bundlers, type BuildInput } from "./build.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "../..");
const CACHE = join(repo, ".tmp", "bundles");

/** A bundle and whether it came from the cache (then no bundler ran). */
export interface CachedBundle {
  /** The bundle's path. */
  file: string;
  /** True when the bundle was reused: the build itself did not run in this test. */
  cached: boolean;
}

/** Every regular file under `dir` (sorted, without node_modules, dist or out folders). */
function files(dir: string, skip = new Set(["node_modules", "dist", "out"])): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!skip.has(name)) out.push(...files(p, skip));
    } else out.push(p);
  }
  return out;
}

/** The cache key of building `input.root` with bundler `name`: 32 hex digits of a SHA-256 over every input named in the header. */
export function bundleKey(name: string, input: BuildInput): string {
  const hash = createHash("sha256");
  const add = (label: string, bytes: string | Buffer) => hash.update(`${label}\0${bytes.length}\0`).update(bytes);
  add("bundler", name);
  add("options", JSON.stringify(input.options ?? {}));
  add("entry", relative(input.root, input.entry));
  for (const f of files(input.root)) add(relative(repo, f), readFileSync(f));
  for (const pkg of readdirSync(join(repo, "packages")).sort()) {
    const dist = join(repo, "packages", pkg, "dist");
    if (existsSync(dist)) for (const f of files(dist, new Set())) add(relative(repo, f), readFileSync(f));
  }
  for (const f of ["pnpm-lock.yaml", "test/bundlers/build.ts", "test/bundlers/cache.ts"])
    add(f, readFileSync(join(repo, f)));
  return hash.digest("hex").slice(0, 32);
}

/**
 * Builds `input` with bundler `name` (test/bundlers/build.ts), or in the fast tier reuses the
 * bundle of a previous build of byte-identical inputs, with its warnings copied into
 * `input.warnings`. `input.outDir` is not used: bundles live in `<repo>/.tmp/bundles/<key>/`
 * (built there, so a source map's relative paths stay right). Two workers building the same
 * key at once both build; the first rename wins and the other's copy is removed.
 * @throws what the bundler throws when the build fails (nothing is cached then).
 */
export async function cachedBuild(name: string, input: BuildInput): Promise<CachedBundle> {
  const slot = `${name.replace(/\W+/g, "-")}-${createHash("sha256")
    .update(JSON.stringify([relative(repo, input.root), relative(input.root, input.entry), input.options ?? {}]))
    .digest("hex")
    .slice(0, 8)}`;
  const dir = join(CACHE, `${slot}-${bundleKey(name, input)}`);
  const warnings = input.warnings ?? [];
  if (!FULL && existsSync(join(dir, "done.json"))) {
    const saved = JSON.parse(readFileSync(join(dir, "done.json"), "utf8")) as { file: string; warnings: string[] };
    warnings.push(...saved.warnings);
    return { file: join(dir, saved.file), cached: true };
  }
  mkdirSync(CACHE, { recursive: true });
  const partial = `${dir}.partial-${process.pid}-${Date.now()}`;
  const own: string[] = [];
  let built: string;
  try {
    built = await bundlers[name]!({ ...input, outDir: partial, warnings: own });
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
  warnings.push(...own);
  const file = relative(partial, built);
  writeFileSync(join(partial, "done.json"), JSON.stringify({ file, warnings: own }));
  try {
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  } catch {
    // Another worker renamed its identical build first: use that one.
    rmSync(partial, { recursive: true, force: true });
  }
  // Older entries of this slot (built from inputs that have changed since) are never read again.
  for (const old of readdirSync(CACHE)) {
    if (old.startsWith(`${slot}-`) && !old.includes(".partial-") && join(CACHE, old) !== dir)
      rmSync(join(CACHE, old), { recursive: true, force: true });
  }
  return { file: join(dir, file), cached: false };
}
