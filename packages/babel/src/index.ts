/**
 * `@typed-mcp/babel`: the typed-mcp build step as a Babel 7 plugin (spec §0), for pipelines that
 * compile TypeScript with `@babel/preset-typescript` (also behind `babel-loader`).
 *
 * ```js
 * // babel.config.js
 * export default { presets: ["@babel/preset-typescript"], plugins: ["@typed-mcp/babel"] };
 * ```
 *
 * Per file, before any visitor runs (the plugin's `pre` hook, so before preset-typescript strips
 * a single type): the same steps as `@typed-mcp/unplugin`, through the same driver
 * (`@typed-mcp/transform`: the model cache, type extraction through one warm TypeScript sidecar,
 * code generation and the splice plan, `planSplice`) — only the plan is applied to Babel's AST
 * instead of the text: the `@tool()`/`@resource()`/`@prompt()` decorator nodes are removed, the
 * `static { … }` block becomes the class body's first member, quick-path calls get their
 * `__tmcp.generated(…)` argument, and the imports go first. Original nodes keep their positions,
 * so Babel's own source map stays exact; generated nodes have none. Diagnostics fail the file
 * with `file:line:column - CODE: message` (spec §10).
 *
 * @packageDocumentation
 */
import { mayDeclareTools, type TypeScriptChoice } from "@typed-mcp/extract";
import {
  DEFAULT_EXCLUDE,
  DEFAULT_INCLUDE,
  closeSharedDrivers,
  formatDiagnostic,
  ModuleDependencies,
  planSplice,
  sharedDriver,
  type Profile,
  type SplicePlan,
  type WarningCode,
} from "@typed-mcp/transform";

/** Options of the Babel plugin (the second element of `["@typed-mcp/babel", { … }]`). */
export interface TypedMcpBabelOptions {
  /**
   * The tsconfig.json whose compiler options and files the type checker uses, absolute or
   * relative to Babel's `cwd`. Default: the nearest `tsconfig.json` above each file. It must
   * enable `strictNullChecks` (or `strict`).
   */
  tsconfig?: string;
  /**
   * Files to transform, matched against Babel's absolute `filename`: a RegExp or a list of
   * them (strings are read as RegExp sources, for JSON configs such as `.babelrc`). Default:
   * `.ts`, `.mts`, `.cts`, `.tsx` files.
   */
  include?: RegExp | string | (RegExp | string)[];
  /** Files to skip (same forms as `include`). Default: anything under `node_modules`. */
  exclude?: RegExp | string | (RegExp | string)[];
  /**
   * Milliseconds without a transform after which the TypeScript sidecar is ended (Babel has no
   * "build finished" hook). The next file starts a new one (≈ 0.3 s). Default `2000`. The
   * sidecar never keeps the process alive, and always ends when the process exits.
   */
  idleTimeoutMs?: number;
  /**
   * Which TypeScript reads the types (see `@typed-mcp/extract`'s `ExtractorOptions.typescript`):
   * `"7.0"`, `"7.1"`, `"6"` (the classic API, also for 5.x) or a path to a TypeScript package
   * directory. Default: picked from the `typescript` the project has installed. Part of the
   * cache key. A choice that cannot be satisfied is an OMCG0000 error of the file.
   */
  typescript?: TypeScriptChoice;
  /**
   * The content-hash cache of extracted models (docs/bundlers.md, "Watch mode and cache").
   * Default `true`: entries live in `<cwd>/node_modules/.cache/typed-mcp` (cwd: Babel's `cwd`).
   * `{ dir }` picks the directory (relative to Babel's `cwd`); `false` turns the cache off. A hit
   * skips the TypeScript sidecar entirely. Entries hold the extracted model (not generated
   * code); a corrupt entry is a miss, never an error.
   */
  cache?: boolean | { dir?: string };
  /**
   * The client profile (spec §11, docs/profiles.md): `"default"`, `"gemini"`, `"openai-strict"`
   * or `"cursor"`; rewrites every tool's `inputSchema` at build time. Part of the cache key.
   */
  profile?: Profile;
  /**
   * Build warnings (spec §10) to silence: `{ OMCW0002: false }`. Babel has no warning channel
   * for plugins: each warning is written with `console.warn` as `file:line:column - OMCW000n: message`.
   */
  warnings?: Partial<Record<WarningCode, boolean>>;
}

