/**
 * Golden listings (spec §1, §2, §3, §4, §6, §9): expected values are written from the spec
 * text, as exact JSON strings.
 */
import { describe, expect, it } from "vitest";
import { toolListing, typeSchema } from "../../packages/codegen/dist/index.js";
import { CLASSES, T, load, param, prop, tool, type TypeModel } from "./helpers.ts";

const json = (v: unknown) => JSON.stringify(v);
/** inputSchema of a tool with one parameter `v` of type `t` (required). */
const one = (t: TypeModel) => json(toolListing(tool("t", [param("v", t)])).inputSchema);
const wrap = (s: string) => `{"type":"object","properties":{"v":${s}},"required":["v"],"additionalProperties":false}`;

describe("§1 listing", () => {
  it("writes keys in the order name, description, inputSchema, outputSchema, annotations, _meta", () => {
    // @tool({ title: "Note", readOnly: true, uiResource: "ui://notes/view" })
    // /** Gets a note. */ async getNoteAsync(id: string): Promise<Note>   — interface Note { text: string }
    const m = tool(
      "get_note",
      [param("id", T.string())],
      { kind: "structured", nullable: false, type: T.object([prop("text", T.string())]) },
      {
        ui: { resourceUri: "ui://notes/view" },
        annotations: { readOnlyHint: true, title: "Note" },
        description: "Gets a note.",
      },
    );
    expect(json(toolListing(m))).toBe(
      '{"name":"get_note","description":"Gets a note.",' +
        '"inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false},' +
        '"outputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]},' +
        '"annotations":{"title":"Note","readOnlyHint":true},' +
        '"_meta":{"ui":{"resourceUri":"ui://notes/view"}}}',
    );
  });

  it("leaves absent parts out; properties is {} and required is left out when empty", () => {
    // server.tool("ping", () => {})
    expect(json(toolListing(tool("ping", [])))).toBe(
      '{"name":"ping","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}',
    );
  });

  it("writes annotations in the order title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint, only those assigned", () => {
    // @tool({ openWorld: false, idempotent: true, destructive: false, readOnly: false, title: "T" })
    const all = tool(
      "a",
      [],
      { kind: "void" },
      {
        annotations: {
          openWorldHint: false,
          idempotentHint: true,
          destructiveHint: false,
          readOnlyHint: false,
          title: "T",
        },
      },
    );
    expect(json(toolListing(all).annotations)).toBe(
      '{"title":"T","readOnlyHint":false,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}',
    );
    // @tool({ destructive: true })
    expect(
      json(toolListing(tool("a", [], { kind: "void" }, { annotations: { destructiveHint: true } })).annotations),
    ).toBe('{"destructiveHint":true}');
    // no options assigned → no annotations
    expect("annotations" in toolListing(tool("a", [], { kind: "void" }, { annotations: {} }))).toBe(false);
  });

  it("writes _meta.ui with resourceUri and, when assigned, visibility (spec §9)", () => {
    // @tool({ uiResource: "ui://weather/view", uiVisibility: ["model", "app"] })
    const m = tool(
      "w",
      [],
      { kind: "void" },
      { ui: { resourceUri: "ui://weather/view", visibility: ["model", "app"] } },
    );
    expect(json(toolListing(m)._meta)).toBe('{"ui":{"resourceUri":"ui://weather/view","visibility":["model","app"]}}');
    expect(json(toolListing(tool("w", [], { kind: "void" }, { ui: { resourceUri: "ui://x/y" } }))._meta)).toBe(
      '{"ui":{"resourceUri":"ui://x/y"}}',
    );
  });

  it("is deterministic, and the generated listing literal equals toolListing", async () => {
    const m = () =>
      tool(
        "t",
        [param("a", T.nullable(T.strEnum("x", "y"))), param("b", T.array(T.object([prop("c", T.date())])), false)],
        {
          kind: "structured",
          nullable: true,
          type: T.object([prop("d", T.map(T.bytes()))]),
        },
      );
    expect(json(toolListing(m()))).toBe(json(toolListing(m())));
    expect(json((await load(m())).listing)).toBe(json(toolListing(m())));
  });
});

