/**
 * Client profiles (spec §11) on REAL fixture listings: each fixture file is listed by the built
 * CLI (real TypeScript checker), then rewritten by every profile; after the rewrite no node
 * breaks a rule of the profile's family (lintListing), except what the profile cannot express,
 * which is an OMCW0003 warning naming the tool and the path. Sentences are §11's, to the byte.
 */
import { describe, expect, it, beforeAll } from "vitest";
import { join } from "node:path";
import { applyProfile, lintListing, sentence, type LintFamily } from "../../packages/codegen/dist/index.js";
import type { ToolListing } from "../../packages/model/src/index.ts";
import { cli, ROOT } from "../cli/helpers.ts";

const CORPUS: [dir: string, files: string[]][] = [
  ["test/extract/fixtures/basic", ["kinds.ts", "orders.ts", "quick.ts"]],
  ["test/extract/fixtures/unions", ["tools.ts"]],
  ["test/extract/fixtures/docs", ["docs.ts"]],
  ["test/extract/fixtures/order", ["order.ts"]],
  ["test/cli/fixtures/list", ["library.ts", "second.ts", "weather.ts"]],
];

let tools: ToolListing[] = [];
/** The corpus as listed, before any profile ran: every rewrite must leave its input as it was. */
let pristine: string[] = [];
beforeAll(() => {
  for (const [dir, files] of CORPUS) {
    const r = cli(["list", ...files], join(ROOT, dir));
    expect(r.stderr).toBe("");
    tools.push(...(JSON.parse(r.stdout).tools as ToolListing[]));
  }
  pristine = tools.map((t) => JSON.stringify(t));
}, 240_000);

const FAMILIES: LintFamily[] = ["gemini", "openai-strict", "cursor"];

describe("the fixture corpus through each profile", () => {
  it("has listings the providers reject before any profile", () => {
    expect(tools.length).toBeGreaterThan(30);
    for (const f of FAMILIES) expect(tools.some((t) => lintListing(t, f).length > 0)).toBe(true);
  });

  for (const family of FAMILIES) {
    it(`${family}: no rejected node is left but what OMCW0003 names`, () => {
      for (const t of tools) {
        const { listing, warnings } = applyProfile(t, family);
        expect(listing.outputSchema).toEqual(t.outputSchema); // §11: inputSchema only
        expect(listing.name).toBe(t.name);
        for (const w of warnings) {
          expect(w.code).toBe("OMCW0003");
          expect(w.message).toContain(`'${t.name}'`);
          expect(w.message).toContain(w.keyword);
        }
        const left = lintListing(listing, family).filter((f) => !warnings.some((w) => w.path === f.path));
        expect(left, `${t.name}: ${JSON.stringify(left)}`).toEqual([]);
      }
    });
  }

  it("default is the seed's listing, byte for byte", () => {
    tools.forEach((t, i) => {
      expect(JSON.stringify(applyProfile(t, "default").listing)).toBe(pristine[i]);
    });
  });

  it("is deterministic and does not modify its input", () => {
    tools.forEach((t, i) => {
      for (const f of FAMILIES)
        expect(JSON.stringify(applyProfile(t, f).listing)).toBe(JSON.stringify(applyProfile(t, f).listing));
      expect(JSON.stringify(t)).toBe(pristine[i]);
    });
  });
});

describe("the §11 sentences", () => {
  it("follow the fixed forms", () => {
    expect(sentence("format", "email")).toBe("Format: email.");
    expect(sentence("minimum", 0)).toBe("At least 0.");
    expect(sentence("minimum", 0.5)).toBe("At least 0.5.");
    expect(sentence("maximum", 10)).toBe("At most 10.");
    expect(sentence("maximum", -1)).toBe("At most -1.");
    expect(sentence("minLength", 3)).toBe("At least 3 characters.");
    expect(sentence("maxLength", 20)).toBe("At most 20 characters.");
    expect(sentence("minItems", 1)).toBe("At least 1 item.");
    expect(sentence("maxItems", 5)).toBe("At most 5 items.");
    expect(sentence("uniqueItems", true)).toBe("Items are unique.");
    expect(sentence("pattern", "^[a-z]+$")).toBe("Pattern: ^[a-z]+$.");
    expect(sentence("contentEncoding", "base64")).toBe("Base64.");
    expect(sentence("enum", [1, 2])).toBe("One of 1, 2.");
    expect(sentence("default", 3)).toBe("Default: 3.");
    expect(sentence("null", null)).toBe("May be null.");
  });
});

const schemaTool = (properties: Record<string, unknown>, required: string[] = []): ToolListing =>
  ({
    name: "t",
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false },
  }) as ToolListing;

