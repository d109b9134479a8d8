/**
 * Generated writers (spec §6), loaded for real. Expected results are exact JSON strings.
 */
import { describe, expect, it } from "vitest";
import { T, load, prop, tool, type ResultModel, type TypeModel } from "./helpers.ts";

const json = (v: unknown) => JSON.stringify(v);
const writer = async (result: ResultModel) => (await load(tool("t", [], result))).write;
/** A `json` result of type `t` (spec §6 "anything else"). */
const jsonOf = (t: TypeModel) => writer({ kind: "json", type: t });
const textBlock = (text: string) => `{"content":[{"type":"text","text":${JSON.stringify(text)}}]}`;
/** The exact structured result for a written JSON value: content first, then structuredContent. */
const structured = (w: string) => `{"content":[{"type":"text","text":${JSON.stringify(w)}}],"structuredContent":${w}}`;

describe("§6 result shapes", () => {
  it("void → content: []", async () => {
    // (): void / Promise<void>
    expect(json((await writer({ kind: "void" }))(undefined))).toBe('{"content":[]}');
  });

  it("string → one text block, the string as is; null → text null", async () => {
    // (): string | null
    const w = await writer({ kind: "text" });
    expect(json(w('say "hi"\n'))).toBe(textBlock('say "hi"\n'));
    expect(json(w(""))).toBe(textBlock(""));
    expect(json(w(null))).toBe(textBlock("null"));
  });

  it("object-shaped → text block with the JSON plus structuredContent", async () => {
    // (): { id: string; n: Int }
    const w = await writer({
      kind: "structured",
      nullable: false,
      type: T.object([prop("id", T.string()), prop("n", T.int())]),
    });
    const r = w({ id: "a", n: 1 });
    expect(json(r)).toBe(structured('{"id":"a","n":1}'));
    expect(Object.keys(r)).toEqual(["content", "structuredContent"]);
  });

  it("nullable object-shaped returning null → text null, no structuredContent", async () => {
    // (): Note | null
    const w = await writer({ kind: "structured", nullable: true, type: T.object([prop("text", T.string())]) });
    expect(json(w(null))).toBe(textBlock("null"));
    expect(json(w({ text: "t" }))).toBe(structured('{"text":"t"}'));
  });

  it("record and Map results are structured", async () => {
    // (): Record<string, Int>       (): Map<string, Date>
    expect(
      json(
        (await writer({ kind: "structured", nullable: false, type: { kind: "record", values: T.int() } }))({
          a: 1,
          b: 2,
        }),
      ),
    ).toBe(structured('{"a":1,"b":2}'));
    const m = new Map([
      ["x", new Date(Date.UTC(2020, 0, 1))],
      ["__proto__", new Date(0)],
    ]);
    expect(
      json(
        (await writer({ kind: "structured", nullable: false, type: { kind: "record", values: T.date(), map: true } }))(
          m,
        ),
      ),
    ).toBe(structured('{"x":"2020-01-01T00:00:00.000Z","__proto__":"1970-01-01T00:00:00.000Z"}'));
  });

  it("anything else → one text block with the JSON text", async () => {
    // (): number    (): boolean    (): string[]    (): Int | null
    expect(json((await jsonOf(T.number()))(1.5))).toBe(textBlock("1.5"));
    expect(json((await jsonOf(T.boolean()))(false))).toBe(textBlock("false"));
    expect(json((await jsonOf(T.array(T.string())))(["a", "b"]))).toBe(textBlock('["a","b"]'));
    expect(json((await jsonOf(T.nullable(T.int())))(null))).toBe(textBlock("null"));
    expect(json((await jsonOf(T.strEnum("a", "b")))("b"))).toBe(textBlock('"b"'));
  });

  it("passthrough: CallToolResult as is; a block → {content:[block]}; blocks → {content: blocks}", async () => {
    // (): CallToolResult | ContentBlock | ContentBlock[]
    const w = await writer({ kind: "passthrough" });
    const result = { content: [{ type: "text", text: "x" }], isError: true };
    expect(w(result)).toBe(result);
    const block = { type: "image", data: "AA==", mimeType: "image/png" };
    expect(json(w(block))).toBe('{"content":[{"type":"image","data":"AA==","mimeType":"image/png"}]}');
    expect(json(w([block, { type: "text", text: "y" }]))).toBe(
      '{"content":[{"type":"image","data":"AA==","mimeType":"image/png"},{"type":"text","text":"y"}]}',
    );
    expect(json(w([]))).toBe('{"content":[]}');
  });
});

