/**
 * Round trips (spec §5 + §6): value → generated writer → JSON text → generated reader → the
 * same value, for every type kind. Also: the generated code runs where code generation from
 * strings is disallowed (as on Cloudflare Workers), and generation is deterministic.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { generateTool, toolListing } from "../../packages/codegen/dist/index.js";
import { CLASSES, T, fakeCtx, load, param, prop, roundTripper, tool, type TypeModel } from "./helpers.ts";

const ctx = fakeCtx();

/** Writes `value` through a `json` (or, for object shapes, `structured`) result, then reads the JSON back as parameter `v`. */
async function roundTrip(t: TypeModel, value: unknown): Promise<unknown> {
  const { read, wire, structured } = (await roundTripper(t))(value);
  if (structured !== undefined) expect(structured).toEqual(wire);
  expect(Array.isArray(read), `read failed at ${String(read)}`).toBe(true);
  return (read as unknown[])[0];
}

const line = T.object([
  prop("sku", T.string({ pattern: "^[a-z]+$" })),
  prop("qty", T.int({ minimum: 1 })),
  prop("at", T.date(), false),
]);
const bytes = new Uint8Array(256).map((_, i) => i);
// type Shape = { kind: "circle"; r: number } | { kind: "square"; /** @jsonName side */ sideLength: Int; at?: Date }
const shape = T.tagged(
  "kind",
  T.object([prop("kind", T.strEnum("circle")), prop("r", T.number())]),
  T.object([
    prop("kind", T.strEnum("square")),
    prop("side", T.int(), true, { key: "sideLength" }),
    prop("at", T.date(), false),
  ]),
);
const outcome = T.tagged(
  "ok",
  T.object([prop("ok", T.boolLit(true)), prop("value", T.date())]),
  T.object([prop("ok", T.boolLit(false)), prop("error", T.string())]),
);
const codes = T.tagged(
  "code",
  T.object([prop("code", T.numUnion("integer", 1, 2)), prop("n", T.bigint())]),
  T.object([prop("code", T.numUnion("integer", 3))]),
);

