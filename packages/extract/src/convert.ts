/**
 * Type → model conversion (spec §4), one small handler per type kind, in the style of
 * ts-json-schema-generator. Works only through the neutral {@link TypeHost}; produces plain
 * {@link TypeModel} data. The first unsupported type met under a parameter (or the return
 * type) is reported once, naming the path into the type, the type, and where it is declared.
 */
import { assertNever, toCamelCase } from "@typed-mcp/model";
import type { Constraints, ObjectModel, PropertyModel, SourceLocation, TypeModel, UnionModel } from "@typed-mcp/model";
import type { ConstructorInfo, ObjectShape, PropertyInfo, TypeHost, TypeNodeRef, TypeRef } from "./backend/host.js";
import { docMainText, docParamText, docTagText, hasDocTag, parseDocComment } from "./jsdoc.js";
import { addConstraint, applyConstraints, docConstraints } from "./convert-constraints.js";
import { displayPath, fail, tagProblem } from "./convert-problems.js";
import {
  checkWireNames,
  ctorParamRequired,
  ctorRequired,
  keepProperty,
  mappedKeyOrder,
  parseNaming,
} from "./convert-properties.js";
import { enumModel, literalEnum } from "./convert-enums.js";
import { convertTuple, convertUnion } from "./convert-unions.js";

export { applyConstraints, displayPath, docConstraints, tagProblem };

