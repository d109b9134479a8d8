/**
 * OMCG0007 for defaults (spec §3, §10), with the real TypeScript checker through `typed-mcp
 * check`: a written default outside the parameter's own listed constraints, at the default; a
 * JSDoc `@default`/`@defaultValue` on any input (function JSDoc, a parameter's inline JSDoc, a
 * property of an input type, nested or not), each saying where the default belongs; an
 * output-only property's `@default` is ignored.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, ROOT } from "./helpers.ts";

const dir = join(ROOT, "test/cli/fixtures/defaults-v2");
const OUTSIDE =
  "the default is outside the parameter's own constraints (%); change the default or the constraint, since the listing would advertise a value the reader refuses.";
const outside = (why: string) => OUTSIDE.replace("%", why);

describe("a default outside its own listed constraints is OMCG0007 at the default (§3)", () => {
  it("names the constraint and the default, at the default's position", () => {
    const r = cli(["check", "outside.ts"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        `outside.ts:5:43 - OMCG0007: Parameter 'n' of tool 'low': ${outside("0 is below its minimum 1")}`,
        `outside.ts:6:53 - OMCG0007: Parameter 'tags' of tool 'few': ${outside("[] has fewer items than its minItems 1")}`,
        `outside.ts:7:31 - OMCG0007: Parameter '{…}' of tool 'long': property 'name': ${outside('"abcdef" is longer than its maxLength 3')}`,
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe("typed-mcp check: 3 errors in 1 of 1 file.\n");
  });
});

describe("a JSDoc @default / @defaultValue on an input is OMCG0007 at the tag (§3)", () => {
  it("on the function's JSDoc, a parameter's inline JSDoc, a destructured and a nested property; not on an output", () => {
    const r = cli(["check", "tags.ts"], dir);
    expect(r.code).toBe(1);
    const head = (tag: string) => `@${tag} is never a second way to state a default`;
    const nested =
      "a nested property carries no default (spec §4): describe it in the text and apply it in the function.";
    const tail = "so what is listed is what the tool gets.";
    expect(r.stdout).toBe(
      [
        // At the tag itself (spec §3): the `@` of each `@default` / `@defaultValue`.
        `tags.ts:7:31 - OMCG0007: Tool 'forecast': the doc comment: ${head("default")}; write the default in the signature, e.g. \`(days: T = 3)\`, ${tail}`,
        `tags.ts:14:28 - OMCG0007: Parameter 'count' of tool 'inline': 'count': ${head("defaultValue")}; write it in the signature, \`count: T = 5\`, ${tail}`,
        `tags.ts:17:7 - OMCG0007: Parameter '{…}' of tool 'destructured': '{…}.label': ${head("default")}; write it in the destructuring, \`({ label = "x" }: Args)\`, ${tail}`,
        `tags.ts:17:7 - OMCG0007: Parameter 'args' of tool 'named': 'args.label': ${head("default")}; ${nested}`,
        `tags.ts:20:9 - OMCG0007: Parameter '{…}' of tool 'destructured': '{…}.nested.depth': ${head("default")}; ${nested}`,
        `tags.ts:20:9 - OMCG0007: Parameter 'args' of tool 'named': 'args.nested.depth': ${head("default")}; ${nested}`,
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe("typed-mcp check: 6 errors in 1 of 1 file.\n");
    expect(r.stdout).not.toContain("output_only");
  });
});
