/**
 * The oracle comparison (./compare.ts) on hand-made pairs of a listed and a sent schema, each
 * loss as issue 23 defines it: a keyword, type, property or `required` name dropped, a nullable
 * made non-nullable, `additionalProperties: false` loosened — "said" only when the sent
 * description carries the keyword's spec §11 sentence.
 */
import { describe, expect, it } from "vitest";
import { losses, verdict } from "./compare.ts";

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("losses from a listed schema to a sent one", () => {
  it("finds nothing when the library sent the same schema, or Gemini's upper-case types", () => {
    const s = obj({ a: { type: "string", minLength: 2 } }, { required: ["a"] });
    expect(losses(s, structuredClone(s))).toEqual([]);
    expect(losses(s, { type: "OBJECT", properties: { a: { type: "STRING", minLength: 2 } }, required: ["a"] })).toEqual(
      [],
    );
    expect(verdict({ schema: s }, [])).toBe("unchanged");
  });

  it("a dropped default is said only with §11's sentence", () => {
    const listed = obj({ n: { type: "integer", description: "N. Default: 3.", default: 3 } });
    const said = losses(listed, obj({ n: { type: "integer", description: "N. Default: 3." } }));
    expect(said).toEqual([{ path: "/properties/n", keyword: "default", said: true }]);
    expect(verdict({ schema: {} }, said)).toBe("said");
    const unsaid = losses(obj({ n: { type: "integer", default: 3 } }), obj({ n: { type: "integer" } }));
    expect(unsaid).toEqual([{ path: "/properties/n", keyword: "default", said: false }]);
    expect(verdict({ schema: {} }, unsaid)).toBe("lossy");
  });

  it("a lost nullable, a loosened additionalProperties, a dropped property and required name", () => {
    const listed = obj(
      { a: { type: "string", nullable: true }, b: { type: ["integer", "null"] } },
      { required: ["a", "b"], additionalProperties: false },
    );
    const sent = obj({ a: { type: "string" } }, { required: ["a"] });
    expect(losses(listed, sent).map((l) => `${l.keyword} ${l.path}`)).toEqual([
      "required b ",
      "additionalProperties ",
      "nullable /properties/a",
      "schema /properties/b",
    ]);
  });

  it("an anyOf erased to its description (LangChain's simplification) loses the members", () => {
    const listed = obj({ u: { anyOf: [{ type: "string" }, { type: "integer" }], nullable: true } });
    expect(losses(listed, obj({ u: { nullable: true } }))).toEqual([
      { path: "/properties/u", keyword: "anyOf", said: false },
    ]);
  });

  it("a refused tool is rejected; no parameters for a tool without properties is no loss", () => {
    expect(verdict({ error: "refused" }, [])).toBe("rejected");
    expect(losses(obj({}), undefined)).toEqual([]);
    expect(losses(obj({ a: { type: "string" } }), undefined)).toEqual([{ path: "", keyword: "schema", said: false }]);
  });
});
