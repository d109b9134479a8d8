/**
 * Spec §3: a JSDoc `@default` / `@defaultValue` on any input is OMCG0007 at the tag — the line
 * and column of its `@`, on every backend the tier runs (TIER_BACKENDS: TypeScript 7.0 over IPC and
 * the classic backend on TypeScript 6; 7.1 and 5.9 too in the full tier): on the function's JSDoc (a `@param` text, a
 * continuation line), a parameter's inline JSDoc (after an astral character: columns count
 * UTF-16 units, as TypeScript prints them), a property of a destructured or a named parameter's
 * type, resource and prompt arguments (quick path and decorated methods), and in a file with
 * CR LF line ends. A tag in another module is reported at the tool, since a bundler reports
 * only in the module it builds (docs/diagnostics.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { MeasuredExtractor } from "../../packages/extract/src/index.js";
import { ROOT, TIER_BACKENDS } from "./helpers.js";

const FIX = join(ROOT, "test/backends/fixtures/default-tags");
const backends: Record<string, string> = Object.fromEntries(TIER_BACKENDS);
const extractors = new Map<string, MeasuredExtractor>();

beforeAll(() => {
  for (const [name, choice] of Object.entries(backends))
    extractors.set(name, createExtractor({ cwd: ROOT, typescript: choice }));
});
afterAll(() => {
  for (const e of extractors.values()) e.close();
});

/** `line:column code subject` of each diagnostic of the fixture module `name`, in the order reported. */
function positions(backend: string, name: string): string[] {
  const file = join(FIX, name);
  const model = extractors.get(backend)!.extract(file, readFileSync(file, "utf8"));
  return model.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message.split(": ")[0]}`);
}

describe.each(Object.keys(backends))("backend %s: a JSDoc @default on an input is OMCG0007 at the tag (§3)", (b) => {
  it("every input kind, at the tag's line and column", () => {
    expect(positions(b, "tools.ts")).toEqual([
      "9:26 OMCG0007 Tool 'forecast'",
      "16:31 OMCG0007 Parameter 'count' of tool 'inline'",
      "21:10 OMCG0007 Parameter '{…}' of tool 'destructured'",
      "25:9 OMCG0007 Parameter '{…}' of tool 'destructured'",
      // types.ts:3:7 holds the tag: another module, so the tool's call (30:1) carries it.
      "30:1 OMCG0007 Parameter 'args' of tool 'remote'",
      "32:43 OMCG0007 Resource 'forecast://{city}', parameter 'city'",
      "33:29 OMCG0007 Prompt 'greet', parameter 'name'",
      "38:28 OMCG0007 Tool 'read'",
      "47:15 OMCG0007 Resource 'reading', parameter 'id'",
      "53:11 OMCG0007 Prompt 'ask', parameter 'topic'",
      "60:28 OMCG0007 Prompt 'brief'",
    ]);
  });

  it("in a file with CR LF line ends", () => {
    expect(positions(b, "crlf.ts")).toEqual(["8:4 OMCG0007 Tool 'one'"]);
  });
});
