/**
 * Every disagreement the differential test (differential.test.ts) found, as a fixed, named case
 * built through the real extraction and codegen, plus one case per deliberate departure of the
 * contract from the listed schema (oracle.ts). `it.fails` marks a known bug that is not fixed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolModel } from "../../packages/model/src/index.ts";
import { fakeCtx, load, roundTripper, type Loaded } from "../codegen/helpers.ts";
import { closeExtractor, extractModule } from "./harness.ts";
import { compileOracle, compilePlain } from "./oracle.ts";

const SOURCE = `import { tool, type Int, type MinLength } from "typed-mcp";
export interface Hostile {
  "__proto__"?: 12 | 6;
  constructor?: string;
  toString?: Int;
  valueOf?: boolean;
}
export interface Indexed {
  "x y": Record<string, Date>;
  constructor?: Record<string, Date>;
  [k: string]: Record<string, Date>;
}
export interface Renamed {
  /** @jsonName first_name */
  firstName: string;
  [k: string]: string;
}
export interface ProtoProp {
  "__proto__": number;
}
export interface EmptyKey {
  "": number;
}
export class Tools {
  @tool() hostile(p: Hostile): void {}
  @tool() indexed(p: Indexed): void {}
  @tool() renamed(p: Renamed): void {}
  @tool() protoProp(p: ProtoProp): void {}
  @tool() emptyKey(p: EmptyKey): void {}
  @tool() when(p: Date): void {}
  @tool() tags(p: Set<string> & MinLength<3>): void {}
  @tool() uniq(p: Set<Int>): void {}
  @tool() big(p: bigint): void {}
  @tool() link(p: URL): void {}
}
`;

interface Case {
  model: ToolModel;
  g: Loaded;
  /** The reader accepts. */
  reads(args: string): boolean;
  /** The oracle (with the departures written in) accepts. */
  oracle(args: string): boolean;
  /** ajv on the listed schema as is (formats bound to typed-mcp's predicates) accepts. */
  plain(args: string): boolean;
}

const tools = new Map<string, Case>();
const ctx = fakeCtx();

beforeAll(async () => {
  const { tools: models, diagnostics } = extractModule("found", SOURCE);
  expect(diagnostics).toEqual([]);
  for (const model of models) {
    const g = await load(model);
    const schema = g.listing.inputSchema as Record<string, unknown>;
    const oracle = compileOracle(model, schema);
    const plain = compilePlain(schema);
    tools.set(model.name, {
      model,
      g,
      reads: (a) => Array.isArray(g.read(JSON.parse(a), ctx)),
      oracle: (a) => oracle(JSON.parse(a)).ok,
      plain: (a) => plain(JSON.parse(a)) as boolean,
    });
  }
});
afterAll(() => closeExtractor());

const t = (name: string) => tools.get(name)!;

/** Reads `args`, then writes the value of `p` and reads it back. */
async function roundTrip(
  name: string,
  args: string,
): Promise<{ first: unknown; wire: unknown; back: unknown[] | string }> {
  const c = t(name);
  const read = c.g.read(JSON.parse(args), ctx);
  expect(Array.isArray(read), typeof read === "string" ? `first read refused: ${read}` : undefined).toBe(true);
  const first = (read as unknown[])[0];
  const p = c.model.params[0]!;
  const { read: back, wire } = (await roundTripper((p as { type: Parameters<typeof roundTripper>[0] }).type))(first);
  return { first, wire, back };
}

describe("found by the differential test", () => {
  // Spec §6 (an optional property whose value is undefined is left out) with §5 (keys named
  // __proto__/constructor never reach a prototype). Found with FUZZ_SEED=2 (tool t22) and
  // FUZZ_SEED=3 (t0): the writer read an absent optional `__proto__` / `constructor` through the
  // prototype chain and wrote `Object.prototype` / `Object` as its value. Fixed in
  // packages/codegen/src/write.ts (`readProperty`: such keys are read only when own).
  it("writer: absent optional properties named like Object.prototype members are left out (§6)", async () => {
    const { first, wire, back } = await roundTrip("hostile", `{"p":{}}`);
    expect(first).toStrictEqual({});
    expect(wire).toStrictEqual({});
    expect(back).toStrictEqual([{}]);
  });

  it("writer: present ones are written as own properties (§6)", async () => {
    const { wire, back } = await roundTrip(
      "hostile",
      `{"p":{"__proto__":6,"constructor":"c","toString":1,"valueOf":false}}`,
    );
    expect(Object.keys(wire as object)).toEqual(["__proto__", "constructor", "toString", "valueOf"]);
    expect(JSON.stringify(wire)).toBe(`{"__proto__":6,"constructor":"c","toString":1,"valueOf":false}`);
    expect(Array.isArray(back)).toBe(true);
  });

  it("writer: an object with an index signature and an absent optional `constructor` (§6)", async () => {
    const { first, back } = await roundTrip("indexed", `{"p":{"x y":{}}}`);
    expect(back).toStrictEqual([first]);
  });

  // Spec §4 `Date` / §6 `Date` → toISOString(). Found with FUZZ_SEED=821071269 (t13, t14, t18, t20,
  // t27, t28). "9999-12-31T23:59:59-23:59" is a valid RFC 3339 date-time, so the reader (and the
  // oracle, bound to readDateTime) accept it; its instant is in the year 10000, which
  // toISOString() writes as "+010000-01-01T23:58:59.000Z" — not RFC 3339, so the tool's own
  // reader refuses what its writer wrote. Likewise "0000-01-01T00:00:00+00:01" (year −1). Not a
  // codegen fix: readDateTime (packages/typed-mcp) would have to refuse instants outside
  // 0000–9999, or the contract has to say what a writer does with them. Reported; left failing.
  // The generator's date pool leaves these two strings out (values.ts) so the property stays green.
  it.fails("BUG: a Date read from an offset date-time whose UTC year is 10000 cannot be written back (§4, §6)", async () => {
    const { back } = await roundTrip("when", `{"p":"9999-12-31T23:59:59-23:59"}`);
    expect(Array.isArray(back)).toBe(true);
  });

  it.fails("BUG: a Date whose UTC year is −1 cannot be written back (§4, §6)", async () => {
    const { back } = await roundTrip("when", `{"p":"0000-01-01T00:00:00+00:01"}`);
    expect(Array.isArray(back)).toBe(true);
  });

  // Oracle, not typed-mcp: ajv 8 skips a `properties` entry named `__proto__` (found with
  // FUZZ_SEED=821071269, t19) and takes `required: [""]` as satisfied (FUZZ_SEED=6, t12/t25).
  // The reader is right by spec §4 (properties are listed and read by wire name) and §5 (a
  // missing required argument, a wrong type → not valid). oracle.ts renames these keys.
  it("ajv ignores properties.__proto__; the reader checks it (§4, §5)", () => {
    const args = `{"p":{"__proto__":"not a number"}}`;
    expect(t("proto_prop").plain(args)).toBe(true);
    expect(t("proto_prop").reads(args)).toBe(false);
    expect(t("proto_prop").oracle(args)).toBe(false);
    expect(t("proto_prop").reads(`{"p":{"__proto__":1}}`)).toBe(true);
    expect(t("proto_prop").reads(`{"p":{}}`)).toBe(false);
  });

  it(`ajv takes required [""] as satisfied; the reader does not (§5)`, () => {
    expect(t("empty_key").plain(`{"p":{}}`)).toBe(true);
    expect(t("empty_key").reads(`{"p":{}}`)).toBe(false);
    expect(t("empty_key").oracle(`{"p":{}}`)).toBe(false);
    expect(t("empty_key").reads(`{"p":{"":1}}`)).toBe(true);
  });

  // Spec §4 Set row + "minItems are checked on the JSON array, duplicates included"
  // (docs/codegen.md "Per type"): found while fuzzing (FUZZ_SEED=821071269, t6). A Set read from
  // ["a","a","a"] holds one item, so its written form ["a"] breaks minItems 3 and the reader
  // refuses it. A consequence of departure 1, not a bug; the round trip skips it (harness.ts).
  it("a Set with minItems read from duplicates writes a form its reader refuses (§4 Set, departure 1)", async () => {
    const { first, wire, back } = await roundTrip("tags", `{"p":["a","a","a"]}`);
    expect(first).toStrictEqual(new Set(["a"]));
    expect(wire).toStrictEqual(["a"]);
    expect(back).toBe("Argument 'v' is not valid. Expected an array of at least 3 items."); // §5 minItems
  });
});

describe("departures of the contract from the listed schema (oracle.ts)", () => {
  it("1. Set: uniqueItems is listed, duplicates are dropped, not refused (§4 Set row)", () => {
    const args = `{"p":[1,1,2]}`;
    expect(t("uniq").plain(args)).toBe(false);
    expect(t("uniq").reads(args)).toBe(true);
    expect(t("uniq").oracle(args)).toBe(true);
    expect(t("uniq").g.read(JSON.parse(args), ctx)).toStrictEqual([new Set([1, 2])]);
  });

  it("2. bigint: listed as integer, only safe integers are read (§4 Int/bigint row)", () => {
    for (const n of ["9007199254740992", "-9007199254740992", "1e300"]) {
      const args = `{"p":${n}}`;
      expect(t("big").plain(args)).toBe(true);
      expect(t("big").reads(args)).toBe(false);
      expect(t("big").oracle(args)).toBe(false);
    }
    expect(t("big").g.read({ p: 9007199254740991 }, ctx)).toStrictEqual([9007199254740991n]);
  });

  it("3. URL: listed as format uri, new URL must accept it too (§4 URL row)", () => {
    for (const u of ["http://a:99999/", "http://", "http://[", "https://a%zz"]) {
      const args = JSON.stringify({ p: u });
      expect(t("link").reads(args), u).toBe(false);
      expect(t("link").oracle(args), u).toBe(false);
    }
    // isUri accepts these (so the listed schema does); new URL does not.
    expect(t("link").plain(`{"p":"http://a:99999/"}`)).toBe(true);
    expect(t("link").plain(`{"p":"http://"}`)).toBe(true);
  });

  it("4. index signature + @jsonName: the property's TypeScript key is refused as an extra key (docs/codegen.md, object + index signature)", () => {
    const args = `{"p":{"first_name":"a","firstName":"b"}}`;
    expect(t("renamed").plain(args)).toBe(true);
    expect(t("renamed").g.read(JSON.parse(args), ctx)).toBe(
      "Argument 'p.firstName' is not valid. It is not allowed here.",
    ); // §5 record key rule
    expect(t("renamed").oracle(args)).toBe(false);
    expect(t("renamed").reads(`{"p":{"first_name":"a","other":"b"}}`)).toBe(true);
  });

  it("date-time: the leap second :60 (RFC 3339 allows it) is refused, a Date cannot hold it (§4 Date; docs/codegen.md Date-time)", () => {
    expect(t("when").reads(`{"p":"2016-12-31T23:59:60Z"}`)).toBe(false);
    expect(t("when").oracle(`{"p":"2016-12-31T23:59:60Z"}`)).toBe(false);
    expect(t("when").reads(`{"p":"2016-12-31T23:59:59Z"}`)).toBe(true);
  });
});
