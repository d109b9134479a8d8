import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { Extractor } from "../../packages/extract/src/index.js";
import type { ModuleModel, ObjectModel } from "@typed-mcp/model";
import { fixture, param, tool } from "./helpers.js";

let ex: Extractor;
let m: ModuleModel;
const src = fixture("basic/kinds.ts");
beforeAll(() => {
  ex = createExtractor();
  m = ex.extract(src.file, src.code);
});
afterAll(() => ex.close());

const type = (t: string, p: string) => param(tool(m, t), p).type;

describe("§4 type kinds", () => {
  it("has no diagnostics", () => {
    expect(m.diagnostics).toEqual([]);
  });

  it("numeric enum: member names + numbers; string enum values; defaults as wire values", () => {
    expect(type("enums", "p")).toEqual({
      kind: "enum",
      valueType: "string",
      values: ["Low", "High", "Urgent"],
      numeric: [1, 5, 9],
    });
    expect(type("enums", "m")).toEqual({
      kind: "nullable",
      inner: { kind: "enum", valueType: "string", values: ["fast", "safe"] },
    });
    expect(param(tool(m, "enums"), "pick")).toMatchObject({ required: false, default: "High" });
  });

  it("number-literal unions in source order; integer when all integers; computed unions sorted", () => {
    expect(type("enums", "one")).toEqual({ kind: "enum", valueType: "integer", values: [3, 1, 2] });
    expect(type("enums", "frac")).toEqual({ kind: "enum", valueType: "number", values: [0.5, 1.5] });
    expect(type("enums", "keys")).toEqual({ kind: "enum", valueType: "string", values: ["alpha", "mid", "zeta"] });
  });

  it("Date, URL, Uint8Array, Set, ReadonlySet, bigint", () => {
    expect(type("builtins", "when")).toEqual({ kind: "date" });
    expect(type("builtins", "link")).toEqual({ kind: "url" });
    expect(type("builtins", "data")).toEqual({ kind: "bytes" });
    expect(type("builtins", "ids")).toEqual({ kind: "array", items: { kind: "string" }, set: true });
    expect(type("builtins", "ro")).toEqual({ kind: "array", items: { kind: "integer" }, set: true });
    expect(type("builtins", "big")).toEqual({ kind: "integer", bigint: true });
  });

  it("records, index signatures, Map<string,T>, Record of literal keys, properties + index signature", () => {
    expect(type("records", "scores")).toEqual({ kind: "record", values: { kind: "number" } });
    expect(type("records", "index")).toEqual({ kind: "record", values: { kind: "boolean" } });
    expect(type("records", "lookup")).toEqual({ kind: "record", values: { kind: "date" }, map: true });
    const fixed = type("records", "fixed") as ObjectModel;
    expect(fixed.kind).toBe("object");
    expect(fixed.properties.map((p) => p.name).sort()).toEqual(["a", "b"]);
    const mixed = type("records", "mixed") as ObjectModel;
    expect(mixed.properties.map((p) => p.name)).toEqual(["id"]);
    expect(mixed.additionalProperties).toEqual({ kind: "string" });
  });

  it("@naming camelCase, @jsonName wins, @ignore drops the property", () => {
    const person = type("objects", "person") as ObjectModel;
    expect(person.properties.map((p) => [p.name, p.key])).toEqual([
      ["name", "Name"],
      ["urlValue", "URLValue"],
      ["first_name", "first_name"],
      ["e-mail", "Email"],
    ]);
    expect(person.properties[0]!.description).toBe("The full name.");
  });

  it("intersection of object types merges properties", () => {
    expect((type("objects", "both") as ObjectModel).properties.map((p) => p.name)).toEqual(["name", "tags"]);
  });

  it("validation from property JSDoc; lengths on arrays; description kept", () => {
    const v = type("objects", "v") as ObjectModel;
    expect(v.properties.map((p) => p.type)).toEqual([
      { kind: "number", constraints: { minimum: 1, maximum: 10 } },
      { kind: "array", items: { kind: "string" }, constraints: { maxLength: 3 } },
      { kind: "string", constraints: { pattern: "^[a-z]+$" } },
      { kind: "string", constraints: { format: "email" } },
    ]);
    expect(v.properties[0]!.description).toBe("How many.");
  });

  it("type tags, also on array items, and inline parameter JSDoc", () => {
    expect(type("type_tags", "qty")).toEqual({ kind: "integer", constraints: { minimum: 1, maximum: 99 } });
    expect(type("type_tags", "tags")).toEqual({
      kind: "array",
      items: { kind: "string", constraints: { maxLength: 20 } },
    });
    expect(type("type_tags", "code")).toEqual({ kind: "string", constraints: { minLength: 2, pattern: "^[A-Z]+$" } });
    expect(type("type_tags", "mail")).toEqual({ kind: "string", constraints: { format: "email" } });
    expect(type("type_tags", "price")).toEqual({ kind: "number", constraints: { minimum: 0 } });
    expect(type("type_tags", "list")).toEqual({
      kind: "array",
      items: { kind: "string" },
      constraints: { maxLength: 5 },
    });
  });

  it("readonly arrays; Map result is structured (record, map)", () => {
    expect(type("readonly_arrays", "a")).toEqual({ kind: "array", items: { kind: "string" } });
    expect(type("readonly_arrays", "b")).toEqual({ kind: "array", items: { kind: "number" } });
    expect(tool(m, "readonly_arrays").result).toEqual({
      kind: "structured",
      nullable: false,
      type: { kind: "record", values: { kind: "number" }, map: true },
    });
  });

  it("classes: public instance fields (not private/#/static/methods); initializer → optional; constructor fills", () => {
    const point = type("classes", "point") as ObjectModel;
    expect(point.properties.map((p) => [p.name, p.required])).toEqual([
      ["x", true],
      ["y", true],
      ["label", false],
    ]);
    expect(point.properties[0]!.description).toBe("Horizontal.");
    expect(point.construct).toEqual({ from: "", exportName: "Point", args: ["x", "y"] });
  });

  it("parameter properties: constructor defaults make them optional; description from the constructor's @param", () => {
    const box = type("classes", "box") as ObjectModel;
    expect(box.properties.map((p) => [p.name, p.required, p.description])).toEqual([
      ["width", true, "The width."],
      ["height", false, "The height."],
    ]);
    expect(box.construct).toEqual({ from: "", exportName: "Box", args: ["width", "height"] });
  });

  it("getters appear in output schemas only, as readOnly", () => {
    const r = tool(m, "classes").result;
    expect(r.kind).toBe("structured");
    const props = (r as { type: ObjectModel }).type.properties;
    expect(props.map((p) => p.name)).toEqual(["x", "y", "label", "length"]);
    expect(props[3]).toMatchObject({ name: "length", readOnly: true });
    expect(tool(m, "getters").result).toMatchObject({ kind: "structured", nullable: true });
  });

  it("Date result is json (§6)", () => {
    expect(tool(m, "dates").result).toEqual({ kind: "json", type: { kind: "date" } });
  });
});
