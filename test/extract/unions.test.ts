/**
 * Spec §4a diagnostics: unions and tuples the reader cannot tell apart stay OMCG0005 (a union as
 * a destructured parameter OMCG0004), at the parameter, with a message naming what would make
 * them supported — the candidate discriminators that almost qualify.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor, type Extractor } from "../../packages/extract/src/index.js";
import { toolListing } from "../../packages/codegen/dist/index.js";
import { fixture, lineColOf } from "./helpers.js";

let ex: Extractor;
beforeAll(() => {
  ex = createExtractor();
});
afterAll(() => ex.close());

const DISCRIMINATOR =
  "a union of object types needs a discriminator: a property present and required in every member, typed in each by literals of one JSON type, disjoint across members";
const ADD_ONE =
  'Add such a property (e.g. `kind: "circle"` / `kind: "square"`), or use one object type with optional properties.';
const TUPLE_FIX = "Use an array (`T[]`) or an object with named properties.";
const read = (tool: string, type: string, why: string) =>
  `Parameter 'v' of tool '${tool}': 'v' has type '${type}', which typed-mcp cannot read: ${why}`;

describe("§4a unsupported unions and tuples", () => {
  it("each is its code at the parameter's file:line:column, with the exact message", () => {
    const { file, code } = fixture("diag/unions.ts");
    const model = ex.extract(file, code);
    expect(model.tools).toEqual([]);
    const at = (needle: string) => ({ file, ...lineColOf(code, needle) });
    const expected = [
      {
        ...at("v: string | Date"),
        code: "OMCG0005",
        message: read(
          "two_strings",
          "string | Date",
          "two of its members (string and Date) are JSON strings, which the reader cannot tell apart. Keep one member per JSON type (string, number, boolean, array, object), or make the object members a discriminated union (one required property typed by different literals in each member).",
        ),
      },
      {
        ...at("v: { a: string } | { b: number }"),
        code: "OMCG0005",
        message: read("no_discriminator", "{ a: string; } | { b: number; }", `${DISCRIMINATOR}. ${ADD_ONE}`),
      },
      {
        ...at("v: Circle | Oval"),
        code: "OMCG0005",
        message: read(
          "optional_kind",
          "Circle | Oval",
          `${DISCRIMINATOR} ('kind' almost qualifies, but it is optional in member 2). ${ADD_ONE}`,
        ),
      },
      {
        ...at("v: Circle | Dot"),
        code: "OMCG0005",
        message: read(
          "overlapping",
          "Circle | Dot",
          `${DISCRIMINATOR} ('kind' almost qualifies, but the literal "circle" is in two members). ${ADD_ONE}`,
        ),
      },
      {
        ...at("v: [string, number]"),
        code: "OMCG0005",
        message: read(
          "mixed_tuple",
          "[string, number]",
          `tuples of different element types are not supported (only homogeneous tuples such as \`[number, number]\`). ${TUPLE_FIX}`,
        ),
      },
      {
        ...at("v: [number, number?]"),
        code: "OMCG0005",
        message: read(
          "optional_tuple",
          "[number, (number | undefined)?]",
          `tuples with optional or rest elements are not supported. ${TUPLE_FIX}`,
        ),
      },
      {
        ...at("v: [number, ...number[]]"),
        code: "OMCG0005",
        message: read(
          "rest_tuple",
          "[number, ...number[]]",
          `tuples with optional or rest elements are not supported. ${TUPLE_FIX}`,
        ),
      },
      {
        ...at("v: Level | string"),
        code: "OMCG0005",
        message: read(
          "numeric_enum",
          "string | Level",
          "a numeric enum in a union is written as its member names but held as numbers, so the writer cannot tell it apart. Use a string enum, or the enum alone.",
        ),
      },
      {
        ...at("v: true | string"),
        code: "OMCG0005",
        message: read(
          "lone_true",
          "string | true",
          "a single boolean literal is supported only as a discriminator. Use `boolean`.",
        ),
      },
      {
        ...at("v: Int | boolean"),
        code: "OMCG0007",
        message: "Parameter 'v' of tool 'unfit': 'v': @minLength fits no member of the union (JSDoc tag).",
      },
      {
        ...at("{ a }: { a: string } | { a: number }"),
        code: "OMCG0004",
        message:
          "Parameter '{…}' of tool 'destructured': a destructured parameter cannot have a union type ('{ a: string; } | { a: number; }'); name the parameter (spec §4a: a union is always a property, never the whole input).",
      },
    ];
    expect(model.diagnostics).toEqual(expected);
  });
});

describe("§4a tuples found by the differential test", () => {
  it("a fixed-length tuple is read by its `length`, not its printed text (FUZZ_SEED=825384298); elements compare by model (FUZZ_SEED=825696033)", () => {
    const { file, code } = fixture("unions/tools.ts");
    const model = ex.extract(file, code);
    const found = model.tools.find((t) => t.name === "tuples_found")!;
    const lits = '{"type":"number","enum":[-5,-1.5,0.5,2.25,8,9,15,16,17,18]}';
    const pair = `{"type":"array","items":${lits},"minItems":2,"maxItems":2}`;
    expect(JSON.stringify(toolListing(found).inputSchema)).toBe(
      '{"type":"object","properties":{' +
        `"nested":{"type":"array","items":${pair},"minItems":2,"maxItems":2},` +
        '"patterned":{"type":"array","items":{"type":"string","pattern":"^/\\\\*.*?\\\\*/$"},"minItems":2,"maxItems":2},' +
        '"named":{"type":"array","items":{"type":"number"},"minItems":2,"maxItems":2},' +
        '"twice":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","format":"date-time"},"c":{"type":"integer"}},"required":["a","c"]},"minItems":2,"maxItems":2}},' +
        '"required":["nested","patterned","named","twice"],"additionalProperties":false}',
    );
  });
});

describe("§4a JSDoc tags on a whole union", () => {
  it("are copied into each member they fit (maxLength: a string's maxLength, an array's maxItems)", () => {
    const { file, code } = fixture("unions/tools.ts");
    const model = ex.extract(file, code);
    expect(model.diagnostics).toEqual([]);
    const tagged = model.tools.find((t) => t.name === "tagged")!;
    expect(JSON.stringify(toolListing(tagged).inputSchema)).toBe(
      '{"type":"object","properties":{' +
        '"v":{"anyOf":[{"type":"string","maxLength":5},{"type":"array","items":{"type":"integer"},"maxItems":5},{"type":"null"}]},' +
        '"w":{"anyOf":[{"type":"integer","minimum":2},{"type":"boolean"}]}},' +
        '"required":["v","w"],"additionalProperties":false}',
    );
  });
});