const cases: [string, TypeModel, unknown][] = [
  ["string", T.string({ maxLength: 8 }), "héllo 😀"],
  ["number", T.number(), -1.25],
  ["Int", T.int(), 7],
  ["bigint", T.bigint(), 9007199254740991n],
  ["boolean", T.boolean(), true],
  ['"a" | "b"', T.strEnum("a", "b"), "b"],
  [
    "enum Level { Low = 1, High = 10 }",
    T.numEnum([
      ["Low", 1],
      ["High", 10],
    ]),
    10,
  ],
  ["1 | 2 | 3", T.numUnion("integer", 1, 2, 3), 2],
  ["Date", T.date(), new Date(Date.UTC(2024, 1, 29, 1, 2, 3, 456))],
  ["Uint8Array", T.bytes(), bytes],
  ["Uint8Array (1 byte)", T.bytes(), new Uint8Array([7])],
  [
    "Line[]",
    T.array(line),
    [
      { sku: "ab", qty: 2 },
      { sku: "c", qty: 1, at: new Date(0) },
    ],
  ],
  ["Set<Int>", T.set(T.int()), new Set([3, 1, 2])],
  ["Set<Date>", T.set(T.date()), new Set([new Date(0), new Date(86400000)])],
  ["Record<string, Date>", T.record(T.date()), { a: new Date(0), "b c": new Date(1) }],
  [
    "Map<string, bigint>",
    T.map(T.bigint()),
    new Map([
      ["x", 1n],
      ["y", -2n],
    ]),
  ],
  ["Line", line, { sku: "ab", qty: 3 }],
  [
    "{ id: string; lv?: Level | null; tags: Set<string>; m: Map<string, Uint8Array>; when: Date | null }",
    T.object([
      prop("id", T.string()),
      prop("lv", T.nullable(T.numEnum([["Low", 1]])), false),
      prop("tags", T.set(T.string())),
      prop("m", T.map(T.bytes())),
      prop("when", T.nullable(T.date())),
    ]),
    { id: "x", lv: 1, tags: new Set(["a"]), m: new Map([["k", new Uint8Array([1, 2])]]), when: null },
  ],
  [
    "{ name: string; [k: string]: Int }",
    T.object([prop("name", T.string())], { additionalProperties: T.int() }),
    { name: "n", a: 1, b: 2 },
  ],
  [
    "{ /** @jsonName first_name */ firstName: string }",
    T.object([prop("first_name", T.string(), true, { key: "firstName" })]),
    { firstName: "Ada" },
  ],
  ["string | null (null)", T.nullable(T.string()), null],
  ["Date | null", T.nullable(T.date()), new Date(5)],
  ["Line[] | null", T.nullable(T.array(line)), [{ sku: "z", qty: 9 }]],
  // §4a unions and tuples: every member kind the reader dispatches on, and the discriminated forms.
  ["string | number (string)", T.union(T.string(), T.number()), "7"],
  ["string | number (number)", T.union(T.string(), T.number()), 7],
  ["boolean | string", T.union(T.boolean(), T.string()), false],
  ["Date | Int (Date)", T.union(T.date(), T.int()), new Date(Date.UTC(2020, 0, 1))],
  ["Date | Int (Int)", T.union(T.date(), T.int()), 12],
  ["Uint8Array | Int[]", T.union(T.bytes(), T.array(T.int())), new Uint8Array([1, 2])],
  ["Uint8Array | Int[] (array)", T.union(T.bytes(), T.array(T.int())), [1, 2]],
  ["Set<string> | string", T.union(T.set(T.string()), T.string()), new Set(["a", "b"])],
  ["bigint | string", T.union(T.bigint(), T.string()), 5n],
  ['Tag[] | Tag ("a" | "b")', T.union(T.array(T.strEnum("a", "b")), T.strEnum("a", "b")), ["b", "a"]],
  ["Map<string, Date> | string", T.union(T.map(T.date()), T.string()), new Map([["k", new Date(3)]])],
  ["Line | string", T.union(line, T.string()), { sku: "q", qty: 4 }],
  ["string | number | null (null)", T.nullable(T.union(T.string(), T.number())), null],
  ["Date | Int | null (Date)", T.nullable(T.union(T.date(), T.int())), new Date(9)],
  ["[number, number]", T.tuple(T.number(), 2), [1.5, -2]],
  ["readonly [Date, Date, Date]", T.tuple(T.date(), 3), [new Date(0), new Date(1), new Date(2)]],
  ["[bigint, bigint] | null", T.nullable(T.tuple(T.bigint(), 2)), [1n, 2n]],
  ["Shape (circle)", shape, { kind: "circle", r: 2 }],
  ["Shape (square, renamed key)", shape, { kind: "square", sideLength: 3, at: new Date(5) }],
  [
    "Shape[]",
    T.array(shape),
    [
      { kind: "square", sideLength: 1 },
      { kind: "circle", r: 1 },
    ],
  ],
  ["Record<string, Shape>", T.record(shape), { a: { kind: "circle", r: 0 } }],
  ["Shape | null", T.nullable(shape), { kind: "circle", r: 9 }],
  ["{ inner: Shape }", T.object([prop("inner", shape)]), { inner: { kind: "square", sideLength: 2 } }],
  ["{ ok: true; value: Date } | { ok: false; error: string } (ok)", outcome, { ok: true, value: new Date(7) }],
  ["{ ok: true; value: Date } | { ok: false; error: string } (error)", outcome, { ok: false, error: "no" }],
  ["{ code: 1 | 2 } | { code: 3 }", codes, { code: 2, n: 1n }],
  ["Shape | Shape[] (one)", T.union(shape, T.array(shape)), { kind: "circle", r: 1 }],
  ["Shape | Shape[] (several)", T.union(shape, T.array(shape)), [{ kind: "square", sideLength: 4 }]],
];

