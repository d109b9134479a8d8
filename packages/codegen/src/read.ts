/**
 * Reader emitters (spec §5): one small writer per type kind that appends straight-line checks
 * and conversions to a {@link Lines} buffer. A failed check `return`s the whole argument error
 * (`__tmcp.invalid(path, sentence)`: `Argument 'items[2].qty' is not valid. Expected an integer
 * of at least 1.`); path and sentence are built only on that branch, so the valid path costs
 * what a bare check costs. Checks run in §2 keyword order: the JSON type first, then the
 * keywords, so the first failing check names itself. This module reads the structures (arrays,
 * records, objects, nullables) and the tool's arguments; the leaf kinds are in read-scalars.ts,
 * unions and tuples (§4a) in read-unions.ts, the context and checks they share in read-context.ts.
 *
 * @module
 */
import { assertNever, type ObjectModel, type ParamModel, type TypeModel, type ValueParam } from "@typed-mcp/model";
import {
  CodegenError,
  Lines,
  type Path,
  RUNTIME_ARGUMENT,
  helperCall,
  Scope,
  pathExpr,
  pathText,
  str,
} from "./emit.js";
import { ALLOWED_CONSTRAINTS, checkConstraints, listedParams, listedProperties } from "./schema.js";
import { count, fixed } from "./sentences.js";
import { readBoolean, readEnum, readFromString, readNumber, readString } from "./read-scalars.js";
import { type Ctx, type Readers, NOT_OBJECT, check, checkType, propertyPath } from "./read-context.js";
import { readTuple, readUnion } from "./read-unions.js";
import { checkShared, readShared } from "./shared.js";
import { assignDynamic, assignStatic, member } from "./property-access.js";
import { buildObject, mayReuse, ownKey, reuseElements } from "./read-build.js";

/** The path of the runtime key `k` under `path` (a record key, an unknown argument). */
function keyPath(path: Path, k: string): Path {
  return pathExpr(path, helperCall("pathKey", k, path.length === 0 ? "true" : "false"));
}

/** The path of element `i` (a runtime index) under `path`: `p[i]`. */
function elementPath(path: Path, i: string): Path {
  return pathText(pathExpr(pathText(path, "["), i), "]");
}

/**
 * Appends code that checks and converts the JSON value in the local `x` (of type `t`, at
 * `path`). Returns an expression for the converted value, which is `x` itself when no
 * conversion is needed; the expression only refers to locals, so it is cheap to repeat.
 */
export function readValue(t: TypeModel, x: string, path: Path, c: Ctx): string {
  const checked = checkShared(t, x, path, c, readValue);
  if (checked !== undefined) return checked;
  switch (t.kind) {
    case "string":
      return readString(t, x, path, c);
    case "number":
    case "integer":
      return readNumber(t, x, path, c);
    case "boolean":
      return readBoolean(t, x, path, c);
    case "enum":
      return readEnum(t, x, path, c);
    case "date":
    case "url":
    case "bytes":
      return readFromString(t, x, path, c);
    case "array":
      return readArray(t, x, path, c);
    case "record":
      return readRecord(t, x, path, c);
    case "object":
      return c.scope.share !== undefined ? readShared(t, x, path, c, readObject) : readObject(t, x, path, c);
    case "nullable":
      return readNullable(t, x, path, c);
    case "union":
      return readUnion(t, x, path, c, READERS);
    case "tuple":
      return readTuple(t, x, path, c, READERS);
    default:
      return assertNever(t);
  }
}

/**
 * Reads an element/value with its own buffer, so the caller can see whether it was an identity
 * read. `orNull`: the value may also be null (a nullable's inner read); never inherited.
 */
function readInner(t: TypeModel, x: string, path: Path, c: Ctx, orNull = false): { body: Lines; expr: string } {
  const body = new Lines();
  const expr = readValue(t, x, path, { out: body, scope: c.scope, orNull, nullAsAbsent: c.nullAsAbsent });
  return { body, expr };
}

function readArray(t: Extract<TypeModel, { kind: "array" }>, x: string, path: Path, c: Ctx): string {
  checkConstraints(t.set ? "set" : "array", t.constraints, ALLOWED_CONSTRAINTS.array);
  const k = t.constraints ?? {};
  checkType(c, t, `!Array.isArray(${x})`, x, path);
  // minItems/maxItems apply to the JSON array (a Set's duplicates count: they are dropped, not refused).
  if (k.minLength !== undefined && k.minLength > 0)
    check(
      c,
      `${x}.length < ${k.minLength}`,
      path,
      fixed(`Expected an array of at least ${count(k.minLength, "item")}.`),
    );
  if (k.maxLength !== undefined)
    check(
      c,
      `${x}.length > ${k.maxLength}`,
      path,
      fixed(`Expected an array of at most ${count(k.maxLength, "item")}.`),
    );
  return readElements(t.items, x, path, c, t.set ? "set" : "array");
}