describe("§6 written values", () => {
  it("writes exactly the listed properties in listed order; extra dropped; absent optional left out", async () => {
    // (): { b: string; a?: Int; c: string[] }
    const w = await writer({
      kind: "structured",
      nullable: false,
      type: T.object([prop("b", T.string()), prop("a", T.int(), false), prop("c", T.array(T.string()))]),
    });
    expect(json(w({ c: ["x"], extra: 1, b: "B" }))).toBe(structured('{"b":"B","c":["x"]}'));
    expect(json(w({ c: [], a: 2, b: "B", z: {} }))).toBe(structured('{"b":"B","a":2,"c":[]}'));
  });

  it("honours renamed properties and ignored ones (not in the model)", async () => {
    // interface User { /** @jsonName first_name */ firstName: string; /** @ignore */ secret?: string }
    const w = await writer({
      kind: "structured",
      nullable: false,
      type: T.object([prop("first_name", T.string(), true, { key: "firstName" })]),
    });
    expect(json(w({ firstName: "Ada", secret: "s" }))).toBe(structured('{"first_name":"Ada"}'));
  });

  it("nested objects are written with their listed properties only", async () => {
    // (): { lines: { sku: string; at?: Date }[] }
    const w = await writer({
      kind: "structured",
      nullable: false,
      type: T.object([prop("lines", T.array(T.object([prop("sku", T.string()), prop("at", T.date(), false)])))]),
    });
    expect(
      json(
        w({
          lines: [
            { sku: "a", junk: 1 },
            { at: new Date(0), sku: "b" },
          ],
        }),
      ),
    ).toBe(structured('{"lines":[{"sku":"a"},{"sku":"b","at":"1970-01-01T00:00:00.000Z"}]}'));
  });

  it("a class instance: fields and getter-only properties, in listed order", async () => {
    // class Point { label = "origin"; constructor(public x: Int, public y: Int = 0) {} get norm(): number }
    const { Point } = (await import(/* @vite-ignore */ (await import("./helpers.ts")).CLASSES)) as {
      Point: new (x: number, y?: number) => object;
    };
    const w = await writer({
      kind: "structured",
      nullable: false,
      type: T.object([
        prop("label", T.string(), false),
        prop("x", T.int()),
        prop("y", T.int(), false),
        prop("norm", T.number(), true, { readOnly: true }),
      ]),
    });
    expect(json(w(new Point(-2, 1)))).toBe(structured('{"label":"origin","x":-2,"y":1,"norm":3}'));
  });

  it("an object with an index signature writes listed properties, then the other own keys", async () => {
    // (): { name: string; [k: string]: Date }   — modelled with a Date index value
    const w = await writer({
      kind: "structured",
      nullable: false,
      type: T.object([prop("name", T.string())], { additionalProperties: T.date() }),
    });
    // the runtime value's "name" is a string; other keys are Dates
    expect(json(w({ when: new Date(0), name: "n" }))).toBe(
      structured('{"name":"n","when":"1970-01-01T00:00:00.000Z"}'),
    );
  });

  it("Date → toISOString(), URL → href, Uint8Array → base64", async () => {
    expect(json((await jsonOf(T.date()))(new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 5))))).toBe(
      textBlock('"2024-02-29T12:00:00.005Z"'),
    );
    expect(json((await jsonOf(T.url()))(new URL("https://x.org/a b")))).toBe(textBlock('"https://x.org/a%20b"'));
    const b64 = await jsonOf(T.bytes());
    expect(json(b64(new Uint8Array([1, 2, 3])))).toBe(textBlock('"AQID"'));
    expect(json(b64(new Uint8Array([1, 2])))).toBe(textBlock('"AQI="'));
    expect(json(b64(new Uint8Array([251, 255])))).toBe(textBlock('"+/8="'));
    expect(json(b64(new Uint8Array([])))).toBe(textBlock('""'));
  });

  it("Set → array, Map → object, bigint → number", async () => {
    expect(json((await jsonOf(T.set(T.string())))(new Set(["b", "a"])))).toBe(textBlock('["b","a"]'));
    expect(json((await jsonOf(T.set(T.date())))(new Set([new Date(0)])))).toBe(
      textBlock('["1970-01-01T00:00:00.000Z"]'),
    );
    expect(json((await jsonOf(T.bigint()))(12n))).toBe(textBlock("12"));
    expect(json((await jsonOf(T.array(T.bigint())))([1n, 2n]))).toBe(textBlock("[1,2]"));
    const m = await writer({
      kind: "structured",
      nullable: false,
      type: { kind: "record", values: T.set(T.int()), map: true },
    });
    expect(json(m(new Map([["a", new Set([1, 2])]])))).toBe(structured('{"a":[1,2]}'));
  });

  it("numeric enum → member name; the first declared one for equal values", async () => {
    // enum Level { Low = 1, Min = 1, High = 10 }   (): Level
    const w = await jsonOf(
      T.numEnum([
        ["Low", 1],
        ["Min", 1],
        ["High", 10],
      ]),
    );
    expect(json(w(1))).toBe(textBlock('"Low"'));
    expect(json(w(10))).toBe(textBlock('"High"'));
    expect(() => w(5)).toThrow(TypeError);
  });

  it("nullable values inside objects", async () => {
    // (): { at: Date | null; lv?: Level | null }
    const w = await writer({
      kind: "structured",
      nullable: false,
      type: T.object([prop("at", T.nullable(T.date())), prop("lv", T.nullable(T.numEnum([["A", 0]])), false)]),
    });
    expect(json(w({ at: null, lv: null }))).toBe(structured('{"at":null,"lv":null}'));
    expect(json(w({ at: new Date(0), lv: 0 }))).toBe(structured('{"at":"1970-01-01T00:00:00.000Z","lv":"A"}'));
  });

  it("a record written with __proto__ keys keeps them as own data properties", async () => {
    // (): Record<string, Date>
    const w = await writer({ kind: "structured", nullable: false, type: T.record(T.date()) });
    const value: Record<string, Date> = {};
    Object.defineProperty(value, "__proto__", { value: new Date(0), enumerable: true });
    const r = w(value) as { structuredContent: object };
    expect(Object.getPrototypeOf(r.structuredContent)).toBe(Object.prototype);
    expect(json(r)).toBe(structured('{"__proto__":"1970-01-01T00:00:00.000Z"}'));
  });

  it("absent optional properties named like Object.prototype members are left out, not read from the prototype", async () => {
    // (): { "__proto__"?: Int; constructor?: string; toString?: Record<string, Date> } (found by test/fuzz)
    const w = await writer({
      kind: "structured",
      nullable: false,
      type: T.object([
        prop("__proto__", T.int(), false),
        prop("constructor", T.string(), false),
        prop("toString", T.record(T.date()), false),
      ]),
    });
    expect(json(w({}))).toBe(structured("{}"));
    const value = {};
    Object.defineProperty(value, "__proto__", { value: 1, enumerable: true });
    Object.assign(value, { constructor: "c", toString: { a: new Date(0) } });
    expect(json(w(value))).toBe(
      structured('{"__proto__":1,"constructor":"c","toString":{"a":"1970-01-01T00:00:00.000Z"}}'),
    );
  });
});
