// Which doc comment belongs to a declaration (spec §4 "Doc comments": read as TypeScript
// attaches them). The expectations follow TypeScript's rule: the leading comments of a node are
// those after the first line break following the previous token; of those, every `/** … */`
// (not `/**\/`) is a JSDoc block and the last one is the documentation. Comments of other kinds
// before it (line or block comments) are never part of the text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModuleModel, ObjectModel } from "@typed-mcp/model";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { Extractor } from "../../packages/extract/src/index.js";
import { docCommentText, parseDocComment } from "../../packages/extract/src/jsdoc.js";
import { fixture, param, tool } from "./helpers.js";

let ex: Extractor;
let m: ModuleModel;
const src = fixture("docs/docs.ts");
beforeAll(() => {
  ex = createExtractor();
  m = ex.extract(src.file, src.code);
});
afterAll(() => ex.close());

const description = (name: string) => tool(m, name).description;

describe("doc comments are attached as TypeScript attaches them (§4)", () => {
  it("has no diagnostics", () => {
    expect(m.diagnostics).toEqual([]);
  });
  it("a trailing line comment on the line before the JSDoc is not part of it", () => {
    expect(description("add")).toBe("Adds.");
  });
  it("a line comment or a block comment before the JSDoc is not part of it", () => {
    expect(description("sub")).toBe("Subtracts.");
    expect(description("div")).toBe("Divides.");
    expect(description("square")).toBe("Squares.");
    expect(description("mul")).toBe("Multiplies.");
  });
  it("two JSDoc blocks: the last one is the documentation", () => {
    expect(description("both")).toBe("Second block.");
    expect(description("last")).toBe("Kept: the last block.");
  });
  it("a JSDoc between the decorator and the method name is not the method's", () => {
    expect(description("neg")).toBeUndefined();
  });
  it("a JSDoc on the line of the previous token belongs to nothing; before a decorator it counts", () => {
    expect(description("trailing")).toBeUndefined();
    expect(description("inc")).toBe("Not at the start of a line.");
    expect(description("inline")).toBeUndefined();
  });
  it("a property's JSDoc after the previous property's trailing line comment", () => {
    const point = param(tool(m, "point"), "p").type as ObjectModel;
    expect(point.properties.map((p) => [p.name, p.description])).toEqual([
      ["x", undefined],
      ["y", "The second coordinate."],
    ]);
  });
});

describe("docCommentText: the comment without the trivia a backend may include", () => {
  it("skips whitespace, line and block comments before the JSDoc that ends the text", () => {
    expect(docCommentText(" // a\n  /* b */ /**/\n/** Doc. */")).toBe("/** Doc. */");
    expect(docCommentText("\r\n\t/** Doc.\n * @param a A. */\n")).toBe("/** Doc.\n * @param a A. */");
    expect(docCommentText("/** Doc. */")).toBe("/** Doc. */");
    expect(parseDocComment(" // note: x\n/** Adds. */").main.trim()).toBe("Adds.");
  });
  it("no JSDoc at the end: nothing", () => {
    expect(docCommentText("// only a line comment\n")).toBe("");
    expect(docCommentText("/* a block comment */")).toBe("");
    expect(docCommentText("/**/")).toBe("");
  });
});