describe("§3 parameters", () => {
  it("does not list RequestContext or AbortSignal parameters", () => {
    // (ctx: RequestContext, q: string, signal: AbortSignal)
    const m = tool("t", [{ role: "context", name: "ctx" }, param("q", T.string()), { role: "signal", name: "signal" }]);
    expect(json(toolListing(m).inputSchema)).toBe(
      '{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false}',
    );
  });

  it("lists parameters in declaration order; required unless default/optional; nullable stays required", () => {
    // (query: string, limit = 10, verbose?: boolean, mode: "fast" | "slow" = "fast", note: string | null, when: Date | undefined)
    const m = tool("search", [
      param("query", T.string()),
      param("limit", T.number(), false, { default: 10 }),
      param("verbose", T.boolean(), false),
      param("mode", T.strEnum("fast", "slow"), false, { default: "fast" }),
      param("note", T.nullable(T.string())),
      param("when", T.date(), false),
    ]);
    expect(json(toolListing(m).inputSchema)).toBe(
      '{"type":"object","properties":{' +
        '"query":{"type":"string"},' +
        '"limit":{"type":"number","default":10},' +
        '"verbose":{"type":"boolean"},' +
        '"mode":{"type":"string","enum":["fast","slow"],"default":"fast"},' +
        '"note":{"type":["string","null"]},' +
        '"when":{"type":"string","format":"date-time"}' +
        '},"required":["query","note"],"additionalProperties":false}',
    );
  });

  it("writes description after type/format and default last (§2 keyword order)", () => {
    // /** @param qty - How many. */ (qty: Int & Minimum<1> & Maximum<99> = 5, /** @param at When. */ at?: Date)
    const m = tool("t", [
      param("qty", T.int({ minimum: 1, maximum: 99 }), false, { description: "How many.", default: 5 }),
      param("at", T.date(), false, { description: "When." }),
      param(
        "level",
        T.numEnum([
          ["Low", 0],
          ["High", 1],
        ]),
        false,
        { description: "Level.", default: "High" },
      ),
    ]);
    expect(json(toolListing(m).inputSchema.properties)).toBe(
      '{"qty":{"type":"integer","description":"How many.","minimum":1,"maximum":99,"default":5},' +
        '"at":{"type":"string","format":"date-time","description":"When."},' +
        '"level":{"type":"string","description":"Level.","enum":["Low","High"],"default":"High"}}',
    );
  });

  it("makes a destructured parameter's properties the tool's properties", () => {
    // ({ city, days = 3 }: { /** The city. */ city: string; days?: Int }, ctx: RequestContext)
    const m = tool("forecast", [
      {
        role: "destructured",
        properties: [
          param("city", T.string(), true, { key: "city", description: "The city." }),
          param("days", T.int(), false, { key: "days", default: 3 }),
        ],
      },
      { role: "context", name: "ctx" },
    ]);
    expect(json(toolListing(m).inputSchema)).toBe(
      '{"type":"object","properties":{"city":{"type":"string","description":"The city."},"days":{"type":"integer","default":3}},"required":["city"],"additionalProperties":false}',
    );
  });
});

