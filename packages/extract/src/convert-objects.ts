/**
 * Object types in the type → model conversion (spec §4, "Objects"): arrays, tuples, built-ins
 * (through `convert-builtins.ts`), records and index signatures, interfaces, object literals and
 * classes — which object types are data, recursion, the listed properties and their models, and
 * how the reader constructs a class instance.
 */
import { toCamelCase } from "@typed-mcp/model";
import type { ObjectModel, PropertyModel, TypeModel } from "@typed-mcp/model";
import type { ConstructorInfo, NamedInfo, ObjectShape, PropertyInfo, TypeNodeRef, TypeRef } from "./backend/host.js";
import type { ConvertContext, ConvertNested } from "./convert.js";
import { convertBuiltin } from "./convert-builtins.js";
import { applyConstraints, docConstraints } from "./convert-constraints.js";
import { fail } from "./convert-problems.js";
import {
  checkWireNames,
  ctorParamRequired,
  ctorRequired,
  keepProperty,
  mappedKeyOrder,
  parseNaming,
} from "./convert-properties.js";
import { convertTuple } from "./convert-unions.js";
import { docMainText, docParamText, docTagText, hasDocTag, parseDocComment } from "./jsdoc.js";

/** The fix of an unfillable constructor parameter (OMCG0005). */
const CTOR_FIX = "Make the parameter a public property (or give it a default).";

/** A problem's reason and its fix, as {@link fail} reports them. */
interface Problem {
  why: string;
  fix: string;
}

/** Object types: arrays, built-ins (Date, URL, Uint8Array, Set, Map), records, interfaces, classes. */
export function convertObjectType(
  ctx: ConvertContext,
  t: TypeRef,
  node: TypeNodeRef | undefined,
  path: string,
  nested: ConvertNested,
): TypeModel | undefined {
  const { host } = ctx;
  const o = host.object(t);
  if (o.tuple) return convertTuple(ctx, t, o.typeArguments, path, nested.type);
  if (o.arrayElement) {
    const items = nested.type(ctx, o.arrayElement, host.childNode(node, "element"), path + "[]");
    return items ? { kind: "array", items } : undefined;
  }
  const named = o.named;
  if (named?.builtin) {
    const builtin = convertBuiltin(ctx, t, o, node, path, nested.type);
    if (builtin !== "object") return builtin;
  }
  const notData = notDataProblem(ctx, o);
  if (notData) return fail(ctx, path, t, notData.why, notData.fix);
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
    const empty = emptyObjectProblem(ctx, t, named, props.length);
    return fail(ctx, path, t, empty.why, empty.fix);
  }
  ctx.stack.push(id);
  try {
    return convertObjectBody(ctx, t, o, node, path, listed, nested);
  } finally {
    ctx.stack.pop();
  }
}

/**
 * Why an object type that is not a built-in is not data (a typed-mcp type, a function or a
 * constructor, an index signature keyed by anything but `string`), or `undefined` when it is.
 */
function notDataProblem(ctx: ConvertContext, o: ObjectShape): Problem | undefined {
  if (o.named?.typedMcp)
    return {
      why: `'${o.named.name}' from typed-mcp cannot be ${ctx.mode === "input" ? "an argument" : "part of a value"}`,
      fix: "Use a plain data type.",
    };
  if (o.callable)
    return {
      why: "functions and classes' constructors are not data",
      fix: "Pass data and call the function inside the tool.",
    };
  if (o.otherIndex && !o.stringIndex)
    return {
      why: "records and index signatures keyed by anything but `string` are not supported",
      fix: "Use `Record<string, T>`.",
    };
  return undefined;
}

/**
 * Why an object type without listed properties (and without a string index signature) says
 * nothing: a class's required constructor parameter no property fills (named, spec §4), a class
 * without public data properties, or `{}`. `declared` counts its properties before filtering.
 */