describe("gemini rules, to the byte", () => {
  it("writes a nullable single type as the type plus nullable:true, right after type", () => {
    const t = schemaTool({ a: { type: ["string", "null"], format: "email", description: "Mail." } });
    expect(JSON.stringify(applyProfile(t, "gemini").listing.inputSchema)).toBe(
      '{"type":"object","properties":{"a":{"type":"string","nullable":true,"description":"Mail. Format: email."}}}',
    );
  });
  it("takes null out of an enum first, then says a numeric enum with the values left; keeps and says default", () => {
    const t = schemaTool({
      n: { type: ["integer", "null"], enum: [1, 5, null], default: 1 },
      m: { type: ["string", "null"], enum: ["fast", "slow", null] },
      s: { type: "array", items: { type: "string", contentEncoding: "base64" }, uniqueItems: true },
    });
    expect(JSON.stringify(applyProfile(t, "gemini").listing.inputSchema.properties)).toBe(
      '{"n":{"type":"integer","nullable":true,"description":"One of 1, 5. Default: 1.","default":1},' +
        '"m":{"type":"string","nullable":true,"enum":["fast","slow"]},' +
        '"s":{"type":"array","description":"Items are unique.","items":{"type":"string","description":"Base64."}}}',
    );
  });
  it("splits a §4a type array into anyOf without the null member: nullable after anyOf, May be null. last", () => {
    const t = schemaTool({
      id: {
        type: ["string", "integer", "null"],
        description: "Id.",
        minLength: 2,
        minimum: 0,
        maximum: 10,
        default: "x",
      },
    });
    expect(JSON.stringify(applyProfile(t, "gemini").listing.inputSchema.properties)).toBe(
      '{"id":{"description":"Id. Default: \\"x\\". May be null.","anyOf":[' +
        '{"type":"string","description":"At least 2 characters.","minLength":2},' +
        '{"type":"integer","description":"At least 0. At most 10.","minimum":0,"maximum":10}],"nullable":true}}',
    );
  });
  it("removes the null member of an anyOf of objects and says it; members lose additionalProperties:false", () => {
    const obj = (k: string, v: unknown) => ({
      type: "object",
      properties: { [k]: v },
      required: [k],
      additionalProperties: false,
    });
    const t = schemaTool({
      shape: { anyOf: [obj("k", { type: "string" }), obj("j", { type: "number", minimum: 0.5 }), { type: "null" }] },
    });
    expect(JSON.stringify(applyProfile(t, "gemini").listing.inputSchema.properties)).toBe(
      '{"shape":{"description":"May be null.","anyOf":[' +
        '{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]},' +
        '{"type":"object","properties":{"j":{"type":"number","description":"At least 0.5.","minimum":0.5}},"required":["j"]}' +
        '],"nullable":true}}',
    );
  });
  it("keeps and says bounds, lengths, pattern, item counts and default, in §11's sentence order (not §2's)", () => {
    const t = schemaTool({
      s: { type: "string", format: "uri", minLength: 3, maxLength: 20, pattern: "^[a-z]+$", default: "abc" },
      l: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5, uniqueItems: true },
      n: { type: "number", maximum: -1 },
    });
    expect(JSON.stringify(applyProfile(t, "gemini").listing.inputSchema.properties)).toBe(
      '{"s":{"type":"string","description":"Format: uri. At least 3 characters. At most 20 characters. Pattern: ^[a-z]+$. Default: \\"abc\\".",' +
        '"minLength":3,"maxLength":20,"pattern":"^[a-z]+$","default":"abc"},' +
        '"l":{"type":"array","description":"At least 1 item. At most 5 items. Items are unique.","items":{"type":"string"},"minItems":1,"maxItems":5},' +
        '"n":{"type":"number","description":"At most -1.","maximum":-1}}',
    );
  });
  it('keeps date-time, lists a record as {"type":"object"} with OMCW0003, warns on empty properties', () => {
    const t = schemaTool({
      d: { type: "string", format: "date-time" },
      r: { type: "object", additionalProperties: { type: "number" } },
    });
    const out = applyProfile(t, "gemini");
    expect(out.listing.inputSchema.properties).toEqual({
      d: { type: "string", format: "date-time" },
      r: { type: "object" },
    });
    expect(out.warnings.map((w) => [w.path, w.keyword])).toEqual([["/properties/r", "additionalProperties"]]);
    expect(applyProfile(schemaTool({}), "gemini").warnings.map((w) => [w.path, w.keyword])).toEqual([
      ["", "properties"],
    ]);
  });
});

