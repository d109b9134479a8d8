/**
 * `create-typed-mcp`: scaffolds a typed-mcp MCP server project (`npm create typed-mcp@latest
 * my-server`; docs in the root README, "Using it in your project").
 *
 * ```sh
 * npm create typed-mcp@latest my-server -- --bundler vite --runtime node [--store memory|redis|durable-objects] [--no-install] [--packages DIR]
 * ```
 *
 * The project it writes: `package.json` (`"type": "module"`, scripts `build`, `start`, `dev`,
 * `typecheck`, `test`), a strict `tsconfig.json` with the `types`/`lib` TypeScript 7 needs for the
 * runtime, the bundler's config with source maps, `src/server.ts` (one tool, one resource
 * template, one prompt), `src/server.test.ts` (one `typed-mcp/testing` test of each, run by
 * `vitest.config.ts` with the Vite plugin), `src/main.ts` (the runtime's entry) and a README. With `--bundler next`
 * (runtime `node` only): a Next.js App Router app instead — `next.config.ts` (`withTypedMcp`),
 * `src/app/api/mcp/route.ts` serving the same `src/server.ts`, the `next dev` / `next build` /
 * `next start` scripts with `NEXT_TELEMETRY_DISABLED=1`, and the tsconfig Next.js expects. With `--store redis`
 * (runtime `node`): `src/main.ts` reads `STORE_URL` (`redis://HOST:PORT`) and shares the server's state
 * through `typed-mcp/redis`, and `@redis/client` is a dependency (typed-mcp docs/scaling.md). With
 * `--store durable-objects` (runtime `workers`): `src/main.ts` exports the Durable Object class
 * `McpObject` (`mcpDurableObject`) that runs the server and the Worker that forwards to it
 * (`mcpWorker`), `config.capnp` binds it as `STORE`, and `wrangler.toml` does for Cloudflare. Every file comes from
 * `templates/` in this package; `templates/manifest.json` says what each choice adds.
 *
 * @packageDocumentation
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The bundlers a project can be scaffolded for (`--bundler`). */
export const BUNDLERS = ["vite", "esbuild", "rollup", "webpack", "rspack", "next"] as const;
/** The runtimes a project can be scaffolded for (`--runtime`). */
export const RUNTIMES = ["node", "workers", "deno", "bun"] as const;
/** The stores a project can be scaffolded with (`--store`; default `memory`: everything in the process). */
export const STORES = ["memory", "redis", "durable-objects"] as const;
/** A `--store` value. */
export type Store = (typeof STORES)[number];
/** A `--bundler` value. */
export type Bundler = (typeof BUNDLERS)[number];
/** A `--runtime` value. */
export type Runtime = (typeof RUNTIMES)[number];

/** What to scaffold: every choice made (by flags or prompts). */
export interface ScaffoldOptions {
  /** The project folder to create (absolute, or relative to `process.cwd()`); must not exist or be empty. */
  dir: string;
  /** The bundler whose config is written. */
  bundler: Bundler;
  /** The runtime `src/main.ts` and `npm start` target. */
  runtime: Runtime;
  /**
   * What keeps the server's state between requests (default `memory`); `redis`: `src/main.ts`
   * reads `STORE_URL`; `durable-objects` (runtime `workers`): one Durable Object runs the server.
   */
  store?: Store;
  /** Run `npm install` in the new project (default `true`). */
  install?: boolean;
  /**
   * A folder with the packed typed-mcp tarballs (`pnpm pack:all` writes `dist-packages/`): the
   * typed-mcp packages are then installed from there (`file:` dependencies plus npm `overrides`
   * for the packages they depend on) instead of from the registry.
   */
  packages?: string;
  /** Where `npm install` output goes (default: inherit the caller's stdio). */
  stdio?: "inherit" | "ignore";
}

/** A choice or folder that cannot be scaffolded; the message says which and what is allowed. */
export class ScaffoldError extends Error {
  override name = "ScaffoldError";
}

interface BundlerEntry {
  config: string;
  build: string;
  devDependencies: Record<string, string>;
  /** An app framework (Next.js): its own `dev` and `start` scripts, the runtimes it runs on, its dependencies. */
  dev?: string;
  start?: string;
  runtimes?: Runtime[];
  dependencies?: Record<string, string>;
}
interface RuntimeEntry {
  start: string;
  startNote: string;
  bundlers?: Bundler[];
  lib: string[];
  types: string[];
  files?: string[];
  devDependencies: Record<string, string>;
}
interface StoreEntry {
  /** The runtimes it is scaffolded for (all when absent), and why not the others. */
  runtimes?: Runtime[];
  refusal?: string;
  dependencies: Record<string, string>;
  /** The `__STORE_*__` values of the entry template (and of the runtime's files). */
  values: Record<string, string>;
  /** A `templates/entry/` file that replaces the runtime's entry. */
  entry?: string;
  /** Files copied from `templates/store/<store>/` into the project (filled like the others). */
  files?: string[];
}
interface Manifest {
  common: { devDependencies: Record<string, string> };
  bundlers: Record<Bundler, BundlerEntry>;
  runtimes: Record<Runtime, RuntimeEntry>;
  stores: Record<Store, StoreEntry>;
}

