/**
 * docs/runtime.md "Revision shaping": revisions.ts is the one module of the runtime that compares
 * revision strings; every other module asks one of its named gates. This test reads the runtime's
 * sources and fails on a revision literal (`"YYYY-MM-DD"`) in code outside revisions.ts
 * (comments may name revisions), and on a comparison of a revision-named value (`protocolVersion`,
 * `revision`, `version`: `===`, `!==`, `<`, `>=`, …, `.includes(version)`) with anything but
 * `undefined` / `null`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import {
  isServedRevision,
  hasTasks,
  precedesBatches,
  takesBatches,
} from "../../packages/typed-mcp/dist/protocol/revisions.js";

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

/** A revision-named operand: `protocolVersion`, `revision`, `version`, possibly as a property (`view.protocolVersion`). */
const REVISION_NAME = String.raw`(?:[\w$]+\.)*(?:protocolVersion|revision|version)\b`;
/** Comparison operators (relational and equality). */
const COMPARE = String.raw`(?:[<>]=?|[!=]==?)`;
const COMPARISONS = [
  // `version === x`, `revision >= X` (but not `=== undefined` / `=== null`, a presence check).
  new RegExp(String.raw`\b${REVISION_NAME}\s*${COMPARE}\s*(?!undefined\b|null\b)[\w$"'\`]`, "g"),
  // `x === version`, `X < revision`.
  new RegExp(
    String.raw`(?<!\btypeof\s+\S*)(?<!\bundefined|\bnull)[\w$"'\`)\]]\s*${COMPARE}\s*${REVISION_NAME}(?!\s*\()`,
    "g",
  ),
  // `revisions.includes(version)`, `set.has(protocolVersion)`.
  new RegExp(String.raw`\.(?:includes|has|indexOf)\(\s*${REVISION_NAME}\s*\)`, "g"),
];

/** `code` without `typeof x.version === "string"` type checks (they compare a type name, not a revision). */
function withoutTypeChecks(text: string): string {
  return text.replace(/typeof\s+[\w$.]+\s*[!=]==?\s*["'][a-z]+["']/g, "");
}

it("no runtime module but revisions.ts compares revision strings", () => {
  const offenders = sources(src)
    .filter((f) => !f.endsWith("revisions.ts"))
    .flatMap((f) => {
      const text = withoutTypeChecks(code(readFileSync(f, "utf8")));
      return COMPARISONS.flatMap((re) => text.match(re) ?? []).map((m) => `${relative(src, f)}: ${m}`);
    });
  expect(offenders).toEqual([]);
});

it("the comparison check finds the forms it names", () => {
  const found = (line: string) => COMPARISONS.some((re) => (line.match(re) ?? []).length > 0);
  expect(
    [
      'if (view.protocolVersion >= "2025-06-18") x();',
      "if (revision === STATELESS_FROM) x();",
      "if (FROM <= version) x();",
      "if (REVISIONS.includes(version)) x();",
    ].map(found),
  ).toEqual([true, true, true, true]);
  expect(
    [
      "if (protocolVersion === undefined) x();",
      'if (typeof i.version === "string") x();',
      "if (hasTasks(view.protocolVersion)) x();",
    ].map((l) => found(withoutTypeChecks(l))),
  ).toEqual([false, false, false]);
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
  // The SDK 2.4.0's SUPPORTED_PROTOCOL_VERSIONS; anything else (e.g. a future or made-up date) is not served.
  expect(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"].every(isServedRevision)).toBe(true);
  expect(["2024-10-07", "2026-01-01", ""].map(isServedRevision)).toEqual([false, false, false]);
});
