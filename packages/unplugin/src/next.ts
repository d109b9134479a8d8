/**
 * `@typed-mcp/unplugin/next`: `withTypedMcp(nextConfig, options?)`, the typed-mcp build step
 * for Next.js (docs/nextjs.md), whichever bundler `next dev` / `next build` runs:
 *
 * ```ts
 * // next.config.ts
 * import { withTypedMcp } from "@typed-mcp/unplugin/next";
 * export default withTypedMcp({});
 * ```
 *
 * - **Turbopack** (the default of Next.js 16): a `turbopack.rules` entry per TypeScript
 *   extension (`*.ts`, `*.tsx`, `*.mts`, `*.cts`) running the loader `@typed-mcp/unplugin/loader`
 *   on the project's own modules (`{ not: "foreign" }`: not `node_modules`) whose text passes the
 *   plugin's code screen (`content`), before Turbopack strips the types (`as` the same
 *   extension; a rule of the config's own for that glob stays, after it). The loader reports
 *   every file a model depends on with `this.addDependency`, so
 *   `next dev` re-lists after an edit to an imported interface.
 * - **webpack** (`--webpack`): the typed-mcp webpack plugin (`@typed-mcp/unplugin/webpack`)
 *   added to every compilation, after the config's own `webpack()` function, if any.
 *
 * Both run the same driver with the same options, so both builds list the same bytes as the
 * other bundlers.
 *
 * - **Auth discovery**: a rewrite of `/.well-known/oauth-protected-resource/<path>` to `/<path>`
 *   (RFC 9728 §3.1), so the route at `<path>` serves its own protected-resource metadata when its
 *   server has `auth: oauth(...)`; a route file at the well-known path takes precedence. With a
 *   `basePath`, both are inside it (Next.js prefixes them), and `env.TYPED_MCP_NEXT_BASE_PATH`
 *   tells `nextHandler` the `basePath` (docs/nextjs.md "Auth").
 *
 * @module
 */
import { TOOL_CODE_FILTER } from "@typed-mcp/extract";
import type { TypedMcpLoaderOptions } from "./loader.js";
import webpackPlugin from "./webpack.js";

/** Options of {@link withTypedMcp}: the plugin's options that both bundlers take (plain JSON, as Turbopack requires). */
export type TypedMcpNextOptions = Pick<
  TypedMcpLoaderOptions,
  "tsconfig" | "typescript" | "cache" | "profile" | "warnings"
>;

/** A Turbopack loader rule (`turbopack.rules[glob]`), as far as `withTypedMcp` writes one. */
interface TurbopackRule {
  condition?: unknown;
  loaders: (string | { loader: string; options?: object })[];
  as?: string;
}

/** A Next.js rewrite (`rewrites()` entries), as far as `withTypedMcp` writes one. */
interface Rewrite {
  source: string;
  destination: string;
}

/** What a Next.js `rewrites()` returns: a list (the `afterFiles` phase) or the three phases. */
type Rewrites = Rewrite[] | { beforeFiles?: Rewrite[]; afterFiles?: Rewrite[]; fallback?: Rewrite[] };

/** The part of a Next.js config `withTypedMcp` reads and writes (`NextConfig` from `next`). */
export interface NextConfigLike {
  turbopack?: { rules?: Record<string, unknown> };
  webpack?: ((config: any, context: any) => any) | null;
  rewrites?: (() => unknown) | undefined;
  basePath?: string | undefined;
  env?: Record<string, string | undefined> | undefined;
}

/**
 * The keys {@link withTypedMcp} sets on the config it returns, so that `withTypedMcp({})` is typed
 * with them (`.turbopack.rules`, `.rewrites()`, `.webpack()`; `env` with a `basePath`).
 */
export interface TypedMcpNextAdditions {
  turbopack: { rules: Record<string, unknown> };
  rewrites: () => Promise<unknown>;
  webpack: (config: any, context: any) => any;
  env?: Record<string, string | undefined>;
}

/**
 * RFC 9728 §3.1: the metadata of the resource `https://host/api/mcp` is at
 * `https://host/.well-known/oauth-protected-resource/api/mcp`. This rewrite sends that path to the
 * route itself (`/api/mcp`) with the query parameter `oauth-protected-resource`, from which
 * `nextHandler` (typed-mcp) gives the server back the well-known URL, which its auth gate answers.
 */
const METADATA_REWRITE: Rewrite = {
  source: "/.well-known/oauth-protected-resource/:path+",
  destination: "/:path+?oauth-protected-resource=1",
};

/** The config's `rewrites()` with {@link METADATA_REWRITE} last in `afterFiles` (so a route file of that path wins). */
function withMetadataRewrite(own: NextConfigLike["rewrites"]): () => Promise<Rewrites> {
  return async () => {
    const rewrites = (await own?.()) as Rewrites | undefined;
    if (rewrites === undefined) return [METADATA_REWRITE];
    if (Array.isArray(rewrites)) return [...rewrites, METADATA_REWRITE];
    return { ...rewrites, afterFiles: [...(rewrites.afterFiles ?? []), METADATA_REWRITE] };
  };
}

/** Marks the `webpack()` function withTypedMcp returns: a second application would add the webpack plugin twice. */
const APPLIED = Symbol.for("@typed-mcp/unplugin/next.withTypedMcp");

