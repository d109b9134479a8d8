/**
 * Spec §4a listings and readers, and the §5 sentences of union, tuple and discriminator
 * failures, and safe paths (hostile keys bracket-quoted, paths cut at 200 UTF-16 code units, the
 * value never echoed). Expected bytes are derived by hand from the contract.
 */
import { describe, expect, it } from "vitest";
import { generateTool, toolListing } from "../../packages/codegen/dist/index.js";
import { invalid } from "../../packages/typed-mcp/dist/internal.js";
import { T, fakeCtx, load, param, prop, tool, type TypeModel } from "./helpers.ts";

const ctx = fakeCtx();
const bad = (path: string, second: string) => `Argument '${path}' is not valid. ${second}`;
const single = (t: TypeModel) => load(tool("t", [param("v", t)]));
const schemaOf = (t: TypeModel, description?: string) =>
  JSON.stringify(
    (
      toolListing(tool("t", [param("v", t, true, description ? { description } : {})])).inputSchema as {
        properties: { v: unknown };
      }
    ).properties.v,
  );

const circle = T.object([prop("kind", T.strEnum("circle"), true, { description: "Which." }), prop("r", T.number())]);
const square = T.object([prop("kind", T.strEnum("square")), prop("side", T.int({ minimum: 1 }))]);
const shape = T.tagged("kind", circle, square);

describe("§4a listings", () => {
  it("scalar members of different JSON types: one type array, null last", () => {
    expect(schemaOf(T.union(T.string(), T.number()))).toBe('{"type":["string","number"]}');
    expect(schemaOf(T.nullable(T.union(T.boolean(), T.string(), T.int())))).toBe(
      '{"type":["boolean","string","integer","null"]}',
    );
  });

  it("a member with a keyword, or of another kind: anyOf in member order, description beside it, {type:null} last", () => {
    expect(schemaOf(T.union(T.string({ maxLength: 5 }), T.number()), "Text or count.")).toBe(
      '{"description":"Text or count.","anyOf":[{"type":"string","maxLength":5},{"type":"number"}]}',
    );
    expect(schemaOf(T.nullable(T.union(T.array(T.string()), T.string())))).toBe(
      '{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"},{"type":"null"}]}',
    );
    expect(schemaOf(T.union(T.strEnum("a", "b"), T.number()))).toBe(
      '{"anyOf":[{"type":"string","enum":["a","b"]},{"type":"number"}]}',
    );
  });

  it("a discriminated union: anyOf of the members, the discriminator an enum at its declared position", () => {
    expect(schemaOf(shape)).toBe(
      '{"anyOf":[{"type":"object","properties":{"kind":{"type":"string","description":"Which.","enum":["circle"]},"r":{"type":"number"}},"required":["kind","r"]},' +
        '{"type":"object","properties":{"kind":{"type":"string","enum":["square"]},"side":{"type":"integer","minimum":1}},"required":["kind","side"]}]}',
    );
    const ok = T.tagged(
      "ok",
      T.object([prop("ok", T.boolLit(true))]),
      T.object([prop("ok", T.boolLit(false)), prop("error", T.string())]),
    );
    const listing = toolListing(tool("r", [], { kind: "structured", nullable: false, type: ok as never }));
    expect(JSON.stringify(listing.outputSchema)).toBe(
      '{"type":"object","anyOf":[{"type":"object","properties":{"ok":{"type":"boolean","enum":[true]}},"required":["ok"]},{"type":"object","properties":{"ok":{"type":"boolean","enum":[false]},"error":{"type":"string"}},"required":["ok","error"]}]}',
    );
  });

  it("a homogeneous tuple: items with minItems = maxItems = n", () => {
    expect(schemaOf(T.tuple(T.number(), 2))).toBe(
      '{"type":"array","items":{"type":"number"},"minItems":2,"maxItems":2}',
    );
  });

  it("refuses models that break §4a (two members of one JSON type, a member without the discriminator)", () => {
    expect(() => generateTool(tool("t", [param("v", T.union(T.string(), T.date()))]))).toThrow(
      /two union members have the JSON type string/i,
    );
    expect(() =>
      generateTool(tool("t", [param("v", T.tagged("kind", circle, T.object([prop("r", T.number())])))])),
    ).toThrow(/lists kind as a required enum/);
    expect(() => generateTool(tool("t", [param("v", T.tagged("kind", circle, circle))]))).toThrow(
      /"circle" is in two members/,
    );
  });
});

