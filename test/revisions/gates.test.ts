/**
 * docs/runtime.md "Revision shaping": revisions.ts is the one module of the runtime that compares
 * revision strings; every other module asks one of its named gates. This test reads the runtime's
 * sources and fails on a revision literal (`"YYYY-MM-DD"`) in code outside revisions.ts
 * (comments may name revisions).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { hasTasks, precedesBatches, takesBatches } from "../../packages/typed-mcp/dist/revisions.js";

const src = fileURLToPath(new URL("../../packages/typed-mcp/src", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The text of a TypeScript file without its comments (line and block; strings are kept). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

it("no runtime module but revisions.ts holds a revision literal in code", () => {
  const offenders = sources(src)
    .filter((f) => !f.endsWith("revisions.ts"))
    .flatMap((f) =>
      (code(readFileSync(f, "utf8")).match(/["'`]20\d\d-\d\d-\d\d["'`]/g) ?? []).map(
        (m) => `${relative(src, f)}: ${m}`,
      ),
    );
  expect(offenders).toEqual([]);
});

it("the batch and task gates follow the MCP revisions", () => {
  // MCP 2025-03-26 added JSON-RPC batches; 2025-06-18 removed them.
  expect(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"].map(takesBatches)).toEqual([
    false,
    true,
    false,
    false,
    false,
  ]);
  expect(precedesBatches("2024-11-05")).toBe(true);
  expect(precedesBatches("2025-06-18")).toBe(false);
  // Tasks arrived in 2025-11-25.
  expect(["2025-06-18", "2025-11-25", "2026-07-28"].map(hasTasks)).toEqual([false, true, true]);
});