/** The loader's module specifier, as Turbopack resolves it from the app. */
const LOADER = "@typed-mcp/unplugin/loader";

/** The extensions the loader runs on: the plugin's default `include` (`.ts`, `.mts`, `.cts`, `.tsx`). */
const EXTENSIONS = ["ts", "tsx", "mts", "cts"] as const;

/** The plugin's code screen (`TOOL_CODE_FILTER`) as one RegExp, for Turbopack's `content` condition. */
function contentScreen(): RegExp {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(TOOL_CODE_FILTER.map((p) => (typeof p === "string" ? literal(p) : p.source)).join("|"));
}

/** Whether `item` is a Turbopack loader item (`"name"` or `{ loader, options? }`) rather than a rule (`{ loaders, as, condition, type }`). */
const isLoaderItem = (item: unknown): boolean =>
  typeof item === "string" || (typeof item === "object" && item !== null && "loader" in item);

/** The loader's name in a loader item, `undefined` for anything else. */
const loaderName = (item: unknown): unknown =>
  typeof item === "string" ? item : (item as { loader?: unknown } | null)?.loader;

/** Whether a glob's rules (`own`, in any form) already run typed-mcp's loader (as the docs of 0.1 said to write). */
function runsLoader(own: unknown): boolean {
  const items: unknown[] = Array.isArray(own) ? own : [own];
  return items.some((item) => {
    const loaders = isLoaderItem(item) ? [item] : (item as { loaders?: unknown } | null)?.loaders;
    return Array.isArray(loaders) && loaders.some((l) => loaderName(l) === LOADER);
  });
}

/**
 * The rules for `glob` with typed-mcp's `ours` first: Turbopack runs every matching rule of a
 * glob's list in order (Next.js docs, "Advanced webpack loader conditions"), so the app's own
 * rule, in any of its forms, runs after the loader on what it returns. `own` is a rule object,
 * a list of rule objects, or the shorthand list of loaders; one that already runs the loader
 * is kept as it is.
 *
 * @throws Error for a list that mixes loaders and rule objects (which rule would the loaders be?).
 */
function withOwnRules(glob: string, ours: TurbopackRule, own: unknown): unknown {
  if (runsLoader(own)) return own;
  if (!Array.isArray(own)) return [ours, own];
  if (own.every(isLoaderItem)) return [ours, { loaders: own }];
  if (!own.some(isLoaderItem)) return [ours, ...own];
  throw new Error(
    `withTypedMcp: turbopack.rules["${glob}"] mixes loaders and rule objects; write it as a list of rule objects ({ loaders, as, condition }) (docs/nextjs.md).`,
  );
}

/**
 * The Next.js config `nextConfig` with the typed-mcp build step for Turbopack and webpack (see
 * the module comment). `nextConfig` is not changed; its other keys, its `turbopack` options and
 * rules (its own rule for a TypeScript glob runs after typed-mcp's: the glob's value becomes a
 * list), its `webpack()` function and its `rewrites()` (the metadata rewrite comes after them)
 * are kept.
 *
 * @param nextConfig The app's Next.js config (an object; for a config function, call it first).
 * @param options `tsconfig`, `typescript`, `cache`, `profile`, `warnings` (the plugin's options).
 * @returns The new config.
 * @throws Error when `nextConfig.turbopack.rules` has, for `*.ts`, `*.tsx`, `*.mts` or `*.cts`, a
 *   list that mixes loaders and rule objects (a rule object or a list of either is kept, after
 *   typed-mcp's rule); Error when `nextConfig` is itself the result of `withTypedMcp` (the webpack
 *   plugin would run twice).
 */
export function withTypedMcp<C extends NextConfigLike>(
  nextConfig: C,
  options: TypedMcpNextOptions = {},
): C & TypedMcpNextAdditions {
  const rules: Record<string, unknown> = { ...nextConfig.turbopack?.rules };
  const loader = { loader: LOADER, options: { ...options } };
  for (const ext of EXTENSIONS) {
    const glob = `*.${ext}`;
    const rule: TurbopackRule = {
      condition: { all: [{ not: "foreign" }, { content: contentScreen() }] },
      loaders: [loader],
      as: glob,
    };
    rules[glob] = glob in rules ? withOwnRules(glob, rule, rules[glob]) : rule;
  }
  const userWebpack = nextConfig.webpack;
  if (userWebpack && APPLIED in userWebpack) {
    throw new Error(
      "withTypedMcp: this config already went through withTypedMcp (its webpack() is typed-mcp's); apply it once, with all your options.",
    );
  }
  const webpack = (config: { plugins?: unknown[] }, context: unknown) => {
    const out = (userWebpack ? userWebpack(config, context) : config) as { plugins?: unknown[] };
    out.plugins = [...(out.plugins ?? []), webpackPlugin(options)];
    return out;
  };
  Object.defineProperty(webpack, APPLIED, { value: true });
  return {
    ...nextConfig,
    // nextHandler (typed-mcp) reads it: Next.js tells a route handler nothing of basePath.
    ...(nextConfig.basePath ? { env: { ...nextConfig.env, TYPED_MCP_NEXT_BASE_PATH: nextConfig.basePath } } : {}),
    turbopack: { ...nextConfig.turbopack, rules },
    rewrites: withMetadataRewrite(nextConfig.rewrites),
    webpack,
  };
}
