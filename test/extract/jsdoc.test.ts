import { describe, expect, it } from "vitest";
import { normalizeDocText, parseDocComment } from "../../packages/extract/src/index.js";
import { docParamText } from "../../packages/extract/src/jsdoc.js";

describe("doc comments (§4)", () => {
  it("normalises links and whitespace", () => {
    expect(normalizeDocText("See {@link Foo}\n   and {@linkcode Bar.baz} or {@linkplain Q}.")).toBe(
      "See Foo and Bar.baz or Q.",
    );
    expect(normalizeDocText("{@link Foo the foo} / {@link Foo | a foo}")).toBe("the foo / a foo");
    expect(normalizeDocText("  *bold*  `code`\t\n x ")).toBe("*bold* `code` x");
  });
  it("splits main text and tags; inline tags after whitespace; {@link} is not a tag", () => {
    const d = parseDocComment("/** Places an order, see {@link X}. @param items The lines to order. */");
    expect(normalizeDocText(d.main)).toBe("Places an order, see X.");
    expect(d.tags.map((t) => t.name)).toEqual(["param"]);
    expect(parseDocComment("/** mail me at a@b.com */").tags).toEqual([]);
  });
  it("@param forms; a leading '- ' is dropped", () => {
    const d = parseDocComment(
      "/**\n * @param items - The lines.\n * @param {string} [name=x] The name.\n * @param other\n */",
    );
    expect(docParamText(d, "items")).toBe("The lines.");
    expect(docParamText(d, "name")).toBe("The name.");
    expect(docParamText(d, "other")).toBeUndefined();
    expect(docParamText(d, "missing")).toBeUndefined();
  });
});