function emptyObjectProblem(ctx: ConvertContext, t: TypeRef, named: NamedInfo | undefined, declared: number): Problem {
  if (named?.isClass && ctx.mode === "input") {
    const unfilled = ctx.host.classConstructor(t, ctx.file)?.params.find((cp) => !cp.optional && !cp.hasDefault);
    if (unfilled)
      return {
        why: `its constructor parameter '${unfilled.name ?? "?"}' is not filled by any listed public property`,
        fix: CTOR_FIX,
      };
  }
  if (named?.isClass && declared > 0)
    return { why: "the class has no public data properties", fix: "Give it public fields." };
  return {
    why: "'{}' (an object type without properties) says nothing about the value",
    fix: "Declare the properties.",
  };
}

/** The object model of a type with listed properties (or a string index signature); `t` is on the stack. */
function convertObjectBody(
  ctx: ConvertContext,
  t: TypeRef,
  o: ObjectShape,
  node: TypeNodeRef | undefined,
  path: string,
  listed: PropertyInfo[],
  nested: ConvertNested,
): TypeModel | undefined {
  const { host } = ctx;
  const named = o.named;
  let additional: TypeModel | undefined;
  if (o.stringIndex) {
    additional = nested.type(ctx, o.stringIndex, host.childNode(node, 1), path + "{}");
    if (!additional) return undefined;
    if (listed.length === 0) return { kind: "record", values: additional };
  }
  const typeDoc = host.typeDoc(t);
  const naming = parseNaming(ctx, path, typeDoc ? parseDocComment(typeDoc) : undefined);
  const ctor = named?.isClass ? host.classConstructor(t, ctx.file) : undefined;
  const properties = convertProperties(ctx, path, listed, naming, !!named?.isClass, ctor, nested);
  if (!properties) return undefined;
  checkWireNames(ctx, path, properties);
  const result: ObjectModel = { kind: "object", properties };
  if (additional) result.additionalProperties = additional;
  if (ctor) {
    const construct = construction(ctx, t, path, ctor, properties);
    if (construct === undefined) return undefined;
    if (construct) result.construct = construct;
  }
  const at = named && !named.builtin ? host.declaredAt(t) : undefined;
  if (at && at.line > 0) result.declaredAt = at;
  return result;
}

/**
 * How the reader constructs an instance of the class (spec §4): the exported
 * constructor with the listed properties that fill its parameters, in parameter order; `null`
 * when the class is not exported and an instance needs no constructor arguments (output, or only
 * optional parameters); `undefined` after a problem (a required parameter no property fills, or
 * an unexported class whose constructor needs arguments).
 */
function construction(
  ctx: ConvertContext,
  t: TypeRef,
  path: string,
  ctor: ConstructorInfo,
  properties: PropertyModel[],
): NonNullable<ObjectModel["construct"]> | null | undefined {
  if (!ctor.exportName) {
    if (ctx.mode === "input" && ctor.params.some((cp) => !cp.optional && !cp.hasDefault))
      return fail(ctx, path, t, "the class is not exported, so the reader cannot construct it", "Export the class.");
    return null;
  }
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
  return { from: ctor.from!, exportName: ctor.exportName, args };
}

/** The models of the listed properties (`@ignore`d ones left out), or `undefined` after a problem. */
function convertProperties(
  ctx: ConvertContext,
  path: string,
  listed: PropertyInfo[],
  naming: "camelCase" | undefined,
  isClass: boolean,
  ctor: ConstructorInfo | undefined,
  nested: ConvertNested,
): PropertyModel[] | undefined {
  const properties: PropertyModel[] = [];
  for (const p of listed) {
    const doc = p.doc ? parseDocComment(p.doc) : undefined;
    if (hasDocTag(doc, "ignore")) {
      const required = !p.optional && !ctorRequired(ctor, p.name) && !p.hasInitializer;
      if (required && ctx.mode === "input") {
        const r = nested.top(ctx, p.type, p.typeNode, `${path}.${p.name}`);
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
    const r = nested.top(ctx, p.type, p.typeNode, ppath);
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
