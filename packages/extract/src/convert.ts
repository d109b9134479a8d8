/**
 * Type → model conversion (spec §4), one small handler per type kind, in the style of
 * ts-json-schema-generator: this module reads `undefined`, `null` and literal unions and
 * dispatches one type by its shape to `convert-objects.ts` (objects, through `convert-builtins.ts`
 * the built-ins), `convert-intersections.ts` (type tags), `convert-unions.ts` (unions, tuples)
 * and `convert-enums.ts`. Works only through the neutral {@link TypeHost}; produces plain
 * {@link TypeModel} data. The first unsupported type met under a parameter (or the return
 * type) is reported once, naming the path into the type, the type, and where it is declared.
 */
import { assertNever } from "@typed-mcp/model";
import type { ObjectModel, SourceLocation, TypeModel, UnionModel } from "@typed-mcp/model";
import type { TypeHost, TypeNodeRef, TypeRef } from "./backend/host.js";
import { enumModel, literalEnum } from "./convert-enums.js";
import { convertIntersection } from "./convert-intersections.js";
import { convertObjectType } from "./convert-objects.js";
import { fail } from "./convert-problems.js";
import { convertUnion, type ConvertOne } from "./convert-unions.js";

/** A problem found while converting, reported by the caller at the parameter / return type. */
interface ConvertProblem {
  code: "OMCG0004" | "OMCG0005" | "OMCG0009" | "OMCG0006" | "OMCG0007";
  message: string;
  /** A type TypeScript cannot resolve (spec §4): OMCG0005 wherever the parameter is read (resources and prompts too). */
  unresolved?: true;
  /** Where the problem is when that is not the parameter itself (a JSDoc `@default` tag, spec §3). */
  loc?: SourceLocation;
}

/** Conversion context for one parameter or one return type. */
export interface ConvertContext {
  host: TypeHost;
  /** `"input"`: a parameter (OMCG0005); `"output"`: a return type (OMCG0009; getters listed). */
  mode: "input" | "output";
  /** What the path starts with, for messages: `Parameter 'items'` / `The return type`. */
  subject: string;
  /** The tool's file (class constructors are imported relative to it). */
  file: string;
  /** The project root: "declared at" paths in messages are relative to it (absolute when absent). */
  root?: string;
  problems: ConvertProblem[];
  /** Object types on the current path (recursion detection). */
  stack: number[];
  /**
   * The stack depth at which a boolean literal type (`ok: true`) is read as a one-value enum: the
   * direct properties of a union's object members, where a discriminator stands (spec §4a).
   */
  booleanLiteralsAt?: number;
  /**
   * The value is read from a string (a resource template variable or prompt argument, spec §8):
   * a union's members are tried by their string grammars in the order written, so two members
   * of one JSON type (`Date | "now"`) can be told apart.
   */
  fromString?: boolean;
}

/** Result of converting a type that may include `undefined` (optionality is the caller's business). */
export interface Converted {
  model: TypeModel;
  /** The type included `undefined` (or `void`). */
  includesUndefined: boolean;
}

/**
 * The converters of nested types that this module passes to the per-kind converters (a
 * property's type, an array's items, an intersection's base) — the child formatter of
 * ts-json-schema-generator: passed, not imported, so the modules form no import cycle.
 */
export interface ConvertNested {
  /** {@link convertTop}: a type that may include `undefined` (a property). */
  top(ctx: ConvertContext, t: TypeRef, node: TypeNodeRef | undefined, path: string): Converted | undefined;
  /** {@link convertType}: a type that may not include `undefined` (items, values). */
  type: ConvertOne;
  /** One non-union, non-null type. */
  single: ConvertOne;
}

/** The converters of this module, for the per-kind ones. */
const NESTED: ConvertNested = { top: convertTop, type: convertType, single: convertSingle };

/**
 * Converts a type that may include `undefined` / `void` (a parameter, a property).
 * `node` is the type annotation as written, if any (source order of literals).
 */
export function convertTop(
  ctx: ConvertContext,
  t: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
): Converted | undefined {
  const s = ctx.host.shape(t);
  const members = s.kind === "union" ? s.members : [t];
  const isUndef = (m: TypeRef) => {
    const k = ctx.host.shape(m).kind;
    return k === "undefined" || k === "void";
  };
  const includesUndefined = members.some(isUndef);
  const rest = members.filter((m) => !isUndef(m));
  const model = convertMembers(ctx, rest, t, node, path);
  return model ? { model, includesUndefined } : undefined;
}

/**
 * Converts a tool's (awaited) return type (spec §6). `undefined` at the top (`string |
 * undefined`) has no JSON form: OMCG0009 with a message about the result itself, not about
 * arrays/records/maps.
 */
export function convertResult(
  ctx: ConvertContext,
  t: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
): TypeModel | undefined {
  const r = convertTop(ctx, t, node, path);
  if (!r) return undefined;
  if (r.includesUndefined) {
    return fail(
      ctx,
      path,
      t,
      "a tool's result cannot be `undefined`, which has no JSON form",
      "Return `T | null` instead of `T | undefined` (`null` is sent as the text `null`), or declare `void` when there is nothing to return.",
    );
  }
  return r.model;
}

