/**
 * `@typed-mcp/unplugin/loader`: the typed-mcp build step as a webpack loader, for every host that
 * runs webpack loaders — Turbopack (`turbopack.rules`, which Next.js's `withTypedMcp` from
 * `@typed-mcp/unplugin/next` writes), Rspack and webpack — without the webpack compiler the
 * unplugin entries need.
 *
 * ```js
 * // webpack.config.js / rspack.config.js: last in `use`, so it runs first (before the type stripper)
 * { test: /\.[cm]?tsx?$/, exclude: /node_modules/, use: ["swc-loader", "@typed-mcp/unplugin/loader"] }
 * // next.config.ts, Turbopack
 * turbopack: { rules: { "*.ts": { loaders: ["@typed-mcp/unplugin/loader"], as: "*.ts" } } }
 * ```
 *
 * Per module, the same steps as the plugin, through the same driver (`@typed-mcp/transform`: the
 * model cache, type extraction through one warm TypeScript sidecar, code generation and
 * `spliceModule`): the module's text and a source map back. Differences a loader host imposes:
 * - shared units (docs/architecture.md "Shared types") are declared at the module's top
 *   (`share: "hoist"`, as `@typed-mcp/babel` does): a loader cannot serve virtual modules. The
 *   listing's bytes are the same;
 * - one driver per process, working directory and option set (`sharedDriver`), since hosts run
 *   loaders per module with no "build finished" hook: the sidecar ends `idleTimeoutMs` after the
 *   last module and when the process exits, and the files earlier extractions consulted are
 *   checked on disk before each module (a host reports no changes to a loader);
 * - every file the model depends on is reported with `this.addDependency` (type-only imports are
 *   gone from the host's graph), so an edit to an imported interface re-runs the loader;
 * - diagnostics fail the module with one `file:line:column - OMCGnnnn: message` line each (spec
 *   §10); warnings go to `this.emitWarning` as `file:line:column - OMCWnnnn: message`.
 *
 * @module
 */
import { mayDeclareTools, type TypeScriptChoice } from "@typed-mcp/extract";
import {
  formatDiagnostic,
  ModuleDependencies,
  sharedDriver,
  spliceModule,
  type Profile,
  type WarningCode,
} from "@typed-mcp/transform";

/**
 * Options of the loader (`{ loader: "@typed-mcp/unplugin/loader", options: { … } }`); plain JSON,
 * as Turbopack requires. The same meaning as the plugin's options of the same names.
 */
export interface TypedMcpLoaderOptions {
  /** The tsconfig.json the checker uses, absolute or relative to the host's root (`rootContext`). Default: the nearest above each module. */
  tsconfig?: string;
  /** Which TypeScript reads the types: `"7.0"`, `"7.1"`, `"6"` or a package directory. Default: the project's. */
  typescript?: TypeScriptChoice;
  /** The model cache: `true` (default, `<root>/node_modules/.cache/typed-mcp`), `{ dir }` (relative to the root) or `false`. */
  cache?: boolean | { dir?: string };
  /** The client profile (spec §11): `"default"`, `"gemini"`, `"openai-strict"` or `"cursor"`. */
  profile?: Profile;
  /** Build warnings (spec §10) to silence: `{ OMCW0002: false }`. */
  warnings?: Partial<Record<WarningCode, boolean>>;
  /** Milliseconds without a module after which the TypeScript sidecar is ended (≈ 0.3 s to start again). Default `2000`. */
  idleTimeoutMs?: number;
}

/** The part of a webpack loader context the loader uses (webpack 5, Rspack and Turbopack provide it). */
interface LoaderContext {
  resourcePath: string;
  rootContext?: string;
  getOptions?(): unknown;
  addDependency(file: string): void;
  emitWarning(warning: Error): void;
  callback(error: Error | null, code?: string, map?: object): void;
}

/** Per process: the files reported for each module on its last run. */
const dependencies = new ModuleDependencies();

/**
 * An `Error` whose message is the diagnostic lines, shown without the loader's own frames: webpack
 * and Rspack leave out the stack of an error with `hideStack`; Turbopack (Next.js) prints `stack`,
 * so it is the message alone (it printed `[at buildError (…/loader.js:37:26)]` and three more frames
 * under the diagnostic).
 */
function buildError(message: string, code: string): Error {
  const error = new Error(message);
  return Object.assign(error, { hideStack: true, code, stack: `${error.name}: ${message}` });
}

/**
 * The loader (default export; hosts call it with the module's text as `this`-bound loader
 * context). Modules whose text cannot declare tools (`mayDeclareTools`) are passed on unchanged.
 * Answers through `this.callback`: the spliced text and its source map, the text unchanged, or
 * an `Error` with the module's diagnostics (its `code` the first one's) — also for an option the
 * driver refuses (an unknown `profile`).
 */
export default function typedMcpLoader(this: LoaderContext, code: string): void {
  if (!mayDeclareTools(code)) return this.callback(null, code);
  const file = this.resourcePath.replace(/\\/g, "/");
  const options = (this.getOptions?.() ?? {}) as TypedMcpLoaderOptions;
  let driver: ReturnType<typeof sharedDriver>;
  try {
    driver = sharedDriver(this.rootContext ?? process.cwd(), {
      ...options,
      idleTimeoutMs: options.idleTimeoutMs ?? 2000,
    });
  } catch (e) {
    return this.callback(e as Error);
  }
  const model = driver.model(file, code);
  for (const dep of dependencies.of(file, model, driver.tsconfigOf(file))) this.addDependency(dep);
  if (model.diagnostics.length > 0) {
    const message = model.diagnostics.map((d) => formatDiagnostic(d)).join("\n");
    return this.callback(buildError(message, model.diagnostics[0]!.code));
  }
  for (const w of driver.warnings(model)) this.emitWarning(buildError(formatDiagnostic(w), w.code));
  const result = spliceModule(
    code,
    file,
    model.tools,
    { ...model, profile: driver.profile, share: "hoist" },
    driver.memory,
  );
  if (!result) return this.callback(null, code);
  this.callback(null, result.code, { ...result.map });
}