describe("§4a readers and their §5 sentences", () => {
  it("a type array takes the member of the value's JSON type, without coercion", async () => {
    const t = await single(T.nullable(T.union(T.string(), T.int({ minimum: 0 }))));
    expect(t.read({ v: "3" }, ctx)).toEqual(["3"]);
    expect(t.read({ v: 3 }, ctx)).toEqual([3]);
    expect(t.read({ v: null }, ctx)).toEqual([null]);
    expect(t.read({ v: true }, ctx)).toBe(bad("v", "Expected a string, an integer or null, got a boolean."));
    expect(t.read({ v: 1.5 }, ctx)).toBe(bad("v", "Expected an integer."));
    expect(t.read({ v: -1 }, ctx)).toBe(bad("v", "Expected an integer of at least 0."));
  });

  it("anyOf dispatches on the JSON type and converts the member (Date | Int, Tag[] | Tag)", async () => {
    const t = await single(T.union(T.date(), T.int()));
    expect((t.read({ v: "2020-01-01T00:00:00Z" }, ctx) as [Date])[0].toISOString()).toBe("2020-01-01T00:00:00.000Z");
    expect(t.read({ v: "soon" }, ctx)).toBe(bad("v", "Expected an RFC 3339 date-time."));
    expect(t.read({ v: [] }, ctx)).toBe(bad("v", "Expected a string or an integer, got an array."));
    const tags = await single(T.union(T.array(T.strEnum("a", "b")), T.strEnum("a", "b")));
    expect(tags.read({ v: ["b"] }, ctx)).toEqual([["b"]]);
    expect(tags.read({ v: "c" }, ctx)).toBe(bad("v", 'Expected one of "a", "b".'));
    expect(tags.read({ v: ["a", "c"] }, ctx)).toBe(bad("v[1]", 'Expected one of "a", "b".'));
  });

  it("a discriminated union reads the discriminator first; missing or unknown names path.kind with every member's literals", async () => {
    const t = await single(T.nullable(shape));
    expect(t.read({ v: { kind: "square", side: 2, extra: 1 } }, ctx)).toEqual([{ kind: "square", side: 2 }]);
    expect(t.read({ v: { r: 1 } }, ctx)).toBe(bad("v.kind", 'Expected one of "circle", "square".'));
    expect(t.read({ v: { kind: "oval", r: 1 } }, ctx)).toBe(bad("v.kind", 'Expected one of "circle", "square".'));
    expect(t.read({ v: { kind: "circle", side: 2 } }, ctx)).toBe(bad("v.r", "It is required."));
    expect(t.read({ v: { kind: "square", side: 0 } }, ctx)).toBe(bad("v.side", "Expected an integer of at least 1."));
    expect(t.read({ v: "circle" }, ctx)).toBe(bad("v", "Expected an object or null, got a string."));
    const nested = await single(T.array(T.record(shape)));
    expect(nested.read({ v: [{}, { a: { kind: 1 } }] }, ctx)).toBe(
      bad("v[1].a.kind", 'Expected one of "circle", "square".'),
    );
  });

  it("a tuple checks its length, then each element at p[i]", async () => {
    const t = await single(T.tuple(T.number(), 2));
    expect(t.read({ v: [1, 2] }, ctx)).toEqual([[1, 2]]);
    expect(t.read({ v: [1] }, ctx)).toBe(bad("v", "Expected an array of exactly 2 items."));
    expect(t.read({ v: [1, 2, 3] }, ctx)).toBe(bad("v", "Expected an array of exactly 2 items."));
    expect(t.read({ v: [1, "2"] }, ctx)).toBe(bad("v[1]", "Expected a number, got a string."));
    expect(t.read({ v: {} }, ctx)).toBe(bad("v", "Expected an array, got an object."));
    const one = await single(T.tuple(T.string(), 1));
    expect(one.read({ v: [] }, ctx)).toBe(bad("v", "Expected an array of exactly 1 item."));
  });

  it("the writer dispatches too: discriminated by the discriminator's value, others by run-time type", async () => {
    const m = tool("w", [], { kind: "json", type: T.union(T.date(), T.array(T.bytes()), T.int()) });
    const w = await load(m);
    expect(w.write(new Date(0))).toEqual({ content: [{ type: "text", text: '"1970-01-01T00:00:00.000Z"' }] });
    expect(w.write([new Uint8Array([1])])).toEqual({ content: [{ type: "text", text: '["AQ=="]' }] });
    expect(w.write(4)).toEqual({ content: [{ type: "text", text: "4" }] });
    const s = await load(tool("s", [], { kind: "structured", nullable: false, type: shape as never }));
    expect(s.write({ kind: "square", side: 3, hidden: 1 })).toEqual({
      content: [{ type: "text", text: '{"kind":"square","side":3}' }],
      structuredContent: { kind: "square", side: 3 },
    });
    expect(() => s.write({ kind: "oval" })).toThrow(/fits no member/);
  });
});

