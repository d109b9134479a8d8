/**
 * Issue 9 part B build rules, on every backend the corpus runs ({@link TIER_BACKENDS}: TypeScript
 * 7.0 IPC and the classic backend over TypeScript 6, and in the full tier also 7.1 IPC and the
 * classic backend over TypeScript 5.9): docs/mapping.md §4 typo tags (OMCG0007) and unresolved
 * types (OMCG0005 with the checker's message), and §1 compile-time constant options.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { Extractor } from "../../packages/extract/src/index.js";
import { classifyTag } from "../../packages/extract/src/jsdoc-tags.js";
import { ROOT, TIER_BACKENDS } from "../backends/helpers.js";
import { runFixture } from "./helpers.js";

describe.each(TIER_BACKENDS)("backend %s", (_label, typescript) => {
  let ex: Extractor;
  beforeAll(() => {
    ex = createExtractor({ cwd: ROOT, typescript });
  });
  afterAll(() => ex?.close());

  const run = (rel: string) => runFixture(ex, rel);

  it("§4 typo tags: OMCG0007 naming the tag each resembles, wherever JSDoc is read", () => {
    const { diags, messages, at, model } = run("diag/tags.ts");
    expect(model.tools.map((t) => t.name)).toEqual(["fine"]);
    expect(diags).toEqual([
      { ...at("q: Int"), code: "OMCG0007" },
      { ...at("s: string", "cased"), code: "OMCG0007" },
      ...[1, 2, 3, 4].map(() => ({ ...at("item: Item"), code: "OMCG0007" })),
      { ...at("p: Policy"), code: "OMCG0007" },
      { ...at("misplaced"), code: "OMCG0007" },
      { ...at("inParam"), code: "OMCG0007" },
      { ...at("n: Int", "exclusive"), code: "OMCG0007" },
      { ...at('server.tool("quick_typo"'), code: "OMCG0007" },
      { ...at("s: string) => s"), code: "OMCG0007" },
    ]);
    expect(messages).toEqual([
      "Parameter 'q' of tool 'inline': 'q': unknown tag @minimun; write @minimum.",
      "Parameter 's' of tool 'cased': 's': unknown tag @Pattern; write @pattern.",
      "Parameter 'item' of tool 'property': 'item.name': unknown tag @maxLenght; write @maxLength.",
      "Parameter 'item' of tool 'property': 'item.tags': unknown validation tag @minItems; use @minLength (it writes minItems on arrays and sets) (the tags are @minimum, @maximum, @minLength, @maxLength (also for arrays), @pattern, @format).",
      "Parameter 'item' of tool 'property': 'item.id': unknown tag @jsonname; write @jsonName.",
      "Parameter 'item' of tool 'property': 'item.even': unknown validation tag @multipleOf; typed-mcp does not write multipleOf; check it in the function (the tags are @minimum, @maximum, @minLength, @maxLength (also for arrays), @pattern, @format).",
      "Parameter 'p' of tool 'policy': 'p': unknown tag @namig; write @naming.",
      "Tool 'misplaced': the doc comment: @minimum applies to no parameter here; put it in the parameter's inline comment, e.g. `(/** @minimum 1 */ name: T)`, or on a property.",
      "Tool 'in_param': the doc comment: unknown tag @minimun; write @minimum.",
      "Parameter 'n' of tool 'exclusive': 'n': unknown validation tag @exclusiveMinimum; typed-mcp does not write exclusiveMinimum; use @minimum with the smallest allowed value (the tags are @minimum, @maximum, @minLength, @maxLength (also for arrays), @pattern, @format).",
      "Tool 'quick_typo': the doc comment: unknown tag @minimun; write @minimum.",
      "Parameter 's' of tool 'quick_typo': 's': unknown tag @maxLenght; write @maxLength.",
    ]);
  });

  it("§4 unresolved types: OMCG0005 (OMCG0009 for a result) with the checker's own message and the fix, never 'any'", () => {
    const { diags, messages, at } = run("diag/unresolved.ts");
    expect(diags).toEqual([
      { ...at("when: Dtae)"), code: "OMCG0005" },
      { ...at("m: Meeting"), code: "OMCG0005" },
      { ...at("items: Itme[]"), code: "OMCG0005" },
      { ...at("when: Dtae | null"), code: "OMCG0005" },
      { ...at("when: When"), code: "OMCG0005" },
      { ...at("Dtae {"), code: "OMCG0009" },
      { ...at("id: Dtae"), code: "OMCG0005" },
    ]);
    const fix =
      'Correct the name or import the type; for a global (Buffer, URL, …) add its declarations to the tsconfig ("types": ["node"], or "lib": [..., "DOM"]).';
    const msg = (subject: string, path: string, name: string, verb = "read") =>
      `${subject}: '${path}' has type '${name}', which typed-mcp cannot ${verb}: TypeScript cannot resolve the type (Cannot find name '${name}'). ${fix}`;
    expect(messages).toEqual([
      msg("Parameter 'when' of tool 'schedule'", "when", "Dtae"),
      msg("Parameter 'm' of tool 'nested'", "m.at", "Dtae"),
      msg("Parameter 'items' of tool 'listed'", "items[]", "Itme"),
      msg("Parameter 'when' of tool 'nullable'", "when", "Dtae"),
      msg("Parameter 'when' of tool 'aliased'", "when", "Dtae"),
      msg("The return type of tool 'result'", "return", "Dtae", "write"),
      msg("Resource 'note', parameter 'id'", "id", "Dtae"),
    ]);
  });

  it("§1 option values are compile-time constants: folded through consts, imports, re-exports and enums; OMCG0001 otherwise", () => {
    const { diags, messages, at, model } = run("diag/consts.ts");
    expect(model.tools.map((t) => t.name)).toEqual(["notes_add", "search_notes", "ui", "defaults", "notes.quick"]);
    // §9 MCP Apps values fold too: a const template URI and an `as const` array.
    expect(model.tools[2]!.ui).toEqual({ resourceUri: "ui://notes/view", visibility: ["app"] });
    const search = model.tools[1]!;
    expect(search.description).toBe("Adds a note to notes. Fast.");
    expect(search.annotations).toEqual({ title: "Search notes", readOnlyHint: true });
    // §3 defaults fold the same way; a call stays "optional, no default".
    const defaults = model.tools[3]!.params.map((p) => (p.role === "value" ? [p.name, p.required, p.default] : p.role));
    expect(defaults).toEqual([
      ["label", false, "notes!"],
      ["tag", false, "notes_add-v2"],
      ["n", false, -3],
      ["mode", false, undefined],
      ["search", false, "search_notes"],
    ]);
    expect(diags).toEqual([
      { ...at("makeName()) called"), code: "OMCG0001" },
      { ...at("mutable })"), code: "OMCG0001" },
      { ...at("config.name })"), code: "OMCG0001" },
      { ...at("SELF) self"), code: "OMCG0001" },
      { ...at("USER] })"), code: "OMCG0010" },
      { ...at("mutable, (a"), code: "OMCG0001" },
    ]);
    expect(messages).toEqual([
      "@tool: the argument must be a string constant (the tool name) or an object literal of options, so that it can be read at build time; `makeName()` is a function call, not a compile-time constant.",
      "@tool: option 'name' must be a compile-time constant (spec §1): `mutable` is a `let` or `var`, not a `const`.",
      "@tool: option 'description' must be a compile-time constant (spec §1): `config.name` is a property of an object, not a compile-time constant.",
      "@tool: the argument must be a string constant (the tool name) or an object literal of options, so that it can be read at build time; `SELF` refers to itself.",
      '@tool: uiVisibility entries must be the literals "model" or "app".',
      "server.tool: the tool name must be a string constant (spec §1), so that it is known at build time; `mutable` is a `let` or `var`, not a `const`.",
    ]);
  });

  it("§1 folding is bounded: 20 references deep, no cycles; a long `+` chain and a const used twice fold", () => {
    const { diags, messages, at, model } = run("diag/consts-bounds.ts");
    expect(model.tools.map((t) => [t.name, t.description])).toEqual([
      ["chain", undefined], // C15 → … → C0: 15 references
      ["twice", "aa"],
      ["long", "x".repeat(300)],
    ]);
    expect(diags).toEqual([
      { ...at("C24) deep"), code: "OMCG0001" },
      { ...at("CYCLE_A) cycle"), code: "OMCG0001" },
    ]);
    expect(messages).toEqual([
      "@tool: the argument must be a string constant (the tool name) or an object literal of options, so that it can be read at build time; the chain of constants through `C4` is more than 20 deep.",
      "@tool: the argument must be a string constant (the tool name) or an object literal of options, so that it can be read at build time; `CYCLE_A` refers to itself.",
    ]);
  });

  it("§1 resource and prompt options fold too; OMCG0011 / OMCG0012 name the expression", () => {
    const { diags, messages, at, model } = run("diag/consts-resources.ts");
    expect(model.resources?.map((r) => [r.uri ?? r.uriTemplate, r.title, r.mimeType])).toEqual([
      ["notes://{id}", "Note notes", "text/plain"],
      ["notes://fixed", undefined, undefined],
    ]);
    expect(model.prompts?.map((p) => p.name)).toEqual(["notes_ask"]);
    expect(diags).toEqual([
      { ...at("read() }"), code: "OMCG0011" },
      { ...at("mutable }", "@prompt"), code: "OMCG0012" },
    ]);
    expect(messages).toEqual([
      "@resource: option 'uri' must be a compile-time constant (spec §1): `read()` is a function call, not a compile-time constant.",
      "@prompt: option 'name' must be a compile-time constant (spec §1): `mutable` is a `let` or `var`, not a `const`.",
    ]);
  });

  it("§4 unresolved globals: URL with lib ES2022, Buffer without types node", () => {
    const { diags, messages, at } = run("nolib/globals.ts");
    expect(diags).toEqual([
      { ...at("page: URL"), code: "OMCG0005" },
      { ...at("data: Buffer"), code: "OMCG0005" },
    ]);
    expect(messages[0]).toContain("TypeScript cannot resolve the type (Cannot find name 'URL').");
    expect(messages[1]).toContain(
      "TypeScript cannot resolve the type (Cannot find name 'Buffer'. Do you need to install type definitions for node?",
    );
    for (const m of messages) expect(m).not.toMatch(/'any'/);
  });
});

describe("§4 tag names (classifyTag)", () => {
  it("typos within two edits name the tag they resemble", () => {
    expect(classifyTag("minimun")).toEqual({ kind: "mistake", message: "unknown tag @minimun; write @minimum." });
    expect(classifyTag("maxLenght")).toEqual({ kind: "mistake", message: "unknown tag @maxLenght; write @maxLength." });
    expect(classifyTag("minlength")).toEqual({ kind: "mistake", message: "unknown tag @minlength; write @minLength." });
    expect(classifyTag("Pattern")).toEqual({ kind: "mistake", message: "unknown tag @Pattern; write @pattern." });
    expect(classifyTag("fromat")).toEqual({ kind: "mistake", message: "unknown tag @fromat; write @format." });
    expect(classifyTag("ignroe")).toEqual({ kind: "mistake", message: "unknown tag @ignroe; write @ignore." });
    expect(classifyTag("namig")).toEqual({ kind: "mistake", message: "unknown tag @namig; write @naming." });
  });

  it("exact tags are read; standard JSDoc and TSDoc tags stay ordinary JSDoc", () => {
    expect(classifyTag("maxLength")).toEqual({ kind: "validation", tag: "maxLength" });
    expect(classifyTag("jsonName")).toEqual({ kind: "structural" });
    const standard =
      "abstract access alias async augments author borrows callback class classdesc constant constructs copyright default deprecated description enum event example exports external file fires function generator global hideconstructor implements inheritdoc inner instance interface kind lends license listens member memberof mixes mixin module name namespace override package param property protected public readonly requires returns return see since static summary this throws todo tutorial type typedef variation version yields alpha beta decorator defaultValue eventProperty experimental internal label link packageDocumentation privateRemarks remarks sealed typeParam virtual arg argument prop template satisfies import overload";
    for (const t of standard.split(" ")) expect(classifyTag(t), t).toEqual({ kind: "other" });
  });
});