describe("round trips", () => {
  for (const [ts, t, value] of cases) {
    it(ts, async () => {
      expect(await roundTrip(t, value)).toStrictEqual(value);
    });
  }

  it("URL", async () => {
    const u = (await roundTrip(T.url(), new URL("https://example.org/p?q=1#f"))) as URL;
    expect(u).toBeInstanceOf(URL);
    expect(u.href).toBe("https://example.org/p?q=1#f");
  });

  it("a class instance", async () => {
    // class Point { label = "origin"; constructor(public x: Int, public y: Int = 0) {} get norm(): number }
    const { Point } = (await import(/* @vite-ignore */ CLASSES)) as {
      Point: new (x: number, y?: number) => Record<string, unknown>;
    };
    const point = T.object(
      [
        prop("label", T.string(), false),
        prop("x", T.int()),
        prop("y", T.int(), false),
        prop("norm", T.number(), true, { readOnly: true }),
      ],
      {
        construct: { from: CLASSES, exportName: "Point", args: ["x", "y"] },
      },
    );
    const p = new Point(4, -1);
    p.label = "here";
    const back = (await roundTrip(point, p)) as Record<string, unknown>;
    expect(back).toBeInstanceOf(Point);
    expect(back).toStrictEqual(p);
    expect(back.norm).toBe(5);
  });
});

describe("generated code", () => {
  const big = tool(
    "big",
    [
      param("a", T.array(line, { minLength: 1 })),
      param("b", T.map(T.set(T.date()))),
      param("c", T.nullable(T.bytes()), false),
      param("d", T.url()),
      param("e", T.string({ format: "email", minLength: 3 })),
      param("f", T.numEnum([["A", 1]])),
      { role: "signal", name: "signal" },
    ],
    { kind: "structured", nullable: true, type: T.object([prop("when", T.date()), prop("data", T.bytes())]) },
  );

  it("is deterministic", () => {
    expect(generateTool(big).code).toBe(generateTool(big).code);
  });

  it("runs where code generation from strings is disallowed (as on Workers)", () => {
    const root = resolve(fileURLToPath(import.meta.url), "../../..");
    const dir = join(root, ".tmp", "codegen-tests");
    const mod = join(dir, `edge-${process.pid}.mjs`);
    const { code } = generateTool(big);
    const internal = pathToFileURL(join(root, "packages/typed-mcp/dist/internal.js")).href;
    writeFileSync(mod, `import * as __tmcp from ${JSON.stringify(internal)};\nexport default ${code};\n`);
    const script = join(dir, `edge-main-${process.pid}.mjs`);
    writeFileSync(
      script,
      `import t from ${JSON.stringify(pathToFileURL(mod).href)};
let evalBlocked = false; try { new Function("return 1"); } catch { evalBlocked = true; }
const ac = new AbortController();
const args = JSON.parse(JSON.stringify({ a: [{ sku: "ab", qty: 1 }], b: { k: ["2020-01-01T00:00:00Z"] }, c: "AQID", d: "https://x.org/", e: "a@b.io", f: "A" }));
const r = t.read(args, { signal: ac.signal });
const w = t.write({ when: new Date(0), data: new Uint8Array([1]) });
process.stdout.write(JSON.stringify({ evalBlocked, ok: Array.isArray(r), sig: r[6] === ac.signal, bad: t.read({ ...args, e: "nope" }, {}), w: w.structuredContent }));
`,
    );
    const out = execFileSync(process.execPath, ["--disallow-code-generation-from-strings", script], {
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({
      evalBlocked: true,
      ok: true,
      sig: true,
      bad: "Argument 'e' is not valid. Expected an email address.",
      w: { when: "1970-01-01T00:00:00.000Z", data: "AQ==" },
    });
  });

  it("escapes U+2028/U+2029 so \\n is the only line terminator, and the listing is unchanged", async () => {
    // /** Line\u2028separated\u2029text */ (/** @param p a\u2028b */ p: "x\u2028y")
    const m = tool(
      "t",
      [param("p", T.strEnum("x\u2028y"), true, { description: "a\u2028b" })],
      { kind: "void" },
      { description: "Line\u2028separated\u2029text" },
    );
    const { code } = generateTool(m);
    expect(code).not.toMatch(/[\u2028\u2029]/);
    const g = await load(m);
    expect(JSON.stringify(g.listing)).toBe(JSON.stringify(toolListing(m)));
    expect(g.read({ p: "x\u2028y" }, ctx)).toEqual(["x\u2028y"]);
  });

  it("contains no eval, new Function or Buffer", () => {
    const { code } = generateTool(big);
    expect(code).not.toMatch(/\beval\b|\bFunction\(|\bBuffer\b|\batob\b|\bbtoa\b/);
  });
});