/** The part of Babel's plugin API the plugin uses (`api` in `(api, options) => plugin`). */
export interface BabelApi {
  assertVersion(range: number | string): void;
  version: string;
  cwd?: () => string;
  /**
   * Babel ≥ 7.17: tells the caller (babel-loader, Babel's own cache) that the plugin's output
   * depends on a file outside the one being compiled; babel-loader forwards it to the bundler's
   * `addDependency`, so an edit to that file re-runs the compilation. Callable only while the
   * plugin is created (Babel freezes the list when the factory returns).
   */
  addExternalDependency?: (file: string) => void;
  /** Babel's plugin cache: `invalidate(fn)` re-creates the plugin whenever `fn()` returns another value. */
  cache?: { invalidate(fn: () => string): unknown };
  template: {
    statements: { ast(code: string): unknown[] };
    statement: { ast(code: string): unknown };
    expression: { ast(code: string): unknown };
  };
}

/** A Babel AST node, as far as the plugin reads it. */
interface Node {
  type: string;
  start?: number | null;
  end?: number | null;
  [key: string]: unknown;
}

/** A Babel NodePath, as far as the plugin uses it. */
interface NodePath {
  node: Node;
  remove(): void;
  traverse(visitor: Record<string, (path: NodePath) => void>): void;
  unshiftContainer(key: string, nodes: unknown): unknown;
  scope: { crawl(): void };
}

/** Babel's `File` (the `this.file` / `pre(file)` argument), as far as the plugin uses it. */
interface BabelFile {
  code: string;
  opts: { filename?: string | null; cwd?: string };
  path: NodePath;
  buildCodeFrameError(node: unknown, message: string, ErrorClass?: ErrorConstructor): Error;
}

/** The plugin object Babel receives (see {@link typedMcpBabel} for what each hook does). */
export interface BabelPluginObject {
  /** `"typed-mcp"`. */
  name: string;
  /** Adds `@babel/parser`'s `decorators` plugin for a file that needs it; `undefined`: Babel parses as configured. */
  parserOverride?: (
    code: string,
    parserOpts: { plugins?: unknown[]; sourceFileName?: string },
    parse: (code: string, opts: unknown) => unknown,
  ) => unknown;
  /** Extracts the file and applies the splice plan to its AST, before any visitor runs. */
  pre?: (this: unknown, file: BabelFile) => void;
  /** Empty: all the work is done in `pre`. */
  visitor: Record<string, never>;
}

/**
 * Ends every sidecar this module started (idempotent); the next file starts a new one. Each
 * sidecar also ends by itself `idleTimeoutMs` after the last transform and when the process exits.
 */
export function closeAll(): void {
  closeSharedDrivers();
}

/** Per process: the files each module's model depended on when it was last compiled (see {@link typedMcpBabel}). */
const dependencies = new ModuleDependencies();

function toRegExps(value: TypedMcpBabelOptions["include"], fallback: RegExp): RegExp[] {
  if (value === undefined) return [fallback];
  return (Array.isArray(value) ? value : [value]).map((v) => (typeof v === "string" ? new RegExp(v) : v));
}

const hasDecoratorSyntax = (plugins: readonly unknown[] = []) =>
  plugins.some((p) => {
    const name = Array.isArray(p) ? p[0] : p;
    return name === "decorators" || name === "decorators-legacy";
  });

/**
 * Applies a splice plan (`@typed-mcp/transform`'s `planSplice`, which `@typed-mcp/unplugin`
 * applies to text) to the program: removes the decorators, inserts each class's static block as
 * its first member, appends the quick-path arguments and puts the imports first, then re-crawls
 * the scope so later plugins (the TypeScript preset's import elision) see the new bindings and
 * references.
 *
 * @throws Error when a planned position matches no node (an internal mismatch; never silent).
 */
function applyPlan(api: BabelApi, program: NodePath, plan: SplicePlan, filename: string): void {
  const removals = new Map(plan.removals.map(([s, e]) => [`${s}:${e}`, false]));
  const blocks = new Map(plan.classBlocks.map((c) => [c.bodyStart - 1, c.code]));
  const args = new Map(plan.quickArgs.map((q) => [q.callEnd + 1, q.code]));
  let placed = 0;
  program.traverse({
    Decorator(path) {
      const key = `${path.node.start}:${path.node.end}`;
      if (removals.has(key)) {
        removals.set(key, true);
        placed++;
        path.remove();
      }
    },
    ClassBody(path) {
      const code = path.node.start == null ? undefined : blocks.get(path.node.start);
      if (code === undefined) return;
      blocks.delete(path.node.start!);
      placed++;
      const cls = api.template.statement.ast(`class __tmcpClass {${code}}`) as { body: { body: unknown[] } };
      path.unshiftContainer("body", cls.body.body[0]);
    },
    CallExpression(path) {
      const code = path.node.end == null ? undefined : args.get(path.node.end);
      if (code === undefined) return;
      args.delete(path.node.end!);
      placed++;
      (path.node.arguments as unknown[]).push(api.template.expression.ast(code));
    },
  });
  const expected = plan.removals.length + plan.classBlocks.length + plan.quickArgs.length;
  if (placed !== expected) {
    throw new Error(
      `${filename}: typed-mcp could not place its generated code (${placed} of ${expected} sites found in Babel's AST). ` +
        `Put @typed-mcp/babel first in "plugins" so that no other plugin rewrites the file before it.`,
    );
  }
  program.unshiftContainer("body", api.template.statements.ast(plan.header));
  program.scope.crawl();
}

