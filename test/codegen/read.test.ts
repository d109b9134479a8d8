/**
 * Generated readers (spec §5), loaded for real. Each case names the TypeScript signature that
 * extraction would turn into the model.
 */
import { describe, expect, it } from "vitest";
import { generateTool } from "../../packages/codegen/dist/index.js";
import { CLASSES, T, fakeCtx, load, param, prop, tool, type TypeModel } from "./helpers.ts";

const ctx = fakeCtx();
/** The argument error of spec §5: the seed's first sentence, then the second sentence of the §5 table. */
const bad = (path: string, second: string) => `Argument '${path}' is not valid. ${second}`;
/** A tool with one required parameter `v` of type `t`. */
const single = (t: TypeModel, required = true) => load(tool("t", [param("v", t, required)]));

describe("§5 top level", () => {
  // (items: Item[], rush = false, ctx: RequestContext)  with interface Item { sku: string; qty: Int & Minimum<1> }
  const item = T.object([prop("sku", T.string()), prop("qty", T.int({ minimum: 1 }))]);
  const order = () =>
    load(
      tool("place_order", [
        param("items", T.array(item)),
        param("rush", T.boolean(), false, { default: false }),
        { role: "context", name: "ctx" },
      ]),
    );

  it("gives the call arguments; absent optional parameters are undefined; ctx placed", async () => {
    const t = await order();
    expect(t.read({ items: [{ sku: "a", qty: 1 }], rush: true }, ctx)).toEqual([[{ sku: "a", qty: 1 }], true, ctx]);
    const r = t.read({ items: [] }, ctx) as unknown[];
    expect(r).toHaveLength(3);
    expect(r[1]).toBeUndefined();
    expect(r[2]).toBe(ctx);
  });

  it("reports a missing required argument by name", async () => {
    expect((await order()).read({ rush: true }, ctx)).toBe(bad("items", "It is required."));
  });

  it("arguments that are not an object give the path 'arguments'", async () => {
    const got: [unknown, string][] = [
      [null, "null"],
      [[], "an array"],
      ["x", "a string"],
      [1, "a number"],
    ];
    for (const [v, what] of got)
      expect((await order()).read(v, ctx)).toBe(bad("arguments", `Expected an object, got ${what}.`));
  });

  it("absent arguments means {}", async () => {
    expect((await order()).read(undefined, ctx)).toBe(bad("items", "It is required."));
    // (q?: string) with no arguments at all
    expect(await load(tool("t", [param("q", T.string(), false)])).then((t) => t.read(undefined, ctx))).toEqual([
      undefined,
    ]);
  });

  it("reports the nested path items[2].qty", async () => {
    const t = await order();
    expect(
      t.read(
        {
          items: [
            { sku: "a", qty: 1 },
            { sku: "b", qty: 2 },
            { sku: "c", qty: 0 },
          ],
        },
        ctx,
      ),
    ).toBe(bad("items[2].qty", "Expected an integer of at least 1."));
    expect(t.read({ items: [{ sku: "a", qty: 1 }, { qty: 2 }] }, ctx)).toBe(bad("items[1].sku", "It is required."));
    expect(t.read({ items: [{ sku: "a", qty: 1 }, null] }, ctx)).toBe(bad("items[1]", "Expected an object, got null."));
    expect(t.read({ items: { sku: "a", qty: 1 } }, ctx)).toBe(bad("items", "Expected an array, got an object."));
  });

  it("reports the first failure in parameter order", async () => {
    // rush is bad and items is bad: items comes first
    expect((await order()).read({ rush: "yes", items: [{ sku: 1, qty: 1 }] }, ctx)).toBe(
      bad("items[0].sku", "Expected a string, got a number."),
    );
    expect((await order()).read({ rush: "yes", items: [] }, ctx)).toBe(
      bad("rush", "Expected a boolean, got a string."),
    );
  });

  it("reports an unknown argument only after all parameters pass", async () => {
    const t = await order();
    expect(t.read({ zzz: 1, items: [{ sku: "a", qty: 0 }] }, ctx)).toBe(
      bad("items[0].qty", "Expected an integer of at least 1."),
    );
    expect(t.read({ zzz: 1, items: [] }, ctx)).toBe(bad("zzz", "It is not a parameter of this tool."));
    expect(t.read({ items: [], ctx: {} }, ctx)).toBe(bad("ctx", "It is not a parameter of this tool."));
  });

  it("keeps §5 order whatever the key order: listed parameters in parameter order, then the first unknown key", async () => {
    // Issue 12's single pass reads keys in the client's order; the checks still run in parameter order.
    const t = await order();
    expect(t.read({ yyy: 1, rush: "yes", zzz: 2, items: [{ sku: "a", qty: 0 }] }, ctx)).toBe(
      bad("items[0].qty", "Expected an integer of at least 1."),
    );
    expect(t.read({ yyy: 1, rush: "yes", zzz: 2 }, ctx)).toBe(bad("items", "It is required."));
    expect(t.read({ yyy: 1, rush: "yes", zzz: 2, items: [] }, ctx)).toBe(
      bad("rush", "Expected a boolean, got a string."),
    );
    expect(t.read({ yyy: 1, rush: true, zzz: 2, items: [] }, ctx)).toBe(
      bad("yyy", "It is not a parameter of this tool."),
    );
    expect(t.read({ rush: true, zzz: 2, items: [], yyy: 1 }, ctx)).toBe(
      bad("zzz", "It is not a parameter of this tool."),
    );
    // Nested: an item's properties in listed order whatever the key order (qty before sku on the wire).
    expect(t.read({ items: [{ qty: 0, sku: 1 }] }, ctx)).toBe(bad("items[0].sku", "Expected a string, got a number."));
  });

  it("refuses null where null is not accepted; a nullable required parameter accepts null but stays required", async () => {
    expect((await order()).read({ items: null }, ctx)).toBe(bad("items", "Expected an array, got null."));
    // (note: string | null)
    const t = await single(T.nullable(T.string()));
    expect(t.read({ v: null }, ctx)).toEqual([null]);
    expect(t.read({ v: "x" }, ctx)).toEqual(["x"]);
    expect(t.read({}, ctx)).toBe(bad("v", "It is required."));
    expect(t.read({ v: 1 }, ctx)).toBe(bad("v", "Expected a string or null, got a number."));
  });

  it("places RequestContext and AbortSignal at their positions", async () => {
    // (signal: AbortSignal, q: string, ctx: RequestContext, n?: number)
    const t = await load(
      tool("t", [
        { role: "signal", name: "signal" },
        param("q", T.string()),
        { role: "context", name: "ctx" },
        param("n", T.number(), false),
      ]),
    );
    const r = t.read({ q: "x" }, ctx) as unknown[];
    expect(r).toHaveLength(4);
    expect(r[0]).toBe(ctx.signal);
    expect(r[1]).toBe("x");
    expect(r[2]).toBe(ctx);
    expect(r[3]).toBeUndefined();
    expect(t.read({ q: "x", signal: 1 }, ctx)).toBe(bad("signal", "It is not a parameter of this tool."));
  });

  it("reads a destructured parameter into one object holding only present properties", async () => {
    // ({ city, days = 3 }: { city: string; days?: Int }, ctx: RequestContext)
    const t = await load(
      tool("forecast", [
        {
          role: "destructured",
          properties: [
            param("city", T.string(), true, { key: "city" }),
            param("days", T.int(), false, { key: "days", default: 3 }),
          ],
        },
        { role: "context", name: "ctx" },
      ]),
    );
    const r = t.read({ city: "Oslo" }, ctx) as unknown[];
    expect(r[0]).toEqual({ city: "Oslo" });
    expect(Object.keys(r[0] as object)).toEqual(["city"]);
    expect(r[1]).toBe(ctx);
    expect(t.read({ city: "Oslo", days: 2 }, ctx)).toEqual([{ city: "Oslo", days: 2 }, ctx]);
    expect(t.read({ days: 2 }, ctx)).toBe(bad("city", "It is required."));
    expect(t.read({ city: "Oslo", weeks: 2 }, ctx)).toBe(bad("weeks", "It is not a parameter of this tool."));
  });

  it("a destructured property renamed on the wire is read into its TypeScript key", async () => {
    // ({ firstName }: { /** @jsonName first_name */ firstName: string })
    const t = await load(
      tool("t", [{ role: "destructured", properties: [param("first_name", T.string(), true, { key: "firstName" })] }]),
    );
    expect(t.read({ first_name: "Ada" }, ctx)).toEqual([{ firstName: "Ada" }]);
    expect(t.read({ firstName: "Ada" }, ctx)).toBe(bad("first_name", "It is required."));
  });
});

