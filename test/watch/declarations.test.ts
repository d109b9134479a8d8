/**
 * Invalidation per declaration (issue 12; docs/bundlers.md "Invalidation per declaration"): after
 * an edit of a consulted file, a module whose text and depended-on declarations are unchanged
 * reuses its model (a `reuse` event, no extraction, no sidecar round trip); a module that
 * depends on an edited declaration — directly, through `extends`, a type alias, an enum member
 * or a const in a computed description — is extracted again and lists the new schema. Real
 * extractor (TypeScript 7 sidecar) through the transform's Driver; edits are real file writes
 * reported as the bundlers' watchers report them.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toolListing } from "../../packages/codegen/src/index.js";
import { Driver, spliceModule, type DriverEvent } from "../../packages/transform/src/index.js";
import { copyFixture, removeCopy } from "./helpers.ts";

let root: string;
let driver: Driver;
const events: DriverEvent[] = [];
const TYPES = `/** The base. */
export interface Base {
  id: string;
}

export interface Person extends Base {
  level: Level;
  color: Color;
  size: Size;
}

export const SIZES = ["s", "m"] as const;
export type Size = (typeof SIZES)[number];

export type Level = "low" | "high";

export enum Color {
  Red = "red",
  Green = "green",
}

export const NOTE = "A note.";

export interface Other {
  x: number;
}
`;
const A = `import { tool } from "typed-mcp";
import type { Person } from "./types.js";
import { NOTE } from "./types.js";

export class People {
  /** Greets someone. */
  @tool({ description: NOTE })
  greet(who: Person): string {
    return who.id;
  }
}
`;
const B = `import { tool } from "typed-mcp";
import type { Other } from "./types.js";

