/**
 * Shared units across modules (issue 12; docs/architecture.md "Shared types"): every bundler
 * builds a fixture whose two tool modules use one interface (`Line`, by three tools, as a
 * parameter, in an array and inside an object result). The bundle holds the interface's reader
 * and schema once — one virtual module per unit, deduplicated by its id — and what the tools
 * list, read and write is what the contract says (spec §1–§6), run in Node from the bundle. The
 * loader entry (`+loader`: a loader cannot serve virtual modules) declares the units at the top
 * of each module that uses them, as the Babel plugin does: once per tool module, here two.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tierBundlers } from "./build.ts";
import { FULL } from "../helpers/tier.ts";
import { cachedBuild } from "./cache.ts";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "fixtures/shared");
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-shared-"));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Line's schema (spec §2, §4: `Int & Minimum<1>` is an integer with minimum 1; the doc comment is the description). */
const line = {
  type: "object",
  properties: { sku: { type: "string", description: "The stock-keeping unit." }, qty: { type: "integer", minimum: 1 } },
  required: ["sku", "qty"],
};
const input = (properties: object, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

for (const name of tierBundlers(FULL)) {
  describe(name, () => {
    let bundle: string;
    beforeAll(async () => {
      ({ file: bundle } = await cachedBuild(name, {
        root: fixture,
        entry: join(fixture, "src/entry.ts"),
        outDir: await mkdtemp(join(work, `${name}-`)),
      }));
    }, 120_000);

    const copies = name.endsWith("+loader") ? 2 : 1;
    it(`holds Line's reader and schema ${copies === 1 ? "once" : "once per tool module"}, used by the tools of both modules`, () => {
      const text = readFileSync(bundle, "utf8");
      // The sentence as generated code writes it (a string literal), once: in Line's reader.
      expect(text.split('Expected an integer of at least 1."').length - 1).toBe(copies);
      expect(text.split("The stock-keeping unit.").length - 1).toBe(copies);
    });

    it("lists, reads and writes as the contract says", () => {
      const out = JSON.parse(execFileSync(process.execPath, [bundle], { encoding: "utf8" }).trim().split("\n").pop()!);
      expect(out.listings).toEqual([
        {
          name: "place",
          description: "Places an order.",
          inputSchema: input({ lines: { type: "array", items: line } }, ["lines"]),
        },
        { name: "check", description: "Checks one line.", inputSchema: input({ line }, ["line"]) },
        {
          name: "give_back",
          description: "Returns one line.",
          inputSchema: input({ line, reason: { type: "string" } }, ["line"]),
          outputSchema: { type: "object", properties: { line, reason: { type: "string" } }, required: ["line"] },
        },
      ]);
      // Spec §5: the first failure, at its whole path; unknown nested properties are dropped.
      expect(out.reads).toEqual([
        "Argument 'lines[1].qty' is not valid. Expected an integer of at least 1.",
        "Argument 'line.sku' is not valid. It is required.",
        [{ sku: "x", qty: 2 }, "r"],
        "Argument 'line' is not valid. Expected an object, got null.",
      ]);
      // Spec §6: structured result, the text is its JSON.
      expect(out.write).toEqual({
        content: [{ type: "text", text: '{"line":{"sku":"x","qty":2},"reason":"r"}' }],
        structuredContent: { line: { sku: "x", qty: 2 }, reason: "r" },
      });
    });
  });
}