/**
 * The element loop of an array, set or tuple (already checked to be a JSON array): reads each
 * element at `p[i]`; returns the array (`x` itself when no element needs conversion; else a new
 * array of `x.length`, every index written before it is returned), or a `Set`.
 */
function readElements(items: TypeModel, x: string, path: Path, c: Ctx, as: "array" | "set"): string {
  const t = { items, set: as === "set" };
  const i = c.scope.fresh("i");
  const e = c.scope.fresh("e");
  const item = readInner(t.items, e, elementPath(path, i), c);
  const identity = item.expr === e;
  if (!identity && !t.set && c.scope.same.has(item.expr)) return reuseElements(x, i, e, item, c);
  const r = identity ? x : c.scope.fresh("r");
  // Pre-sized and written by index (issue 12: +10–15% over `push` on the order payload's 50 items).
  if (!identity) c.out.line(`const ${r} = new Array(${x}.length);`);
  c.out.open(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {`);
  c.out.line(`const ${e} = ${x}[${i}];`);
  c.out.append(item.body);
  if (!identity) c.out.line(`${r}[${i}] = ${item.expr};`);
  c.out.close();
  return t.set ? `new Set(${r})` : r;
}

function readRecord(t: Extract<TypeModel, { kind: "record" }>, x: string, path: Path, c: Ctx): string {
  checkType(c, t, NOT_OBJECT(x), x, path);
  const k = c.scope.fresh("k");
  const e = c.scope.fresh("e");
  const value = readInner(t.values, e, keyPath(path, k), c);
  // A JSON object already holds its keys as own data properties: reuse it when values need no conversion.
  const identity = value.expr === e && !t.map;
  const r = identity ? x : c.scope.fresh("r");
  if (!identity) c.out.line(`const ${r} = ${t.map ? "new Map()" : "{}"};`);
  c.out.open(`for (const ${k} in ${x}) {`);
  c.out.line(`if (!${ownKey(x, k)}) continue;`);
  c.out.line(`const ${e} = ${x}[${k}];`);
  c.out.append(value.body);
  if (t.map) c.out.line(`${r}.set(${k}, ${value.expr});`);
  else if (!identity) c.out.line(assignDynamic(r, k, value.expr));
  c.out.close();
  return r;
}

/**
 * Emits the single pass over the own keys of the JSON object `x` (issue 12): a `for…in` with a
 * `switch` on the key that assigns each listed property's raw value to its local, in one walk and
 * without a lookup per listed property. A JSON value is never `undefined`, so a local still
 * `undefined` after the pass marks an absent property. With `unknown`, the first own key that is
 * not listed is kept in that local (the caller reports it after every listed property passed,
 * spec §5); with `flag`, that local is instead a number that ends above `names.length` exactly
 * when the object has an unlisted own key or its listed keys are not in listed order (so that an
 * object read with zero copy, {@link readObject}, is the one the copy would have been: the
 * same keys in the same order); without `unknown`, unlisted keys are skipped. `raws`: the raw
 * locals when the caller allocated them. Returns the raw locals, one per name, in order.
 */
function scanKeys(
  names: string[],
  x: string,
  c: Ctx,
  unknown?: string,
  raws = names.map(() => c.scope.fresh("e")),
  flag = false,
): string[] {
  const decl = unknown === undefined ? raws : [...raws, flag ? `${unknown} = 0` : unknown];
  if (decl.length > 0) c.out.line(`let ${decl.join(", ")};`);
  if (names.length === 0 && unknown === undefined) return raws;
  const k = c.scope.fresh("k");
  c.out.open(`for (const ${k} in ${x}) {`);
  c.out.line(`if (!${ownKey(x, k)}) continue;`);
  c.out.open(`switch (${k}) {`);
  const order = (i: number) =>
    flag && unknown !== undefined
      ? ` if (${unknown} <= ${i}) ${unknown} = ${i + 1}; else ${unknown} = ${names.length + 1};`
      : "";
  names.forEach((name, i) => {
    c.out.line(`case ${str(name)}: ${raws[i]} = ${member(x, name)};${order(i)} break;`);
  });
  if (unknown !== undefined)
    c.out.line(
      flag ? `default: ${unknown} = ${names.length + 1};` : `default: if (${unknown} === undefined) ${unknown} = ${k};`,
    );
  c.out.close();
  c.out.close();
  return raws;
}

/**
 * Checks and converts one listed property from its raw local (set by {@link scanKeys}; `undefined`
 * when absent): `It is required.` for an absent required one, else the type's checks at the
 * property's path. Returns the local holding the read value (`undefined` when absent).
 */
function readListed(
  p: { name: string; type: TypeModel; required: boolean },
  raw: string,
  path: Path,
  c: Ctx,
  prefix: string,
): string {
  const at = propertyPath(path, p.name);
  const inner = readInner(p.type, raw, at, c);
  if (c.nullAsAbsent === true && !p.required && p.type.kind !== "nullable")
    c.out.line(`if (${raw} === null) ${raw} = undefined;`);
  if (p.required) {
    check(c, `${raw} === undefined`, at, fixed("It is required."));
    c.out.append(inner.body);
    if (inner.expr === raw) return raw;
    const v = c.scope.fresh(prefix);
    c.out.line(`const ${v} = ${inner.expr};`);
    if (c.scope.same.has(inner.expr)) c.scope.same.add(v);
    return v;
  }
  if (inner.expr === raw) {
    if (!inner.body.empty) c.out.open(`if (${raw} !== undefined) {`).append(inner.body).close();
    return raw;
  }
  const v = c.scope.fresh(prefix);
  c.out.line(`let ${v};`);
  c.out.open(`if (${raw} !== undefined) {`).append(inner.body).line(`${v} = ${inner.expr};`).close();
  if (c.scope.same.has(inner.expr)) c.scope.same.add(v);
  return v;
}

/**
 * Reads listed properties into locals: one pass over the object's own keys ({@link scanKeys}),
 * then each property's checks in listed order, so the first failure is the first in property
 * order (spec §5). Returns one local per property (`undefined` at run time when an optional
 * property is absent), the raw locals, and, when `reuse` holds and every property may be read
 * as itself, `flag`: the local the pass sets when `x` has an own key that is not listed.
 */
function readProperties(
  props: { name: string; type: TypeModel; required: boolean }[],
  x: string,
  path: Path,
  c: Ctx,
  prefix: string,
  reuse: boolean,
): { locals: string[]; raws: string[]; flag?: string } {
  const raws = props.map(() => c.scope.fresh("e"));
  const body = new Lines();
  const locals = props.map((p, i) => readListed(p, raws[i]!, path, { ...c, out: body }, prefix));
  const same = reuse && locals.every((l, i) => l === raws[i] || c.scope.same.has(l));
  const flag = same ? c.scope.fresh("f") : undefined;
  scanKeys(
    props.map((p) => p.name),
    x,
    c,
    flag,
    raws,
    true,
  );
  c.out.append(body);
  return flag === undefined ? { locals, raws } : { locals, raws, flag };
}

/**
 * Reads an object type's listed properties (spec §4 Objects) into a plain object or a class
 * instance. Zero copy (issue 26, docs/codegen.md "Zero copy"): when {@link mayReuse} holds, the
 * value read is `x` itself if `x` has no own key that is not listed, its listed keys are in
 * listed order (the copy's key order, spec §4 Objects), its prototype is
 * `Object.prototype` (JSON data: never a class instance or an object of another realm; read as
 * `x.__proto__`, which V8 reduces to a map check where `Object.getPrototypeOf` cost ×1.4 on the
 * order payload, and `Object.getPrototypeOf(x)` only where that is `undefined` or `null`: Deno has
 * no `__proto__` accessor, a prototype-less object inherits none, JSON may hold `"__proto__": null`;
 * an own `__proto__` that is an object is never `Object.prototype` in JSON, so it makes the copy) and every
 * property was read as itself; else the clean copy. The local returned is then a
 * {@link Scope.same} one.
 */
function readObject(t: ObjectModel, x: string, path: Path, c: Ctx): string {
  checkType(c, t, NOT_OBJECT(x), x, path);
  const props = listedProperties(t, "input");
  const { locals, raws, flag } = readProperties(props, x, path, c, "p", mayReuse(t, props, c));
  if (flag !== undefined) {
    const differs = locals.flatMap((l, i) => (l === raws[i] ? [] : [`${l} !== ${raws[i]}`]));
    const r = c.scope.fresh("r");
    c.out.line(`let ${r} = ${x};`);
    c.out.open(
      `if (${[`${flag} > ${props.length}`, `(${x}.__proto__ ?? Object.getPrototypeOf(${x})) !== Object.prototype`, ...differs].join(" || ")}) {`,
    );
    c.out.line(`${r} = ${buildObject(props, locals, c)};`);
    c.out.close();
    c.scope.same.add(r);
    return r;
  }
  let r: string;
  if (t.construct !== undefined) {
    const ctor = c.scope.importClass(t.construct.from, t.construct.exportName);
    const args = t.construct.args.map((wire) => {
      const i = props.findIndex((p) => p.name === wire);
      if (i < 0) throw new CodegenError(`The constructor argument ${wire} is not a listed property (spec §4 Objects).`);
      return locals[i]!;
    });
    r = c.scope.fresh("r");
    c.out.line(`const ${r} = new ${ctor}(${args.join(", ")});`);
    props.forEach((p, i) => {
      if (t.construct!.args.includes(p.name)) return;
      c.out.line(`if (${locals[i]} !== undefined) ${assignStatic(r, p.key, locals[i]!)}`);
    });
  } else {
    r = buildObject(props, locals, c);
  }
  if (t.additionalProperties !== undefined) readIndexSignature(t, props, x, r, path, c);
  return r;
}

/** Reads the keys of an object with an index signature that are not listed properties. */
function readIndexSignature(
  t: ObjectModel,
  props: ObjectModel["properties"],
  x: string,
  r: string,
  path: Path,
  c: Ctx,
): void {
  const k = c.scope.fresh("k");
  const e = c.scope.fresh("e");
  const value = readInner(t.additionalProperties!, e, keyPath(path, k), c);
  const wire = props.map((p) => `${k} === ${str(p.name)}`);
  // A key equal to a renamed property's TypeScript key would overwrite it: refused.
  const clash = props
    .filter((p) => p.key !== p.name && !props.some((q) => q.name === p.key))
    .map((p) => `${k} === ${str(p.key)}`);
  c.out.open(`for (const ${k} in ${x}) {`);
  c.out.line(`if (!${ownKey(x, k)}${wire.length > 0 ? ` || ${wire.join(" || ")}` : ""}) continue;`);
  if (clash.length > 0) check(c, clash.join(" || "), keyPath(path, k), fixed("It is not allowed here."));
  c.out.line(`const ${e} = ${x}[${k}];`);
  c.out.append(value.body);
  c.out.line(assignDynamic(r, k, value.expr));
  c.out.close();
}

function readNullable(t: Extract<TypeModel, { kind: "nullable" }>, x: string, path: Path, c: Ctx): string {
  if (t.inner.kind === "nullable") throw new CodegenError("A nullable type's inner type is itself nullable.");
  const inner = readInner(t.inner, x, path, c, true);
  if (inner.expr === x) {
    c.out.open(`if (${x} !== null) {`).append(inner.body).close();
    return x;
  }
  const r = c.scope.fresh("r");
  c.out.line(`let ${r} = null;`);
  c.out.open(`if (${x} !== null) {`).append(inner.body).line(`${r} = ${inner.expr};`).close();
  if (c.scope.same.has(inner.expr)) c.scope.same.add(r);
  return r;
}

/** The readers read-unions.ts recurses into (read.ts passes them: the two modules form no import cycle). */
const READERS: Readers = { inner: readInner, elements: readElements, object: readObject };

/**
 * The body of `read(a, ctx)` (spec §5): absent `arguments` means `{}`; one pass over the
 * arguments' own keys collects every listed parameter's raw value ({@link scanKeys}) and the
 * first unlisted key; parameters are then read in
 * declaration order, the first failure returns its §5 text; unknown top-level arguments are
 * reported only after every parameter passed; the result is the argument array with
 * `RequestContext` (`ctx`) and `AbortSignal` (`ctx.signal`) parameters at their positions and
 * `undefined` for absent optional parameters. With `nullAsAbsent` (the `openai-strict` profile,
 * spec §11) an optional, non-nullable parameter or property sent as `null` counts as absent.
 */
export function readBody(params: ParamModel[], scope: Scope, nullAsAbsent = false): Lines {
  const out = new Lines();
  const c: Ctx = { out, scope, nullAsAbsent };
  // The arguments object and the unknown-argument error are runtime helpers: the same text in every tool.
  out.line(`a = ${helperCall("args", "a")};`);
  out.line(`if (typeof a === "string") return a;`);
  // One pass over the arguments' own keys for every listed parameter, then the checks in
  // parameter order; the first unknown argument is reported last (spec §5).
  const listed = listedParams(params);
  const unknown = scope.fresh("u");
  const raws = scanKeys(
    listed.map((p) => p.name),
    "a",
    c,
    unknown,
  );
  let next = 0;
  const args: string[] = [];
  for (const p of params) {
    switch (p.role) {
      case "context":
      case "signal":
        args.push(RUNTIME_ARGUMENT[p.role]);
        break;
      case "value":
        args.push(readListed(p, raws[next++]!, [], c, "v"));
        break;
      case "destructured": {
        const props = p.properties.map((q: ValueParam) => ({ ...q, key: q.key ?? q.name }));
        const locals = props.map((q) => readListed(q, raws[next++]!, [], c, "v"));
        // The destructured parameter always gets an object (its absent properties stay absent).
        args.push(
          buildObject(
            props.map((q) => ({ key: q.key, required: q.required })),
            locals,
            c,
          ),
        );
        break;
      }
      default:
        assertNever(p);
    }
  }
  out.line(`if (${unknown} !== undefined) return ${helperCall("unknownArg", unknown)};`);
  out.line(`return [${args.join(", ")}];`);
  return out;
}
