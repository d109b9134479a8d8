/**
 * The key half of the reuse rule (docs/bundlers.md, "Watch mode and cache"): what a module's
 * model (and the code generated from it) is a function of besides the files it consulted — the
 * extractor and code generator, the project's lock file, the module's path and text, its
 * tsconfig chain, the TypeScript package its backend runs on and the `typescript` and `profile`
 * options. The memory layer (memory.ts) and the disk layer (cache.ts) look a model up under the
 * same key.
 *
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findTsconfig, findTypeScript } from "@typed-mcp/extract";
import { ConfigHashes, FileHashes } from "./hashes.js";

/** Version of the disk entry format; bumped when it changes (part of every key). */
export const FORMAT = 3;

/** Every `.js` file under `dir`, sorted. */
function scriptsUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(".js")) files.push(join(d, e.name));
    }
  };
  walk(dir);
  return files.sort();
}

/**
 * A hash of the extractor's and code generator's identity: the entry format; the bytes of the
 * built code of `@typed-mcp/extract`, `@typed-mcp/model` (which holds the naming rules; each copy,
 * as extract and as codegen resolve it), `@typed-mcp/codegen` (the disk entry holds generated
 * code) and `@typed-mcp/transform` itself (which stores that code and reads it back), with their
 * versions; and the one runtime module code generation runs at build time,
 * `typed-mcp/internal/argument-errors` (its `pathKey` writes the argument paths baked into
 * generated error texts).
 */
function saltOfGenerator(): string {
  const h = createHash("sha256").update(`format ${FORMAT}\n`);
  const require = createRequire(import.meta.url);
  try {
    const entry = require.resolve("@typed-mcp/extract");
    const codegen = require.resolve("@typed-mcp/codegen");
    const packages: [string, string][] = [
      ["@typed-mcp/extract", entry],
      ["@typed-mcp/model", createRequire(entry).resolve("@typed-mcp/model")],
      ["@typed-mcp/codegen", codegen],
      ["@typed-mcp/transform", fileURLToPath(import.meta.url)],
    ];
    // The model package as codegen resolves it too, when an install left it two copies.
    const codegenModel = createRequire(codegen).resolve("@typed-mcp/model");
    if (codegenModel !== packages[1]![1]) packages.push(["@typed-mcp/model (codegen's)", codegenModel]);
    for (const [name, main] of packages) {
      const dist = dirname(main);
      h.update(name);
      for (const f of scriptsUnder(dist)) h.update(f.slice(dist.length)).update(readFileSync(f));
      try {
        h.update(
          String((JSON.parse(readFileSync(join(dist, "../package.json"), "utf8")) as { version?: string }).version),
        );
      } catch {
        h.update("?");
      }
    }
    const runtime = createRequire(codegen).resolve("typed-mcp/internal/argument-errors");
    h.update("typed-mcp/internal/argument-errors").update(readFileSync(runtime));
  } catch {
    h.update("unknown extractor");
  }
  return h.digest("hex");
}

/**
 * {@link saltOfGenerator}, computed once, when this module is evaluated (as `@typed-mcp/transform`
 * and the packages it hashes are loaded), not at the first build: a rebuild of those packages
 * while a process runs (a `tsc -b --watch` beside a dev server) must not pair the code that
 * process runs with the new files' hash.
 */
const GENERATOR_SALT = saltOfGenerator();

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
    const h = createHash("sha256").update(GENERATOR_SALT);
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
