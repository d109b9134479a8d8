/**
 * `withTypedMcp(nextConfig, options)` (docs/nextjs.md "Setup") as a function of the config, without
 * Next.js (the real builds: test/scaffold/next.test.ts): the Turbopack rules it writes (the loader
 * on the app's own TypeScript files whose text passes the plugin's code screen), the webpack plugin
 * after the config's own `webpack()`, the config's other keys kept, the config's own rule for a
 * TypeScript glob kept after typed-mcp's (a mixed list refused),
 * and the RFC 9728 §3.1 rewrite of `/.well-known/oauth-protected-resource/<path>` to the route at
 * `<path>` after the config's own rewrites (which nextHandler answers as the well-known URL), and
 * the `basePath` passed on to nextHandler in `env`.
 */
import { describe, expect, it } from "vitest";
import { withTypedMcp, type NextConfigLike } from "@typed-mcp/unplugin/next";

describe("withTypedMcp", () => {
  it("adds a loader rule per TypeScript extension, with the options as JSON, keeping the config's other keys", () => {
    const config = withTypedMcp(
      { reactStrictMode: true, turbopack: { resolveAlias: { a: "b" }, rules: { "*.svg": { loaders: ["svgr"] } } } },
      { profile: "openai-strict", warnings: { OMCW0002: false } },
    );
    expect(config.reactStrictMode).toBe(true);
    expect(config.turbopack.resolveAlias).toEqual({ a: "b" });
    const rules = config.turbopack.rules as Record<string, any>;
    expect(Object.keys(rules)).toEqual(["*.svg", "*.ts", "*.tsx", "*.mts", "*.cts"]);
    for (const ext of ["ts", "tsx", "mts", "cts"]) {
      const rule = rules[`*.${ext}`];
      expect(rule.as).toBe(`*.${ext}`);
      expect(rule.loaders).toEqual([
        { loader: "@typed-mcp/unplugin/loader", options: { profile: "openai-strict", warnings: { OMCW0002: false } } },
      ]);
      expect(rule.condition.all[0]).toEqual({ not: "foreign" });
      // The content screen: what mayDeclareTools can let through reaches the loader, other files do not.
      const content: RegExp = rule.condition.all[1].content;
      expect(content.test('import { tool } from "typed-mcp";')).toBe(true);
      expect(content.test('server.tool("add", (a: number) => a)')).toBe(true);
      expect(content.test("export const x = 1;")).toBe(false);
    }
    // Turbopack requires JSON-serializable loader options.
    expect(JSON.parse(JSON.stringify(rules["*.ts"].loaders))).toEqual(rules["*.ts"].loaders);
  });

  it("runs the config's own webpack() first, then adds the typed-mcp webpack plugin", () => {
    const seen: unknown[] = [];
    const config = withTypedMcp({
      webpack(c: { plugins: unknown[] }, ctx: unknown) {
        seen.push(ctx);
        c.plugins.push("user-plugin");
        return c;
      },
    });
    const out = config.webpack!({ plugins: ["next-plugin"] }, { isServer: true });
    expect(seen).toEqual([{ isServer: true }]);
    expect(out.plugins.slice(0, 2)).toEqual(["next-plugin", "user-plugin"]);
    expect(out.plugins).toHaveLength(3);
    expect(typeof (out.plugins[2] as { apply?: unknown }).apply).toBe("function"); // a webpack plugin
  });

  it("keeps the config's own rule for a TypeScript glob after typed-mcp's, in each of its forms (Turbopack runs a glob's list in order)", () => {
    const ours = (config: NextConfigLike) => {
      const rules = withTypedMcp(config).turbopack!.rules as Record<string, unknown>;
      return rules;
    };
    const typedMcp = ours({})["*.ts"];
    const own = { condition: { not: "foreign" }, loaders: ["./stamp-loader.cjs"], as: "*.ts" };
    // A rule object.
    expect(ours({ turbopack: { rules: { "*.ts": own } } })["*.ts"]).toEqual([typedMcp, own]);
    // A list of rule objects.
    const other = { condition: "browser", loaders: ["x"] };
    expect(ours({ turbopack: { rules: { "*.ts": [own, other] } } })["*.ts"]).toEqual([typedMcp, own, other]);
    // The shorthand list of loaders.
    expect(ours({ turbopack: { rules: { "*.tsx": ["a", { loader: "b", options: { c: 1 } }] } } })["*.tsx"]).toEqual([
      ours({})["*.tsx"],
      { loaders: ["a", { loader: "b", options: { c: 1 } }] },
    ]);
    // A rule that already runs the loader (as the 0.1 docs said to write) is kept as it is: no second run.
    const withLoader = { loaders: [{ loader: "@typed-mcp/unplugin/loader", options: {} }, "y"], as: "*.ts" };
    expect(ours({ turbopack: { rules: { "*.ts": withLoader } } })["*.ts"]).toBe(withLoader);
    expect(ours({ turbopack: { rules: { "*.cts": ["@typed-mcp/unplugin/loader"] } } })["*.cts"]).toEqual([
      "@typed-mcp/unplugin/loader",
    ]);
    // The other globs are untouched.
    expect(ours({ turbopack: { rules: { "*.ts": own } } })["*.mts"]).toEqual(ours({})["*.mts"]);
  });

  it("refuses a config that already went through withTypedMcp (the webpack plugin would run twice)", () => {
    expect(() => withTypedMcp(withTypedMcp({}))).toThrow(
      "withTypedMcp: this config already went through withTypedMcp (its webpack() is typed-mcp's); apply it once, with all your options.",
    );
  });

  it("refuses a list that mixes loaders and rule objects, naming the glob and the fix", () => {
    expect(() => withTypedMcp({ turbopack: { rules: { "*.ts": ["a", { loaders: ["b"] }] } } })).toThrow(
      'withTypedMcp: turbopack.rules["*.ts"] mixes loaders and rule objects; write it as a list of rule objects ({ loaders, as, condition }) (docs/nextjs.md).',
    );
  });

  it("tells nextHandler the basePath through env.TYPED_MCP_NEXT_BASE_PATH, keeping the config's own env; no basePath, no env", () => {
    expect(withTypedMcp({ basePath: "/docs", env: { A: "1" } }).env).toEqual({
      A: "1",
      TYPED_MCP_NEXT_BASE_PATH: "/docs",
    });
    expect(withTypedMcp({ basePath: "/docs" }).env).toEqual({ TYPED_MCP_NEXT_BASE_PATH: "/docs" });
    expect("env" in withTypedMcp({})).toBe(false);
    expect(withTypedMcp({ env: { A: "1" } }).env).toEqual({ A: "1" });
  });

  it("rewrites /.well-known/oauth-protected-resource/<path> to the route at <path>, after the config's own rewrites", async () => {
    const ours = {
      source: "/.well-known/oauth-protected-resource/:path+",
      destination: "/:path+?oauth-protected-resource=1",
    };
    const own = { source: "/old", destination: "/new" };
    const rewrites = (config: NextConfigLike) => withTypedMcp(config).rewrites!();
    expect(await rewrites({})).toEqual([ours]);
    expect(await rewrites({ rewrites: async () => [own] })).toEqual([own, ours]);
    expect(await rewrites({ rewrites: async () => ({ beforeFiles: [own], fallback: [] }) })).toEqual({
      beforeFiles: [own],
      afterFiles: [ours],
      fallback: [],
    });
  });
});
