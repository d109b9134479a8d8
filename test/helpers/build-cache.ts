/**
 * Build outputs cached by content hash, shared by the tests of the fast tier that build the same
 * inputs (docs/contributing.md "Test tiers"): the bundler tests (test/bundlers/cache.ts) and the
 * tests that run the playground's or the everything port's bundle ({@link cachedServerBuild}). An output is reused when
 * everything it is built from is byte-identical: the caller's labels (what builds it, with which
 * options), every file of its source folders, every file of `packages/*\/dist` (the plugin, the
 * extractor, the runtime), pnpm-lock.yaml (the bundlers' and TypeScript's versions), this file and
 * the caller's build code. Any change is a new key, so a stale output is never reused. Entries live
 * in `<repo>/.tmp/bundles/<slot>-<key>/`, where the slot names what is built: writing an entry
 * removes the older entries of its slot, so the folder holds one output per slot (delete it at will).
 *
 * The full tier (`TYPED_MCP_TIER=full`) never reads the cache: every output is built, so what a
 * build itself shows (the sidecar closed when it ends, its warnings, its time) is checked there on
 * every run (and the entry is written, for a fast tier after it). A failed build is never cached.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { FULL } from "./tier.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");
const CACHE = join(repo, ".tmp", "bundles");

/** Every regular file under `dir` (sorted, without node_modules, dist or out folders unless `skip` says otherwise). */
function filesUnder(dir: string, skip = new Set(["node_modules", "dist", "out"])): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!skip.has(name)) out.push(...filesUnder(p, skip));
    } else out.push(p);
  }
  return out;
}

/** What an output is built from (see the module comment). */
export interface BuildInputs {
  /** What builds it and how (bundler, options, entry): hashed in this order. */
  labels: [string, string][];
  /** Folders whose every file (without node_modules, dist, out) is an input. */
  sources: string[];
  /** The caller's own build code, relative to the repository root. */
  code: string[];
}

/** The cache key of `inputs`: 32 hex digits of a SHA-256 over everything the module comment names. */
export function contentKey(inputs: BuildInputs): string {
  const hash = createHash("sha256");
  const add = (label: string, bytes: string | Buffer) => hash.update(`${label}\0${bytes.length}\0`).update(bytes);
  for (const [label, value] of inputs.labels) add(label, value);
  for (const dir of inputs.sources) for (const f of filesUnder(dir)) add(relative(repo, f), readFileSync(f));
  for (const pkg of readdirSync(join(repo, "packages")).sort()) {
    const dist = join(repo, "packages", pkg, "dist");
    if (existsSync(dist)) for (const f of filesUnder(dist, new Set())) add(relative(repo, f), readFileSync(f));
  }
  for (const f of ["pnpm-lock.yaml", "test/helpers/build-cache.ts", ...inputs.code])
    add(f, readFileSync(join(repo, f)));
  return hash.digest("hex").slice(0, 32);
}

/** An output and whether it came from the cache (then no build ran). */
export interface CachedOutput<Meta> {
  /** The output file's path. */
  file: string;
  /** What the build recorded with it (warnings, …). */
  meta: Meta;
  /** True when the output was reused: the build itself did not run in this test. */
  cached: boolean;
}

/**
 * The output of `build` for `slot` (a file-name-safe name of what is built) and `key`
 * ({@link contentKey}), reused in the fast tier from a previous build of the same key. `build`
 * writes into the folder it is given (inside `<repo>/.tmp/bundles`, so a source map's relative
 * paths stay right) and answers the output file's path and its `meta` (JSON). Two workers building
 * the same key at once both build; the first rename wins and the other's copy is removed.
 * @throws what `build` throws (nothing is cached then).
 */
export async function cachedOutput<Meta>(
  slot: string,
  key: string,
  build: (outDir: string) => Promise<{ file: string; meta: Meta }>,
): Promise<CachedOutput<Meta>> {
  const dir = join(CACHE, `${slot}-${key}`);
  if (!FULL && existsSync(join(dir, "done.json"))) {
    const saved = JSON.parse(readFileSync(join(dir, "done.json"), "utf8")) as { file: string; meta: Meta };
    return { file: join(dir, saved.file), meta: saved.meta, cached: true };
  }
  mkdirSync(CACHE, { recursive: true });
  const partial = `${dir}.partial-${process.pid}-${Date.now()}`;
  let built: { file: string; meta: Meta };
  try {
    built = await build(partial);
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
  const file = relative(partial, built.file);
  writeFileSync(join(partial, "done.json"), JSON.stringify({ file, meta: built.meta }));
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
  return { file: join(dir, file), meta: built.meta, cached: false };
}

/**
 * The `server.js` that `vite build` writes with the `vite.config.ts` of `project` (the typed-mcp
 * plugin, SSR, everything bundled, with its source map): the playground, reused in the fast tier
 * by the tests that run its bundle (test/e2e/store, test/auth/playground, test/otel/otlp), and
 * the everything port (test/everything/parity). test/e2e/playground.test.ts builds the playground
 * itself: it checks what the build leaves running.
 * @param project the project's folder relative to the repository root.
 * @returns the bundle's absolute path (in `<repo>/.tmp/bundles`; the playground's wants `MEMORY_FILE_PATH`).
 */
export async function cachedServerBuild(project: "playground" | "examples/everything"): Promise<string> {
  const root = join(repo, project);
  const key = contentKey({ labels: [["build", `${project} vite.config.ts`]], sources: [root], code: [] });
  const { file } = await cachedOutput(project.replace(/\W+/g, "-"), key, async (outDir) => {
    await build({ root, configFile: join(root, "vite.config.ts"), logLevel: "silent", build: { outDir } });
    return { file: join(outDir, "server.js"), meta: null };
  });
  return file;
}
