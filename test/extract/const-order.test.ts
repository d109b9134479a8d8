// Spec §4 "Order of enum values": the elements of a `const` array or tuple indexed by `number`
// (`(typeof KINDS)[number]`) and the values of a `const` object indexed by its keys
// (`(typeof Kind)[keyof typeof Kind]`) are written out in the source, so they list in source
// order (array element order, property order); other computed unions (`keyof`, `Exclude`) stay
// sorted by UTF-16 code unit (numbers ascending). §4a "Order": a union mixing them keeps the order
// written. Expected values are read off the fixture's source text, on every backend the tier runs
// (TIER_BACKENDS in test/backends/helpers.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModuleModel, ObjectModel, TypeModel } from "@typed-mcp/model";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { Extractor } from "../../packages/extract/src/index.js";
import { toolListing } from "../../packages/codegen/dist/index.js";
import { ROOT, TIER_BACKENDS } from "../backends/helpers.js";
import { fixture, param, tool } from "./helpers.js";

describe.each(TIER_BACKENDS)("backend %s: §4 enum order of const arrays and objects", (_label, typescript) => {
  let ex: Extractor;
  let m: ModuleModel;
  beforeAll(() => {
    ex = createExtractor({ cwd: ROOT, typescript });
    const src = fixture("order/const-order.ts");
    m = ex.extract(src.file, src.code);
  });
  afterAll(() => ex?.close());

  const typeOf = (t: string, p: string): TypeModel => param(tool(m, t), p).type;
  const values = (t: string, p: string) => {
    let ty = typeOf(t, p);
    if (ty.kind === "nullable") ty = ty.inner;
    if (ty.kind === "array") ty = ty.items;
    if (ty.kind === "enum") return ty.values;
    throw new Error(`not an enum: ${JSON.stringify(ty)}`);
  };
  const property = (t: string, p: string) =>
    JSON.stringify((toolListing(tool(m, t)).inputSchema as { properties: Record<string, unknown> }).properties[p]);

  it("has no diagnostics", () => {
    expect(m.diagnostics).toEqual([]);
  });

  it("a const array or readonly tuple indexed by number: element order", () => {
    expect(values("arrays", "kind")).toEqual(["Text", "Blob"]);
    expect(values("arrays", "aliased")).toEqual(["Text", "Blob"]);
    expect(values("arrays", "kinds")).toEqual(["Text", "Blob"]);
    expect(values("arrays", "levels")).toEqual([3, 1, 2]);
    expect(values("arrays", "tuple")).toEqual(["m", "s", "l"]);
    expect(values("arrays", "satisfied")).toEqual(["zinc", "amber"]);
    expect(values("arrays", "qualified")).toEqual(["warm", "cold"]);
    expect(values("arrays", "nullable")).toEqual(["Text", "Blob"]);
    expect(values("arrays", "extended")).toEqual(["Text", "Blob", "Audio"]);
  });

  it("a const object indexed by its keys: property order, string and number values", () => {
    expect(values("objects", "mode")).toEqual(["fast", "careful", "balanced"]);
    expect(values("objects", "priority")).toEqual([10, 1]);
    expect(values("objects", "typed")).toEqual(["b", "a"]);
    expect(values("objects", "named")).toEqual(["y", "z"]);
  });

  it("a const and a type alias of one name (the enum-like idiom), either declared first: source order", () => {
    expect(values("idiom", "color")).toEqual(["red", "green", "blue", "amber"]);
    expect(values("idiom", "shape")).toEqual(["square", "circle"]);
    expect(values("idiom", "sizes")).toEqual(["xl", "m"]);
    expect(property("idiom", "inner")).toBe(
      '{"type":"object","properties":{"c":{"type":"string","enum":["red","green","blue","amber"]}}}',
    );
    expect(property("idiom", "fallback")).toBe('{"type":"string","enum":["square","circle"],"default":"circle"}');
  });

  it("golden listing: enum values in source order, null last", () => {
    expect(property("arrays", "kind")).toBe('{"type":"string","enum":["Text","Blob"]}');
    expect(property("arrays", "levels")).toBe('{"type":"integer","enum":[3,1,2]}');
    expect(property("arrays", "nullable")).toBe('{"type":["string","null"],"enum":["Text","Blob",null]}');
    expect(property("objects", "mode")).toBe('{"type":"string","enum":["fast","careful","balanced"]}');
    expect(property("objects", "priority")).toBe('{"type":"integer","enum":[10,1]}');
  });

  it("§4a a mix of JSON types: members in the order written, each enum in element order", () => {
    expect(property("mixed", "mixed")).toBe(
      '{"anyOf":[{"type":"string","enum":["q","p"]},{"type":"integer","enum":[9,8]}]}',
    );
    expect(property("mixed", "joined")).toBe(
      '{"anyOf":[{"type":"string","enum":["Text","Blob"]},{"type":"integer","enum":[3,1,2]}]}',
    );
  });

  it("other computed unions stay sorted: keyof a const object, Exclude; Record keys over a const array follow it", () => {
    expect(values("computed", "modeKeys")).toEqual(["Balanced", "Careful", "Fast"]);
    expect(values("computed", "excluded")).toEqual(["Blob", "Text"]);
    expect((typeOf("computed", "keyed") as ObjectModel).properties.map((p) => p.name)).toEqual(["Text", "Blob"]);
  });
});
