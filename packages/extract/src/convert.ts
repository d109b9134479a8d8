/**
 * Type → model conversion (spec §4), one small handler per type kind, in the style of
 * ts-json-schema-generator. Works only through the neutral {@link TypeHost}; produces plain
 * {@link TypeModel} data. The first unsupported type met under a parameter (or the return
 * type) is reported once, naming the path into the type, the type, and where it is declared.
 */
import { isAbsolute, relative } from "node:path";
import { assertNever, toCamelCase } from "@typed-mcp/model";
import type { Constraints, ObjectModel, PropertyModel, SourceLocation, TypeModel } from "@typed-mcp/model";
import type { NamedInfo, PropertyInfo, TypeHost, TypeNodeRef, TypeRef } from "./backend/host.js";
import { docMainText, docParamText, docTagText, hasDocTag, parseDocComment } from "./jsdoc.js";
import type { DocComment } from "./jsdoc.js";

/** A problem found while converting, reported by the caller at the parameter / return type. */
export interface ConvertProblem {
  code: "OMCG0004" | "OMCG0005" | "OMCG0009" | "OMCG0006" | "OMCG0007";
  message: string;
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
}

/** Result of converting a type that may include `undefined` (optionality is the caller's business). */
export interface Converted {
  model: TypeModel;
  /** The type included `undefined` (or `void`). */
  includesUndefined: boolean;
}

const fail = (ctx: ConvertContext, path: string, t: TypeRef | undefined, why: string, fix: string): undefined => {
  if (ctx.problems.some((p) => p.code === "OMCG0005" || p.code === "OMCG0009")) return undefined;
  let where = "";
  if (t) {
    const at = ctx.host.declaredAt(t);
    if (at) where = at.line > 0 ? ` (declared at ${displayPath(at.file, ctx.root)}:${at.line}:${at.column})` : ` (declared in ${at.file.split("/").pop()})`;
  }
  const typeText = t ? ctx.host.text(t) : "?";
  ctx.problems.push({
    code: ctx.mode === "input" ? "OMCG0005" : "OMCG0009",
    message: `${ctx.subject}: '${path}' has type '${typeText}'${where}, which typed-mcp cannot ${ctx.mode === "input" ? "read" : "write"}: ${why}. ${fix}`,
  });
  return undefined;
};

/**
 * A file as messages name it (spec §4: a diagnostic "names … where that type is declared"):
 * relative to `root` with forward slashes, as the CLI writes locations (`src/types.ts`,
 * `../shared/types.ts`); absolute when there is no root or the file is the root itself.
 */
export function displayPath(file: string, root: string | undefined): string {
  if (root === undefined) return file;
  const rel = relative(root, file);
  return (rel === "" || isAbsolute(rel) ? file : rel).replace(/\\/g, "/");
}

/** Reports a tag problem (OMCG0007). */
export function tagProblem(ctx: ConvertContext, path: string, message: string): void {
  ctx.problems.push({ code: "OMCG0007", message: `${ctx.subject}: '${path}': ${message}` });
}

/**
 * Converts a type that may include `undefined` / `void` (a parameter, a property).
 * `node` is the type annotation as written, if any (source order of literals).
 */