describe("§4 types", () => {
  const rows: [string, TypeModel, string][] = [
    ["string", T.string(), '{"type":"string"}'],
    ["number", T.number(), '{"type":"number"}'],
    ["Int", T.int(), '{"type":"integer"}'],
    ["bigint", T.bigint(), '{"type":"integer"}'],
    ["boolean", T.boolean(), '{"type":"boolean"}'],
    ['"b" | "a" | "c" (written order)', T.strEnum("b", "a", "c"), '{"type":"string","enum":["b","a","c"]}'],
    [
      "enum Color { Red = 1, Green = 2 } (names)",
      T.numEnum([
        ["Red", 1],
        ["Green", 2],
      ]),
      '{"type":"string","enum":["Red","Green"]}',
    ],
    ["1 | 2 | 3", T.numUnion("integer", 1, 2, 3), '{"type":"integer","enum":[1,2,3]}'],
    ["0.5 | 1", T.numUnion("number", 0.5, 1), '{"type":"number","enum":[0.5,1]}'],
    ["Date", T.date(), '{"type":"string","format":"date-time"}'],
    ["URL", T.url(), '{"type":"string","format":"uri"}'],
    ["Uint8Array", T.bytes(), '{"type":"string","contentEncoding":"base64"}'],
    ["string[] / readonly string[] / Array<string>", T.array(T.string()), '{"type":"array","items":{"type":"string"}}'],
    ["Set<Int>", T.set(T.int()), '{"type":"array","items":{"type":"integer"},"uniqueItems":true}'],
    ["Record<string, number>", T.record(T.number()), '{"type":"object","additionalProperties":{"type":"number"}}'],
    ["Map<string, boolean>", T.map(T.boolean()), '{"type":"object","additionalProperties":{"type":"boolean"}}'],
    ["string | null", T.nullable(T.string()), '{"type":["string","null"]}'],
    ['"a" | "b" | null', T.nullable(T.strEnum("a", "b")), '{"type":["string","null"],"enum":["a","b",null]}'],
    [
      "Color | null (numeric enum)",
      T.nullable(T.numEnum([["Red", 1]])),
      '{"type":["string","null"],"enum":["Red",null]}',
    ],
    ["Date | null", T.nullable(T.date()), '{"type":["string","null"],"format":"date-time"}'],
    ["string[] | null", T.nullable(T.array(T.string())), '{"type":["array","null"],"items":{"type":"string"}}'],
    ["(string | null)[]", T.array(T.nullable(T.string())), '{"type":"array","items":{"type":["string","null"]}}'],
    [
      "Record<string, Date>",
      T.record(T.date()),
      '{"type":"object","additionalProperties":{"type":"string","format":"date-time"}}',
    ],
  ];
  for (const [ts, t, schema] of rows) {
    it(`(v: ${ts}) → ${schema}`, () => {
      expect(one(t)).toBe(wrap(schema));
      expect(json(typeSchema(t, "input"))).toBe(schema);
    });
  }

  it("objects: properties in order, required, no additionalProperties, descriptions, nested", () => {
    // interface Line { /** Stock unit. */ sku: string; qty: Int; note?: string; meta: { tag: string | undefined } }
    // (lines: Line[])
    const line = T.object([
      prop("sku", T.string(), true, { description: "Stock unit." }),
      prop("qty", T.int()),
      prop("note", T.string(), false),
      prop("meta", T.object([prop("tag", T.string(), false)])),
    ]);
    expect(one(T.array(line))).toBe(
      wrap(
        '{"type":"array","items":{"type":"object","properties":{' +
          '"sku":{"type":"string","description":"Stock unit."},"qty":{"type":"integer"},"note":{"type":"string"},' +
          '"meta":{"type":"object","properties":{"tag":{"type":"string"}}}' +
          '},"required":["sku","qty","meta"]}}',
      ),
    );
  });

  it("an object with properties and a string index signature writes properties, required, additionalProperties", () => {
    // interface Bag { name: string; [k: string]: string | number } — modelled with values: string (one non-null type)
    // interface Bag { name: string; [k: string]: string }
    expect(json(typeSchema(T.object([prop("name", T.string())], { additionalProperties: T.string() }), "input"))).toBe(
      '{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":{"type":"string"}}',
    );
  });

  it("nullable object widens type and keeps properties", () => {
    // (p: { a: string } | null)
    expect(one(T.nullable(T.object([prop("a", T.string())])))).toBe(
      wrap('{"type":["object","null"],"properties":{"a":{"type":"string"}},"required":["a"]}'),
    );
  });

  it("renamed properties (@jsonName / @naming) are listed under their wire names", () => {
    // interface User { /** @jsonName first_name */ firstName: string; /** @ignore */ secret?: string }
    const u = T.object([prop("first_name", T.string(), true, { key: "firstName" })]);
    expect(json(typeSchema(u, "input"))).toBe(
      '{"type":"object","properties":{"first_name":{"type":"string"}},"required":["first_name"]}',
    );
  });

  it("a class: getter-only properties appear in output schemas only", () => {
    // class Point { label = "origin"; constructor(public x: Int, public y: Int = 0) {} get norm(): number }
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
    expect(json(typeSchema(point, "input"))).toBe(
      '{"type":"object","properties":{"label":{"type":"string"},"x":{"type":"integer"},"y":{"type":"integer"}},"required":["x"]}',
    );
    expect(json(typeSchema(point, "output"))).toBe(
      '{"type":"object","properties":{"label":{"type":"string"},"x":{"type":"integer"},"y":{"type":"integer"},"norm":{"type":"number"}},"required":["x","norm"]}',
    );
  });

  it("validation tags: strings, numbers, arrays (minItems/maxItems), items", () => {
    // (code: string & MinLength<2> & MaxLength<8> & Pattern<"^[A-Z]+$">, mail: string & Format<"email">,
    //  link: string & Format<"uri">, price: number & Minimum<0> & Maximum<9.5>,
    //  tags: (string & MaxLength<20>)[] & MinLength<1> & MaxLength<5>, ids: Set<Int & Minimum<1>> & MaxLength<3>)
    const m = tool("t", [
      param("code", T.string({ minLength: 2, maxLength: 8, pattern: "^[A-Z]+$" })),
      param("mail", T.string({ format: "email" })),
      param("link", T.string({ format: "uri" })),
      param("price", T.number({ minimum: 0, maximum: 9.5 })),
      param("tags", T.array(T.string({ maxLength: 20 }), { minLength: 1, maxLength: 5 })),
      param("ids", T.set(T.int({ minimum: 1 }), { maxLength: 3 })),
      param("neg", T.int({ minimum: -5 })),
    ]);
    expect(json(toolListing(m).inputSchema.properties)).toBe(
      '{"code":{"type":"string","minLength":2,"maxLength":8,"pattern":"^[A-Z]+$"},' +
        '"mail":{"type":"string","format":"email"},' +
        '"link":{"type":"string","format":"uri"},' +
        '"price":{"type":"number","minimum":0,"maximum":9.5},' +
        '"tags":{"type":"array","items":{"type":"string","maxLength":20},"minItems":1,"maxItems":5},' +
        '"ids":{"type":"array","items":{"type":"integer","minimum":1},"maxItems":3,"uniqueItems":true},' +
        '"neg":{"type":"integer","minimum":-5}}',
    );
  });

  it("a string with format, description and pattern follows §2 order", () => {
    // /** @param id The id. */ (id?: string & Format<"uri"> & Pattern<"^h"> = "http://x")
    const m = tool("t", [
      param("id", T.string({ pattern: "^h", format: "uri" }), false, { description: "The id.", default: "http://x" }),
    ]);
    expect(json(toolListing(m).inputSchema.properties)).toBe(
      '{"id":{"type":"string","format":"uri","description":"The id.","pattern":"^h","default":"http://x"}}',
    );
  });

  it("a property named __proto__ is listed as an own property", async () => {
    // (p: { "__proto__": string })
    const m = tool("t", [param("p", T.object([prop("__proto__", T.string())]))]);
    const expected = wrap('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}')
      .replace('"v"', '"p"')
      .replace('["v"]', '["p"]');
    expect(json(toolListing(m).inputSchema)).toBe(expected);
    expect(json((await load(m)).listing.inputSchema)).toBe(expected);
  });

  it("refuses a constraint that does not fit its type", () => {
    expect(() => typeSchema({ kind: "array", items: T.string(), constraints: { pattern: "x" } }, "input")).toThrow(
      /pattern/,
    );
    expect(() => typeSchema({ kind: "number", constraints: { minimum: 3, maximum: 1 } }, "input")).toThrow(/minimum/);
  });
});

