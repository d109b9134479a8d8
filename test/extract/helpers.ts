import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ModuleModel, ToolModel, ParamModel, ValueParam } from "@typed-mcp/model";

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

export function fixture(rel: string): { file: string; code: string } {
  const file = join(FIXTURES, rel);
  return { file, code: readFileSync(file, "utf8") };
}

export function tool(model: ModuleModel, name: string): ToolModel {
  const t = model.tools.find((x) => x.name === name);
  if (!t)
    throw new Error(
      `no tool ${name}; have ${model.tools.map((x) => x.name).join(", ")}; diagnostics ${JSON.stringify(model.diagnostics)}`,
    );
  return t;
}

export function param(t: ToolModel, name: string): ValueParam {
  const p = t.params.find((x: ParamModel) => x.role === "value" && x.name === name);
  if (!p) throw new Error(`no param ${name} in ${t.name}`);
  return p as ValueParam;
}

/** 1-based line and column of the first occurrence of `needle` in `code` (after `after`, if given). */
export function lineColOf(code: string, needle: string, after?: string): { line: number; column: number } {
  const from = after ? code.indexOf(after) : 0;
  if (from < 0) throw new Error(`marker ${after} not found`);
  const i = code.indexOf(needle, from);
  if (i < 0) throw new Error(`${needle} not found`);
  const before = code.slice(0, i);
  const line = before.split("\n").length;
  const column = i - (before.lastIndexOf("\n") + 1) + 1;
  return { line, column };
}

/** Extracts fixture `rel` with `ex`: the model, `at(needle)` locations, diagnostics as file:line:column:code, and their messages. */
export function runFixture(ex: { extract(file: string, code: string): ModuleModel }, rel: string) {
  const { file, code } = fixture(rel);
  const model = ex.extract(file, code);
  const at = (needle: string, after?: string) => ({ file, ...lineColOf(code, needle, after) });
  const pick = (d: ModuleModel["diagnostics"][number]) => ({
    file: d.file,
    line: d.line,
    column: d.column,
    code: d.code,
  });
  return { model, at, diags: model.diagnostics.map(pick), messages: model.diagnostics.map((d) => d.message) };
}
