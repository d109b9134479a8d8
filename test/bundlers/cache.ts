/**
 * Built bundles cached by content hash, shared by the bundler tests of the fast tier
 * (docs/contributing.md "Test tiers"), through test/helpers/build-cache.ts: a bundle is reused
 * when everything it is built from is byte-identical — the bundler's name, the plugin options,
 * every file of the fixture project, every file of `packages/*\/dist`, pnpm-lock.yaml and this
 * folder's build.ts and cache.ts. The slot of an entry names what is built (bundler, fixture,
 * entry, options). The full tier never reads the cache; a failed build is never cached.
 */
import { createHash } from "node:crypto";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { cachedOutput, contentKey } from "../helpers/build-cache.ts";
import { bundlers, type BuildInput } from "./build.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "../..");

/** A bundle and whether it came from the cache (then no bundler ran). */
export interface CachedBundle {
  /** The bundle's path. */
  file: string;
  /** True when the bundle was reused: the build itself did not run in this test. */
  cached: boolean;
}

/** The cache key of building `input.root` with bundler `name`: 32 hex digits of a SHA-256 over every input named in the header. */
export function bundleKey(name: string, input: BuildInput): string {
  return contentKey({
    labels: [
      ["bundler", name],
      ["options", JSON.stringify(input.options ?? {})],
      ["entry", relative(input.root, input.entry)],
    ],
    sources: [input.root],
    code: ["test/bundlers/build.ts", "test/bundlers/cache.ts"],
  });
}

/**
 * Builds `input` with bundler `name` (test/bundlers/build.ts), or in the fast tier reuses the
 * bundle of a previous build of byte-identical inputs, with its warnings copied into
 * `input.warnings`. `input.outDir` is not used: bundles live in `<repo>/.tmp/bundles/<key>/`
 * (built there, so a source map's relative paths stay right; test/helpers/build-cache.ts).
 * @throws what the bundler throws when the build fails (nothing is cached then).
 */
export async function cachedBuild(name: string, input: BuildInput): Promise<CachedBundle> {
  const slot = `${name.replace(/\W+/g, "-")}-${createHash("sha256")
    .update(JSON.stringify([relative(repo, input.root), relative(input.root, input.entry), input.options ?? {}]))
    .digest("hex")
    .slice(0, 8)}`;
  const { file, meta, cached } = await cachedOutput(slot, bundleKey(name, input), async (outDir) => {
    const warnings: string[] = [];
    const built = await bundlers[name]!({ ...input, outDir, warnings });
    return { file: built, meta: warnings };
  });
  input.warnings?.push(...meta);
  return { file, cached };
}
