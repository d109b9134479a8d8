import { describe, expect, it } from "vitest";
import { at, cli } from "./helpers.js";

// One fixture per diagnostic code (spec §10); each tool in it breaks exactly one rule of that
// code's row (or of the extraction rules recorded in docs/extraction.md). Locations follow
// docs/extraction.md: a name problem at the decorator / the `server.tool` call, an option problem
// at its value, a parameter problem at the parameter's name, a result problem at the return type
// annotation, a member problem at the member's name, OMCG0002 at the second declaration.

type Case = [needle: string, message: RegExp];

/** Runs `check` on one fixture and compares `file:line:column - CODE` of every line, in order. */
function expectDiagnostics(rel: string, code: string, cases: Case[], extraArgs: string[] = []): void {
  const r = cli(["check", ...extraArgs, rel]);
  expect(r.code, r.stdout + r.stderr).toBe(1);
  const lines = r.stdout.split("\n").filter((l) => l !== "");
  const where = [...new Set(lines.map((l) => l.slice(0, l.indexOf(": ") + 1)))];
  expect(where).toEqual(cases.map(([needle]) => `${at(rel, needle)} - ${code}:`));
  for (const [needle, message] of cases) {
    const line = lines.find((l) => l.startsWith(`${at(rel, needle)} - ${code}: `));
    expect(line).toMatch(message);
  }
  expect(r.stderr).toMatch(/^typed-mcp check: \d+ errors? in 1 of 1 file\.\n$/);
}

