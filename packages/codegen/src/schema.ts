/**
 * JSON Schema writers (spec §2, §3, §4, §6 `outputSchema`) and the tool listing (spec §1, §9).
 * One small writer per type kind; every schema object is built in the keyword order of §2.
 *
 * @module
 */
import {
  assertNever,
  wireType,
  type Constraints,
  type ObjectModel,
  type ParamModel,
  type ToolListing,
  type ToolModel,
  type TypeModel,
  type UnionModel,
  type ValueParam,
} from "@typed-mcp/model";
import { CodegenError } from "./emit.js";
import { type Keyword, ordered } from "./keyword-order.js";

type Schema = Record<string, unknown>;

/** The listing entry of one tool (spec §1), defined once in `@typed-mcp/model`. */
export type { ToolListing };

const STRING_KEYS: (keyof Constraints)[] = ["minLength", "maxLength", "pattern", "format"];
const NUMBER_KEYS: (keyof Constraints)[] = ["minimum", "maximum"];
const ARRAY_KEYS: (keyof Constraints)[] = ["minLength", "maxLength"];

/**
 * Checks that `c` only holds constraints that fit a type kind (spec §4 validation tags), so the
 * reader enforces every constraint the schema lists.
 *
 * @throws CodegenError naming the misplaced constraint.
 */
export function checkConstraints(kind: string, c: Constraints | undefined, allowed: (keyof Constraints)[]): void {
  if (c === undefined) return;
  for (const k of Object.keys(c) as (keyof Constraints)[]) {
    if (c[k] === undefined) continue;
    if (!allowed.includes(k))
      throw new CodegenError(`The constraint ${k} does not fit a ${kind} (spec §4 validation tags).`);
    if (k !== "pattern" && k !== "format" && (typeof c[k] !== "number" || !Number.isFinite(c[k]))) {
      throw new CodegenError(`The constraint ${k} must be a finite number.`);
    }
  }
  if (c.minimum !== undefined && c.maximum !== undefined && c.minimum > c.maximum) {
    throw new CodegenError("minimum is greater than maximum (spec §4).");
  }
}

/** Constraints allowed per kind (spec §4 validation tags table). */
export const ALLOWED_CONSTRAINTS = {
  string: STRING_KEYS,
  number: NUMBER_KEYS,
  integer: NUMBER_KEYS,
  array: ARRAY_KEYS,
};

function stringSchema(t: Extract<TypeModel, { kind: "string" }>): Partial<Record<Keyword, unknown>> {
  checkConstraints("string", t.constraints, STRING_KEYS);
  const c = t.constraints ?? {};
  return { type: "string", format: c.format, minLength: c.minLength, maxLength: c.maxLength, pattern: c.pattern };
}

function numberSchema(t: Extract<TypeModel, { kind: "number" | "integer" }>): Partial<Record<Keyword, unknown>> {
  checkConstraints(t.kind, t.constraints, NUMBER_KEYS);
  const c = t.constraints ?? {};
  return { type: t.kind, minimum: c.minimum, maximum: c.maximum };
}

function enumSchema(t: Extract<TypeModel, { kind: "enum" }>): Partial<Record<Keyword, unknown>> {
  if (t.numeric !== undefined) {
    if (t.numeric.length !== t.values.length || t.values.some((v) => typeof v !== "string")) {
      throw new CodegenError("A numeric enum needs one member name per number (spec §4).");
    }
    return { type: "string", enum: [...t.values] };
  }
  const want = t.valueType === "string" ? "string" : t.valueType === "boolean" ? "boolean" : "number";
  if (
    t.values.some((v) => typeof v !== want) ||
    (t.valueType === "integer" && t.values.some((v) => !Number.isInteger(v)))
  ) {
    throw new CodegenError(`Enum values do not match its value type ${t.valueType}.`);
  }
  return { type: t.valueType, enum: [...t.values] };
}

