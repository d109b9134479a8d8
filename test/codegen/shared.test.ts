/**
 * Shared units (issue 12; docs/architecture.md "Shared types"), loaded for real: with `share`,
 * an object type's schema, reader and writer are written once and referred to; the listing's
 * JSON is the inline listing's byte for byte (spec §1–§4), the reader's errors keep the exact
 * §5 texts, paths (also cut at 200 code units) and failure order, and the units are keyed by
 * their text, so equal types share and different ones do not.
 */
import { describe, expect, it } from "vitest";
import { generateTool, toolListing } from "../../packages/codegen/dist/index.js";
import { planSplice } from "../../packages/transform/dist/index.js";
import { T, fakeCtx, load, param, prop, tool, type ObjectModel } from "./helpers.ts";

const ctx = fakeCtx();
/** The argument error of spec §5. */
const bad = (path: string, second: string) => `Argument '${path}' is not valid. ${second}`;

// interface Item { sku: string & Pattern<"^[A-Z]+$">; qty: Int & Minimum<1> }
const item = T.object([
  prop("sku", T.string({ pattern: "^[A-Z]+$" })),
  prop("qty", T.int({ minimum: 1 })),
]) as ObjectModel;
// interface Address { street: string; zip?: string; notes: Record<string, Item> }
const address = T.object([
  prop("street", T.string()),
  prop("zip", T.string(), false),
  prop("notes", T.record(item)),
]) as ObjectModel;
// place_order(items: Item[], shipTo: Address, /** Where the bill goes. */ billTo: Address | null, extra?: { "__proto__": string })
const order = tool(
  "place_order",
  [
    param("items", T.array(item, { minLength: 1 })),
    param("shipTo", address),
    param("billTo", T.nullable(address), true, { description: "Where the bill goes." }),
    param("extra", T.object([prop("__proto__", T.string())]), false),
  ],
  { kind: "structured", nullable: false, type: T.object([prop("to", address), prop("first", item)]) as ObjectModel },
);
const valid = {
  items: [{ sku: "AB", qty: 2 }],
  shipTo: { street: "Main St", notes: { a: { sku: "X", qty: 1 } } },
  billTo: null,
};