describe("typed-mcp check (spec §10): exit 1, the code at file:line:column", () => {
  it("OMCG0000: strictNullChecks off", () => {
    expectDiagnostics("nostrict/tools.ts", "OMCG0000", [["@tool()", /strictNullChecks/]]);
  });

  it("OMCG0000: the file is not part of the --project", () => {
    expectDiagnostics(
      "diag/clean.ts",
      "OMCG0000",
      [["@tool()", /not part of the TypeScript project/]],
      ["--project", "list/tsconfig.json"],
    );
  });

  it("OMCG0001: empty, too long, bad character, non-literal name or option, unknown option", () => {
    expectDiagnostics("diag/d0001.ts", "OMCG0001", [
      ['@tool("")', /The tool name '' is not valid/],
      ['@tool("aaaa', /The tool name 'a{129}' is not valid/],
      [
        "dynamicName }",
        /option 'name' must be a compile-time constant \(spec §1\): `String\(Date\.now\(\)\)` is a function call, not a compile-time constant\./,
      ],
      ["colour", /unknown option 'colour'/],
      ['server.tool("bad name!"', /The tool name 'bad name!' is not valid/],
      [
        "dynamicName, (a",
        /the tool name must be a string constant \(spec §1\), so that it is known at build time; `String\(Date\.now\(\)\)` is a function call/,
      ],
    ]);
  });

  it("OMCG0002: same name twice in a class (explicit or derived) and in one file across declaration paths", () => {
    expectDiagnostics("diag/d0002.ts", "OMCG0002", [
      ["second", /'same'/],
      ["items(): void", /'get_items'/],
      ['server.tool("across"', /'across'/],
    ]);
  });

  it("OMCG0003: a second RequestContext, a second AbortSignal (both paths)", () => {
    expectDiagnostics("diag/d0003.ts", "OMCG0003", [
      ["again", /RequestContext/],
      ["second: AbortSignal", /AbortSignal/],
      ["c2: RequestContext", /RequestContext/],
    ]);
  });

  it("OMCG0004: rest parameter, array pattern, object pattern next to another parameter, quick-path fn not a function", () => {
    expectDiagnostics("diag/d0004.ts", "OMCG0004", [
      ["names", /rest parameter/],
      ["[first]", /array destructuring pattern/],
      ["{ a }: Args, b", /must be the only listed parameter/],
      ["handlers.run)", /server\.tool/],
    ]);
  });

  it("OMCG0005: every unsupported parameter type of §4, naming the path and the type", () => {
    expectDiagnostics("diag/d0005.ts", "OMCG0005", [
      ["v: any", /'v' has type 'any'/],
      ["v: unknown", /'v' has type 'unknown'/],
      ["v: object", /'v' has type 'object'/],
      ["v: {}", /'v' has type '\{\}'/],
      ["v: () => void", /'v' has type '\(\) => void'/],
      ["v: symbol", /'v' has type 'symbol'/],
      ["v: [string", /'v' has type '\[string, number\]'/],
      ["v: string | Date", /'v' has type 'string \| Date'.*are JSON strings/],
      ["v: CatA", /'v' has type 'CatA \| CatB'.*'kind' almost qualifies, but the literal "a" is in two members/],
      ["v: Tree", /'v\.children\[\]' has type 'Tree' \(declared at [^)]*d0005\.ts:8:/],
      ["filter: Filter", /'filter\.by' has type 'Map<number, string>'/],
      ["v: Record<number", /'v' has type 'Record<number, string>'/],
      ["pattern: RegExp", /'pattern' has type 'RegExp'/],
      ["v: Error", /'v' has type 'Error'/],
      ["v: Float32Array", /'v' has type 'Float32Array/],
      ["v: WeakMap", /'v' has type 'WeakMap<object, string>'/],
      ["v: Promise", /'v' has type 'Promise<string>'/],
      ["k: Keyed", /'k' has type 'Keyed'.*constructor parameter 'key'/],
      ["item: T", /'item' has type 'T'/],
    ]);
  });

  it("OMCG0006: @naming other than camelCase, two properties with one wire name, @ignore on a required property", () => {
    expectDiagnostics("diag/d0006.ts", "OMCG0006", [
      ["p: Policy", /@naming 'snake_case'/],
      ["c: Clash", /'b'/],
      ["i: Ignored", /@ignore/],
    ]);
  });

  it("OMCG0007: malformed, unknown tag, wrong type, two sources disagree, minimum > maximum, pattern without u", () => {
    expectDiagnostics("diag/d0007.ts", "OMCG0007", [
      ["l: Limits", /'l\.low': @minimum needs a number/],
      ["s: string", /@minlength/],
      ["list: string[]", /@format does not fit an array/],
      ["q: Int & Minimum<2>", /minimum/],
      ["q: Int & Minimum<10>", /minimum 10 is greater than maximum 1/],
      ["code: string", /does not compile with the u flag/],
    ]);
  });

  it("OMCG0001 (spec §1): option values that are not compile-time constants, naming the expression", () => {
    expectDiagnostics("diag/constants.ts", "OMCG0001", [
      [
        "settings.title",
        /option 'title' must be a compile-time constant \(spec §1\): `settings\.title` is a property of an object/,
      ],
      [
        "`Call",
        /option 'description' must be a compile-time constant \(spec §1\): `counter` is a `let` or `var`, not a `const`\./,
      ],
      [
        "String(counter)",
        /the tool name must be a string constant \(spec §1\), so that it is known at build time; `String\(counter\)` is a function call/,
      ],
    ]);
  });

  it("OMCG0005 (spec §4): a type TypeScript cannot resolve, with the checker's message", () => {
    expectDiagnostics("diag/unresolved.ts", "OMCG0005", [
      [
        "when: Dtae)",
        /'when' has type 'Dtae', which typed-mcp cannot read: TypeScript cannot resolve the type \(Cannot find name 'Dtae'\)\. Correct the name or import the type/,
      ],
      [
        "when: Dtae |",
        /'when' has type 'Dtae', which typed-mcp cannot read: TypeScript cannot resolve the type \(Cannot find name 'Dtae'\)/,
      ],
    ]);
  });

  it("OMCG0007 (spec §4): typo tags within two edits, unwritten keywords, validation tags in the function's own comment", () => {
    expectDiagnostics("diag/typos.ts", "OMCG0007", [
      ["q: Int", /'q': unknown tag @minimun; write @minimum\./],
      ["item: Item", /'item\.name': unknown tag @maxLenght; write @maxLength\./],
      ["tags: string[]", /'tags': unknown validation tag @minItems; use @minLength/],
      [
        "misplaced",
        /Tool 'misplaced': the doc comment: @maximum applies to no parameter here; put it in the parameter's inline comment/,
      ],
    ]);
  });

  it("OMCG0008: private, protected, #private, accessor, own type parameters", () => {
    expectDiagnostics("diag/d0008.ts", "OMCG0008", [
      ["hidden", /private/],
      ["guarded", /protected/],
      ["#secret", /#private/],
      ["value", /accessor/],
      ["generic", /type parameters/],
    ]);
  });

  it("OMCG0009: unsupported return types, at the return type annotation", () => {
    expectDiagnostics("diag/d0009.ts", "OMCG0009", [
      ["[number, string] {", /tuples/],
      ["() => void {", /'\(\) => void'/],
      ["Promise<RegExp>", /'RegExp'/],
      ["string | undefined", /'string \| undefined'/],
    ]);
  });

  it("OMCG0010: uiResource not ui://, a visibility other than model/app, visibility without a resource (both paths)", () => {
    expectDiagnostics("diag/d0010.ts", "OMCG0010", [
      ['"https://example.com/view"', /ui:\/\//],
      ['"user"', /"model" or "app"/],
      ['{ uiVisibility: ["app"] }', /needs a uiResource/],
      ['"view.html"', /ui:\/\//],
    ]);
  });

  it("OMCG0011: invalid URI template, variable without parameter and the reverse, type not read from a string, unsupported return type", () => {
    expectDiagnostics("diag/d0011.ts", "OMCG0011", [
      ['"files://{a b}"', /Resource 'bad_template': the URI template 'files:\/\/\{a b\}' is not valid/],
      ['"files://items/{id}"', /Resource 'missing_param': the template variable 'id' has no parameter/],
      ["name: string", /Resource 'extra_param': the parameter 'name' has no variable/],
      ["ids: string[]", /Resource 'list_param', parameter 'ids': the type 'string\[\]' is not read from a string/],
      ["number {", /Resource 'number_out': the return type 'number' is not supported/],
      ['"quick://{x}"', /the template variable 'x' has no parameter/],
      ["y: string", /the parameter 'y' is not a variable/],
    ]);
  });

  it("OMCG0012: prompt parameter type not read from a string, unsupported return type (both paths)", () => {
    expectDiagnostics("diag/d0012.ts", "OMCG0012", [
      [
        "options: {",
        /Prompt 'review', parameter 'options': the type '\{ strict: boolean; \}' is not read from a string/,
      ],
      ["number {", /Prompt 'summary': the return type 'number' is not supported/],
      ["when: RegExp", /Prompt 'quick', parameter 'when': the type 'RegExp' is not read from a string/],
    ]);
  });

  it("diagnostics of several files, in the order given, paths relative to the working directory", () => {
    const r = cli(["check", "diag/d0003.ts", "diag/clean.ts", "diag/d0002.ts"]);
    expect(r.code).toBe(1);
    const where = r.stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.slice(0, l.indexOf(" - ")));
    expect(where).toEqual([
      at("diag/d0003.ts", "again"),
      at("diag/d0003.ts", "second: AbortSignal"),
      at("diag/d0003.ts", "c2: RequestContext"),
      at("diag/d0002.ts", "second"),
      at("diag/d0002.ts", "items(): void"),
      at("diag/d0002.ts", 'server.tool("across"'),
    ]);
    expect(r.stderr).toBe("typed-mcp check: 6 errors in 2 of 3 files.\n");
  });

  it("paths are relative to the working directory the CLI runs in", () => {
    const r = cli(["check", "test/cli/fixtures/diag/d0002.ts"], new URL("../..", import.meta.url).pathname);
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")[0]).toMatch(/^test\/cli\/fixtures\/diag\/d0002\.ts:5:17 - OMCG0002: /);
  });

  it("a clean file: exit 0 and a one-line summary", () => {
    const r = cli(["check", "diag/clean.ts", "typed-mcp-free.ts"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("typed-mcp check: 2 files, 2 tools, 0 resources, 0 prompts, no problems.\n");
  });

  it("a clean file with resources and prompts: counted in the summary", () => {
    const r = cli(["check", "list/library.ts"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("typed-mcp check: 1 file, 0 tools, 4 resources, 2 prompts, no problems.\n");
  });

  it("--project with a strict tsconfig makes the non-strict fixture clean", () => {
    const r = cli(["check", "nostrict/tools.ts", "--project", "nostrict/strict.json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("typed-mcp check: 1 file, 1 tool, 0 resources, 0 prompts, no problems.\n");
  });

  // Regression: when oxc cannot recover it returns an empty program and no site is found; the
  // parse errors must still be reported (docs/extraction.md). `return b +;` is reported at the
  // `;` where an expression was expected, as TypeScript itself reports it (TS1109).
  it("OMCG0000: a syntax error is reported at its position", () => {
    expectDiagnostics("diag/d0000.ts", "OMCG0000", [[";\n  }\n}", /Syntax error/]]);
  });
});
