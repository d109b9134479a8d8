import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { Extractor } from "../../packages/extract/src/index.js";
import { runFixture } from "./helpers.js";

let ex: Extractor;
beforeAll(() => {
  ex = createExtractor();
});
afterAll(() => ex.close());

const run = (rel: string) => runFixture(ex, rel);

describe("diagnostics (§10): code, file, line and column", () => {
  it("OMCG0000: strictNullChecks off", () => {
    const { diags, messages, model } = run("nostrict/tools.ts");
    expect(model.tools).toEqual([]);
    expect(diags).toHaveLength(1);
    expect(diags[0]!.code).toBe("OMCG0000");
    expect(messages[0]).toMatch(/strictNullChecks/);
    expect(messages[0]).toMatch(/"strict": true/);
  });

  it("OMCG0001: invalid tool name; non-literal quick-path name", () => {
    const { diags, messages, at } = run("diag/d0001.ts");
    expect(diags).toEqual([
      { ...at('@tool("bad name!")'), code: "OMCG0001" },
      { ...at("dynamicName, (a"), code: "OMCG0001" },
    ]);
    expect(messages[0]).toMatch(/'bad name!' is not valid/);
    expect(messages[1]).toMatch(
      /must be a string constant \(spec §1\), so that it is known at build time; `dynamicName` is a `let` or `var`, not a `const`\./,
    );
  });

  it("OMCG0002: two tools with the same name in one class", () => {
    const { diags, model, at } = run("diag/d0002.ts");
    expect(diags).toEqual([{ ...at("second"), code: "OMCG0002" }]);
    expect(model.tools.map((t) => t.name)).toEqual(["same"]);
  });

  it("OMCG0003: two RequestContext parameters, reported at the second", () => {
    const { diags, at } = run("diag/d0003.ts");
    expect(diags).toEqual([{ ...at("again"), code: "OMCG0003" }]);
  });

  it("OMCG0004: rest parameter, array pattern, object pattern next to another parameter", () => {
    const { diags, at } = run("diag/d0004.ts");
    expect(diags).toEqual([
      { ...at("names"), code: "OMCG0004" },
      { ...at("[first]"), code: "OMCG0004" },
      { ...at("{ a }"), code: "OMCG0004" },
    ]);
  });

  it("OMCG0005: unsupported parameter types name the path, the type and its declaration", () => {
    const { diags, messages, at, model } = run("diag/d0005.ts");
    expect(model.tools).toEqual([]);
    expect(diags).toEqual([
      { ...at("pattern: RegExp"), code: "OMCG0005" },
      { ...at("filter: Filter"), code: "OMCG0005" },
      { ...at("v: string | Date"), code: "OMCG0005" },
      { ...at("v: any"), code: "OMCG0005" },
      { ...at("k: Keyed"), code: "OMCG0005" },
    ]);
    expect(messages[0]).toMatch(/'pattern' has type 'RegExp' \(declared in lib\.es5\.d\.ts\)/);
    expect(messages[1]).toMatch(/'filter\.by' has type 'Map<number, string>'/);
    expect(messages[1]).toMatch(/only with `string` keys/);
    expect(messages[2]).toMatch(/'string \| Date'.*two of its members \(string and Date\) are JSON strings/);
    expect(messages[3]).toMatch(/'any'/);
  });

  it("OMCG0006: a @naming policy other than camelCase", () => {
    const { diags, messages, at } = run("diag/d0006.ts");
    expect(diags).toEqual([{ ...at("p: Policy"), code: "OMCG0006" }]);
    expect(messages[0]).toMatch(/@naming 'snake_case'/);
  });

  it("OMCG0007: malformed tag, minimum > maximum, unknown tag spelling, tag on the wrong type", () => {
    const { diags, messages, at } = run("diag/d0007.ts");
    expect(diags).toEqual([
      { ...at("l: Limits"), code: "OMCG0007" },
      { ...at("q: Int"), code: "OMCG0007" },
      { ...at("s: string"), code: "OMCG0007" },
      { ...at("list: string[]"), code: "OMCG0007" },
    ]);
    expect(messages[0]).toMatch(/'l\.low': @minimum needs a number/);
    expect(messages[1]).toMatch(/minimum 10 is greater than maximum 1/);
    expect(messages[2]).toMatch(/@minlength; write @minLength/);
    expect(messages[3]).toMatch(/@format does not fit an array/);
  });

  it("OMCG0008: private, #private, accessor and generic methods", () => {
    const { diags, at } = run("diag/d0008.ts");
    expect(diags).toEqual([
      { ...at("hidden"), code: "OMCG0008" },
      { ...at("#secret"), code: "OMCG0008" },
      { ...at("value"), code: "OMCG0008" },
      { ...at("generic"), code: "OMCG0008" },
    ]);
  });

  it("OMCG0009: unsupported return types, reported at the return type annotation", () => {
    const { diags, messages, at } = run("diag/d0009.ts");
    expect(diags).toEqual([
      { ...at("[number, string] {"), code: "OMCG0009" },
      { ...at("() => void {"), code: "OMCG0009" },
    ]);
    expect(messages[0]).toMatch(/tuples of different element types are not supported/);
  });
});
