/**
 * Unions and tuples of spec §4a in the type → model conversion. A union (after `null` and
 * `undefined` are removed by the caller) is supported when the reader can tell its members apart
 * from the JSON value alone: one member per JSON type (string, number, boolean, array, object),
 * or object types that share a discriminator property. Members keep the order written in the
 * source (literals of one JSON type merged into one `enum` at the first one's position); a union
 * that is not written out is ordered string, integer, number, boolean, array, object.
 */
import { assertNever, wireType, type ObjectModel, type TypeModel, type UnionModel } from "@typed-mcp/model";
import type { TypeNodeRef, TypeRef } from "./backend/host.js";
import type { ConvertContext } from "./convert.js";
import { enumModel, literalEnum } from "./convert-enums.js";
import { fail } from "./convert-problems.js";

/**
 * A converter of one type at `path` that convert.ts passes in (it converts every kind, unions and
 * tuples through this module: passed, not imported, so the two modules form no import cycle).
 */
export type ConvertOne = (
  ctx: ConvertContext,
  t: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
) => TypeModel | undefined;

/** Rank of a member in a union the source does not write out (spec §4a "Order"). */
function fallbackRank(m: TypeModel): number {
  if (m.kind === "integer" || (m.kind === "enum" && m.valueType === "integer")) return 1;
  const w = wireType(m);
  return w === "string" ? 0 : w === "number" ? 2 : w === "boolean" ? 3 : w === "array" ? 4 : 5;
}

/** One member group before conversion: literals of one JSON type (or one enum) together, else a single type. */
interface Group {
  kind: "string" | "number" | "boolean" | "enum" | "single";
  types: TypeRef[];
  node?: TypeNodeRef;
  /** Position of the first member in the source (`Infinity` when not written out). */
  at: number;
  /** Every member of the group is written out: `types` are in source order. */
  written: boolean;
}

/** Groups `members` (no null/undefined) in written order (spec §4a "Order"). */
function groups(ctx: ConvertContext, members: TypeRef[], whole: TypeRef, node: TypeNodeRef | undefined): Group[] {
  const { host } = ctx;
  const written = host.unionOrder(whole, node) ?? [];
  const position = (t: TypeRef) => {
    const w = written.find((x) => host.typeId(x.type) === host.typeId(t));
    return w === undefined ? Infinity : w.slot;
  };
  const out: Group[] = [];
  for (const t of [...members].sort((a, b) => position(a) - position(b))) {
    const s = host.shape(t);
    const kind =
      s.kind === "stringLiteral"
        ? "string"
        : s.kind === "numberLiteral"
          ? "number"
          : s.kind === "booleanLiteral"
            ? "boolean"
            : s.kind === "enumLiteral"
              ? "enum"
              : "single";
    const same =
      kind === "single"
        ? undefined
        : out.find((g) => g.kind === kind && (kind !== "enum" || sameEnum(ctx, g.types[0]!, t)));
    const at = position(t);
    const w = written.find((x) => host.typeId(x.type) === host.typeId(t));
    if (same) {
      same.types.push(t);
      same.written &&= w?.node !== undefined;
    } else {
      out.push({ kind, types: [t], node: w?.node, at, written: w?.node !== undefined });
    }
  }
  return out;
}

function sameEnum(ctx: ConvertContext, a: TypeRef, b: TypeRef): boolean {
  const sa = ctx.host.shape(a);
  const sb = ctx.host.shape(b);
  return sa.kind === "enumLiteral" && sb.kind === "enumLiteral" && sa.enumId === sb.enumId;
}

/** Converts one group to a member model. */
function convertGroup(
  ctx: ConvertContext,
  g: Group,
  whole: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
  single: ConvertOne,
): TypeModel | undefined {
  const values = g.types.map((t) => (ctx.host.shape(t) as { value: string | number | boolean }).value);
  const numeric = (values as number[]).every(Number.isInteger) ? "integer" : "number";
  switch (g.kind) {
    case "string":
      // Written out: `types` are already in source order (spec §4 enum order), also through aliases.
      if (g.written) return { kind: "enum", valueType: "string", values };
      return literalEnum(ctx, values as string[], whole, node, "string");
    case "number":
      if (g.written) return { kind: "enum", valueType: numeric, values };
      return literalEnum(ctx, values as number[], whole, node, numeric);
    case "boolean":
      return g.types.length === 2 ? { kind: "boolean" } : { kind: "enum", valueType: "boolean", values };
    case "enum":
      return enumModel(ctx, g.types, whole, path);
    case "single":
      return single(ctx, g.types[0]!, g.node, path);
    default:
      return assertNever(g.kind);
  }
}