describe("§5 prototype keys", () => {
  it("a parameter named constructor / toString is not found on the prototype", async () => {
    // (constructor: string, toString?: string)  — as a quick-path arrow function's parameters
    const t = await load(tool("t", [param("constructor", T.string()), param("toString", T.string(), false)]));
    expect(t.read({}, ctx)).toBe(bad("constructor", "It is required."));
    expect(t.read({ constructor: "x" }, ctx)).toEqual(["x", undefined]);
  });

  it("__proto__, constructor and prototype arguments are unknown, not prototype lookups", async () => {
    const t = await single(T.string(), false);
    expect(t.read(JSON.parse('{"__proto__":{"polluted":1}}'), ctx)).toBe(
      bad("__proto__", "It is not a parameter of this tool."),
    );
    expect(t.read(JSON.parse('{"constructor":{"prototype":{"polluted":1}}}'), ctx)).toBe(
      bad("constructor", "It is not a parameter of this tool."),
    );
    expect(t.read(JSON.parse('{"prototype":1}'), ctx)).toBe(bad("prototype", "It is not a parameter of this tool."));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("nested __proto__ keys are dropped from objects and never set a prototype", async () => {
    // (p: { a: string })
    const t = await single(T.object([prop("a", T.string())]));
    const [p] = t.read(JSON.parse('{"v":{"a":"x","__proto__":{"polluted":1},"constructor":1}}'), ctx) as [
      Record<string, unknown>,
    ];
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
    expect(Object.keys(p)).toEqual(["a"]);
    expect(p.polluted).toBeUndefined();
  });

  it("a record keeps __proto__ / constructor / prototype keys as own data properties", async () => {
    // (r: Record<string, Int>)      (r: Record<string, Date>) — converted values build a new record
    for (const t of [await single(T.record(T.int())), await single(T.record(T.date()))]) {
      const isDate = t.listing.inputSchema && JSON.stringify(t.listing).includes("date-time");
      const val = (n: number) => (isDate ? `"2020-01-0${n}T00:00:00Z"` : String(n));
      const [r] = t.read(
        JSON.parse(`{"v":{"__proto__":${val(1)},"constructor":${val(2)},"prototype":${val(3)}}}`),
        ctx,
      ) as [Record<string, unknown>];
      expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
      expect(Object.keys(r)).toEqual(["__proto__", "constructor", "prototype"]);
      expect(Object.getOwnPropertyDescriptor(r, "__proto__")?.enumerable).toBe(true);
      // biome-ignore lint/suspicious/noProto: the own "__proto__" data property the reader must keep is the subject of this test
      if (!isDate) expect([r["__proto__"], r.constructor, r.prototype]).toEqual([1, 2, 3]);
      else
        expect((Object.getOwnPropertyDescriptor(r, "__proto__")!.value as Date).toISOString()).toBe(
          "2020-01-01T00:00:00.000Z",
        );
    }
  });

  it("inherited enumerable keys (a polluted Object.prototype) are neither unknown arguments nor record entries", async () => {
    // (q: string, r: Record<string, string>, s: Record<string, Date>, o: { a: string; [k: string]: string })
    const t = await load(
      tool("t", [
        param("q", T.string()),
        param("r", T.record(T.string())),
        param("s", T.record(T.date())),
        param("o", T.object([prop("a", T.string())], { additionalProperties: T.string() })),
        param("present", T.string(), false),
      ]),
    );
    const proto = Object.prototype as Record<string, unknown>;
    proto.inherited = "x";
    proto.present = "inherited";
    try {
      const r = t.read({ q: "x", r: { a: "1" }, s: {}, o: { a: "1" } }, ctx) as Record<string, unknown>[];
      expect(Object.keys(r[1]!)).toEqual(["a"]);
      expect(Object.keys(r[2]!)).toEqual([]);
      expect(Object.keys(r[3]!)).toEqual(["a"]);
      expect(r[4]).toBeUndefined();
    } finally {
      delete proto.inherited;
      delete proto.present;
    }
  });

  it("a polluted Object.prototype property is never read as an argument or property that is absent", async () => {
    // (q: string, o: { a: string; b?: Int }, n?: number)  and  ({ d }: { d: string }) — issue 12's single pass over own keys
    const t = await load(
      tool("t", [
        param("q", T.string()),
        param("o", T.object([prop("a", T.string()), prop("b", T.int(), false)])),
        param("n", T.number(), false),
      ]),
    );
    const u = await load(
      tool("u", [{ role: "destructured", properties: [param("d", T.string(), true, { key: "d" })] }]),
    );
    const proto = Object.prototype as Record<string, unknown>;
    Object.assign(proto, { q: "inherited", a: "inherited", b: 1.5, n: "not a number", d: "inherited" });
    try {
      expect(t.read({}, ctx)).toBe(bad("q", "It is required."));
      expect(t.read({ q: "x", o: {} }, ctx)).toBe(bad("o.a", "It is required."));
      const r = t.read({ q: "x", o: { a: "1" } }, ctx) as unknown[];
      expect(r[0]).toBe("x");
      expect(Object.keys(r[1] as object)).toEqual(["a"]);
      expect(Object.hasOwn(r[1] as object, "b")).toBe(false);
      expect(r[2]).toBeUndefined();
      expect(u.read({}, ctx)).toBe(bad("d", "It is required."));
      expect(u.read({ d: "y" }, ctx)).toEqual([{ d: "y" }]);
    } finally {
      for (const k of ["q", "a", "b", "n", "d"]) delete proto[k];
    }
  });

  it("own keys hasOwnProperty / toString / valueOf are read as arguments, never as the object's methods", async () => {
    // (hasOwnProperty: string, o: { toString: Int })
    const t = await load(
      tool("t", [param("hasOwnProperty", T.string()), param("o", T.object([prop("toString", T.int())]))]),
    );
    expect(t.read({ hasOwnProperty: "x", o: { toString: 2 } }, ctx)).toEqual(["x", { toString: 2 }]);
    expect(t.read({ o: { toString: 2 } }, ctx)).toBe(bad("hasOwnProperty", "It is required."));
    expect(t.read({ hasOwnProperty: "x", o: {} }, ctx)).toBe(bad("o.toString", "It is required."));
    expect(t.read({ hasOwnProperty: "x", o: { toString: 2 }, valueOf: 1 }, ctx)).toBe(
      bad("valueOf", "It is not a parameter of this tool."),
    );
  });

  it("an object with a property wired as __proto__ reads it as an own property", async () => {
    // (p: { "__proto__": string })
    const t = await single(T.object([prop("__proto__", T.string())]));
    const [p] = t.read(JSON.parse('{"v":{"__proto__":"x"}}'), ctx) as [object];
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(p, "__proto__")?.value).toBe("x");
    expect(t.read(JSON.parse('{"v":{}}'), ctx)).toBe(bad("v.__proto__", "It is required."));
  });
});

describe("§4/§5 scalar kinds", () => {
  it("string: wrong JSON types refused", async () => {
    const t = await single(T.string());
    expect(t.read({ v: "" }, ctx)).toEqual([""]);
    for (const [v, s] of [
      [1, "Expected a string, got a number."],
      [true, "Expected a string, got a boolean."],
      [null, "Expected a string, got null."],
      [[], "Expected a string, got an array."],
      [{}, "Expected a string, got an object."],
    ] as [unknown, string][])
      expect(t.read({ v }, ctx), s).toBe(bad("v", s));
  });

  it("number: never read from strings", async () => {
    const t = await single(T.number());
    expect(t.read({ v: 1.5 }, ctx)).toEqual([1.5]);
    for (const [v, s] of [
      ["5", "Expected a number, got a string."],
      ["1.5", "Expected a number, got a string."],
      [true, "Expected a number, got a boolean."],
      [null, "Expected a number, got null."],
      [[1], "Expected a number, got an array."],
    ] as [unknown, string][])
      expect(t.read({ v }, ctx), s).toBe(bad("v", s));
  });

  it("Int: integers only (Number.isInteger)", async () => {
    const t = await single(T.int());
    expect(t.read({ v: 3 }, ctx)).toEqual([3]);
    expect(t.read(JSON.parse('{"v":2.0}'), ctx)).toEqual([2]);
    expect(t.read({ v: -7 }, ctx)).toEqual([-7]);
    for (const [v, s] of [
      [1.5, "Expected an integer."],
      ["3", "Expected an integer, got a string."],
      [null, "Expected an integer, got null."],
    ] as [unknown, string][])
      expect(t.read({ v }, ctx), s).toBe(bad("v", s));
  });

  it("bigint: via BigInt, safe integers only", async () => {
    const t = await single(T.bigint());
    expect(t.read({ v: 42 }, ctx)).toEqual([42n]);
    expect(t.read({ v: Number.MAX_SAFE_INTEGER }, ctx)).toEqual([BigInt(Number.MAX_SAFE_INTEGER)]);
    for (const [v, s] of [
      [2 ** 53, "Expected an integer from -9007199254740991 to 9007199254740991."],
      [1.5, "Expected an integer."],
      ["42", "Expected an integer, got a string."],
    ] as [unknown, string][])
      expect(t.read({ v }, ctx), s).toBe(bad("v", s));
  });

  it("boolean", async () => {
    const t = await single(T.boolean());
    expect(t.read({ v: false }, ctx)).toEqual([false]);
    for (const [v, s] of [
      [0, "Expected a boolean, got a number."],
      ["true", "Expected a boolean, got a string."],
      [null, "Expected a boolean, got null."],
    ] as [unknown, string][])
      expect(t.read({ v }, ctx), s).toBe(bad("v", s));
  });

  it("minimum / maximum", async () => {
    // (qty: Int & Minimum<1> & Maximum<10>, t: number & Minimum<-2.5>)
    const t = await load(
      tool("t", [param("qty", T.int({ minimum: 1, maximum: 10 })), param("t", T.number({ minimum: -2.5 }))]),
    );
    expect(t.read({ qty: 1, t: -2.5 }, ctx)).toEqual([1, -2.5]);
    expect(t.read({ qty: 10, t: 0 }, ctx)).toEqual([10, 0]);
    expect(t.read({ qty: 0, t: 0 }, ctx)).toBe(bad("qty", "Expected an integer of at least 1."));
    expect(t.read({ qty: 11, t: 0 }, ctx)).toBe(bad("qty", "Expected an integer of at most 10."));
    expect(t.read({ qty: 5, t: -2.6 }, ctx)).toBe(bad("t", "Expected a number of at least -2.5."));
  });

  it("string lengths count code points (an emoji counts 1)", async () => {
    // (s: string & MinLength<2> & MaxLength<3>)
    const t = await single(T.string({ minLength: 2, maxLength: 3 }));
    expect(t.read({ v: "😀😀😀" }, ctx)).toEqual(["😀😀😀"]); // 6 UTF-16 units, 3 code points
    expect(t.read({ v: "😀😀😀😀" }, ctx)).toBe(bad("v", "Expected a string of at most 3 characters."));
    expect(t.read({ v: "😀" }, ctx)).toBe(bad("v", "Expected a string of at least 2 characters.")); // 2 UTF-16 units, 1 code point
    expect(t.read({ v: "ab" }, ctx)).toEqual(["ab"]);
    expect(t.read({ v: "abcd" }, ctx)).toBe(bad("v", "Expected a string of at most 3 characters."));
    expect(t.read({ v: "a" }, ctx)).toBe(bad("v", "Expected a string of at least 2 characters."));
  });

  it("patterns use the u flag and are unanchored", async () => {
    // (a: string & Pattern<"^\\p{Lu}">, b: string & Pattern<"^.$">, c: string & Pattern<"b/c">)
    const t = await load(
      tool("t", [
        param("a", T.string({ pattern: "^\\p{Lu}" })),
        param("b", T.string({ pattern: "^.$" })),
        param("c", T.string({ pattern: "b/c" })),
      ]),
    );
    expect(t.read({ a: "Ärger", b: "😀", c: "ab/cd" }, ctx)).toEqual(["Ärger", "😀", "ab/cd"]);
    expect(t.read({ a: "ärger", b: "😀", c: "b/c" }, ctx)).toBe(
      bad("a", "Expected a string matching the pattern ^\\p{Lu}."),
    );
    expect(t.read({ a: "A", b: "ab", c: "b/c" }, ctx)).toBe(bad("b", "Expected a string matching the pattern ^.$."));
    expect(t.read({ a: "A", b: "a", c: "bc" }, ctx)).toBe(bad("c", "Expected a string matching the pattern b/c."));
  });

  it("the pattern is a RegExp literal hoisted out of read()", () => {
    const { code } = generateTool(tool("t", [param("a", T.string({ pattern: "^a/b$" }))]));
    expect(code).toContain("const re0 = /^a\\/b$/u;");
    expect(code.indexOf("const re0")).toBeLessThan(code.indexOf("read(a, ctx)"));
    expect(code).not.toMatch(/\bnew Function\b|\beval\(/);
  });

  it("format email and uri", async () => {
    // (mail: string & Format<"email">, link: string & Format<"uri">)
    const t = await load(
      tool("t", [param("mail", T.string({ format: "email" })), param("link", T.string({ format: "uri" }))]),
    );
    expect(t.read({ mail: "ada.l+x@example.co.uk", link: "urn:isbn:0451450523" }, ctx)).toEqual([
      "ada.l+x@example.co.uk",
      "urn:isbn:0451450523",
    ]);
    for (const mail of ["ada", "ada@", "@x.org", "a b@x.org", "ada@localhost", "a..b@x.org", "ada@-x.org"]) {
      expect(t.read({ mail, link: "https://x.org" }, ctx)).toBe(bad("mail", "Expected an email address."));
    }
    for (const link of ["example.com", "/path", "https://x.org/a b", "https://x.org/%zz", "https://例え.jp/"]) {
      expect(t.read({ mail: "a@x.org", link }, ctx)).toBe(bad("link", "Expected an absolute URI."));
    }
  });

  it("string enums match exactly; numeric enums by member name give the number; number-literal unions", async () => {
    // (a: "red" | "green", b: Level, c: 1 | 2 | 3)   with enum Level { Low = 1, High = 10 }
    const t = await load(
      tool("t", [
        param("a", T.strEnum("red", "green")),
        param(
          "b",
          T.numEnum([
            ["Low", 1],
            ["High", 10],
          ]),
        ),
        param("c", T.numUnion("integer", 1, 2, 3)),
      ]),
    );
    expect(t.read({ a: "green", b: "High", c: 3 }, ctx)).toEqual(["green", 10, 3]);
    expect(t.read({ a: "Green", b: "High", c: 3 }, ctx)).toBe(bad("a", 'Expected one of "red", "green".'));
    expect(t.read({ a: "red", b: 10, c: 3 }, ctx)).toBe(bad("b", "Expected a string, got a number."));
    expect(t.read({ a: "red", b: "high", c: 3 }, ctx)).toBe(bad("b", 'Expected one of "Low", "High".'));
    expect(t.read({ a: "red", b: "Low", c: "3" }, ctx)).toBe(bad("c", "Expected an integer, got a string."));
    expect(t.read({ a: "red", b: "Low", c: 4 }, ctx)).toBe(bad("c", "Expected one of 1, 2, 3."));
  });

  it("a long enum is checked through a hoisted set", async () => {
    const letters = "abcdefghijkl".split("");
    const t = await single(T.strEnum(...letters));
    expect(t.read({ v: "k" }, ctx)).toEqual(["k"]);
    expect(t.read({ v: "z" }, ctx)).toBe(
      bad("v", 'Expected one of "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l".'),
    );
    expect(t.read({ v: "toString" }, ctx)).toBe(
      bad("v", 'Expected one of "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l".'),
    );
  });

  it("nullable enum accepts null", async () => {
    const t = await single(T.nullable(T.numEnum([["A", 0]])));
    expect(t.read({ v: null }, ctx)).toEqual([null]);
    expect(t.read({ v: "A" }, ctx)).toEqual([0]);
    expect(t.read({ v: "B" }, ctx)).toBe(bad("v", 'Expected one of "A", null.'));
  });
});

describe("§4/§5 Date, URL, Uint8Array", () => {
  it("Date from an RFC 3339 date-time", async () => {
    const t = await single(T.date());
    const ok: [string, string][] = [
      ["2024-01-02T03:04:05Z", "2024-01-02T03:04:05.000Z"],
      ["2024-01-02t03:04:05.5z", "2024-01-02T03:04:05.500Z"],
      ["2024-01-02T03:04:05.123456+01:30", "2024-01-02T01:34:05.123Z"],
      ["2024-02-29T23:59:59-00:00", "2024-02-29T23:59:59.000Z"],
      ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"],
    ];
    for (const [s, iso] of ok) {
      const [d] = t.read({ v: s }, ctx) as [Date];
      expect(d).toBeInstanceOf(Date);
      expect(d.toISOString()).toBe(iso);
    }
    const refused = [
      "2024-01-02",
      "2024-01-02T03:04:05", // no offset
      "2024-01-02 03:04:05Z", // space
      "2023-02-29T00:00:00Z", // not a leap year
      "2024-04-31T00:00:00Z",
      "2024-13-01T00:00:00Z",
      "2024-01-01T24:00:00Z",
      "2024-01-01T00:60:00Z",
      "2024-01-01T00:00:60Z", // leap second: a Date cannot hold it
      "2024-01-01T00:00:00+24:00",
      "2024-01-01T00:00:00.Z",
      "2024-1-01T00:00:00Z",
      "Tue, 02 Jan 2024 03:04:05 GMT",
      "1704164645000",
    ];
    for (const s of refused) expect(t.read({ v: s }, ctx), s).toBe(bad("v", "Expected an RFC 3339 date-time."));
    expect(t.read({ v: 1704164645000 }, ctx)).toBe(bad("v", "Expected a string, got a number."));
  });

  it("URL from an absolute URI", async () => {
    const t = await single(T.url());
    const [u] = t.read({ v: "https://example.com/a?b=1#c" }, ctx) as [URL];
    expect(u).toBeInstanceOf(URL);
    expect(u.href).toBe("https://example.com/a?b=1#c");
    for (const v of ["example.com", "/a/b", "", " https://x.org", "https://x.org/a b"])
      expect(t.read({ v }, ctx), v).toBe(bad("v", "Expected an absolute URI."));
    expect(t.read({ v: 5 }, ctx)).toBe(bad("v", "Expected a string, got a number."));
  });

  it("Uint8Array from strict base64", async () => {
    const t = await single(T.bytes());
    const bytes = (s: string) => Array.from((t.read({ v: s }, ctx) as [Uint8Array])[0]);
    expect((t.read({ v: "AQID" }, ctx) as [Uint8Array])[0]).toBeInstanceOf(Uint8Array);
    expect(bytes("AQID")).toEqual([1, 2, 3]);
    expect(bytes("AQI=")).toEqual([1, 2]);
    expect(bytes("AQ==")).toEqual([1]);
    expect(bytes("")).toEqual([]);
    expect(bytes("+/8=")).toEqual([251, 255]);
    for (const v of ["AQ", "AQI", "AQID\n", "A QID", "-_8=", "AQ=D", "====", "AR==", "AQJ=", "é==="]) {
      expect(t.read({ v }, ctx), v).toBe(bad("v", "Expected base64."));
    }
    expect(t.read({ v: 12 }, ctx)).toBe(bad("v", "Expected a string, got a number."));
  });
});

describe("§4/§5 collections", () => {
  it("arrays: item checks, minItems/maxItems, item constraints", async () => {
    // (tags: (string & MaxLength<3>)[] & MinLength<1> & MaxLength<2>)
    const t = await single(T.array(T.string({ maxLength: 3 }), { minLength: 1, maxLength: 2 }));
    expect(t.read({ v: ["a", "bcd"] }, ctx)).toEqual([["a", "bcd"]]);
    expect(t.read({ v: [] }, ctx)).toBe(bad("v", "Expected an array of at least 1 item."));
    expect(t.read({ v: ["a", "b", "c"] }, ctx)).toBe(bad("v", "Expected an array of at most 2 items."));
    expect(t.read({ v: ["a", "bcde"] }, ctx)).toBe(bad("v[1]", "Expected a string of at most 3 characters."));
    expect(t.read({ v: ["a", null] }, ctx)).toBe(bad("v[1]", "Expected a string, got null."));
    expect(t.read({ v: "a" }, ctx)).toBe(bad("v", "Expected an array, got a string."));
  });

  it("Set: duplicates dropped, not refused", async () => {
    // (ids: Set<Int>)
    const t = await single(T.set(T.int()));
    const [s] = t.read({ v: [3, 1, 3, 2, 1] }, ctx) as [Set<number>];
    expect(s).toBeInstanceOf(Set);
    expect([...s]).toEqual([3, 1, 2]);
    expect(t.read({ v: [1, 1.5] }, ctx)).toBe(bad("v[1]", "Expected an integer."));
  });

  it("Set of dates converts each item", async () => {
    const t = await single(T.set(T.date()));
    const [s] = t.read({ v: ["2020-01-01T00:00:00Z"] }, ctx) as [Set<Date>];
    expect([...s][0]).toBeInstanceOf(Date);
  });

  it("Record: values checked, path .key", async () => {
    // (scores: Record<string, Int & Minimum<0>>)
    const t = await single(T.record(T.int({ minimum: 0 })));
    expect(t.read({ v: { ann: 1, bob: 2 } }, ctx)).toEqual([{ ann: 1, bob: 2 }]);
    expect(t.read({ v: { ann: 1, bob: -2 } }, ctx)).toBe(bad("v.bob", "Expected an integer of at least 0."));
    expect(t.read({ v: [] }, ctx)).toBe(bad("v", "Expected an object, got an array."));
    expect(t.read({ v: null }, ctx)).toBe(bad("v", "Expected an object, got null."));
  });

  it("Map: a Map of read values, path .key", async () => {
    // (m: Map<string, Date>)
    const t = await single(T.map(T.date()));
    const [m] = t.read({ v: { a: "2020-01-01T00:00:00Z", __proto__x: "2021-01-01T00:00:00Z" } }, ctx) as [
      Map<string, Date>,
    ];
    expect(m).toBeInstanceOf(Map);
    expect([...m.keys()]).toEqual(["a", "__proto__x"]);
    expect(m.get("a")!.toISOString()).toBe("2020-01-01T00:00:00.000Z");
    expect(t.read({ v: { a: "2020-01-01T00:00:00Z", "b c": "x" } }, ctx)).toBe(
      bad('v["b c"]', "Expected an RFC 3339 date-time."),
    );
  });

  it("nested arrays and records compose paths", async () => {
    // (grid: Record<string, Int[]>[])
    const t = await single(T.array(T.record(T.array(T.int()))));
    expect(t.read({ v: [{ a: [1] }, { b: [1, 2, "3"] }] }, ctx)).toBe(
      bad("v[1].b[2]", "Expected an integer, got a string."),
    );
  });
});

describe("§4/§5 objects", () => {
  it("builds a new object with only listed properties; optional absent stay absent; wire names", async () => {
    // (u: User) with interface User { /** @jsonName first_name */ firstName: string; age?: Int; tags?: string[] | null }
    const t = await single(
      T.object([
        prop("first_name", T.string(), true, { key: "firstName" }),
        prop("age", T.int(), false),
        prop("tags", T.nullable(T.array(T.string())), false),
      ]),
    );
    const [u] = t.read({ v: { first_name: "Ada", extra: 1 } }, ctx) as [Record<string, unknown>];
    expect(u).toEqual({ firstName: "Ada" });
    expect(Object.keys(u)).toEqual(["firstName"]);
    expect(t.read({ v: { first_name: "Ada", age: 3, tags: null } }, ctx)).toEqual([
      { firstName: "Ada", age: 3, tags: null },
    ]);
    expect(t.read({ v: { firstName: "Ada" } }, ctx)).toBe(bad("v.first_name", "It is required."));
    expect(t.read({ v: { first_name: "Ada", age: null } }, ctx)).toBe(bad("v.age", "Expected an integer, got null."));
    expect(t.read({ v: { first_name: "Ada", tags: [1] } }, ctx)).toBe(
      bad("v.tags[0]", "Expected a string, got a number."),
    );
  });

  it("keeps listed order in the built object", async () => {
    // (p: { b?: string; a: string; c: string })
    const t = await single(T.object([prop("b", T.string(), false), prop("a", T.string()), prop("c", T.string())]));
    const [p] = t.read({ v: { c: "3", a: "1", b: "2" } }, ctx) as [object];
    expect(Object.keys(p)).toEqual(["b", "a", "c"]);
  });

  it("a getter-only property is not read (it is an unknown nested property, dropped)", async () => {
    const t = await single(T.object([prop("a", T.string()), prop("g", T.string(), true, { readOnly: true })]));
    expect(t.read({ v: { a: "x", g: "y" } }, ctx)).toEqual([{ a: "x" }]);
  });

  it("an object with an index signature keeps the other keys, checked against the value type", async () => {
    // (bag: { name: string; [k: string]: string })
    const t = await single(T.object([prop("name", T.string())], { additionalProperties: T.string() }));
    expect(t.read({ v: { name: "n", x: "1", y: "2" } }, ctx)).toEqual([{ name: "n", x: "1", y: "2" }]);
    expect(t.read({ v: { name: "n", x: 1 } }, ctx)).toBe(bad("v.x", "Expected a string, got a number."));
    expect(t.read({ v: { x: "1" } }, ctx)).toBe(bad("v.name", "It is required."));
    const [b] = t.read(JSON.parse('{"v":{"name":"n","__proto__":"p"}}'), ctx) as [object];
    expect(Object.getPrototypeOf(b)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(b, "__proto__")?.value).toBe("p");
  });

  it("an index-signature key equal to a renamed property's TypeScript key is refused (it would overwrite the property)", async () => {
    // (u: { /** @jsonName first_name */ firstName: string; [k: string]: string })
    const t = await single(
      T.object([prop("first_name", T.string(), true, { key: "firstName" })], { additionalProperties: T.string() }),
    );
    expect(t.read({ v: { first_name: "Ada", nick: "A" } }, ctx)).toEqual([{ firstName: "Ada", nick: "A" }]);
    expect(t.read({ v: { first_name: "Ada", firstName: "Eve" } }, ctx)).toBe(
      bad("v.firstName", "It is not allowed here."),
    );
  });

  it("a class: new C(...ctorArgs), then the other present listed fields", async () => {
    // (p: Point) with class Point { label = "origin"; constructor(public x: Int, public y: Int = 0) {} get norm(): number }
    const point = T.object(
      [
        prop("label", T.string(), false),
        prop("x", T.int()),
        prop("y", T.int(), false),
        prop("norm", T.number(), true, { readOnly: true }),
      ],
      {
        construct: { from: CLASSES, exportName: "Point", args: ["x", "y"] },
      },
    );
    const { Point } = (await import(/* @vite-ignore */ CLASSES)) as {
      Point: { new (x: number, y?: number): object; constructed: number };
    };
    const t = await single(point);
    const before = Point.constructed;
    const [p] = t.read({ v: { x: 3 } }, ctx) as [Record<string, unknown>];
    expect(p).toBeInstanceOf(Point);
    expect(Point.constructed).toBe(before + 1);
    expect([p.x, p.y, p.label, p.norm]).toEqual([3, 0, "origin", 3]); // y: constructor default; label: initializer
    const [q] = t.read({ v: { x: -1, y: 2, label: "here" } }, ctx) as [Record<string, unknown>];
    expect([q.x, q.y, q.label, q.norm]).toEqual([-1, 2, "here", 3]);
    expect(t.read({ v: { y: 2 } }, ctx)).toBe(bad("v.x", "It is required."));
    expect(t.read({ v: { x: 1, label: 5 } }, ctx)).toBe(bad("v.label", "Expected a string, got a number."));
  });

  it("requests the class import with a deterministic local name", () => {
    const point = T.object([prop("x", T.int())], {
      construct: { from: "./point.js", exportName: "Point", args: ["x"] },
    });
    const a = generateTool(tool("a", [param("p", point), param("q", T.array(point))]));
    const b = generateTool(tool("b", [param("p", point)]));
    expect(a.imports).toHaveLength(1);
    expect(a.imports[0]).toMatchObject({ from: "./point.js", exportName: "Point" });
    expect(a.imports[0]!.local).toBe(b.imports[0]!.local);
    expect(a.code).toContain(`new ${a.imports[0]!.local}(`);
  });
});