function arraySchema(
  t: Extract<TypeModel, { kind: "array" }>,
  where: "input" | "output",
): Partial<Record<Keyword, unknown>> {
  checkConstraints(t.set ? "set" : "array", t.constraints, ARRAY_KEYS);
  const c = t.constraints ?? {};
  return {
    type: "array",
    items: typeSchema(t.items, where),
    minItems: c.minLength,
    maxItems: c.maxLength,
    uniqueItems: t.set ? true : undefined,
  };
}

function recordSchema(
  t: Extract<TypeModel, { kind: "record" }>,
  where: "input" | "output",
): Partial<Record<Keyword, unknown>> {
  return { type: "object", additionalProperties: typeSchema(t.values, where) };
}

/** The properties of an object listed on one side: getter-only (`readOnly`) ones in output schemas only. */
export function listedProperties(t: ObjectModel, where: "input" | "output"): ObjectModel["properties"] {
  return where === "input" ? t.properties.filter((p) => !p.readOnly) : t.properties;
}

function objectSchema(t: ObjectModel, where: "input" | "output"): Partial<Record<Keyword, unknown>> {
  const properties: Schema = {};
  const required: string[] = [];
  const seen = new Set<string>();
  for (const p of listedProperties(t, where)) {
    if (seen.has(p.name)) throw new CodegenError(`Two properties have the wire name ${p.name} (spec §10 OMCG0006).`);
    seen.add(p.name);
    setOwn(properties, p.name, withDescription(typeSchema(p.type, where), p.description));
    if (p.required) required.push(p.name);
  }
  return {
    type: "object",
    properties,
    required: required.length > 0 ? required : undefined,
    additionalProperties: t.additionalProperties === undefined ? undefined : typeSchema(t.additionalProperties, where),
  };
}

function nullableSchema(
  t: Extract<TypeModel, { kind: "nullable" }>,
  where: "input" | "output",
): Partial<Record<Keyword, unknown>> {
  if (t.inner.kind === "nullable") throw new CodegenError("A nullable type's inner type is itself nullable.");
  const s: Schema = { ...typeSchema(t.inner, where) };
  // §4a: a type array gets "null" last; an `anyOf` gets a trailing {"type":"null"} member.
  if (Array.isArray(s.anyOf)) s.anyOf = [...(s.anyOf as unknown[]), { type: "null" }];
  else s.type = Array.isArray(s.type) ? [...(s.type as unknown[]), "null"] : [s.type, "null"];
  if (Array.isArray(s.enum)) s.enum = [...s.enum, null];
  return s;
}

/** The JSON type names a member's bare schema `{"type": X}` stands for, or `undefined` when it carries more (spec §4a). */
function bareType(s: Schema): string | undefined {
  const keys = Object.keys(s);
  return keys.length === 1 && typeof s.type === "string" ? s.type : undefined;
}

/**
 * A union of spec §4a: one `{"type":[X, Y, …]}` when every member's schema is a bare
 * `{"type": X}` and there is no discriminator, else `{"anyOf":[S(A), S(B), …]}` in member order.
 *
 * @throws CodegenError for fewer than two members, a nested nullable or union member, two
 * members of one JSON type without a discriminator, or a discriminated member that is not an
 * object listing the discriminator as a required enum.
 */
function unionSchema(t: UnionModel, where: "input" | "output"): Partial<Record<Keyword, unknown>> {
  checkUnion(t);
  // A discriminated member (`Shape | Shape[]`) is listed as its objects, flat in the anyOf.
  const members = t.members.flatMap((m) => {
    const s = typeSchema(m, where);
    return m.kind === "union" ? (s.anyOf as Schema[]) : [s];
  });
  const bare = t.members.some((m) => m.kind === "union") ? [undefined] : members.map(bareType);
  if (t.discriminator === undefined && bare.every((b) => b !== undefined)) return { type: bare };
  return { anyOf: members };
}

