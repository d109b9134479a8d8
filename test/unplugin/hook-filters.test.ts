/**
 * The plugin declares Rolldown / Vite 8 hook filters (issue: "Hook filters"): `transform` on the
 * module id and text, `resolveId` and `load` on the id, so that those bundlers decide natively,
 * without calling into JavaScript, which modules the plugin sees. The text filter must never be
 * stricter than the in-handler screen (`mayDeclareTools`), or a module with tools would be skipped.
 */
import { describe, expect, it } from "vitest";
import typedMcp from "../../packages/unplugin/dist/rolldown.js";
import { mayDeclareTools } from "../../packages/extract/dist/index.js";
import { unitFile } from "../../packages/transform/dist/index.js";

interface FilteredHook {
  filter?: { id?: unknown; code?: { include?: (string | RegExp)[] } };
  handler: unknown;
}

const made: unknown = typedMcp();
const plugin = (Array.isArray(made) ? made[0] : made) as Record<string, FilteredHook>;

/** A text filter as Rolldown reads it: any pattern matches (a string is a substring). */
function passesCode(code: string): boolean {
  const include = plugin["transform"]!.filter!.code!.include!;
  return include.some((p) => (typeof p === "string" ? code.includes(p) : p.test(code)));
}

describe("hook filters", () => {
  it("transform filters on the id (TypeScript files outside node_modules) and the text", () => {
    const filter = plugin["transform"]!.filter!;
    const id = filter.id as { include: RegExp | RegExp[]; exclude: RegExp | RegExp[] };
    const include = ([] as RegExp[]).concat(id.include);
    const exclude = ([] as RegExp[]).concat(id.exclude);
    expect(include.some((r) => r.test("/p/src/tools.ts"))).toBe(true);
    expect(exclude.some((r) => r.test("/p/node_modules/x/index.ts"))).toBe(true);
    expect(typeof plugin["transform"]!.handler).toBe("function");
  });

  it("the text filter passes every module the in-handler screen passes, and skips plain modules", () => {
    const withTools = [
      'import { tool } from "typed-mcp";\nclass A { @tool() f() {} }',
      'import { tool as t } from "typed-mcp";\nclass A { @t() f() {} }',
      "server.tool(function add(a: number) { return a; });",
      "srv . resource ( function r() {} )",
      "x.prompt(function p() {})",
    ];
    for (const code of withTools) {
      expect(mayDeclareTools(code)).toBe(true);
      expect(passesCode(code)).toBe(true);
    }
    const plain = [
      "export const x = 1;",
      "export function f(a: string) { return a.trim(); }",
      "class A { @observable x = 1 }",
    ];
    for (const code of plain) {
      expect(mayDeclareTools(code)).toBe(false);
      expect(passesCode(code)).toBe(false);
    }
  });

  it("resolveId filters to the shared-unit specifiers and load to the shared-unit files", () => {
    const resolveFilter = plugin["resolveId"]!.filter!.id as RegExp;
    expect(resolveFilter.test("@typed-mcp/unit/0123456789abcdef")).toBe(true);
    expect(resolveFilter.test("typed-mcp")).toBe(false);
    expect(resolveFilter.test("./tools.js")).toBe(false);
    const loadFilter = plugin["load"]!.filter!.id as RegExp;
    expect(loadFilter.test(unitFile("/p", "0123456789abcdef"))).toBe(true);
    expect(loadFilter.test("/p/src/tools.ts")).toBe(false);
  });
});