/**
 * Converts a union of two or more types (no `null`/`undefined`) per spec §4a: a union of object
 * types with a discriminator, or one member per JSON type. Anything else is OMCG0005 naming why,
 * and for object types the candidate discriminators that almost qualify.
 *
 * @param single Converts one non-union, non-null member (convert.ts `convertSingle`).
 */
export function convertUnion(
  ctx: ConvertContext,
  members: TypeRef[],
  whole: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
  single: ConvertOne,
): TypeModel | undefined {
  const gs = groups(ctx, members, whole, node);
  // A boolean literal is read (as a one-value enum) in the members' own properties, the place of a discriminator.
  const saved = ctx.booleanLiteralsAt;
  ctx.booleanLiteralsAt = ctx.stack.length + 1;
  const models: TypeModel[] = [];
  try {
    for (const g of gs) {
      const m = convertGroup(ctx, g, whole, node, path, single);
      if (!m) return undefined;
      models.push(m);
    }
  } finally {
    ctx.booleanLiteralsAt = saved;
  }
  // Members from one slot (a computed union, or none written at all) take the order string, integer, number, boolean, array, object.
  const ranked = models
    .map((m, i) => ({ m, i, at: gs[i]!.at }))
    .sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? -1 : 1) || fallbackRank(a.m) - fallbackRank(b.m) || a.i - b.i);
  models.splice(0, models.length, ...ranked.map((r) => r.m));
  if (models.length === 1) return models[0];
  const objects = models.filter((m) => wireType(m) === "object");
  if (objects.length > 1 && objects.every((m) => m.kind === "object")) {
    const tagged = discriminated(ctx, objects as ObjectModel[], whole, path);
    if (!tagged || objects.length === models.length) return tagged;
    // `Shape | Shape[]`: the discriminated objects are one member, at the first object's position.
    const first = models.indexOf(objects[0]!);
    models.splice(
      0,
      models.length,
      ...models
        .filter((m, i) => i === first || !(objects as TypeModel[]).includes(m))
        .map((m, i) => (i === first ? tagged : m)),
    );
  }
  const union: UnionModel = { kind: "union", members: models };
  return checkMembers(ctx, union, whole, path) ? union : undefined;
}

const FIX_KINDS =
  "Keep one member per JSON type (string, number, boolean, array, object), or make the object members a discriminated union (one required property typed by different literals in each member).";

/** One member per JSON type, no numeric enum, no boolean literal outside a discriminator (spec §4a). */
function checkMembers(ctx: ConvertContext, u: UnionModel, whole: TypeRef, path: string): boolean {
  const seen = new Map<string, TypeModel>();
  for (const m of u.members) {
    if (m.kind === "enum" && m.numeric !== undefined) {
      fail(
        ctx,
        path,
        whole,
        "a numeric enum in a union is written as its member names but held as numbers, so the writer cannot tell it apart",
        "Use a string enum, or the enum alone.",
      );
      return false;
    }
    if (m.kind === "enum" && m.valueType === "boolean") {
      fail(ctx, path, whole, "a single boolean literal is supported only as a discriminator", "Use `boolean`.");
      return false;
    }
    const w = wireType(m);
    const before = seen.get(w);
    if (before && !ctx.fromString) {
      fail(
        ctx,
        path,
        whole,
        `two of its members (${describe(before)} and ${describe(m)}) are JSON ${w}s, which the reader cannot tell apart`,
        FIX_KINDS,
      );
      return false;
    }
    seen.set(w, m);
  }
  return noStrayBooleanLiterals(ctx, u.members, whole, path);
}

/** No boolean-literal enum left anywhere inside the members (they are read only as discriminators). */
function noStrayBooleanLiterals(
  ctx: ConvertContext,
  ms: TypeModel[],
  whole: TypeRef,
  path: string,
  skip?: string,
): boolean {
  for (const m of ms) {
    if (m.kind !== "object") continue;
    for (const p of m.properties) {
      if (p.name === skip) continue;
      const t = p.type.kind === "nullable" ? p.type.inner : p.type;
      if (t.kind === "enum" && t.valueType === "boolean") {
        fail(
          ctx,
          `${path}.${p.key}`,
          whole,
          "a single boolean literal is supported only as the discriminator of a union",
          "Use `boolean`, or make this property the discriminator.",
        );
        return false;
      }
    }
  }
  return true;
}

