// Spec §4 "Order of enum values" and "Record<"a" | "b", T>": lists built from a union follow the
// order the union is written in the source (directly or through an alias of the union); computed
// unions (`keyof`, `Exclude`, mapped types, `Omit`) are sorted by UTF-16 code unit. Expected
// values below are derived from the fixture's source text, never from the checker.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModuleModel, ObjectModel, TypeModel } from "@typed-mcp/model";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { Extractor } from "../../packages/extract/src/index.js";
import { toolListing } from "../../packages/codegen/dist/index.js";
import { fixture, param, tool } from "./helpers.js";

let ex: Extractor;
let m: ModuleModel;
const src = fixture("order/order.ts");
beforeAll(() => {
  ex = createExtractor();
  m = ex.extract(src.file, src.code);
});
afterAll(() => ex.close());

const typeOf = (t: string, p: string): TypeModel => {
  const ty = param(tool(m, t), p).type;
  return ty.kind === "nullable" ? ty.inner : ty;
};
const keys = (t: string, p: string) => (typeOf(t, p) as ObjectModel).properties.map((x) => x.name);
const values = (t: string, p: string) => {
  const ty = typeOf(t, p);
  if (ty.kind === "enum") return ty.values;
  if (ty.kind === "array" && ty.items.kind === "enum") return ty.items.values;
  throw new Error(`not an enum: ${JSON.stringify(ty)}`);
};

describe("§4 order of keys and enum values", () => {
  it("has no diagnostics", () => {
    expect(m.diagnostics).toEqual([]);
  });
  it("Record over a union written in the source: the written order", () => {
    expect(keys("records", "written")).toEqual(["b", "a"]);
    expect(keys("records", "nullable")).toEqual(["b", "a"]);
    expect(keys("records", "viaAlias")).toEqual(["zeta", "alpha"]);
  });
  it("a type alias of a Record or Pick: the order written in the alias declaration", () => {
    expect(keys("records", "aliasOfRecord")).toEqual(["r2", "r1"]);
    expect(keys("records", "aliasOfAlias")).toEqual(["r2", "r1"]);
    expect(keys("records", "genericAlias")).toEqual(["g2", "g1"]);
    expect(keys("picks", "aliasOfPick")).toEqual(["d", "a"]);
  });
  it("Record over computed keys: code-unit order", () => {
    expect(keys("records", "computed")).toEqual(["x", "y", "z"]);
    expect(keys("records", "excluded")).toEqual(["a", "b"]);
  });
  it("Pick follows its written key union; Omit's keys are computed (sorted); Partial keeps the declaration order", () => {
    expect(keys("picks", "picked")).toEqual(["d", "a"]);
    expect(keys("picks", "omitted")).toEqual(["a", "c", "d"]);
    expect(keys("picks", "partial")).toEqual(["c", "a", "b", "d"]);
  });
  it("a hand-written mapped type's keys are computed: sorted", () => {
    expect(keys("enums", "mapped")).toEqual(["q1", "q2"]);
  });
  it("enum values: written unions and aliases of them in source order; computed unions sorted", () => {
    expect(values("enums", "dir")).toEqual(["up", "down"]);
    expect(values("enums", "dirs")).toEqual(["up", "down"]);
    expect(values("enums", "inline")).toEqual(["b", "a", "c"]);
    expect(values("enums", "late")).toEqual(["a", "b"]);
    expect(values("enums", "keys")).toEqual(["x", "y", "z"]);
  });
  it("golden listing: the written Record's properties and required list in source order", () => {
    const listing = toolListing(tool(m, "records"));
    const written = (listing.inputSchema as { properties: Record<string, unknown> }).properties.written;
    expect(JSON.stringify(written)).toBe(
      '{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}},"required":["b","a"]}',
    );
    const nullable = (listing.inputSchema as { properties: Record<string, unknown> }).properties.nullable;
    expect(JSON.stringify(nullable)).toBe(
      '{"type":["object","null"],"properties":{"b":{"type":"string"},"a":{"type":"string"}},"required":["b","a"]}',
    );
  });
});