/** This package's `templates/` folder. */
export const TEMPLATES = fileURLToPath(new URL("../templates/", import.meta.url));

function manifest(): Manifest {
  return JSON.parse(readFileSync(join(TEMPLATES, "manifest.json"), "utf8")) as Manifest;
}

/** The version of this package, which is the version of the typed-mcp packages it installs. */
function ownVersion(): string {
  return (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
}

/** The typed-mcp packages a project installs, and the tarball name `pnpm pack` gives each. */
const TYPED_MCP_PACKAGES = [
  "typed-mcp",
  "@typed-mcp/unplugin",
  "@typed-mcp/cli",
  "@typed-mcp/transform",
  "@typed-mcp/extract",
  "@typed-mcp/codegen",
  "@typed-mcp/model",
];
const tarballName = (name: string, version: string) => `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;

/**
 * Checks that `bundler`, `runtime` and `store` are known and go together.
 *
 * @throws {ScaffoldError} naming the bad value and the allowed ones.
 */
export function checkChoices(
  bundler: string,
  runtime: string,
  store = "memory",
): { bundler: Bundler; runtime: Runtime; store: Store } {
  if (!(BUNDLERS as readonly string[]).includes(bundler))
    throw new ScaffoldError(`--bundler '${bundler}' is not one of: ${BUNDLERS.join(", ")}.`);
  if (!(RUNTIMES as readonly string[]).includes(runtime))
    throw new ScaffoldError(`--runtime '${runtime}' is not one of: ${RUNTIMES.join(", ")}.`);
  const m = manifest();
  const runsOn = m.bundlers[bundler as Bundler].runtimes;
  if (runsOn && !runsOn.includes(runtime as Runtime))
    throw new ScaffoldError(
      `--bundler ${bundler} is scaffolded with --runtime ${runsOn.join(" or ")}, not ${runtime}.`,
    );
  const allowed = m.runtimes[runtime as Runtime].bundlers;
  if (allowed && !allowed.includes(bundler as Bundler)) {
    throw new ScaffoldError(
      `--runtime ${runtime} is scaffolded with --bundler ${allowed.join(" or ")} (the Workers build needs the SDK's "workerd" export condition), not ${bundler}.`,
    );
  }
  checkStore(m, bundler as Bundler, runtime as Runtime, store);
  return { bundler: bundler as Bundler, runtime: runtime as Runtime, store: store as Store };
}

/** @throws {ScaffoldError} for an unknown `store`, or one not scaffolded for `runtime` (or for a Next.js app). */
function checkStore(m: Manifest, bundler: Bundler, runtime: Runtime, store: string): void {
  if (!(STORES as readonly string[]).includes(store))
    throw new ScaffoldError(`--store '${store}' is not one of: ${STORES.join(", ")}.`);
  const entry = m.stores[store as Store];
  if (entry.runtimes !== undefined && entry.runtimes.includes(runtime) && bundler === "next")
    throw new ScaffoldError(
      `--store ${store} is scaffolded for --runtime ${runtime} with a bundler other than next, not --bundler next: the Next.js app's route (src/app/api/mcp/route.ts) gets no store wiring; pass { store } to createServer there yourself (typed-mcp docs/scaling.md).`,
    );
  if (entry.runtimes !== undefined && (!entry.runtimes.includes(runtime) || bundler === "next"))
    throw new ScaffoldError(
      `--store ${store} is scaffolded for --runtime ${entry.runtimes.join(" or ")} with a bundler other than next, not --runtime ${runtime}${bundler === "next" ? " --bundler next" : ""}: ${entry.refusal ?? "not built yet"}.`,
    );
}

/** The `dependencies`, `devDependencies` and `overrides` for the typed-mcp packages. */
function typedMcpDependencies(version: string, packages: string | undefined, dir: string) {
  const spec = (name: string) => {
    if (packages === undefined) return version;
    const file = join(resolve(packages), tarballName(name, version));
    if (!existsSync(file))
      throw new ScaffoldError(
        `--packages ${packages}: no ${tarballName(name, version)} there (run pnpm pack:all in the typed-mcp workspace).`,
      );
    return `file:${relative(dir, file).replace(/\\/g, "/")}`;
  };
  const overrides: Record<string, string> = {};
  if (packages !== undefined) for (const name of TYPED_MCP_PACKAGES) overrides[name] = spec(name);
  return {
    dependencies: { "typed-mcp": spec("typed-mcp") },
    devDependencies: { "@typed-mcp/unplugin": spec("@typed-mcp/unplugin"), "@typed-mcp/cli": spec("@typed-mcp/cli") },
    overrides,
  };
}