describe("§6 outputSchema", () => {
  const out = (result: Parameters<typeof tool>[2]) => toolListing(tool("t", [], result));

  it("object-shaped result: outputSchema is its schema, no additionalProperties at the root", () => {
    // (): Promise<{ id: string; tags?: Set<string> }>
    expect(
      json(
        out({
          kind: "structured",
          nullable: false,
          type: T.object([prop("id", T.string()), prop("tags", T.set(T.string()), false)]),
        }).outputSchema,
      ),
    ).toBe(
      '{"type":"object","properties":{"id":{"type":"string"},"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}},"required":["id"]}',
    );
  });

  it("record and map results are object-shaped", () => {
    // (): Record<string, Int>      (): Map<string, Date>
    expect(
      json(out({ kind: "structured", nullable: false, type: { kind: "record", values: T.int() } }).outputSchema),
    ).toBe('{"type":"object","additionalProperties":{"type":"integer"}}');
    expect(
      json(
        out({ kind: "structured", nullable: false, type: { kind: "record", values: T.date(), map: true } })
          .outputSchema,
      ),
    ).toBe('{"type":"object","additionalProperties":{"type":"string","format":"date-time"}}');
  });

  it('T | null object-shaped keeps "type":"object"', () => {
    // (): Note | null
    expect(
      json(out({ kind: "structured", nullable: true, type: T.object([prop("text", T.string())]) }).outputSchema),
    ).toBe('{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}');
  });

  it("void, text, json and passthrough results have no outputSchema", () => {
    for (const r of [
      { kind: "void" },
      { kind: "text" },
      { kind: "json", type: T.array(T.number()) },
      { kind: "passthrough" },
    ] as const) {
      expect("outputSchema" in out(r)).toBe(false);
    }
  });
});
