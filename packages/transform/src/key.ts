/**
 * The key half of the reuse rule (docs/bundlers.md, "Watch mode and cache"): what a module's
 * model (and the code generated from it) is a function of besides the files it consulted — the
 * extractor and code generator, the project's lock file, the module's path and text, its tsconfig chain, the TypeScript package its backend runs
 * on and the `typescript` and `profile` options. The memory layer (memory.ts) and the disk layer
 * (cache.ts) look a model up under the same key.
 *
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { findTsconfig, findTypeScript } from "@typed-mcp/extract";
import { ConfigHashes, FileHashes } from "./hashes.js";

/** Version of the disk entry format; bumped when it changes (part of every key). */
export const FORMAT = 2;

/**
 * A hash of the extractor's and code generator's identity: the bytes of the built code of
 * `@typed-mcp/extract`, `@typed-mcp/model` (which holds the naming rules) and
 * `@typed-mcp/codegen` (the disk entry holds generated code), their versions, and the entry
 * format. Computed once per process.
 */
let generatorSalt: string | undefined;
function saltOfGenerator(): string {
  if (generatorSalt) return generatorSalt;
  const h = createHash("sha256").update(`format ${FORMAT}\n`);
  const require = createRequire(import.meta.url);
  try {
    const entry = require.resolve("@typed-mcp/extract");
    const extractRequire = createRequire(entry);
    for (const [name, main] of [
      ["@typed-mcp/extract", entry],
      ["@typed-mcp/model", extractRequire.resolve("@typed-mcp/model")],
      ["@typed-mcp/codegen", require.resolve("@typed-mcp/codegen")],
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
  return (generatorSalt = h.digest("hex"));
}

const LOCK_FILES = ["pnpm-lock.yaml", "package-lock.json", "yarn.lock", "bun.lock", "bun.lockb", "deno.lock"];

/** Options of {@link ModuleKeys}. */
export interface ModuleKeysOptions {
  /** Where to start looking for a lock file (walking up); usually the project root. */
  root: string;
  /** The fixed tsconfig.json, if the plugin was given one; else the nearest above each module. */
  tsconfig?: string;
  /** The extractor's working directory, against which a relative `tsconfig` resolves (extract's `findTsconfig`); default `process.cwd()`. */
  cwd?: string;
  /** The plugin's forced TypeScript choice, if any (a different choice is a different key). */
  typescript?: string;
  /** The `profile` build option (spec §11): a profile change never reuses another build's model. */
  profile?: string;
  /** Content hashes shared with the session (so a watcher's `forget` reaches the keys too). */
  hashes?: FileHashes;
}

/** The keys of one build session's modules (see the module comment). */
export class ModuleKeys {
  /** The content hashes the keys are made of. */
  readonly hashes: FileHashes;
  private readonly configs: ConfigHashes;
  private readonly salt: string;
  /** Per tsconfig: the TypeScript package its project runs on (resolved once per process). */
  private readonly typescripts = new Map<string, string>();

  /** The lock file above `options.root` is hashed once, here. */
  constructor(private readonly options: ModuleKeysOptions) {
    this.hashes = options.hashes ?? new FileHashes();
    this.configs = new ConfigHashes(this.hashes);
    const h = createHash("sha256").update(saltOfGenerator());
    const lock = findUp(options.root, LOCK_FILES);
    h.update(lock ? `${lock}\0${this.hashes.hash(lock)}` : "no lock file");
    this.salt = h.digest("hex");
  }

  /** The key of module `file` with text `code`: SHA-256 of the salt, the path, the tsconfig hash and the text. */
  of(file: string, code: string): string {
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
   * `tsconfigChain` in hashes.ts), and of the TypeScript package the extractor picks for it (its
   * directory and version, resolved from the tsconfig's directory), and the options.
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