describe("§5 safe paths", () => {
  it("a key that is not [A-Za-z_$][A-Za-z0-9_$-]* is a bracketed JSON string, with ' and non-ASCII as \\uXXXX", async () => {
    const t = await single(T.record(T.int()));
    expect(t.read({ v: { "a b": "x" } }, ctx)).toBe(bad('v["a b"]', "Expected an integer, got a string."));
    expect(t.read({ v: { "x' y": "x" } }, ctx)).toBe(bad('v["x\\u0027 y"]', "Expected an integer, got a string."));
    expect(t.read({ v: { "a\nb": "x" } }, ctx)).toBe(bad('v["a\\u000ab"]', "Expected an integer, got a string."));
    expect(t.read({ v: { 'q"\\': "x" } }, ctx)).toBe(bad('v["q\\"\\\\"]', "Expected an integer, got a string."));
    expect(t.read({ v: { "é😀": "x" } }, ctx)).toBe(
      bad('v["\\u00e9\\ud83d\\ude00"]', "Expected an integer, got a string."),
    );
    expect(t.read({ v: { "": "x" } }, ctx)).toBe(bad('v[""]', "Expected an integer, got a string."));
    expect(t.read({ v: { "my-key_$1": "x" } }, ctx)).toBe(bad("v.my-key_$1", "Expected an integer, got a string."));
    expect(t.read({ v: { "1a": "x" } }, ctx)).toBe(bad('v["1a"]', "Expected an integer, got a string."));
  });

  it("an unknown top-level key is quoted the same way; no key can forge the sentence", async () => {
    const t = await load(tool("t", []));
    expect(t.read({ "x' y": 1 }, ctx)).toBe(bad('["x\\u0027 y"]', "It is not a parameter of this tool."));
    const forged = "a' is not valid. It is required.\nArgument 'b";
    const text = t.read({ [forged]: 1 }, ctx) as string;
    expect(text).toBe(
      bad('["a\\u0027 is not valid. It is required.\\u000aArgument \\u0027b"]', "It is not a parameter of this tool."),
    );
    expect(text.split("'")).toHaveLength(3);
  });

  it("a static wire name is quoted at build time by the same rule", async () => {
    const t = await single(T.object([prop("first name", T.string())]));
    expect(t.read({ v: {} }, ctx)).toBe(bad('v["first name"]', "It is required."));
  });

  it("a path longer than 200 UTF-16 code units keeps the first 200 (199 before a split surrogate pair) and ends in …", async () => {
    const t = await single(T.record(T.int()));
    const long = "k".repeat(300);
    expect(t.read({ v: { [long]: "x" } }, ctx)).toBe(
      bad(`v.${"k".repeat(198)}…`, "Expected an integer, got a string."),
    );
    // Escaped keys keep paths ASCII; the surrogate rule holds for the text itself (spec §5).
    expect(invalid("a".repeat(199) + "😀", "S.")).toBe(`Argument '${"a".repeat(199)}…' is not valid. S.`);
    expect(invalid("a".repeat(198) + "😀b", "S.")).toBe(`Argument '${"a".repeat(198)}😀…' is not valid. S.`);
    expect(invalid("a".repeat(200), "S.")).toBe(`Argument '${"a".repeat(200)}' is not valid. S.`);
  });

  it("the value itself is never echoed", async () => {
    const t = await single(T.object([prop("pin", T.string({ pattern: "^[0-9]{4}$" }))]));
    const text = t.read({ v: { pin: "SECRET-VALUE" } }, ctx) as string;
    expect(text).toBe(bad("v.pin", "Expected a string matching the pattern ^[0-9]{4}$."));
    expect(text).not.toContain("SECRET");
  });
});