/** The invariants of {@link UnionModel} (spec §4a), checked before writing any code for it. */
export function checkUnion(t: UnionModel): void {
  if (t.members.length < 2) throw new CodegenError("A union needs at least two members (spec §4a).");
  const seen = new Set<string>();
  const literals = new Set<unknown>();
  for (const m of t.members) {
    if (m.kind === "nullable") throw new CodegenError("A union member cannot be nullable (spec §4a).");
    if (m.kind === "union" && (t.discriminator !== undefined || m.discriminator === undefined)) {
      throw new CodegenError(
        "A union member can only be a discriminated union, in a union without a discriminator (spec §4a).",
      );
    }
    if (t.discriminator === undefined) {
      const w = wireType(m);
      if (seen.has(w)) throw new CodegenError(`Two union members have the JSON type ${w} (spec §4a).`);
      seen.add(w);
      continue;
    }
    const d = m.kind === "object" ? m.properties.find((p) => p.name === t.discriminator) : undefined;
    if (d === undefined || !d.required || d.type.kind !== "enum" || d.type.numeric !== undefined) {
      throw new CodegenError(
        `Every member of a discriminated union lists ${t.discriminator} as a required enum of literals (spec §4a).`,
      );
    }
    for (const v of d.type.values) {
      if (literals.has(v))
        throw new CodegenError(`The discriminator value ${JSON.stringify(v)} is in two members (spec §4a).`);
      literals.add(v);
    }
  }
}

