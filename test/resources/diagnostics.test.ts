/**
 * Spec §10 OMCG0011 (resources) and OMCG0012 (prompts): each rule fails with code, file, line
 * and column at the place the spec's rule points to (the URI, the parameter, the return type).
 * Positions are computed from the fixture text, not copied from output.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor, type Extractor } from "../../packages/extract/dist/index.js";
import type { Diagnostic } from "@typed-mcp/model";
import { FIXTURES } from "./helpers.ts";

let ex: Extractor;
beforeAll(() => {
  ex = createExtractor();
});
afterAll(() => ex?.close());

function run(name: string) {
  const file = join(FIXTURES, "diag", name);
  const code = readFileSync(file, "utf8");
  const model = ex.extract(file, code);
  /** Location of the `nth` occurrence of `needle` after `after`. */
  const at = (needle: string, after = "") => {
    const i = code.indexOf(needle, code.indexOf(after));
    if (i < 0) throw new Error(`${needle} not found`);
    const before = code.slice(0, i);
    return { file, line: before.split("\n").length, column: i - (before.lastIndexOf("\n") + 1) + 1 };
  };
  const pick = (d: Diagnostic) => ({ file: d.file, line: d.line, column: d.column, code: d.code });
  return { model, at, diags: model.diagnostics.map(pick), messages: model.diagnostics.map((d) => d.message) };
}

describe("OMCG0011: resources", () => {
  it("invalid template, variable without parameter and the reverse, type not read from a string, unsupported return type", () => {
    const { diags, messages, at, model } = run("d0011.ts");
    expect(model.resources ?? []).toEqual([]);
    expect(diags).toEqual([
      { ...at('"bad://{a b}"'), code: "OMCG0011" },
      { ...at('"bad://items/{id}"'), code: "OMCG0011" },
      { ...at("id: string", "extraParam"), code: "OMCG0011" },
      { ...at("o: { a: string }"), code: "OMCG0011" },
      { ...at("number {", "numbersOut"), code: "OMCG0011" },
      { ...at('"bad://exploded/{list*}"'), code: "OMCG0011" },
      { ...at('"quick://{x}"'), code: "OMCG0011" },
      { ...at("y: string"), code: "OMCG0011" },
    ]);
    expect(messages[0]).toMatch(/URI template 'bad:\/\/\{a b\}' is not valid/);
    expect(messages[1]).toMatch(/template variable 'id' has no parameter/);
    expect(messages[2]).toMatch(/parameter 'id' has no variable/);
    expect(messages[3]).toMatch(/is not read from a string/);
    expect(messages[4]).toMatch(/return type 'number' is not supported/);
    expect(messages[5]).toMatch(/modifier '\*'/);
    expect(messages[6]).toMatch(/variable 'x' has no parameter/);
    expect(messages[7]).toMatch(/parameter 'y' is not a variable/);
  });
});

describe("OMCG0012: prompts", () => {
  it("parameter type not read from a string, unsupported return type", () => {
    const { diags, messages, at, model } = run("d0012.ts");
    expect(model.prompts ?? []).toEqual([]);
    expect(diags).toEqual([
      { ...at("tags: string[]"), code: "OMCG0012" },
      { ...at("number {", "numberOut"), code: "OMCG0012" },
      { ...at("when: RegExp"), code: "OMCG0012" },
    ]);
    expect(messages[0]).toMatch(/'string\[\]' is not read from a string/);
    expect(messages[1]).toMatch(/return type 'number' is not supported/);
    expect(messages[2]).toMatch(/'RegExp' is not read from a string/);
  });
});

describe('OMCG0012: @complete hooks (docs/resources.md "Completion hooks")', () => {
  it("an unknown prompt method, an unknown argument, a parameter that names no other argument or the completed one, a second hook, a rest parameter", () => {
    const { diags, messages, at, model } = run("complete.ts");
    expect(diags).toEqual([
      { ...at('"promotion"'), code: "OMCG0012" },
      { ...at('"nickname"'), code: "OMCG0012" },
      { ...at("team?: string"), code: "OMCG0012" },
      { ...at("department?: string", "completedAsGiven"), code: "OMCG0012" },
      { ...at('@complete("promote", "name")', "completedAsGiven"), code: "OMCG0012" },
      { ...at("...rest: string[]"), code: "OMCG0012" },
    ]);
    expect(messages).toEqual([
      `@complete("promotion", "name") on 'noSuchPrompt': this class has no @prompt method 'promotion'; its prompt methods are 'promote'.`,
      `@complete("promote", "nickname") on 'noSuchArgument': the prompt 'promote-someone' has no argument 'nickname'; its arguments are 'department', 'name'.`,
      `@complete("promote", "department") on 'wrongGiven': the parameter 'team' is not one of the prompt 'promote-someone''s other arguments ('name'); each parameter after the first receives the argument of its name.`,
      `@complete("promote", "department") on 'completedAsGiven': the parameter 'department' is the argument being completed, whose value is the first parameter; remove it.`,
      `@complete("promote", "name") on 'secondHook': the argument 'name' of the prompt 'promote-someone' already has a @complete hook; keep one.`,
      `@complete on 'patternGiven': a parameter after the first must be a plain name, one of the prompt's other arguments (it receives that argument's value as sent).`,
    ]);
    // The valid hook is kept, with the listed prompt name and its given parameters.
    expect(
      model.completions?.map(({ prompt, argument, member, static: isStatic, given }) => ({
        prompt,
        argument,
        member,
        static: isStatic,
        given,
      })),
    ).toEqual([
      { prompt: "promote-someone", argument: "name", member: "members", static: false, given: ["department"] },
    ]);
  });
});

it("a valid module has no diagnostics and gives the models", () => {
  const { diags, model } = run("ok.ts");
  expect(diags).toEqual([]);
  expect(model.resources?.map((r) => r.uri ?? r.uriTemplate)).toEqual(["ok://{id}", "ok://fixed"]);
  expect(model.prompts?.map((p) => p.name)).toEqual(["ask"]);
});

describe("§8 unions read from strings: `string` must come last", () => {
  it("OMCG0011 for a resource, OMCG0012 for a prompt, at the parameter", () => {
    const { model, at } = run("unions.ts");
    expect(model.resources ?? []).toEqual([]);
    expect(model.prompts ?? []).toEqual([]);
    const rule = (type: string) =>
      `in '${type}', \`string\` must come last: the members are tried in the order written and \`string\` takes every value; move it to the end.`;
    expect(model.diagnostics).toEqual([
      {
        ...at("id: string | Int"),
        code: "OMCG0011",
        message: `Resource 'by_id', parameter 'id': ${rule("string | Int")}`,
      },
      {
        ...at("flag: string | boolean"),
        code: "OMCG0012",
        message: `Prompt 'ask', parameter 'flag': ${rule("string | boolean")}`,
      },
    ]);
  });
});