/** A problem found while converting, reported by the caller at the parameter / return type. */
export interface ConvertProblem {
  code: "OMCG0004" | "OMCG0005" | "OMCG0009" | "OMCG0006" | "OMCG0007";
  message: string;
  /** A type TypeScript cannot resolve (spec §4): OMCG0005 wherever the parameter is read (resources and prompts too). */
  unresolved?: true;
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
export function convertType(
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
      return convertIntersection(ctx, t, s.members, node, path);
    case "object":
      return convertObjectType(ctx, t, node, path);
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

/** The fix of an unfillable constructor parameter (OMCG0005). */
const CTOR_FIX = "Make the parameter a public property (or give it a default).";

/** `number & Minimum<1>`, `Int`, `string & MaxLength<20>`, or an intersection of object types. */
function convertIntersection(
  ctx: ConvertContext,
  t: TypeRef,
  members: TypeRef[],
  node: TypeNodeRef | undefined,
  path: string,
): TypeModel | undefined {
  const { host } = ctx;
  const constraints: Constraints = {};
  let int = false;
  const others: TypeRef[] = [];
  for (const m of members) {
    const tags = host.shape(m).kind === "object" ? host.tags(m) : undefined;
    if (!tags) {
      others.push(m);
      continue;
    }
    for (const tag of tags) {
      if (tag.name === "int") int = true;
      else addConstraint(ctx, path, constraints, tag.name, tag.value, "type tag");
    }
  }
  let base: TypeModel | undefined;
  if (others.length === 1) {
    base = convertSingle(ctx, others[0]!, undefined, path);
  } else if (others.length > 1 && others.every((m) => host.shape(m).kind === "object")) {
    if (int || Object.keys(constraints).length) {
      tagProblem(
        ctx,
        path,
        "type tags (Int, Minimum, MaxLength, …) apply to numbers, strings and arrays, not to object types.",
      );
      return undefined;
    }
    return convertObjectType(ctx, t, node, path);
  } else {
    return fail(
      ctx,
      path,
      t,
      "an intersection of these types has no JSON Schema",
      "Use an interface or a primitive with type tags.",
    );
  }
  if (!base) return undefined;
  if (int) {
    if (base.kind === "number") base = { kind: "integer" };
    else if (!(base.kind === "integer")) {
      tagProblem(ctx, path, "`Int` applies to numbers only.");
      return undefined;
    }
  }
  return applyConstraints(ctx, path, base, constraints, "type tag");
}

const BUILTIN_UNSUPPORTED_FIX = "Use a plain data type (string, number, an interface, …).";

/** The built-ins with a model of their own kind (spec §4 "Built-ins"). */
const BUILTIN_KINDS = new Map<string, "date" | "url" | "bytes">([
  ["Date", "date"],
  ["URL", "url"],
  ["Uint8Array", "bytes"],
]);

/** Object types: arrays, built-ins (Date, URL, Uint8Array, Set, Map), records, interfaces, classes. */
function convertObjectType(
  ctx: ConvertContext,
  t: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
): TypeModel | undefined {
  const { host } = ctx;
  const o = host.object(t);
  if (o.tuple) return convertTuple(ctx, t, o.typeArguments, path, convertType);
  if (o.arrayElement) {
    const items = convertType(ctx, o.arrayElement, host.childNode(node, "element"), path + "[]");
    return items ? { kind: "array", items } : undefined;
  }
  const named = o.named;
  if (named?.builtin) {
    const builtin = convertBuiltin(ctx, t, o, node, path);
    if (builtin !== "object") return builtin;
  }
  if (named?.typedMcp)
    return fail(
      ctx,
      path,
      t,
      `'${named.name}' from typed-mcp cannot be ${ctx.mode === "input" ? "an argument" : "part of a value"}`,
      "Use a plain data type.",
    );
  if (o.callable)
    return fail(
      ctx,
      path,
      t,
      "functions and classes' constructors are not data",
      "Pass data and call the function inside the tool.",
    );
  if (o.otherIndex && !o.stringIndex)
    return fail(
      ctx,
      path,
      t,
      "records and index signatures keyed by anything but `string` are not supported",
      "Use `Record<string, T>`.",
    );
  const id = host.typeId(t);
  if (ctx.stack.includes(id))
    return fail(
      ctx,
      path,
      t,
      "recursive types are not supported",
      "Flatten the type or cut the cycle (for example with an id reference).",
    );
  const props = mappedKeyOrder(ctx, t, node, host.properties(t));
  const listed = props.filter((p) => keepProperty(ctx, p, !!named?.isClass));
  if (listed.length === 0 && !o.stringIndex) {
    if (named?.isClass && ctx.mode === "input") {
      // Nothing listed can fill a required constructor parameter: name it (spec §4), not '{}'.
      const unfilled = host.classConstructor(t, ctx.file)?.params.find((cp) => !cp.optional && !cp.hasDefault);
      if (unfilled)
        return fail(
          ctx,
          path,
          t,
          `its constructor parameter '${unfilled.name ?? "?"}' is not filled by any listed public property`,
          CTOR_FIX,
        );
    }
    if (named?.isClass && props.length > 0)
      return fail(ctx, path, t, "the class has no public data properties", "Give it public fields.");
    return fail(
      ctx,
      path,
      t,
      "'{}' (an object type without properties) says nothing about the value",
      "Declare the properties.",
    );
  }
  ctx.stack.push(id);
  try {
    return convertObjectBody(ctx, t, o, node, path, listed);
  } finally {
    ctx.stack.pop();
  }
}

/**
 * A built-in object type (`o.named.builtin`): its model, a problem (`undefined`), or `"object"`
 * for the built-ins read as plain objects (`Array`/`ReadonlyArray` references, `Object`, `__type`).
 */
function convertBuiltin(
  ctx: ConvertContext,
  t: TypeRef,
  o: ObjectShape,
  node: TypeNodeRef | undefined,
  path: string,
): TypeModel | undefined | "object" {
  const { host } = ctx;
  const name = o.named!.name;
  const kind = BUILTIN_KINDS.get(name);
  if (kind) return { kind };
  switch (name) {
    case "Set":
    case "ReadonlySet": {
      const el = o.typeArguments[0];
      if (!el) return fail(ctx, path, t, "a Set without an item type", "Write `Set<T>`.");
      const items = convertType(ctx, el, host.childNode(node, "element"), path + "[]");
      return items ? { kind: "array", items, set: true } : undefined;
    }
    case "Map":
    case "ReadonlyMap": {
      const [k, v] = o.typeArguments;
      if (!k || !v || host.shape(k).kind !== "string")
        return fail(ctx, path, t, "maps are supported only with `string` keys", "Use `Map<string, T>`.");
      const values = convertType(ctx, v, host.childNode(node, 1), path + "{}");
      return values ? { kind: "record", values, map: true } : undefined;
    }
    case "Promise":
      return fail(ctx, path, t, "a Promise is not a value that can be sent", "Take the awaited value instead.");
    case "Array":
    case "ReadonlyArray":
    case "Object":
    case "__type":
      return "object";
    default:
      return fail(ctx, path, t, `the built-in '${name}' has no JSON form`, BUILTIN_UNSUPPORTED_FIX);
  }
}

/** The object model of a type with listed properties (or a string index signature); `t` is on the stack. */
function convertObjectBody(
  ctx: ConvertContext,
  t: TypeRef,
  o: ObjectShape,
  node: TypeNodeRef | undefined,
  path: string,
  listed: PropertyInfo[],
): TypeModel | undefined {
  const { host } = ctx;
  const named = o.named;
  let additional: TypeModel | undefined;
  if (o.stringIndex) {
    additional = convertType(ctx, o.stringIndex, host.childNode(node, 1), path + "{}");
    if (!additional) return undefined;
    if (listed.length === 0) return { kind: "record", values: additional };
  }
  const typeDoc = host.typeDoc(t);
  const naming = parseNaming(ctx, path, typeDoc ? parseDocComment(typeDoc) : undefined);
  const ctor = named?.isClass ? host.classConstructor(t, ctx.file) : undefined;
  const properties = convertProperties(ctx, path, listed, naming, !!named?.isClass, ctor);
  if (!properties) return undefined;
  checkWireNames(ctx, path, properties);
  const result: ObjectModel = { kind: "object", properties };
  if (additional) result.additionalProperties = additional;
  if (ctor && ctor.exportName && ctor.params.length > 0) {
    const args: string[] = [];
    for (const cp of ctor.params) {
      const prop = properties.find((p) => p.key === cp.name);
      if (!prop || cp.rest) {
        if (!cp.optional && !cp.hasDefault && ctx.mode === "input") {
          return fail(
            ctx,
            path,
            t,
            `its constructor parameter '${cp.name ?? "?"}' is not filled by any listed public property`,
            CTOR_FIX,
          );
        }
        break;
      }
      args.push(prop.name);
    }
    result.construct = { from: ctor.from!, exportName: ctor.exportName, args };
  } else if (ctor && ctor.exportName) {
    result.construct = { from: ctor.from!, exportName: ctor.exportName, args: [] };
  } else if (ctor && ctx.mode === "input" && ctor.params.some((cp) => !cp.optional && !cp.hasDefault)) {
    return fail(ctx, path, t, "the class is not exported, so the reader cannot construct it", "Export the class.");
  }
  const at = named && !named.builtin ? host.declaredAt(t) : undefined;
  if (at && at.line > 0) result.declaredAt = at;
  return result;
}

/** The models of the listed properties (`@ignore`d ones left out), or `undefined` after a problem. */
function convertProperties(
  ctx: ConvertContext,
  path: string,
  listed: PropertyInfo[],
  naming: "camelCase" | undefined,
  isClass: boolean,
  ctor: ConstructorInfo | undefined,
): PropertyModel[] | undefined {
  const properties: PropertyModel[] = [];
  for (const p of listed) {
    const doc = p.doc ? parseDocComment(p.doc) : undefined;
    if (hasDocTag(doc, "ignore")) {
      const required = !p.optional && !ctorRequired(ctor, p.name) && !p.hasInitializer;
      if (required && ctx.mode === "input") {
        const r = convertTop(ctx, p.type, p.typeNode, `${path}.${p.name}`);
        if (r && !r.includesUndefined) {
          ctx.problems.push({
            code: "OMCG0006",
            message: `${ctx.subject}: '${path}.${p.name}' has @ignore but is required; make it optional (\`${p.name}?:\`) or remove @ignore.`,
          });
        }
      }
      continue;
    }
    const ppath = `${path}.${p.name}`;
    const r = convertTop(ctx, p.type, p.typeNode, ppath);
    if (!r) return undefined;
    const wire = docTagText(doc, "jsonName") ?? (naming === "camelCase" ? toCamelCase(p.name) : p.name);
    const model = applyConstraints(ctx, ppath, r.model, docConstraints(ctx, ppath, doc), "JSDoc tag");
    let required = !p.optional && !r.includesUndefined;
    if (isClass) {
      if (p.hasInitializer) required = false;
      const cr = ctorParamRequired(ctor, p.name);
      if (cr !== undefined) required = cr;
    }
    const pm: PropertyModel = { name: wire, key: p.name, type: model, required };
    const description =
      docTagText(doc, "description") ??
      docMainText(doc) ??
      (p.parameterProperty && ctor?.doc ? docParamText(parseDocComment(ctor.doc), p.name) : undefined);
    if (description !== undefined) pm.description = description;
    if (p.kind === "getter") pm.readOnly = true;
    properties.push(pm);
  }
  return properties;
}

/** Whether a converted model is object-shaped for results (spec §6; a discriminated union of objects, §4a). */
export function isObjectShaped(m: TypeModel): m is ObjectModel | Extract<TypeModel, { kind: "record" }> | UnionModel {
  return m.kind === "object" || m.kind === "record" || (m.kind === "union" && m.discriminator !== undefined);
}

/** Re-exported for callers of the conversion (kept: part of this module's exports). */
export type { SourceLocation };
