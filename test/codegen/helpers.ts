/**
 * Test helpers for `@typed-mcp/codegen`: model builders (written the way extraction would
 * produce the model for a TypeScript signature) and a loader that evaluates generated code for
 * real, as an ES module importing the built `typed-mcp/internal`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type {
  Constraints,
  ObjectModel,
  ParamModel,
  PropertyModel,
  ResultModel,
  ToolModel,
  TypeModel,
  ValueParam,
} from "../../packages/model/src/index.ts";
import { generateTool } from "../../packages/codegen/dist/index.js";

export type { ToolModel, TypeModel, ParamModel, ResultModel, ObjectModel };

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const INTERNAL = pathToFileURL(join(root, "packages/typed-mcp/dist/internal.js")).href;
const TMP = join(root, ".tmp", "codegen-tests");
mkdirSync(TMP, { recursive: true });

/** URL of the fixture module holding the classes used by `construct` models. */
export const CLASSES = pathToFileURL(join(here, "fixtures", "classes.mjs")).href;

/** The shape of a generated tool (typed-mcp/internal `GeneratedTool`). */
export interface Loaded {
  listing: Record<string, unknown>;
  read(args: unknown, ctx: unknown): unknown[] | string;
  write(value: unknown): Record<string, unknown>;
  member?: string;
  static?: boolean;
}

let counter = 0;

/**
 * Generates the tool's code, writes it as a module (with its imports) and imports it. With
 * `share: true` the shared units are declared at the module's top, as `@typed-mcp/babel` does.
 */
export async function load(tool: ToolModel, options: Parameters<typeof generateTool>[1] = {}): Promise<Loaded> {
  const { code, imports, units } = generateTool(tool, options);
  const lines = [`import * as __tmcp from ${JSON.stringify(INTERNAL)};`];
  for (const i of imports) lines.push(`import { ${i.exportName} as ${i.local} } from ${JSON.stringify(i.from)};`);
  for (const u of units) lines.push(`const ${u.name} = ${u.code};`);
  lines.push(`export default ${code};`);
  const file = join(TMP, `tool-${process.pid}-${counter++}.mjs`);
  writeFileSync(file, lines.join("\n") + "\n");
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)).default as Loaded;
}

/** A `RequestContext` stand-in: the reader only places it (and its `signal`). */
export function fakeCtx(): { signal: AbortSignal; requestId: number } {
  return { signal: new AbortController().signal, requestId: 1 };
}

// ---- type builders --------------------------------------------------------------------------

export const T = {
  string: (constraints?: Constraints): TypeModel =>
    constraints ? { kind: "string", constraints } : { kind: "string" },
  number: (constraints?: Constraints): TypeModel =>
    constraints ? { kind: "number", constraints } : { kind: "number" },
  int: (constraints?: Constraints): TypeModel => (constraints ? { kind: "integer", constraints } : { kind: "integer" }),
  bigint: (): TypeModel => ({ kind: "integer", bigint: true }),
  boolean: (): TypeModel => ({ kind: "boolean" }),
  strEnum: (...values: string[]): TypeModel => ({ kind: "enum", valueType: "string", values }),
  numUnion: (valueType: "integer" | "number", ...values: number[]): TypeModel => ({ kind: "enum", valueType, values }),
  numEnum: (members: [string, number][]): TypeModel => ({
    kind: "enum",
    valueType: "string",
    values: members.map((m) => m[0]),
    numeric: members.map((m) => m[1]),
  }),
  date: (): TypeModel => ({ kind: "date" }),
  url: (): TypeModel => ({ kind: "url" }),
  bytes: (): TypeModel => ({ kind: "bytes" }),
  array: (items: TypeModel, constraints?: Constraints): TypeModel =>
    constraints ? { kind: "array", items, constraints } : { kind: "array", items },
  set: (items: TypeModel, constraints?: Constraints): TypeModel =>
    constraints ? { kind: "array", items, set: true, constraints } : { kind: "array", items, set: true },
  record: (values: TypeModel): Extract<TypeModel, { kind: "record" }> => ({ kind: "record", values }),
  map: (values: TypeModel): Extract<TypeModel, { kind: "record" }> => ({ kind: "record", values, map: true }),
  object: (properties: PropertyModel[], extra: Partial<ObjectModel> = {}): ObjectModel => ({
    kind: "object",
    properties,
    ...extra,
  }),
  nullable: (inner: TypeModel): TypeModel => ({ kind: "nullable", inner }),
  /** A §4a union told apart by JSON type (members in the order written). */
  union: (...members: TypeModel[]): TypeModel => ({ kind: "union", members }),
  /** A §4a discriminated union of object types. */
  tagged: (discriminator: string, ...members: ObjectModel[]): TypeModel => ({ kind: "union", members, discriminator }),
  /** A §4a homogeneous tuple. */
  tuple: (items: TypeModel, length: number): TypeModel => ({ kind: "tuple", items, length }),
  /** A one-value boolean enum (a discriminator `ok: true`). */
  boolLit: (value: boolean): TypeModel => ({ kind: "enum", valueType: "boolean", values: [value] }),
};

/** A property; `key` defaults to the wire name. */
export function prop(
  name: string,
  type: TypeModel,
  required = true,
  extra: Partial<PropertyModel> = {},
): PropertyModel {
  return { name, key: name, type, required, ...extra };
}

/** A listed parameter. */
export function param(name: string, type: TypeModel, required = true, extra: Partial<ValueParam> = {}): ValueParam {
  return { role: "value", name, type, required, ...extra };
}

/** A quick-path tool (`server.tool(name, fn)`) with the given parameters and result. */
export function tool(
  name: string,
  params: ParamModel[],
  result: ResultModel = { kind: "void" },
  extra: Partial<ToolModel> = {},
): ToolModel {
  return {
    name,
    params,
    result,
    site: { kind: "quick", callEnd: 0, trailingComma: false },
    location: { file: "/src/tools.ts", line: 1, column: 1 },
    ...extra,
  };
}

// ---- round trips ----------------------------------------------------------------------------

/**
 * A round trip for values of type `t` (spec §5 + §6): loads, once, a tool whose parameter `v`
 * and result are both `t` (a `structured` result for object shapes, else `json`), and returns
 * a function that writes a value through the writer, parses the JSON text and reads it back as
 * `v`. The function returns the reader's answer (the argument array, or the failure path) and
 * the wire JSON the writer produced. `options` are `generateTool`'s (e.g. `share`).
 */
export async function roundTripper(
  t: TypeModel,
  options: Parameters<typeof generateTool>[1] = {},
): Promise<(value: unknown) => { read: unknown[] | string; wire: unknown; structured?: unknown }> {
  const objectShaped =
    t.kind === "object" || t.kind === "record" || (t.kind === "union" && t.discriminator !== undefined);
  const m = tool(
    "rt",
    [param("v", t)],
    objectShaped ? { kind: "structured", nullable: false, type: t as ObjectModel } : { kind: "json", type: t },
  );
  const g = await load(m, options);
  const ctx = fakeCtx();
  return (value) => {
    const result = g.write(value) as { content: { text: string }[]; structuredContent?: unknown };
    const wire = JSON.parse(result.content[0]!.text);
    const read = g.read(JSON.parse(JSON.stringify({ v: wire })), ctx);
    return objectShaped
      ? { read, wire, structured: JSON.parse(JSON.stringify(result.structuredContent)) }
      : { read, wire };
  };
}