export class Others {
  /** Reads another. */
  @tool()
  other(o: Other): string {
    return String(o.x);
  }
}
`;

const path = (f: string) => join(root, "src", f).replaceAll("\\", "/");
beforeAll(async () => {
  root = await copyFixture("declarations");
  writeFileSync(path("types.ts"), TYPES);
  writeFileSync(path("a.ts"), A);
  writeFileSync(path("b.ts"), B);
  driver = new Driver({ cache: false, cwd: root, onEvent: (e) => events.push(e) });
});
afterAll(async () => {
  driver?.close();
  await removeCopy(root);
});

/** `value`, frozen all the way down (ES modules are strict: writing a frozen property throws). */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v && typeof v === "object" && !Object.isFrozen(v)) {
      Object.freeze(v);
      stack.push(...Object.values(v));
    }
  }
  return value;
}

/** Rewrites types.ts with `from` replaced by `to` and reports the change as a watcher does. */
function editTypes(from: string, to: string): void {
  const file = path("types.ts");
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`types.ts lacks ${from}`);
  writeFileSync(file, text.replace(from, to));
  driver.changed(file, false);
}

/** Rebuilds both modules (as a watcher re-transforms both: both consult types.ts); the extracted modules and the listings. */
function rebuild() {
  const since = events.length;
  const listings: Record<string, unknown> = {};
  for (const f of ["a.ts", "b.ts"]) {
    const code = readFileSync(path(f), "utf8");
    // Frozen: a reused model is shared, so nothing downstream may change it (a write would throw here).
    const model = deepFreeze(driver.model(path(f), code));
    expect(model.diagnostics).toEqual([]);
    expect(spliceModule(code, path(f), model.tools, model, driver.memory)?.code).toContain(
      `"name":"${model.tools[0]!.name}"`,
    );
    listings[f] = toolListing(model.tools[0]!);
  }
  const extracted = events.slice(since).flatMap((e) => (e.type === "extract" ? [e.file.split("/").pop()] : []));
  const reused = events.slice(since).flatMap((e) => (e.type === "reuse" ? [e.file.split("/").pop()] : []));
  return { extracted, reused, a: listings["a.ts"] as any, b: listings["b.ts"] as any };
}

it("extracts both modules first; a rebuild without edits reuses both", () => {
  const first = rebuild();
  expect(first.extracted).toEqual(["a.ts", "b.ts"]);
  // Spec §4: interface properties (base first), a string-literal union and a string enum.
  expect(first.a.inputSchema.properties.who.properties).toEqual({
    id: { type: "string" },
    level: { type: "string", enum: ["low", "high"] },
    color: { type: "string", enum: ["red", "green"] },
    // Spec §4 "Order of enum values": the elements of a `const` array indexed by `number` (`(typeof SIZES)[number]`), in source order.
    size: { type: "string", enum: ["s", "m"] },
  });
  expect(first.a.description).toBe("A note.");
  expect(rebuild()).toMatchObject({ extracted: [], reused: ["a.ts", "b.ts"] });
});

it("an edit of a declaration only b.ts uses re-extracts b.ts only, with the new schema", () => {
  editTypes("  x: number;", "  x: string;");
  const r = rebuild();
  expect(r.extracted).toEqual(["b.ts"]);
  expect(r.reused).toEqual(["a.ts"]);
  expect(r.b.inputSchema.properties.o.properties.x).toEqual({ type: "string" });
});

it("an unrelated declaration added to the same file re-extracts neither module", () => {
  editTypes("export interface Other {", "export interface Unused {\n  z: boolean;\n}\n\nexport interface Other {");
  // `Other` moved down three lines: b.ts (its declaredAt) is extracted again; a.ts's declarations are above the edit.
  expect(rebuild()).toMatchObject({ extracted: ["b.ts"], reused: ["a.ts"] });
  editTypes("  z: boolean;", "  z: number;");
  expect(rebuild()).toMatchObject({ extracted: [], reused: ["a.ts", "b.ts"] });
});

it("an edit of a base interface (used only through `extends`) re-extracts the module that uses the derived one", () => {
  editTypes("  id: string;", "  id: number;");
  const r = rebuild();
  expect(r.extracted).toEqual(["a.ts"]);
  expect(r.a.inputSchema.properties.who.properties.id).toEqual({ type: "number" });
});

it("an edit of a type alias or an enum member used by a property re-extracts, with the new values", () => {
  editTypes(`"low" | "high"`, `"low" | "mid" | "high"`);
  let r = rebuild();
  expect(r.extracted).toEqual(["a.ts"]);
  expect(r.a.inputSchema.properties.who.properties.level).toEqual({ type: "string", enum: ["low", "mid", "high"] });
  editTypes(`Green = "green"`, `Green = "verde"`);
  r = rebuild();
  expect(r.extracted).toEqual(["a.ts"]);
  expect(r.a.inputSchema.properties.who.properties.color).toEqual({ type: "string", enum: ["red", "verde"] });
});

it("an edit of a const that a type alias reads (`typeof SIZES`) re-extracts: the dependency closure follows references", () => {
  editTypes(`["s", "m"]`, `["s", "m", "l"]`);
  const r = rebuild();
  expect(r.extracted).toEqual(["a.ts"]);
  expect(r.a.inputSchema.properties.who.properties.size).toEqual({ type: "string", enum: ["s", "m", "l"] });
});

it("an edit of a const folded into a tool's description re-extracts, with the new description", () => {
  editTypes(`"A note."`, `"Another note."`);
  const r = rebuild();
  expect(r.extracted).toEqual(["a.ts"]);
  expect(r.a.description).toBe("Another note.");
});

it("an edit of a declaration's JSDoc is an edit of that declaration", () => {
  editTypes("/** The base. */", "/** The base of a person. */");
  expect(rebuild()).toMatchObject({ extracted: ["a.ts"], reused: ["b.ts"] });
});

it("a change of a file no model consulted ends every reuse (it may change how imports resolve)", () => {
  writeFileSync(path("unseen.ts"), "export const unseen = 1;\n");
  driver.changed(path("unseen.ts"), false);
  expect(rebuild()).toMatchObject({ extracted: ["a.ts", "b.ts"], reused: [] });
});

it("the on-disk cache applies the same rule: a new build after an edit elsewhere in a consulted file answers from the cache", () => {
  const cold = () => {
    const seen: DriverEvent[] = [];
    const d = new Driver({
      cache: { dir: ".cache/declarations" },
      cwd: root,
      root: () => root,
      onEvent: (e) => seen.push(e),
    });
    const model = d.model(path("b.ts"), readFileSync(path("b.ts"), "utf8"));
    d.close();
    return {
      types: seen.map((e) => e.type),
      x: (toolListing(model.tools[0]!).inputSchema.properties as Record<string, unknown>).o,
    };
  };
  expect(cold().types).toEqual(["cache-miss", "extract", "sidecar-start", "sidecar-close"]);
  // A declaration b.ts does not depend on, below `Other`: the entry still holds, no sidecar starts.
  const text = readFileSync(path("types.ts"), "utf8");
  writeFileSync(path("types.ts"), `${text}\nexport interface Later {\n  y: string;\n}\n`);
  expect(cold().types).toEqual(["cache-hit"]);
  // `Other` itself: a miss, and the new schema (spec §4: boolean → {"type":"boolean"}).
  writeFileSync(path("types.ts"), readFileSync(path("types.ts"), "utf8").replace("  x: string;", "  x: boolean;"));
  const after = cold();
  expect(after.types).toEqual(["cache-miss", "extract", "sidecar-start", "sidecar-close"]);
  expect((after.x as any).properties.x).toEqual({ type: "boolean" });
});