describe("openai-strict rules, to the byte", () => {
  it("requires every property, makes optional ones nullable, moves default, lengths and formats", () => {
    const t = schemaTool(
      {
        q: { type: "string", minLength: 3, maxLength: 20, pattern: "^[a-z]+$" },
        n: { type: "number", default: 3 },
        u: { type: "string", format: "uri" },
        e: { type: "string", format: "email" },
      },
      ["q"],
    );
    const out = applyProfile(t, "openai-strict");
    expect(JSON.stringify(out.listing.inputSchema)).toBe(
      '{"type":"object","properties":{"q":{"type":"string","description":"At least 3 characters. At most 20 characters. Pattern: ^[a-z]+$."},' +
        '"n":{"type":["number","null"],"description":"Default: 3."},"u":{"type":["string","null"],"description":"Format: uri."},' +
        '"e":{"type":["string","null"],"format":"email"}},"required":["q","n","u","e"],"additionalProperties":false}',
    );
    expect(out.warnings).toEqual([]);
  });
  it("gives nested objects additionalProperties:false; an optional nullable and a record are OMCW0003", () => {
    const t = schemaTool({
      o: {
        type: "object",
        properties: {
          x: { type: ["integer", "null"] },
          l: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5 },
        },
      },
      r: { type: "object", additionalProperties: { type: "string" } },
    });
    const out = applyProfile(t, "openai-strict");
    expect((out.listing.inputSchema.properties as Record<string, unknown>).o).toEqual({
      type: ["object", "null"],
      properties: {
        x: { type: ["integer", "null"] },
        l: { type: ["array", "null"], description: "At least 1 item. At most 5 items.", items: { type: "string" } },
      },
      required: ["x", "l"],
      additionalProperties: false,
    });
    expect(out.warnings.map((w) => [w.path, w.keyword])).toEqual([
      ["/properties/o/properties/x", "required"],
      ["/properties/r", "additionalProperties"],
    ]);
  });
});

describe("openai-strict v2 (spec §11)", () => {
  it("moves contentEncoding into the description (Base64.)", () => {
    const t = schemaTool({ b: { type: "string", contentEncoding: "base64" } });
    expect(JSON.stringify(applyProfile(t, "openai-strict").listing.inputSchema.properties)).toBe(
      '{"b":{"type":["string","null"],"description":"Base64."}}',
    );
  });
  it("raises no OMCW0003 for a nullable optional property whose default is null", () => {
    const t = schemaTool({ tag: { type: ["string", "null"] }, note: { type: ["string", "null"] } });
    expect(applyProfile(t, "openai-strict", new Set(["tag"])).warnings.map((w) => w.path)).toEqual([
      "/properties/note",
    ]);
  });
});

describe("no profile modifies its input", () => {
  it("openai-strict then cursor on one listing object: cursor sees the default listing", () => {
    const t = schemaTool({ n: { type: "number", default: 3 } });
    applyProfile(t, "openai-strict");
    expect(applyProfile(t, "cursor").listing.inputSchema.properties).toEqual({ n: { type: "number", default: 3 } });
  });
});

describe("cursor", () => {
  it("splits only a top-level parameter's type array", () => {
    const t = schemaTool({
      a: { type: ["string", "null"] },
      o: { type: "object", properties: { b: { type: ["string", "null"] } } },
    });
    expect(applyProfile(t, "cursor").listing.inputSchema.properties).toEqual({
      a: { anyOf: [{ type: "string" }, { type: "null" }] },
      o: { type: "object", properties: { b: { type: ["string", "null"] } } },
    });
  });
});

describe("the openai-strict reader takes null as absent (spec §11)", async () => {
  const { load, fakeCtx, tool, param, prop, T } = await import("./helpers.ts");
  const model = tool("t", [
    param("limit", T.int(), false, { default: 10 }),
    param("tag", T.nullable(T.string()), false),
    param("o", T.object([prop("x", T.string(), false)]), false),
  ]);
  it("openai-strict: null for an optional non-nullable parameter or property is absent; a nullable keeps null", async () => {
    const g = await load(model, { profile: "openai-strict" });
    expect(g.read({ limit: null, tag: null, o: { x: null } }, fakeCtx())).toEqual([undefined, null, {}]);
    expect(g.read({ limit: 3 }, fakeCtx())).toEqual([3, undefined, undefined]);
    expect(g.listing.inputSchema).toMatchObject({ required: ["limit", "tag", "o"] });
  });
  it("every other profile refuses null there, naming the argument", async () => {
    for (const profile of ["default", "gemini", "cursor"] as const) {
      const g = await load(model, { profile });
      const r = g.read({ limit: null }, fakeCtx());
      expect(typeof r === "string" ? r : JSON.stringify(r)).toContain("limit");
      expect(Array.isArray(r)).toBe(false);
    }
  });
});

describe("the reader enforces the full contract whatever the profile (spec §11)", async () => {
  const { load, fakeCtx, tool, param, T } = await import("./helpers.ts");
  const model = tool("t", [
    param("mail", T.string({ format: "email", minLength: 3 })),
    param("tags", T.set(T.string(), { maxLength: 2 }), false),
  ]);
  // gemini moves `format: email` (only date-time stays); openai-strict keeps email (in OpenAI's list) and moves minLength.
  for (const [profile, moved] of [
    ["gemini", "Format: email."],
    ["openai-strict", "At least 3 characters."],
  ] as const) {
    it(`${profile}: a keyword moved into the description is still enforced`, async () => {
      const g = await load(model, { profile });
      expect(JSON.stringify(g.listing.inputSchema)).toContain(moved);
      expect(Array.isArray(g.read({ mail: "not-an-email" }, fakeCtx()))).toBe(false);
      expect(Array.isArray(g.read({ mail: "a@b.co", tags: ["x", "y", "z"] }, fakeCtx()))).toBe(false);
      expect(g.read({ mail: "a@b.co", tags: ["x"] }, fakeCtx())).toEqual(["a@b.co", new Set(["x"])]);
    });
  }
});
