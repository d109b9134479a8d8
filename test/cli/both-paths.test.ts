import { describe, expect, it } from "vitest";
import { cli } from "./helpers.js";

// Spec §1: "For the same signature, JSDoc and options the two paths list byte-identical tools."
// Each pair under fixtures/pairs declares the same tools once as decorated methods
// (<case>.method.ts) and once through server.tool("name", [options,] fn) (<case>.quick.ts, with
// fn inline, a function declaration, a const arrow, a function expression or an imported
// function), and `typed-mcp list` must print the same bytes for both files.
const PAIRS: [string, string[]][] = [
  ["scalars", ["scalars", "count.it", "nothing"]], // string, number, Int, bigint, boolean; all annotations; @description
  ["enums", ["pick"]], // string/numeric enums, literal unions (string, integer, number), nullable enum, enum/const defaults
  ["builtins", ["stamp"]], // Date, URL, Uint8Array, nullable, optional; Date result
  ["collections", ["collect", "sizes"]], // every array/Set/Record/Map form; Record and Map results
  ["objects", ["store", "locate", "describe"]], // interfaces (extends, @naming, @jsonName, @ignore), classes, intersections, nested, nullable; object results
  ["validation", ["validate"]], // JSDoc and type validation tags on strings, numbers, arrays, sets, items
  ["defaults", ["defaults"]], // §3 default rules, optional, undefined, nullable required
  ["destructured", ["look_up", "context_only"]], // destructured parameter; RequestContext, AbortSignal
  ["apps", ["show_chart", "refresh", "other"]], // uiResource/uiVisibility, description option; passthrough results; {@link}
  ["imported", ["imported", "imported_arrow"]], // quick-path functions imported from another module
  ["misc", ["with_this", "inferred", "inferred_number", "async_void", "wrapped", "docs", "maybe_text", "list"]], // this parameter, inferred results, static, wrapped defaults, doc text
  ["more", ["braced", "ns", "renamed", "static_default"]], // @param {type} and [name]; namespace-import defaults; renamed destructuring; static const default
  ["constants", ["notes_add", "search_notes"]], // §1 compile-time constants: consts, `+`, templates, re-exported imports, enum members; folded defaults
  ["unions", ["mix", "pick_shape"]], // §4a: type arrays, anyOf, discriminated unions nested everywhere, union results, tuples
];

