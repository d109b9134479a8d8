/**
 * The `scopes` option (docs/auth.md "Scopes") read at build time beside `readOnly` & co.:
 * decorators and the quick path alike, carried in the model and the generated descriptor, never
 * in a listing; bad values are the kind's build error at the value (spec §10).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { Extractor } from "../../packages/extract/src/index.js";
import type { ModuleModel } from "@typed-mcp/model";
import { fixture, lineColOf, tool } from "./helpers.js";
import { load } from "../codegen/helpers.js";

let ex: Extractor;
let model: ModuleModel;
let code: string;
let file: string;
beforeAll(() => {
  ex = createExtractor();
  ({ file, code } = fixture("scopes/tools.ts"));
  model = ex.extract(file, code);
});
afterAll(() => ex.close());

describe("scopes option", () => {
  it("is carried in the model of tools (decorator and quick path), resources and prompts, repeats dropped", () => {
    expect(tool(model, "purge").scopes).toEqual(["notes:write", "admin"]);
    expect(tool(model, "quick").scopes).toEqual(["notes:read"]);
    expect(tool(model, "open").scopes).toBeUndefined();
    expect(model.resources?.find((r) => r.uri === "notes://all")?.scopes).toEqual(["notes:read"]);
    expect(model.prompts?.find((p) => p.name === "summary")?.scopes).toEqual(["admin"]);
  });

  it("is in the generated descriptor and not in the listing (listings do not change)", async () => {
    const purge = await load(tool(model, "purge"));
    expect((purge as { scopes?: string[] }).scopes).toEqual(["notes:write", "admin"]);
    expect(purge.listing).toEqual({
      name: "purge",
      description: "Deletes everything.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      annotations: { destructiveHint: true },
    });
    const open = await load(tool(model, "open"));
    expect("scopes" in open).toBe(false);
  });

  it("refuses entries that are not RFC 6749 §3.3 scope tokens and a non-array (OMCG0001); a const entry is folded (§1)", () => {
    const at = (needle: string) => ({ file, ...lineColOf(code, needle), code: "OMCG0001" });
    const diags = model.diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, code: d.code }));
    expect(diags).toEqual([at('"has space"'), at('"notes:read" })')]);
    expect(model.diagnostics.map((d) => d.message)).toEqual([
      '@tool: each entry of scopes must be an OAuth scope token (RFC 6749 §3.3: no spaces, quotes or backslashes), got "has space".',
      "@tool: option 'scopes' must be an array constant, so that it can be read at build time.",
    ]);
  });
});