/** The member as a message names it: its kind, or `{ kind: … }` for an object. */
function describe(m: TypeModel): string {
  if (m.kind === "object")
    return `{ ${m.properties
      .map((p) => p.name)
      .slice(0, 3)
      .join(", ")}${m.properties.length > 3 ? ", …" : ""} }`;
  if (m.kind === "enum") return m.values.map((v) => JSON.stringify(v)).join(" | ");
  const names: Partial<Record<TypeModel["kind"], string>> = {
    integer: "Int",
    date: "Date",
    url: "URL",
    bytes: "Uint8Array",
    record: "a record",
    array: "an array",
    tuple: "a tuple",
  };
  if (m.kind === "integer" && m.bigint) return "bigint";
  if (m.kind === "array" && m.set) return "a Set";
  if (m.kind === "record" && m.map) return "a Map";
  return names[m.kind] ?? m.kind;
}

/** Why property `name` is not a discriminator of `members`, or `undefined` when it is one (spec §4a). */
function notDiscriminator(members: ObjectModel[], name: string): string | undefined {
  const seen = new Set<unknown>();
  let valueType: string | undefined;
  for (const [i, m] of members.entries()) {
    const p = m.properties.find((q) => q.name === name);
    if (!p) return `it is missing from member ${i + 1}`;
    if (!p.required) return `it is optional in member ${i + 1}`;
    if (p.type.kind !== "enum" || p.type.numeric !== undefined) return `it is not typed by literals in member ${i + 1}`;
    if (valueType !== undefined && valueType !== p.type.valueType) return "its literals are not of one JSON type";
    valueType = p.type.valueType;
    for (const v of p.type.values) {
      if (seen.has(v)) return `the literal ${JSON.stringify(v)} is in two members`;
      seen.add(v);
    }
  }
  return undefined;
}

/** A union of object types: the first member's first qualifying property is the discriminator (spec §4a). */
function discriminated(
  ctx: ConvertContext,
  members: ObjectModel[],
  whole: TypeRef,
  path: string,
): TypeModel | undefined {
  const reasons: string[] = [];
  for (const p of members[0]!.properties) {
    const why = notDiscriminator(members, p.name);
    if (why === undefined) {
      if (!noStrayBooleanLiterals(ctx, members, whole, path, p.name)) return undefined;
      return { kind: "union", members, discriminator: p.name };
    }
    const literalSomewhere = members.some((m) => m.properties.some((q) => q.name === p.name && q.type.kind === "enum"));
    if (literalSomewhere) reasons.push(`'${p.name}' almost qualifies, but ${why}`);
  }
  const candidates = reasons.length > 0 ? ` (${reasons.slice(0, 3).join("; ")})` : "";
  return fail(
    ctx,
    path,
    whole,
    `a union of object types needs a discriminator: a property present and required in every member, typed in each by literals of one JSON type, disjoint across members${candidates}`,
    'Add such a property (e.g. `kind: "circle"` / `kind: "square"`), or use one object type with optional properties.',
  );
}

/**
 * A homogeneous tuple `[T, T]` / `readonly [T, T, T]` (spec §4a); other tuples stay OMCG0005.
 *
 * @param element Converts one element type, which may not include `undefined` (convert.ts `convertType`).
 */
export function convertTuple(
  ctx: ConvertContext,
  t: TypeRef,
  elements: TypeRef[],
  path: string,
  element: ConvertOne,
): TypeModel | undefined {
  const { host } = ctx;
  const fix = "Use an array (`T[]`) or an object with named properties.";
  if (elements.length === 0) return fail(ctx, path, t, "an empty tuple carries no value", fix);
  // A tuple of fixed length has `length: n` (a literal); optional elements make it a union of literals, a rest element `number`.
  const length = host.properties(t).find((p) => p.name === "length");
  const ls = length ? host.shape(length.type) : undefined;
  if (ls?.kind !== "numberLiteral" || ls.value !== elements.length)
    return fail(ctx, path, t, "tuples with optional or rest elements are not supported", fix);
  // Homogeneous: every element gives the same model (type ids differ for types written twice, such as `[{ a: string }, { a: string }]`).
  const items = element(ctx, elements[0]!, undefined, path + "[]");
  if (!items) return undefined;
  const first = JSON.stringify(items);
  for (const e of elements.slice(1)) {
    if (host.typeId(e) === host.typeId(elements[0]!)) continue;
    const m = element(ctx, e, undefined, path + "[]");
    if (!m) return undefined;
    if (JSON.stringify(m) !== first) {
      return fail(
        ctx,
        path,
        t,
        "tuples of different element types are not supported (only homogeneous tuples such as `[number, number]`)",
        fix,
      );
    }
  }
  return { kind: "tuple", items, length: elements.length };
}