function comparePair(name: string, tools: string[]): void {
  const method = cli(["list", `pairs/${name}.method.ts`]);
  const quick = cli(["list", `pairs/${name}.quick.ts`]);
  expect(method.stderr).toBe("");
  expect(quick.stderr).toBe("");
  expect(method.code).toBe(0);
  expect(quick.code).toBe(0);
  expect((JSON.parse(method.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(tools);
  expect(quick.stdout).toBe(method.stdout);
}

describe("both declaration paths list byte-identical tools (spec §1)", () => {
  it.each(PAIRS)("%s", (name, tools) => comparePair(name, tools));

  // Regression: `server.tool`'s `fn` was declared `(...args: any[]) => unknown`, so an inline
  // function's unannotated parameters with defaults were contextually typed `any` (OMCG0005)
  // while the method's were `string`/`number` with `default`. Now `(...args: never) => unknown`.
  it("inline (unannotated parameters with defaults in an inline function)", () => {
    comparePair("inline", ["unannotated", "fexpr"]);
  });
});

// Two of the pairs also against listings derived by hand from the spec, so that equal-but-wrong
// output of both paths is caught too.
describe("pair listings derived from the spec", () => {
  it("defaults (§3)", () => {
    const expected = {
      name: "defaults",
      description: "Defaults.",
      inputSchema: {
        type: "object",
        properties: {
          required: { type: ["string", "null"] }, // nullable without default: still required
          text: { type: "string", default: "x" },
          count: { type: "integer", default: 10 },
          negative: { type: "number", default: -2.5 }, // a negated number
          on: { type: "boolean", default: true },
          template: { type: "string", default: "plain" }, // template literal without substitutions
          limit: { type: "number", default: 25 }, // a const (imported) whose type is a literal
          greeting: { type: "string", default: "hello" }, // a const of a template literal
          colour: { type: "string", enum: ["red", "green"], default: "red" }, // string enum member → its value
          priority: { type: "string", enum: ["Low", "High", "Urgent"], default: "High" }, // numeric enum member → its name
          nothing: { type: ["string", "null"] }, // null default writes nothing
          list: { type: "array", items: { type: "string" }, default: [] }, // an array of constants is a default (§3)
          computed: { type: "number" },
          variable: { type: "number" }, // a `let` is not a compile-time constant
          orUndefined: { type: "boolean" }, // a type that includes undefined: optional
          optional: { type: "number" },
        },
        required: ["required"],
        additionalProperties: false,
      },
    };
    for (const side of ["method", "quick"]) {
      const r = cli(["list", `pairs/defaults.${side}.ts`]);
      expect(r.code).toBe(0);
      expect(JSON.stringify(JSON.parse(r.stdout).tools)).toBe(JSON.stringify([expected]));
    }
  });

  it("constants (§1: option values, the quick path's first argument and §3 defaults fold at build time)", () => {
    const expected = [
      {
        name: "notes_add", // ROOT + "_add", ROOT re-exported as an alias of PREFIX = "notes"
        description: "Adds a note to notes. Fast.", // a const template with a const substitution, + a literal
        inputSchema: {
          type: "object",
          properties: {
            text: { type: "string" },
            label: { type: "string", default: "notes!" }, // ROOT + "!" (typed `string` by TypeScript, folded by syntax)
            tag: { type: "string", default: "notes_add-v2" }, // `${ADD}-v${STEP}`
            n: { type: "number", default: -2 }, // -STEP
          },
          required: ["text"],
          additionalProperties: false,
        },
        annotations: { title: "Add to notes", readOnlyHint: true }, // `Add to ${ROOT}`; READ_ONLY = true
      },
      {
        name: "search_notes", // a string-enum member through a re-export
        inputSchema: {
          type: "object",
          properties: { q: { type: "string", default: "search_notes" } },
          additionalProperties: false,
        },
      },
    ];
    for (const side of ["method", "quick"]) {
      const r = cli(["list", `pairs/constants.${side}.ts`]);
      expect(r.code).toBe(0);
      expect(JSON.stringify(JSON.parse(r.stdout).tools)).toBe(JSON.stringify(expected));
    }
  });

  it("destructured (§3, §4 tags, RequestContext and AbortSignal unlisted)", () => {
    const expected = [
      {
        name: "look_up",
        description: "Looks up a city.",
        inputSchema: {
          type: "object",
          properties: {
            city: { type: "string", description: "The city." },
            days: { type: "integer", description: "Days ahead.", minimum: 1, maximum: 14, default: 3 },
            colour: { type: "string", enum: ["red", "green"], default: "green" },
            size: { type: ["string", "null"], enum: ["s", "m", "l", null] },
          },
          required: ["city", "size"],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: "context_only",
        description: "Only context.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
      },
    ];
    for (const side of ["method", "quick"]) {
      const r = cli(["list", `pairs/destructured.${side}.ts`]);
      expect(r.code).toBe(0);
      expect(JSON.stringify(JSON.parse(r.stdout).tools)).toBe(JSON.stringify(expected));
    }
  });
});

// §4a, derived by hand from the contract: "Order" (members as written; literals of one JSON type
// merged at the first one's position), scalar unions as a `type` array (`null` last), mixed kinds
// and constrained members as `anyOf` (`description` beside it, `{"type":"null"}` last), the
// discriminator as `{"type":…,"enum":[its literals]}` at its declared position, object-shaped
// union results as `{"type":"object","anyOf":[…]}`, homogeneous tuples with minItems = maxItems.
describe("unions and tuples (§4a) derived from the spec", () => {
  const circle = {
    type: "object",
    properties: {
      kind: { type: "string", description: "Which shape.", enum: ["circle"] },
      r: { type: "number", description: "The radius." },
    },
    required: ["kind", "r"],
  };
  const square = {
    type: "object",
    properties: { kind: { type: "string", enum: ["square"] }, side: { type: "number" } },
    required: ["kind", "side"],
  };
  const shape = { anyOf: [circle, square] };
  const mix = {
    name: "mix",
    description: "Mixes.",
    inputSchema: {
      type: "object",
      properties: {
        id: { type: ["string", "number"], description: "A number or a name." },
        flag: { type: ["boolean", "string"] },
        count: { type: ["integer", "string"] },
        short: { anyOf: [{ type: "string", maxLength: 5 }, { type: "number" }] }, // a member with a keyword makes it anyOf
        tags: {
          anyOf: [
            { type: "array", items: { type: "string", enum: ["red", "blue"] } },
            { type: "string", enum: ["red", "blue"] },
          ],
        },
        when: { anyOf: [{ type: "string", format: "date-time" }, { type: "integer" }] },
        lit: { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "number" }] }, // "a" | number | "b"
        maybe: { type: ["string", "number", "null"] },
        shape: { description: "The shape.", anyOf: [circle, square] },
        shapes: { type: "array", items: shape },
        named: { type: "object", additionalProperties: shape },
        maybeShape: { anyOf: [circle, square, { type: "null" }] },
        holder: { type: "object", properties: { inner: shape }, required: ["inner"] },
        point: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2 },
        triple: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 3 },
      },
      required: [
        "id",
        "flag",
        "count",
        "short",
        "tags",
        "when",
        "lit",
        "maybe",
        "shape",
        "shapes",
        "named",
        "maybeShape",
        "holder",
        "point",
        "triple",
      ],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      anyOf: [
        {
          type: "object",
          properties: { ok: { type: "boolean", enum: [true] }, value: { type: "number" } },
          required: ["ok", "value"],
        },
        {
          type: "object",
          properties: { ok: { type: "boolean", enum: [false] }, error: { type: "string" } },
          required: ["ok", "error"],
        },
      ],
    },
  };
  const pickShape = {
    name: "pick_shape",
    description: "Returns a shape.",
    inputSchema: {
      type: "object",
      // Shape | Shape[]: the discriminated objects are listed flat, at the first object's position.
      properties: { big: { type: "boolean" }, among: { anyOf: [circle, square, { type: "array", items: shape }] } },
      required: ["big"],
      additionalProperties: false,
    },
    outputSchema: { type: "object", anyOf: [circle, square] },
  };
  for (const side of ["method", "quick"]) {
    it(side, () => {
      const r = cli(["list", `pairs/unions.${side}.ts`]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.stringify(JSON.parse(r.stdout).tools)).toBe(JSON.stringify([mix, pickShape]));
    });
  }
});