describe("shared units", () => {
  it("list the same JSON as the inline listing (spec §1–§4), with each object schema written once", async () => {
    const shared = await load(order, { share: true });
    expect(JSON.stringify(shared.listing)).toBe(JSON.stringify(toolListing(order)));
    const g = generateTool(order, { share: true });
    // `"street"` is a key of Address's schema, written in one constant only (and read in its reader).
    const schemaUnits = g.units.filter((u) => u.code.startsWith("{"));
    expect(schemaUnits.filter((u) => u.code.includes('"street":{"type":"string"}'))).toHaveLength(1);
    expect(g.code).not.toContain('"street"');
    // The described use (§2: `description` after `type`) takes the constant's keywords by reference.
    expect(g.code).toMatch(
      /"billTo":\{"type":\["object","null"\],"description":"Where the bill goes\.","properties":__tmcp_u_[0-9a-f]{16}\.properties/,
    );
  });

  it("read valid arguments to the inline reader's values", async () => {
    const [shared, inline] = [await load(order, { share: true }), await load(order)];
    const args = JSON.parse(JSON.stringify({ ...valid, billTo: valid.shipTo, extra: JSON.parse('{"__proto__":"p"}') }));
    const got = shared.read(args, ctx) as unknown[];
    expect(got).toEqual(inline.read(JSON.parse(JSON.stringify(args)), ctx));
    expect(Object.getOwnPropertyDescriptor(got[3], "__proto__")?.value).toBe("p");
    expect(got[1]).toEqual({ street: "Main St", notes: { a: { sku: "X", qty: 1 } } });
  });

  it("keep the §5 texts and paths, the caller's path first", async () => {
    const t = await load(order, { share: true });
    const read = (over: object) => t.read(JSON.parse(JSON.stringify({ ...valid, ...over })), ctx);
    expect(
      read({
        items: [
          { sku: "A", qty: 1 },
          { sku: "B", qty: 1 },
          { sku: "C", qty: 0 },
        ],
      }),
    ).toBe(bad("items[2].qty", "Expected an integer of at least 1."));
    expect(read({ items: [{ sku: "a", qty: 1 }] })).toBe(
      bad("items[0].sku", "Expected a string matching the pattern ^[A-Z]+$."),
    );
    expect(read({ shipTo: { notes: {} } })).toBe(bad("shipTo.street", "It is required."));
    expect(read({ shipTo: [] })).toBe(bad("shipTo", "Expected an object, got an array."));
    // The nullable use: the wrong-type sentence names null too (§5).
    expect(read({ billTo: "x" })).toBe(bad("billTo", "Expected an object or null, got a string."));
    expect(read({ billTo: { street: "s", notes: { "a b": { sku: "X", qty: "1" } } } })).toBe(
      bad('billTo.notes["a b"].qty', "Expected an integer, got a string."),
    );
  });

  it("keep the §5 failure order: first failing parameter, unknown arguments last", async () => {
    const t = await load(order, { share: true });
    const args = {
      items: [{ sku: "A", qty: 1 }],
      shipTo: { street: 1, notes: {} },
      billTo: { street: 2, notes: {} },
      zzz: 1,
    };
    expect(t.read(args, ctx)).toBe(bad("shipTo.street", "Expected a string, got a number."));
    expect(t.read({ ...valid, zzz: 1 }, ctx)).toBe(bad("zzz", "It is not a parameter of this tool."));
  });

  it("cut a path longer than 200 UTF-16 code units as the inline reader does (§5)", async () => {
    const [shared, inline] = [await load(order, { share: true }), await load(order)];
    const args = { ...valid, shipTo: { street: "s", notes: { ["k".repeat(300)]: { sku: "X", qty: 0 } } } };
    const text = shared.read(args, ctx) as string;
    expect(text).toBe(inline.read(args, ctx));
    expect(text).toBe(bad(`shipTo.notes.${"k".repeat(300)}`.slice(0, 200) + "…", "Expected an integer of at least 1."));
  });

  it("write results as the inline writer does (§6)", async () => {
    const [shared, inline] = [await load(order, { share: true }), await load(order)];
    const value = { to: { street: "s", zip: "1", notes: { k: { sku: "X", qty: 3 } } }, first: { sku: "Y", qty: 1 } };
    expect(shared.write(value)).toEqual(inline.write(value));
    expect(shared.write(value)).toEqual({
      content: [
        {
          type: "text",
          text: '{"to":{"street":"s","zip":"1","notes":{"k":{"sku":"X","qty":3}}},"first":{"sku":"Y","qty":1}}',
        },
      ],
      structuredContent: value,
    });
  });

  it("are keyed by their text: equal types share, a different description or constraint does not", () => {
    const a = generateTool(tool("a", [param("x", item)]), { share: true }).units;
    const b = generateTool(tool("b", [param("y", item), param("z", item)]), { share: true }).units;
    // The tools' readers are units too, and differ (other parameter lists); the type's schema and
    // reader, and the text result's writer, are the same units.
    const own = (us: typeof a) => us.filter((u) => !u.code.startsWith("function (a, ctx)")).map((u) => u.id);
    expect(own(b)).toEqual(own(a));
    expect(b.length).toBe(a.length);
    const other = T.object([
      prop("sku", T.string({ pattern: "^[A-Z]+$" }), true, { description: "The SKU." }),
      prop("qty", T.int({ minimum: 1 })),
    ]);
    const c = generateTool(tool("c", [param("x", other)]), { share: true }).units;
    expect(c.map((u) => u.id).filter((id) => a.some((u) => u.id === id))).toEqual(
      a.filter((u) => !u.code.startsWith("{")).map((u) => u.id),
    );
  });

  it("check enums, constrained scalars and their arrays through one check unit per distinct text (§5 texts as inline)", async () => {
    // type Status = "open" | "closed"; tools a(status: Status, tags: (string & Pattern<"^[a-z]+$">)[]) and b(s: Status)
    const status = T.strEnum("open", "closed");
    const tags = T.array(T.string({ pattern: "^[a-z]+$" }));
    const a = tool("a", [param("status", status), param("tags", tags)]);
    const b = tool("b", [param("s", status)]);
    const [ga, gb] = [generateTool(a, { share: true }), generateTool(b, { share: true })];
    const checks = (g: typeof ga) =>
      g.units.filter(
        (u) =>
          /^(\(\(\) => \{[\s\S]*return )?function \(x\)/.test(u.code) &&
          !u.code.includes("return {") &&
          !/return r\d+;/.test(u.code),
      );
    const enumUnit = checks(ga).find((u) => u.code.includes('"closed"'))!;
    expect(enumUnit).toBeDefined();
    expect(checks(gb).map((u) => u.id)).toEqual([enumUnit.id]);
    // The tools' readers call the unit; only it holds the values' checks.
    const readers = [...ga.units, ...gb.units].filter((u) => u.code.startsWith("function (a, ctx)"));
    expect(readers).toHaveLength(2);
    for (const r of readers) {
      expect(r.code).toContain(enumUnit.name);
      expect(r.code).not.toContain('"closed"');
    }
    const [sa, ia, sb] = [await load(a, { share: true }), await load(a), await load(b, { share: true })];
    expect(sb.read({ s: "shut" }, ctx)).toBe(bad("s", 'Expected one of "open", "closed".'));
    expect(sa.read({ status: "open", tags: ["ok", "Bad"] }, ctx)).toBe(
      bad("tags[1]", "Expected a string matching the pattern ^[a-z]+$."),
    );
    for (const args of [
      { status: 1, tags: [] },
      { status: "open", tags: "x" },
      { status: "open", tags: [1] },
      { tags: [] },
      { status: "closed", tags: ["z"], q: 1 },
    ]) {
      expect(sa.read(args, ctx)).toBe(ia.read(args, ctx));
    }
    expect(sa.read({ status: "closed", tags: ["z"] }, ctx)).toEqual(["closed", ["z"]]);
  });

  it("write a listed scalar property's schema once for every tool listing it, short ones inline (issue 26)", async () => {
    // a(/** The status to filter on. */ status: "open" | "closed" = "open", flag: boolean) and
    // b(/** The status to filter on. */ status: … = "open", /** Free text. */ query: string & MinLength<1>)
    const status = param("status", T.strEnum("open", "closed"), false, {
      description: "The status to filter on.",
      default: "open",
    });
    const a = tool("a", [status, param("flag", T.boolean())]);
    const b = tool("b", [status, param("query", T.string({ minLength: 1 }), true, { description: "Free text." })]);
    const [ga, gb] = [generateTool(a, { share: true }), generateTool(b, { share: true })];
    // §2 keyword order: type, description, enum, default.
    const text = '{"type":"string","description":"The status to filter on.","enum":["open","closed"],"default":"open"}';
    const unit = ga.units.find((u) => u.code === text)!;
    expect(unit).toBeDefined();
    expect(gb.units.find((u) => u.code === text)?.id).toBe(unit.id);
    for (const g of [ga, gb]) {
      expect(g.code).toContain(`"status":${unit.name}`);
      expect(g.code).not.toContain("The status to filter on.");
    }
    // `{"type":"boolean"}` is shorter than a unit's name: inline.
    expect(ga.code).toContain('"flag":{"type":"boolean"}');
    for (const t of [a, b]) {
      const [shared, inline] = [await load(t, { share: true }), await load(t)];
      expect(JSON.stringify(shared.listing)).toBe(JSON.stringify(toolListing(t)));
      expect(JSON.stringify(shared.listing)).toBe(JSON.stringify(inline.listing));
    }
    expect(JSON.stringify((await load(b, { share: true })).listing.inputSchema)).toBe(
      '{"type":"object","properties":{"status":' +
        text +
        ',"query":{"type":"string","description":"Free text.","minLength":1}},"required":["query"],"additionalProperties":false}',
    );
  });

  it("leave a class read into an instance inline (its constructor is imported by the tool's module)", () => {
    const point = T.object([prop("x", T.number())], {
      construct: { from: "./geo.js", exportName: "Point", args: ["x"] },
    });
    const g = generateTool(tool("p", [param("p", point)]), { share: true });
    expect(g.code).toMatch(/new __tmcp_ctor_Point_[0-9a-f]+\(/);
    expect(g.units.some((u) => u.code.includes("new "))).toBe(false);
  });
});

describe("a module's splice", () => {
  it("binds each unit once, after the units it refers to, for every tool of the module", () => {
    const tools = [
      tool("a", [param("x", address)]),
      tool("b", [param("y", address)], { kind: "structured", nullable: false, type: address }),
    ];
    for (const mode of ["hoist", "virtual"] as const) {
      const plan = planSplice(tools, { share: mode })!;
      const ids = plan.units.map((u) => u.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const [i, u] of plan.units.entries()) for (const d of u.deps) expect(ids.indexOf(d)).toBeLessThan(i);
      for (const u of plan.units)
        expect(plan.header.split(u.name + " =").length - 1 + (plan.header.split(`as ${u.name} }`).length - 1)).toBe(1);
      expect(plan.header).not.toContain("\n");
    }
  });
});