export function convertTop(ctx: ConvertContext, t: TypeRef, node: TypeNodeRef | undefined, path: string): Converted | undefined {
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
export function convertResult(ctx: ConvertContext, t: TypeRef, node: TypeNodeRef | undefined, path: string): TypeModel | undefined {
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
export function convertType(ctx: ConvertContext, t: TypeRef, node: TypeNodeRef | undefined, path: string): TypeModel | undefined {
  const r = convertTop(ctx, t, node, path);
  if (!r) return undefined;
  if (r.includesUndefined) return fail(ctx, path, t, "undefined is not a JSON value here", "Use `T | null` instead of `T | undefined` inside arrays, records and maps.");
  return r.model;
}

/** Handles `null` and literal unions among `members` (the union without `undefined`). */
function convertMembers(ctx: ConvertContext, members: TypeRef[], whole: TypeRef, node: TypeNodeRef | undefined, path: string): TypeModel | undefined {
  const { host } = ctx;
  const nullable = members.some((m) => host.shape(m).kind === "null");
  const rest = members.filter((m) => host.shape(m).kind !== "null");
  if (rest.length === 0) return fail(ctx, path, whole, "`null`/`undefined` alone carries no value", "Give it a real type such as `string | null`.");
  let inner: TypeModel | undefined;
  if (rest.length === 1) {
    inner = convertSingle(ctx, rest[0]!, host.childNode(node, "nonNull"), path);
  } else {
    const shapes = rest.map((m) => host.shape(m));
    if (shapes.length === 2 && shapes.every((x) => x.kind === "booleanLiteral")) inner = { kind: "boolean" };
    else if (shapes.every((x) => x.kind === "stringLiteral")) {
      inner = literalEnum(ctx, shapes.map((x) => (x as { value: string }).value), whole, node, "string");
    } else if (shapes.every((x) => x.kind === "numberLiteral")) {
      const values = shapes.map((x) => (x as { value: number }).value);
      inner = literalEnum(ctx, values, whole, node, values.every(Number.isInteger) ? "integer" : "number");
    } else if (shapes.every((x) => x.kind === "enumLiteral" && x.enumId === (shapes[0] as { enumId: string }).enumId)) {
      inner = enumModel(ctx, rest, whole, path);
    } else {
      return fail(
        ctx,
        path,
        whole,
        "a union of different types has no single JSON Schema type",
        "Use one type (an object with optional properties instead of a union of object types, or a union of string literals).",
      );
    }
  }
  if (!inner) return undefined;
  return nullable ? { kind: "nullable", inner } : inner;
}

function literalEnum(
  ctx: ConvertContext,
  values: (string | number)[],
  whole: TypeRef,
  node: TypeNodeRef | undefined,
  valueType: "string" | "integer" | "number",
): TypeModel {
  const order = ctx.host.literalOrder(whole, node);
  let sorted: (string | number)[];
  if (order && values.every((v) => order.includes(v))) {
    sorted = [];
    for (const v of order) if (values.includes(v) && !sorted.includes(v)) sorted.push(v);
  } else if (valueType === "string") {
    sorted = [...values].sort((a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0));
  } else {
    sorted = [...values].sort((a, b) => (a as number) - (b as number));
  }
  return { kind: "enum", valueType, values: sorted };
}

function enumModel(ctx: ConvertContext, members: TypeRef[], whole: TypeRef, path: string): TypeModel | undefined {
  const info = ctx.host.enumOf(members[0]!);
  if (!info) return fail(ctx, path, whole, "the enum's declaration could not be read", "Use a union of string literals.");
  const present = new Set(members.map((m) => (ctx.host.shape(m) as { value: string | number }).value));
  const chosen = info.members.filter((m) => present.has(m.value));
  if (chosen.every((m) => typeof m.value === "string")) {
    const values: string[] = [];
    for (const m of chosen) if (!values.includes(m.value as string)) values.push(m.value as string);
    return { kind: "enum", valueType: "string", values };
  }
  if (chosen.every((m) => typeof m.value === "number")) {
    return { kind: "enum", valueType: "string", values: chosen.map((m) => m.name), numeric: chosen.map((m) => m.value as number) };
  }
  return fail(ctx, path, whole, "an enum mixing string and number members", "Use a string enum or a numeric enum.");
}

/** Dispatch on one non-union, non-null type. */
function convertSingle(ctx: ConvertContext, t: TypeRef, node: TypeNodeRef | undefined, path: string): TypeModel | undefined {
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
    case "unknown":
      return fail(ctx, path, t, `'${s.kind}' says nothing about the value`, "Declare the type the tool expects.");
    case "typeParameter":
      return fail(ctx, path, t, "an open type parameter has no schema", "Use a concrete type.");
    case "nonPrimitive":
      return fail(ctx, path, t, "'object' says nothing about the properties", "Declare an interface with the properties.");
    case "symbol":
      return fail(ctx, path, t, "a symbol is not a JSON value", "Use a string.");
    case "booleanLiteral":
      return fail(ctx, path, t, "a single boolean literal is not supported", "Use `boolean`.");
    case "null":
    case "undefined":
    case "void":
    case "never":
    case "bigintLiteral":
    case "union":
    case "other":
      return fail(ctx, path, t, "this kind of type is not supported", "Use a type listed in the typed-mcp mapping (spec §4).");
    default:
      return assertNever(s);
  }
}

/** The fix of an unfillable constructor parameter (OMCG0005). */
const CTOR_FIX = "Make the parameter a public property (or give it a default).";

/** Code-unit order of strings (JavaScript's `<`), the order of computed unions (spec §4). */
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Property order of an object type that the standard library's keyed mapped types build from a
 * union of keys (spec §4, "Order of `enum` values" and "`Record<"a" | "b", T>`"): `Record<K, T>`
 * and `Pick<T, K>` list their properties in the order the key union is written in the source
 * (the type argument itself, or a type alias of a written union: `Record<"b" | "a", T>` → `b`,
 * `a`), also behind a type alias of the `Record`/`Pick` (`type Opts = Record<"b" | "a", T>`,
 * read from the alias declaration); computed keys (`keyof X`, `Exclude<…>`, a mapped type, and
 * `Omit<T, K>`, whose keys are `Exclude<keyof T, K>`) are sorted by UTF-16 code unit. Never the
 * checker's union order, which differs between TypeScript versions. Other mapped types whose
 * properties no declaration writes (`{ [K in "b" | "a"]: T }`) are sorted by code unit too. Any
 * other object type (interfaces, classes, object literals, homomorphic mapped types such as
 * `Partial<T>`, which keep `T`'s property order) is returned as given. `node` is the annotation
 * the type was written as, if any.
 */
function mappedKeyOrder(ctx: ConvertContext, t: TypeRef, node: TypeNodeRef | undefined, props: PropertyInfo[]): PropertyInfo[] {
  const isKeyed = (a: NamedInfo | undefined) => !!a?.builtin && (a.name === "Record" || a.name === "Pick" || a.name === "Omit");
  let alias = ctx.host.aliasNamed(t);
  let keyed = isKeyed(alias);
  if (!keyed && alias && !alias.builtin) {
    // A type alias of a `Record`/`Pick` (`type Opts = Record<"b" | "a", T>`, or an alias of such an
    // alias): the keys are written in the alias declaration.
    const declared = ctx.host.aliasTypeNode(t);
    const named = ctx.host.referenceNamed(declared);
    if (isKeyed(named)) [alias, keyed, node] = [named, true, declared];
  }
  // Properties that no declaration writes (a mapped type over a union of keys, such as
  // `{ [K in "b" | "a"]: T }`) come in the checker's union order: sort them.
  const synthesized = props.length > 0 && props.every((p) => p.declaredAt === undefined);
  if (!keyed && !synthesized) return props;
  const names = props.map((p) => p.name);
  let order: string[] | undefined;
  if (keyed && alias!.name !== "Omit") {
    const keyNode = ctx.host.childNode(node, alias!.name === "Record" ? 0 : 1);
    const written = keyNode ? ctx.host.literalOrder(t, keyNode) : undefined;
    if (written && names.every((n) => written.includes(n))) order = written.filter((v): v is string => typeof v === "string");
  }
  order ??= [...names].sort(byCodeUnit);
  const rank = new Map(order.map((n, i) => [n, i] as const));
  return [...props].sort((a, b) => rank.get(a.name)! - rank.get(b.name)!);
}

/** `number & Minimum<1>`, `Int`, `string & MaxLength<20>`, or an intersection of object types. */
function convertIntersection(ctx: ConvertContext, t: TypeRef, members: TypeRef[], node: TypeNodeRef | undefined, path: string): TypeModel | undefined {
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
      tagProblem(ctx, path, "type tags (Int, Minimum, MaxLength, …) apply to numbers, strings and arrays, not to object types.");
      return undefined;
    }
    return convertObjectType(ctx, t, node, path);
  } else {
    return fail(ctx, path, t, "an intersection of these types has no JSON Schema", "Use an interface or a primitive with type tags.");
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

const VALIDATION_TAGS = ["minimum", "maximum", "minLength", "maxLength", "pattern", "format"] as const;
const UNSUPPORTED_KEYWORDS = new Set([
  "min",
  "max",
  "minitems",
  "maxitems",
  "exclusiveminimum",
  "exclusivemaximum",
  "multipleof",
  "uniqueitems",
  "minproperties",
  "maxproperties",
  "regex",
  "regexp",
  "minlen",
  "maxlen",
]);

/**
 * Reads validation tags from a doc comment (spec §4): exact names `@minimum @maximum @minLength
 * @maxLength @pattern @format`; a differently-cased one or another JSON Schema keyword
 * (`@min`, `@maxItems`, `@exclusiveMinimum`, …) is OMCG0007.
 */
export function docConstraints(ctx: ConvertContext, path: string, doc: DocComment | undefined): Constraints {
  const c: Constraints = {};
  if (!doc) return c;
  for (const tag of doc.tags) {
    const canonical = VALIDATION_TAGS.find((v) => v.toLowerCase() === tag.name.toLowerCase());
    if (canonical && canonical !== tag.name) {
      tagProblem(ctx, path, `unknown tag @${tag.name}; write @${canonical}.`);
      continue;
    }
    if (!canonical) {
      if (UNSUPPORTED_KEYWORDS.has(tag.name.toLowerCase()))
        tagProblem(ctx, path, `unknown validation tag @${tag.name}; the tags are @minimum, @maximum, @minLength, @maxLength (also for arrays), @pattern, @format.`);
      continue;
    }
    const text = tag.text.trim();
    if (canonical === "pattern") {
      addConstraint(ctx, path, c, canonical, text, "JSDoc tag");
    } else if (canonical === "format") {
      addConstraint(ctx, path, c, canonical, text.split(/\s+/)[0] ?? "", "JSDoc tag");
    } else {
      const word = text.split(/\s+/)[0] ?? "";
      const n = word === "" ? NaN : Number(word);
      if (!Number.isFinite(n)) {
        tagProblem(ctx, path, `@${canonical} needs a number, got '${text}'.`);
        continue;
      }
      addConstraint(ctx, path, c, canonical, n, "JSDoc tag");
    }
  }
  return c;
}

function addConstraint(ctx: ConvertContext, path: string, c: Constraints, name: string, value: unknown, source: string): void {
  const set = (k: keyof Constraints, v: unknown) => {
    if (c[k] !== undefined && c[k] !== v) {
      tagProblem(ctx, path, `${k} is given twice with different values (${String(c[k])} and ${String(v)}).`);
      return;
    }
    (c as Record<string, unknown>)[k] = v;
  };
  switch (name) {
    case "minimum":
    case "maximum":
      if (typeof value !== "number" || !Number.isFinite(value)) return tagProblem(ctx, path, `${name} needs a number literal (${source}).`);
      return set(name, value);
    case "minLength":
    case "maxLength":
      if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
        return tagProblem(ctx, path, `${name} needs a non-negative integer (${source}).`);
      return set(name, value);
    case "pattern":
      if (typeof value !== "string" || value === "") return tagProblem(ctx, path, `pattern needs a regular expression (${source}).`);
      try {
        new RegExp(value, "u");
      } catch (e) {
        return tagProblem(ctx, path, `pattern /${value}/ does not compile with the u flag: ${(e as Error).message}.`);
      }
      return set("pattern", value);
    case "format":
      if (value !== "email" && value !== "uri") return tagProblem(ctx, path, `format must be "email" or "uri", got '${String(value)}'.`);
      return set("format", value);
    default:
      return tagProblem(ctx, path, `unknown type tag '${name}'.`);
  }
}

/**
 * Attaches constraints to a model (through `nullable`), checking that each fits the type
 * (spec §4): minimum/maximum on numbers; minLength/maxLength on strings and arrays/sets;
 * pattern/format on strings. Also checks `minimum <= maximum` and `minLength <= maxLength`.
 */
export function applyConstraints(ctx: ConvertContext, path: string, model: TypeModel, add: Constraints, source: string): TypeModel {
  const keys = Object.keys(add) as (keyof Constraints)[];
  if (keys.length === 0) return model;
  if (model.kind === "nullable") return { kind: "nullable", inner: applyConstraints(ctx, path, model.inner, add, source) };
  const fits = (k: keyof Constraints): boolean => {
    switch (model.kind) {
      case "number":
      case "integer":
        return k === "minimum" || k === "maximum";
      case "string":
        return k !== "minimum" && k !== "maximum";
      case "array":
        return k === "minLength" || k === "maxLength";
      case "boolean":
      case "enum":
      case "date":
      case "url":
      case "bytes":
      case "record":
      case "object":
        return false;
      default:
        return assertNever(model);
    }
  };
  const bad = keys.filter((k) => !fits(k));
  if (bad.length) {
    const hint = model.kind === "array" ? " (put the type tag on the item type instead, e.g. `(string & MaxLength<20>)[]`)" : "";
    tagProblem(ctx, path, `${bad.map((k) => "@" + k).join(", ")} does not fit ${/^[aeiou]/.test(model.kind) ? "an" : "a"} ${model.kind} (${source})${hint}.`);
    return model;
  }
  if (model.kind !== "number" && model.kind !== "integer" && model.kind !== "string" && model.kind !== "array") return model;
  const merged: Constraints = { ...(model.constraints ?? {}) };
  for (const k of keys) {
    const v = add[k];
    if (merged[k] !== undefined && merged[k] !== v) {
      tagProblem(ctx, path, `${k} is given twice with different values (${String(merged[k])} and ${String(v)}).`);
      continue;
    }
    (merged as Record<string, unknown>)[k] = v;
  }
  if (merged.minimum !== undefined && merged.maximum !== undefined && merged.minimum > merged.maximum)
    tagProblem(ctx, path, `minimum ${merged.minimum} is greater than maximum ${merged.maximum}.`);
  if (merged.minLength !== undefined && merged.maxLength !== undefined && merged.minLength > merged.maxLength)
    tagProblem(ctx, path, `minLength ${merged.minLength} is greater than maxLength ${merged.maxLength}.`);
  return { ...model, constraints: merged } as TypeModel;
}

const BUILTIN_UNSUPPORTED_FIX = "Use a plain data type (string, number, an interface, …).";

/** Object types: arrays, built-ins (Date, URL, Uint8Array, Set, Map), records, interfaces, classes. */
function convertObjectType(ctx: ConvertContext, t: TypeRef, node: TypeNodeRef | undefined, path: string): TypeModel | undefined {
  const { host } = ctx;
  const o = host.object(t);
  if (o.tuple) return fail(ctx, path, t, "tuples are not supported", "Use an array or an object with named properties.");
  if (o.arrayElement) {
    const items = convertType(ctx, o.arrayElement, host.childNode(node, "element"), path + "[]");
    return items ? { kind: "array", items } : undefined;
  }
  const named = o.named;
  if (named?.builtin) {
    switch (named.name) {
      case "Date":
        return { kind: "date" };
      case "URL":
        return { kind: "url" };
      case "Uint8Array":
        return { kind: "bytes" };
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
        if (!k || !v || host.shape(k).kind !== "string") return fail(ctx, path, t, "maps are supported only with `string` keys", "Use `Map<string, T>`.");
        const values = convertType(ctx, v, host.childNode(node, 1), path + "{}");
        return values ? { kind: "record", values, map: true } : undefined;
      }
      case "Promise":
        return fail(ctx, path, t, "a Promise is not a value that can be sent", "Take the awaited value instead.");
      case "Array":
      case "ReadonlyArray":
        break;
      default:
        if (named.name !== "Object" && named.name !== "__type")
          return fail(ctx, path, t, `the built-in '${named.name}' has no JSON form`, BUILTIN_UNSUPPORTED_FIX);
    }
  }
  if (named?.typedMcp) return fail(ctx, path, t, `'${named.name}' from typed-mcp cannot be ${ctx.mode === "input" ? "an argument" : "part of a value"}`, "Use a plain data type.");
  if (o.callable) return fail(ctx, path, t, "functions and classes' constructors are not data", "Pass data and call the function inside the tool.");
  if (o.otherIndex && !o.stringIndex) return fail(ctx, path, t, "records and index signatures keyed by anything but `string` are not supported", "Use `Record<string, T>`.");
  const id = host.typeId(t);
  if (ctx.stack.includes(id)) return fail(ctx, path, t, "recursive types are not supported", "Flatten the type or cut the cycle (for example with an id reference).");
  const props = mappedKeyOrder(ctx, t, node, host.properties(t));
  const listed = props.filter((p) => keepProperty(ctx, p, !!named?.isClass));
  if (listed.length === 0 && !o.stringIndex) {
    if (named?.isClass && ctx.mode === "input") {
      // Nothing listed can fill a required constructor parameter: name it (spec §4), not '{}'.
      const unfilled = host.classConstructor(t, ctx.file)?.params.find((cp) => !cp.optional && !cp.hasDefault);
      if (unfilled) return fail(ctx, path, t, `its constructor parameter '${unfilled.name ?? "?"}' is not filled by any listed public property`, CTOR_FIX);
    }
    if (named?.isClass && props.length > 0) return fail(ctx, path, t, "the class has no public data properties", "Give it public fields.");
    return fail(ctx, path, t, "'{}' (an object type without properties) says nothing about the value", "Declare the properties.");
  }
  ctx.stack.push(id);
  try {
    let additional: TypeModel | undefined;
    if (o.stringIndex) {
      additional = convertType(ctx, o.stringIndex, host.childNode(node, 1), path + "{}");
      if (!additional) return undefined;
      if (listed.length === 0) return { kind: "record", values: additional };
    }
    const typeDoc = host.typeDoc(t);
    const naming = parseNaming(ctx, path, typeDoc ? parseDocComment(typeDoc) : undefined);
    const properties: PropertyModel[] = [];
    const ctor = named?.isClass ? host.classConstructor(t, ctx.file) : undefined;
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
      let model = applyConstraints(ctx, ppath, r.model, docConstraints(ctx, ppath, doc), "JSDoc tag");
      let required = !p.optional && !r.includesUndefined;
      if (named?.isClass) {
        if (p.hasInitializer) required = false;
        const cr = ctorParamRequired(ctor, p.name);
        if (cr !== undefined) required = cr;
      }
      const pm: PropertyModel = { name: wire, key: p.name, type: model, required };
      const description = docTagText(doc, "description") ?? docMainText(doc) ?? (p.parameterProperty && ctor?.doc ? docParamText(parseDocComment(ctor.doc), p.name) : undefined);
      if (description !== undefined) pm.description = description;
      if (p.kind === "getter") pm.readOnly = true;
      properties.push(pm);
      model = pm.type;
    }
    const seen = new Map<string, string>();
    for (const p of properties) {
      const other = seen.get(p.name);
      if (other !== undefined) {
        ctx.problems.push({
          code: "OMCG0006",
          message: `${ctx.subject}: '${path}': properties '${other}' and '${p.key}' have the same wire name '${p.name}'; rename one (or use @jsonName).`,
        });
      }
      seen.set(p.name, p.key);
    }
    const result: ObjectModel = { kind: "object", properties };
    if (additional) result.additionalProperties = additional;
    if (ctor && ctor.exportName && ctor.params.length > 0) {
      const args: string[] = [];
      for (const cp of ctor.params) {
        const prop = properties.find((p) => p.key === cp.name);
        if (!prop || cp.rest) {
          if (!cp.optional && !cp.hasDefault && ctx.mode === "input") {
            return fail(ctx, path, t, `its constructor parameter '${cp.name ?? "?"}' is not filled by any listed public property`, CTOR_FIX);
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
  } finally {
    ctx.stack.pop();
  }
}

function ctorRequired(ctor: ReturnType<TypeHost["classConstructor"]>, name: string): boolean {
  return ctorParamRequired(ctor, name) === true;
}
function ctorParamRequired(ctor: ReturnType<TypeHost["classConstructor"]>, name: string): boolean | undefined {
  const p = ctor?.params.find((cp) => cp.name === name);
  return p ? !p.optional && !p.hasDefault : undefined;
}

function keepProperty(ctx: ConvertContext, p: PropertyInfo, isClass: boolean): boolean {
  if (p.visibility !== "public" || p.isStatic) return false;
  if (p.name.startsWith("typed-mcp:")) return false;
  if (isClass && (p.kind === "method" || p.kind === "setter" || p.kind === "other")) return false;
  if (p.kind === "getter" && ctx.mode === "input") return false;
  return true;
}

/** `@naming camelCase` on the type's declaration (spec §4); another policy is OMCG0006. */
function parseNaming(ctx: ConvertContext, path: string, doc: DocComment | undefined): "camelCase" | undefined {
  const tag = doc?.tags.find((x) => x.name === "naming");
  if (!tag) return undefined;
  const policy = tag.text.trim().split(/\s+/)[0] ?? "";
  if (policy === "camelCase") return "camelCase";
  ctx.problems.push({
    code: "OMCG0006",
    message: `${ctx.subject}: '${path}': @naming '${policy}' is not supported; the only policy is camelCase (or leave the tag out).`,
  });
  return undefined;
}

/** Whether a converted model is object-shaped for results (spec §6). */
export function isObjectShaped(m: TypeModel): m is ObjectModel | Extract<TypeModel, { kind: "record" }> {
  return m.kind === "object" || m.kind === "record";
}

export type { SourceLocation };
