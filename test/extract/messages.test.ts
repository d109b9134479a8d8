// Exact diagnostic texts (spec §4, §6, §10; docs/diagnostics.md): the context a message names
// must be the one the user wrote, and files inside messages are relative to the project root
// (the extractor's cwd), as the CLI writes locations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModuleModel } from "@typed-mcp/model";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { Extractor } from "../../packages/extract/src/index.js";
import { displayPath } from "../../packages/extract/src/convert-problems.js";
import { FIXTURES, fixture, lineColOf } from "./helpers.js";

let ex: Extractor;
let m: ModuleModel;
const src = fixture("messages/msgs.ts");
beforeAll(() => {
  ex = createExtractor({ cwd: FIXTURES });
  m = ex.extract(src.file, src.code);
});
afterAll(() => ex.close());

const UNDEFINED_RESULT =
  "which typed-mcp cannot write: a tool's result cannot be `undefined`, which has no JSON form. " +
  "Return `T | null` instead of `T | undefined` (`null` is sent as the text `null`), or declare `void` when there is nothing to return.";

describe("diagnostic texts", () => {
  it("a top-level `T | undefined` return type: OMCG0009 about the result, at the return type", () => {
    expect(m.diagnostics.find((d) => d.message.includes("'maybe'"))).toEqual({
      file: src.file,
      ...lineColOf(src.code, "string | undefined {"),
      code: "OMCG0009",
      message: `The return type of tool 'maybe': 'return' has type 'string | undefined', ${UNDEFINED_RESULT}`,
    });
    expect(m.diagnostics.find((d) => d.message.includes("'later'"))).toEqual({
      file: src.file,
      ...lineColOf(src.code, "Promise<number | undefined>"),
      code: "OMCG0009",
      message: `The return type of tool 'later': 'return' has type 'number | undefined', ${UNDEFINED_RESULT}`,
    });
  });
  it("`T | undefined` inside an array keeps the arrays/records/maps advice", () => {
    expect(m.diagnostics.find((d) => d.message.includes("'list'"))?.message).toBe(
      "The return type of tool 'list': 'return[]' has type 'string | undefined', which typed-mcp cannot write: " +
        "undefined is not a JSON value here. Use `T | null` instead of `T | undefined` inside arrays, records and maps.",
    );
  });
  it("a class whose constructor parameter no listed property fills names that parameter; 'declared at' is relative to the root", () => {
    const at = lineColOf(src.code, "P {");
    expect(m.diagnostics.find((d) => d.message.includes("'take'"))).toEqual({
      file: src.file,
      ...lineColOf(src.code, "p: P)"),
      code: "OMCG0005",
      message:
        `Parameter 'p' of tool 'take': 'p' has type 'P' (declared at messages/msgs.ts:${at.line}:${at.column}), which typed-mcp cannot read: ` +
        "its constructor parameter 'secret' is not filled by any listed public property. Make the parameter a public property (or give it a default).",
    });
    expect(m.diagnostics).toHaveLength(4);
  });
});

describe("displayPath", () => {
  it("relative with forward slashes inside or above the root; absolute without a root", () => {
    expect(displayPath("/p/src/types.ts", "/p")).toBe("src/types.ts");
    expect(displayPath("/shared/types.ts", "/p")).toBe("../shared/types.ts");
    expect(displayPath("/p/src/types.ts", undefined)).toBe("/p/src/types.ts");
  });
});