/** Converts a type that is not allowed to include `undefined`. */
function convertType(
  ctx: ConvertContext,
  t: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
): TypeModel | undefined {
  const r = convertTop(ctx, t, node, path);
  if (!r) return undefined;
  if (r.includesUndefined)
    return fail(
      ctx,
      path,
      t,
      "undefined is not a JSON value here",
      "Use `T | null` instead of `T | undefined` inside arrays, records and maps.",
    );
  return r.model;
}

/** Handles `null` and literal unions among `members` (the union without `undefined`). */
function convertMembers(
  ctx: ConvertContext,
  members: TypeRef[],
  whole: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
): TypeModel | undefined {
  const { host } = ctx;
  const nullable = members.some((m) => host.shape(m).kind === "null");
  const rest = members.filter((m) => host.shape(m).kind !== "null");
  if (rest.length === 0)
    return fail(
      ctx,
      path,
      whole,
      "`null`/`undefined` alone carries no value",
      "Give it a real type such as `string | null`.",
    );
  let inner: TypeModel | undefined;
  if (rest.length === 1) {
    inner = convertSingle(ctx, rest[0]!, host.childNode(node, "nonNull"), path);
  } else {
    const shapes = rest.map((m) => host.shape(m));
    if (shapes.length === 2 && shapes.every((x) => x.kind === "booleanLiteral")) inner = { kind: "boolean" };
    else if (shapes.every((x) => x.kind === "stringLiteral")) {
      inner = literalEnum(
        ctx,
        shapes.map((x) => (x as { value: string }).value),
        whole,
        node,
        "string",
      );
    } else if (shapes.every((x) => x.kind === "numberLiteral")) {
      const values = shapes.map((x) => (x as { value: number }).value);
      inner = literalEnum(ctx, values, whole, node, values.every(Number.isInteger) ? "integer" : "number");
    } else if (shapes.every((x) => x.kind === "enumLiteral" && x.enumId === (shapes[0] as { enumId: string }).enumId)) {
      inner = enumModel(ctx, rest, whole, path);
    } else {
      inner = convertUnion(ctx, rest, whole, node, path, convertSingle);
    }
  }
  if (!inner) return undefined;
  return nullable ? { kind: "nullable", inner } : inner;
}

/** The fix of an unresolved type name (spec §4). */
const UNRESOLVED_FIX =
  'Correct the name or import the type; for a global (Buffer, URL, …) add its declarations to the tsconfig ("types": ["node"], or "lib": [..., "DOM"]).';

/** Dispatch on one non-union, non-null type (also a union's member, spec §4a). */
function convertSingle(
  ctx: ConvertContext,
  t: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
): TypeModel | undefined {
  const s = ctx.host.shape(t);
  switch (s.kind) {
    case "string":
      return { kind: "string" };
    case "number":
      return { kind: "number" };
    case "bigint":
      return { kind: "integer", bigint: true };
    case "boolean":
      return { kind: "boolean" };
    case "stringLiteral":
      return { kind: "enum", valueType: "string", values: [s.value] };
    case "numberLiteral":
      return { kind: "enum", valueType: Number.isInteger(s.value) ? "integer" : "number", values: [s.value] };
    case "enumLiteral":
      return enumModel(ctx, [t], t, path);
    case "intersection":
      return convertIntersection(ctx, t, s.members, node, path, NESTED);
    case "object":
      return convertObjectType(ctx, t, node, path, NESTED);
    case "any":
    case "unknown": {
      const unresolved = s.kind === "any" ? ctx.host.unresolvedReason(node) : undefined;
      if (unresolved)
        return fail(
          ctx,
          path,
          t,
          `TypeScript cannot resolve the type (${unresolved.message.replace(/\.$/, "")})`,
          UNRESOLVED_FIX,
          unresolved,
        );
      return fail(ctx, path, t, `'${s.kind}' says nothing about the value`, "Declare the type the tool expects.");
    }
    case "typeParameter":
      return fail(ctx, path, t, "an open type parameter has no schema", "Use a concrete type.");
    case "nonPrimitive":
      return fail(
        ctx,
        path,
        t,
        "'object' says nothing about the properties",
        "Declare an interface with the properties.",
      );
    case "symbol":
      return fail(ctx, path, t, "a symbol is not a JSON value", "Use a string.");
    case "booleanLiteral":
      if (ctx.booleanLiteralsAt === ctx.stack.length) return { kind: "enum", valueType: "boolean", values: [s.value] };
      return fail(
        ctx,
        path,
        t,
        "a single boolean literal is not supported (except as the discriminator of a union of object types)",
        "Use `boolean`.",
      );
    case "null":
    case "undefined":
    case "void":
    case "never":
    case "bigintLiteral":
    case "union":
    case "other":
      return fail(
        ctx,
        path,
        t,
        "this kind of type is not supported",
        "Use a type listed in the typed-mcp mapping (spec §4).",
      );
    default:
      return assertNever(s);
  }
}

/** Whether a converted model is object-shaped for results (spec §6; a discriminated union of objects, §4a). */
export function isObjectShaped(m: TypeModel): m is ObjectModel | Extract<TypeModel, { kind: "record" }> | UnionModel {
  return m.kind === "object" || m.kind === "record" || (m.kind === "union" && m.discriminator !== undefined);
}
