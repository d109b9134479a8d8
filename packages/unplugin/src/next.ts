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
 *   extension). The loader reports every file a model depends on with `this.addDependency`, so
 *   `next dev` re-lists after an edit to an imported interface.
 * - **webpack** (`--webpack`): the typed-mcp webpack plugin (`@typed-mcp/unplugin/webpack`)
 *   added to every compilation, after the config's own `webpack()` function, if any.
 *
 * Both run the same driver with the same options, so both builds list the same bytes as the
 * other bundlers.
 *
 * - **Auth discovery**: a rewrite of `/.well-known/oauth-protected-resource/<path>` to `/<path>`
 *   (RFC 9728 §3.1), so the route at `<path>` serves its own protected-resource metadata when its
 *   server has `auth: oauth(...)`; a route file at the well-known path takes precedence.
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

/** The extensions the loader runs on: the plugin's default `include` (`.ts`, `.mts`, `.cts`, `.tsx`). */
const EXTENSIONS = ["ts", "tsx", "mts", "cts"] as const;

/** The plugin's code screen (`TOOL_CODE_FILTER`) as one RegExp, for Turbopack's `content` condition. */
function contentScreen(): RegExp {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(TOOL_CODE_FILTER.map((p) => (typeof p === "string" ? literal(p) : p.source)).join("|"));
}

/**
 * The Next.js config `nextConfig` with the typed-mcp build step for Turbopack and webpack (see
 * the module comment). `nextConfig` is not changed; its other keys, its `turbopack` options and
 * rules for other globs, its `webpack()` function and its `rewrites()` (the metadata rewrite
 * comes after them) are kept.
 *
 * @param nextConfig The app's Next.js config (an object; for a config function, call it first).
 * @param options `tsconfig`, `typescript`, `cache`, `profile`, `warnings` (the plugin's options).
 * @returns The new config.
 * @throws Error when `nextConfig.turbopack.rules` already has a rule for `*.ts`, `*.tsx`, `*.mts`
 *   or `*.cts` (Turbopack takes one rule per glob: add typed-mcp's loader to it yourself, first
 *   in its `loaders`, as docs/nextjs.md shows).
 */
export function withTypedMcp<C extends NextConfigLike>(nextConfig: C, options: TypedMcpNextOptions = {}): C {
  const rules: Record<string, unknown> = { ...nextConfig.turbopack?.rules };
  const loader = { loader: "@typed-mcp/unplugin/loader", options: { ...options } };
  for (const ext of EXTENSIONS) {
    const glob = `*.${ext}`;
    if (glob in rules) {
      throw new Error(
        `withTypedMcp: turbopack.rules already has a rule for "${glob}"; put { loader: "@typed-mcp/unplugin/loader" } first in its loaders instead (docs/nextjs.md).`,
      );
    }
    const rule: TurbopackRule = {
      condition: { all: [{ not: "foreign" }, { content: contentScreen() }] },
      loaders: [loader],
      as: glob,
    };
    rules[glob] = rule;
  }
  const userWebpack = nextConfig.webpack;
  return {
    ...nextConfig,
    turbopack: { ...nextConfig.turbopack, rules },
    rewrites: withMetadataRewrite(nextConfig.rewrites),
    webpack(config: { plugins?: unknown[] }, context: unknown) {
      const out = (userWebpack ? userWebpack(config, context) : config) as { plugins?: unknown[] };
      out.plugins = [...(out.plugins ?? []), webpackPlugin(options)];
      return out;
    },
  };
}
