/**
 * Import following (docs/cli.md "Which files are listed"): `list` and `check` given an entry
 * follow its static relative imports and re-exports transitively (`./x.js` resolved to `./x.ts`
 * as TypeScript does), so the tools of every module the entry loads are listed. Type-only
 * imports (erased by the build), bare specifiers and cycles are not followed.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { followImports } from "../../packages/cli/dist/follow.js";
import { cli, FIXTURES } from "./helpers.js";

// Derived by hand from shared/spec/mapping.md: §1 names (camelCase → snake_case) and JSDoc
// descriptions, `readOnly` → annotations.readOnlyHint; §3 the root object with
// additionalProperties false and a `@param` description (leading "- " dropped); §4 an interface
// as a nested object without additionalProperties, `number[]` as an array of numbers.
const placeOrder = {
  name: "place_order",
  description: "Places an order.",
  inputSchema: {
    type: "object",
    properties: {
      input: {
        type: "object",
        properties: { sku: { type: "string", description: "The article number." }, quantity: { type: "number" } },
        required: ["sku", "quantity"],
      },
    },
    required: ["input"],
    additionalProperties: false,
  },
};
const sum = {
  name: "sum",
  description: "Sums the amounts.",
  inputSchema: {
    type: "object",
    properties: { amounts: { type: "array", description: "In cents.", items: { type: "number" } } },
    required: ["amounts"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};
const toolA = {
  name: "tool_a",
  description: "Tool a.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
};
const toolB = {
  name: "tool_b",
  description: "Tool b.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
};

function listing(tools: object[]): string {
  return JSON.stringify({ tools, resources: [], resourceTemplates: [], prompts: [] }, null, 2) + "\n";
}

describe("typed-mcp list/check follow an entry's imports", () => {
  it("lists the tools of both modules an entry that declares none imports (./x.js → x.ts), not the type-only import's", () => {
    const r = cli(["list", "follow/server.ts"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(listing([placeOrder, sum]));
    expect(r.code).toBe(0);
  });

  it("follows re-exports (export { X } from, export * from) in source order", () => {
    const r = cli(["list", "follow/barrel.ts"]);
    expect(r.stdout).toBe(listing([sum, placeOrder]));
    expect(r.code).toBe(0);
  });

  it("keeps naming several files working: the given files first, in the order given, each read once", () => {
    const r = cli(["list", "follow/totals.ts", "follow/server.ts", "follow/orders.ts"]);
    expect(r.stdout).toBe(listing([sum, placeOrder]));
    expect(r.code).toBe(0);
  });

  it("check counts and checks the followed modules (server, orders, totals; not the type-only audit.ts)", () => {
    const r = cli(["check", "follow/server.ts"]);
    expect(r.stdout).toBe("typed-mcp check: 3 files, 2 tools, 0 resources, 0 prompts, no problems.\n");
    expect(r.code).toBe(0);
  });

  it("ends on an import cycle between two modules, each listed once, from either side", () => {
    const a = cli(["list", "follow/cycle/a.ts"]);
    expect(a.stdout).toBe(listing([toolA, toolB]));
    expect(a.code).toBe(0);
    const b = cli(["list", "follow/cycle/b.ts"]);
    expect(b.stdout).toBe(listing([toolB, toolA]));
    expect(b.code).toBe(0);
  });
});

describe("followImports", () => {
  it("follows value imports, side-effect imports, namespace imports and re-exports, resolved as TypeScript does; nothing else", () => {
    // follow/kinds/main.ts writes one import of each kind (docs/cli.md "Which files are listed").
    const kinds = join(FIXTURES, "follow/kinds");
    const found = followImports([join(kinds, "main.ts")], undefined).map((f) => f.slice(kinds.length + 1));
    expect(found).toEqual([
      "main.ts",
      "side.ts", // import "./side.js"
      "ns.ts", // import * as ns from "./ns.js"
      "dir/index.ts", // import x from "./dir"
      "m.mts", // import m from "./m.mjs"
      "e.ts", // export * as e from "./e.js"
    ]); // not: typeonly.ts, typeonly2.ts (type-only), decl.d.ts, typed-mcp (bare, though tsconfig paths map it to a .ts file), typeexp.ts (export type), dyn.ts (import())
  });
});