/** `obj[key] = value` as an own data property, even for `__proto__`. */
function setOwn(obj: Schema, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

function withDescription(s: Schema, description: string | undefined): Schema {
  return description === undefined ? s : ordered({ ...s, description }, "refuse");
}

/** Object schemas a tool's listing may take from a shared constant, and their parts (see {@link shareablePart}). */
const SHAREABLE = new WeakMap<object, { base: object; key?: string }>();

/** Records the object schema `s` and its object-valued keywords as shareable (shared.ts); returns `s`. */
function markShareable(s: Schema): Schema {
  SHAREABLE.set(s, { base: s });
  for (const [key, v] of Object.entries(s))
    if (typeof v === "object" && v !== null && !SHAREABLE.has(v)) SHAREABLE.set(v, { base: s, key });
  return s;
}

/**
 * Whether `obj` is (`key` absent) the schema {@link typeSchema} wrote for an object type, or the
 * value of keyword `key` (`properties`, `required`, `additionalProperties`) of such a schema
 * `base`. A listing holds these objects by reference (a described copy of an object schema
 * shares its `properties`), so `shared.ts` can write one constant per distinct object schema and
 * refer to it (or its keyword) from every listing; serialization inlines it, the bytes stay the
 * same. `undefined` for any other object.
 */
export function shareablePart(obj: object): { base: object; key?: string } | undefined {
  return SHAREABLE.get(obj);
}

/**
 * The JSON Schema of one type (spec §4), keys in §2 order. Objects list `properties` (always)
 * and `required` (when not empty), and `additionalProperties` only for an index signature;
 * `readOnly` properties are listed only when `where` is `"output"`. A nullable type widens
 * `type` to `[T, "null"]` and appends `null` to an `enum`.
 *
 * @throws CodegenError for a model that breaks the contract (constraints that do not fit the
 * kind, enum values that do not fit the value type, a nested nullable, duplicate wire names).
 */
export function typeSchema(type: TypeModel, where: "input" | "output"): Record<string, unknown> {
  switch (type.kind) {
    case "string":
      return ordered(stringSchema(type), "refuse");
    case "number":
    case "integer":
      return ordered(numberSchema(type), "refuse");
    case "boolean":
      return { type: "boolean" };
    case "enum":
      return ordered(enumSchema(type), "refuse");
    case "date":
      return { type: "string", format: "date-time" };
    case "url":
      return { type: "string", format: "uri" };
    case "bytes":
      return { type: "string", contentEncoding: "base64" };
    case "array":
      return ordered(arraySchema(type, where), "refuse");
    case "record":
      return ordered(recordSchema(type, where), "refuse");
    case "object":
      return markShareable(ordered(objectSchema(type, where), "refuse"));
    case "nullable":
      return ordered(nullableSchema(type, where), "refuse");
    case "union":
      return ordered(unionSchema(type, where), "refuse");
    case "tuple":
      if (!Number.isSafeInteger(type.length) || type.length < 1)
        throw new CodegenError("A tuple has at least one element (spec §4a).");
      return ordered(
        {
          type: "array",
          items: typeSchema(type.items, where),
          minItems: type.length,
          maxItems: type.length,
        },
        "refuse",
      );
    default:
      return assertNever(type);
  }
}

/** The listed parameters of a tool (context and signal are never listed; a destructured parameter contributes its properties). */
export function listedParams(params: ParamModel[]): ValueParam[] {
  const out: ValueParam[] = [];
  for (const p of params) {
    switch (p.role) {
      case "value":
        out.push(p);
        break;
      case "destructured":
        out.push(...p.properties);
        break;
      case "context":
      case "signal":
        break;
      default:
        assertNever(p);
    }
  }
  return out;
}

/**
 * The tool's `inputSchema` (spec §3):
 * `{"type":"object","properties":{…},"required":[…],"additionalProperties":false}`.
 *
 * @throws CodegenError for two listed parameters with the same name, or a destructured
 * parameter next to other listed parameters.
 */
export function inputSchema(params: ParamModel[]): Record<string, unknown> {
  const values = params.filter((p) => p.role === "value").length;
  if (
    params.some((p) => p.role === "destructured") &&
    (values > 0 || params.filter((p) => p.role === "destructured").length > 1)
  ) {
    throw new CodegenError("A destructured parameter must be the only listed parameter (spec §3, OMCG0004).");
  }
  const properties: Schema = {};
  const required: string[] = [];
  for (const p of listedParams(params)) {
    if (Object.hasOwn(properties, p.name)) throw new CodegenError(`Two parameters are named ${p.name}.`);
    let s = withDescription(typeSchema(p.type, "input"), p.description);
    if (p.default !== undefined) s = ordered({ ...s, default: p.default }, "refuse");
    setOwn(properties, p.name, s);
    if (p.required) required.push(p.name);
  }
  return ordered(
    {
      type: "object",
      properties,
      required: required.length > 0 ? required : undefined,
      additionalProperties: false,
    },
    "refuse",
  );
}

/**
 * The tool's `outputSchema` (spec §6): the object-shaped result's schema (`type` stays
 * `"object"` even for a nullable result), or `undefined` for every other result kind.
 */
export function outputSchema(tool: ToolModel): Record<string, unknown> | undefined {
  if (tool.result.kind !== "structured") return undefined;
  // §4a: an object-shaped union result is `{"type":"object","anyOf":[…]}`.
  if (tool.result.type.kind === "union")
    return ordered({ type: "object", ...typeSchema(tool.result.type, "output") }, "refuse");
  return typeSchema(tool.result.type, "output");
}

const ANNOTATION_ORDER = ["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/**
 * The listing entry of one tool (spec §1, §9): keys in the order name, description,
 * inputSchema, outputSchema, annotations (title, readOnlyHint, destructiveHint, idempotentHint,
 * openWorldHint; left out when none is assigned), execution (`{ taskSupport }`, the `task` option), `_meta` (`{ ui: { resourceUri, visibility? } }`).
 * Deterministic: the same model gives byte-identical `JSON.stringify` output.
 *
 * @throws CodegenError as {@link typeSchema} and {@link inputSchema} do.
 */
export function toolListing(tool: ToolModel): ToolListing {
  const listing: ToolListing = { name: tool.name } as ToolListing;
  if (tool.description !== undefined) listing.description = tool.description;
  listing.inputSchema = inputSchema(tool.params);
  const out = outputSchema(tool);
  if (out !== undefined) listing.outputSchema = out;
  if (tool.annotations !== undefined) {
    const a: Record<string, unknown> = {};
    for (const k of ANNOTATION_ORDER) if (tool.annotations[k] !== undefined) a[k] = tool.annotations[k];
    if (Object.keys(a).length > 0) listing.annotations = a;
  }
  if (tool.execution !== undefined) listing.execution = { taskSupport: tool.execution.taskSupport };
  if (tool.ui !== undefined) {
    const ui: { resourceUri: string; visibility?: ("model" | "app")[] } = { resourceUri: tool.ui.resourceUri };
    if (tool.ui.visibility !== undefined) ui.visibility = [...tool.ui.visibility];
    listing._meta = { ui };
  }
  return listing;
}