/**
 * The Babel plugin factory (default export; Babel calls it as `(api, options, dirname)`).
 *
 * Files matching `include` (and not `exclude`) whose text may declare tools
 * (`mayDeclareTools`) are extracted in `pre(file)` from `file.code`, the original text Babel
 * parsed, so every site offset matches Babel's node positions. When such a file uses decorators
 * and the configuration enables no decorator syntax, `parserOverride` parses it with
 * `@babel/parser`'s `decorators` plugin added (only then: Babel allows one parser override per
 * file); the typed-mcp decorators are removed from the AST, so no decorator transform is needed.
 *
 * Errors: a file with diagnostics throws an `Error` whose message is one
 * `file:line:column - CODE: message` line per diagnostic followed by a code frame (Babel
 * prefixes it with the file name), with `code` set to the first diagnostic's code and `loc`
 * (`{ line, column }`, column 0-based as in Babel) at its position (spec §10).
 *
 * Sidecar lifetime: one TypeScript sidecar per Babel `cwd` and set of `tsconfig`,
 * `typescript`, `cache` and `idleTimeoutMs` options, shared by every plugin instance in the
 * process, started only for files the cache cannot answer, ended `idleTimeoutMs` after the last
 * transform and when the process exits; it never keeps the process alive. Before each file, the
 * files earlier extractions consulted are checked on disk (Babel reports no changes), so a
 * long-lived process (babel-loader in watch mode) never reads a stale imported type.
 */
export default function typedMcpBabel(api: BabelApi, options: TypedMcpBabelOptions = {}): BabelPluginObject {
  api.assertVersion(7);
  // Babel takes a plugin's external dependencies only while it is created, before it names the
  // file: report every file a model of this process depended on, and have Babel re-create the
  // plugin whenever that set grows (so the next file's compilation reports the new ones too).
  const known = dependencies.all();
  api.cache?.invalidate(() => dependencies.all().join("\n"));
  for (const dep of known) api.addExternalDependency?.(dep);
  const include = toRegExps(options.include, DEFAULT_INCLUDE);
  const exclude = toRegExps(options.exclude, DEFAULT_EXCLUDE);
  const idleMs = options.idleTimeoutMs ?? 2000;
  const wanted = (filename: string | null | undefined): filename is string =>
    !!filename && include.some((r) => r.test(filename)) && !exclude.some((r) => r.test(filename));
  /** The last `mayDeclareTools` answer: Babel runs `parserOverride` then `pre` on the same text, screened once. */
  let screened: { code: string; answer: boolean } | undefined;
  const mayDeclare = (code: string): boolean => {
    if (screened?.code !== code) screened = { code, answer: mayDeclareTools(code) };
    return screened.answer;
  };

  return {
    name: "typed-mcp",
    parserOverride(code, parserOpts, parse) {
      if (!wanted(parserOpts.sourceFileName) || !code.includes("@") || !mayDeclare(code)) return undefined;
      if (hasDecoratorSyntax(parserOpts.plugins)) return undefined;
      return parse(code, { ...parserOpts, plugins: [...(parserOpts.plugins ?? []), "decorators"] });
    },
    pre(file) {
      const filename = file.opts.filename;
      if (!wanted(filename) || !mayDeclare(file.code)) return;
      const cwd = file.opts.cwd ?? process.cwd();
      const driver = sharedDriver(cwd, { ...options, idleTimeoutMs: idleMs });
      const model = driver.model(filename, file.code);
      // Type-only imports vanish from the host's graph: remember every file the model depends on.
      dependencies.of(filename.replace(/\\/g, "/"), model, driver.tsconfigOf(filename));
      if (model.diagnostics.length > 0) {
        const first = model.diagnostics[0]!;
        const loc = { line: first.line, column: first.column - 1 };
        const error = file.buildCodeFrameError(
          { loc: { start: loc } },
          model.diagnostics.map((d) => formatDiagnostic(d)).join("\n"),
          Error,
        ) as Error & {
          code?: string;
          loc?: { line: number; column: number };
        };
        error.code = first.code;
        error.loc = loc;
        throw error;
      }
      for (const w of driver.warnings(model)) console.warn(formatDiagnostic(w));
      const plan = planSplice(
        model.tools,
        { ...model, profile: driver.profile, share: "hoist" },
        driver.memory.module(filename),
      );
      if (plan) applyPlan(api, file.path, plan, filename);
    },
    visitor: {},
  };
}