/** Copies `from` into `to`, replacing every `__KEY__` by `values[KEY]`; `_gitignore` becomes `.gitignore`. */
function copyTemplate(from: string, to: string, values: Record<string, string>): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const target = join(to, entry.name === "_gitignore" ? ".gitignore" : entry.name);
    if (entry.isDirectory()) {
      mkdirSync(target, { recursive: true });
      copyTemplate(join(from, entry.name), target, values);
    } else {
      writeFileSync(target, fill(readFileSync(join(from, entry.name), "utf8"), values));
    }
  }
}
/** `text` with every `__KEY__` replaced by `values[KEY]`; a line that is only a key whose value is empty is dropped. */
function fill(text: string, values: Record<string, string>): string {
  return text
    .replace(/^__([A-Z_]+)__\n/gm, (whole, key: string) => (values[key] === "" ? "" : whole))
    .replace(/__([A-Z_]+)__/g, (whole, key: string) => values[key] ?? whole);
}

const sorted = (o: Record<string, string>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/**
 * Writes the project described by `options` and (unless `install: false`) runs `npm install`
 * in it. Returns the absolute project folder.
 *
 * @throws {ScaffoldError} for an unknown or mismatched choice, a non-empty target folder, or a
 *   `--packages` folder without the tarballs.
 * @throws the `npm install` failure (its output went to `options.stdio`).
 */
export function scaffold(options: ScaffoldOptions): string {
  const { bundler, runtime, store } = checkChoices(options.bundler, options.runtime, options.store);
  const dir = resolve(options.dir);
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new ScaffoldError(`'${options.dir}' exists and is not empty: choose a new folder.`);
  const m = manifest();
  const b = m.bundlers[bundler];
  const r = m.runtimes[runtime];
  const name =
    basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/^[._-]+/, "") || "mcp-server";
  const values = {
    NAME: name,
    BUNDLER: bundler,
    RUNTIME: runtime,
    START_NOTE: r.startNote,
    LIB: JSON.stringify(r.lib),
    TYPES: JSON.stringify(r.types),
    ...m.stores[store].values,
  };
  const ours = typedMcpDependencies(ownVersion(), options.packages, dir);

  mkdirSync(join(dir, "src"), { recursive: true });
  copyTemplate(join(TEMPLATES, "base"), dir, values);
  if (bundler === "next") {
    // An App Router app: the same src/server.ts, served by src/app/api/mcp/route.ts (templates/next).
    copyTemplate(join(TEMPLATES, "next"), dir, values);
  } else {
    const entry = m.stores[store].entry ?? `${runtime}.ts`;
    writeFileSync(join(dir, "src/main.ts"), fill(readFileSync(join(TEMPLATES, "entry", entry), "utf8"), values));
    const configDir = join(TEMPLATES, runtime === "workers" ? "workers" : "bundler", bundler);
    writeFileSync(join(dir, b.config), fill(readFileSync(join(configDir, b.config), "utf8"), values));
  }
  for (const f of r.files ?? [])
    writeFileSync(join(dir, f), fill(readFileSync(join(TEMPLATES, runtime, f), "utf8"), values));
  for (const f of m.stores[store].files ?? []) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), fill(readFileSync(join(TEMPLATES, "store", store, f), "utf8"), values));
  }

  const pkg = {
    name,
    version: "0.1.0",
    private: true,
    type: "module",
    scripts: {
      build: b.build,
      start: b.start ?? r.start,
      dev: b.dev ?? `typed-mcp dev src/server.ts --build "${b.build}" --start "${r.start}"`,
      typecheck: "tsc --noEmit",
      test: "vitest run",
    },
    dependencies: sorted({ ...b.dependencies, ...m.stores[store].dependencies, ...ours.dependencies }),
    devDependencies: sorted({
      ...m.common.devDependencies,
      ...b.devDependencies,
      ...r.devDependencies,
      ...ours.devDependencies,
    }),
    ...(Object.keys(ours.overrides).length > 0 ? { overrides: ours.overrides } : {}),
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");

  if (options.install !== false)
    execFileSync("npm", ["install", "--no-fund", "--no-audit"], { cwd: dir, stdio: options.stdio ?? "inherit" });
  return dir;
}
