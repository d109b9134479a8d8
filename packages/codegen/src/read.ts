/**
 * Reader emitters (spec §5): one small writer per type kind that appends straight-line checks
 * and conversions to a {@link Lines} buffer. A failed check `return`s the wire path of the value
 * (`"items[" + i + "].qty"`), built only on failure.
 *
 * @module
 */
import { assertNever, type ObjectModel, type ParamModel, type TypeModel, type ValueParam } from "@typed-mcp/model";
import { CodegenError, Lines, type Path, helperCall, Scope, literalKey, member, pathCode, pathExpr, pathText, str } from "./emit.js";
import { ALLOWED_CONSTRAINTS, checkConstraints, listedParams, listedProperties } from "./schema.js";

/** Emission state of one reader. */
interface Ctx {
  out: Lines;
  scope: Scope;
}

function fail(path: Path): string {
  return `return ${pathCode(path)};`;
}

/** `if (c1 || c2 …) return <path>;` */
function check(c: Ctx, conditions: string[], path: Path): void {
  if (conditions.length > 0) c.out.line(`if (${conditions.join(" || ")}) ${fail(path)}`);
}

const NOT_OBJECT = (x: string) => `typeof ${x} !== "object" || ${x} === null || Array.isArray(${x})`;

/**
 * Appends code that checks and converts the JSON value in the local `x` (of type `t`, at
 * `path`). Returns an expression for the converted value, which is `x` itself when no
 * conversion is needed; the expression only refers to locals, so it is cheap to repeat.
 */
export function readValue(t: TypeModel, x: string, path: Path, c: Ctx): string {
  switch (t.kind) {
    case "string":
      return readString(t, x, path, c);
    case "number":
    case "integer":
      return readNumber(t, x, path, c);
    case "boolean":
      check(c, [`typeof ${x} !== "boolean"`], path);
      return x;
    case "enum":
      return readEnum(t, x, path, c);
    case "date":
    case "url":
    case "bytes": {
      const helper = t.kind === "date" ? "readDateTime" : t.kind === "url" ? "readUrl" : "readBase64";
      const r = c.scope.fresh("r");
      c.out.line(`const ${r} = ${helperCall(helper, x)};`);
      check(c, [`${r} === undefined`], path);
      return r;
    }
    case "array":
      return readArray(t, x, path, c);
    case "record":
      return readRecord(t, x, path, c);
    case "object":
      return readObject(t, x, path, c);
    case "nullable":
      return readNullable(t, x, path, c);
    default:
      return assertNever(t);
  }
}

function readString(t: Extract<TypeModel, { kind: "string" }>, x: string, path: Path, c: Ctx): string {
  checkConstraints("string", t.constraints, ALLOWED_CONSTRAINTS.string);
  const k = t.constraints ?? {};
  const conds = [`typeof ${x} !== "string"`];
  // Code points ≤ UTF-16 length ≤ 2 × code points: count only when the length cannot decide.
  if (k.minLength !== undefined && k.minLength > 0) conds.push(`${x}.length < ${2 * k.minLength} && ${helperCall("codePoints", x)} < ${k.minLength}`);
  if (k.maxLength !== undefined) conds.push(`${x}.length > ${k.maxLength} && ${helperCall("codePoints", x)} > ${k.maxLength}`);
  if (k.pattern !== undefined) conds.push(`!${c.scope.regex(k.pattern)}.test(${x})`);
  if (k.format === "email") conds.push(`!${helperCall("isEmail", x)}`);
  else if (k.format === "uri") conds.push(`!${helperCall("isUri", x)}`);
  else if (k.format !== undefined) throw new CodegenError(`Unknown format ${k.format}.`);
  check(c, conds.map((s, i) => (i === 0 ? s : `(${s})`)), path);
  return x;
}

function num(n: number): string {
  return n < 0 ? `(${n})` : String(n);
}

function readNumber(t: Extract<TypeModel, { kind: "number" | "integer" }>, x: string, path: Path, c: Ctx): string {
  checkConstraints(t.kind, t.constraints, ALLOWED_CONSTRAINTS.number);
  const k = t.constraints ?? {};
  const conds = [`typeof ${x} !== "number"`];
  if (t.kind === "integer") conds.push(t.bigint ? `!Number.isSafeInteger(${x})` : `!Number.isInteger(${x})`);
  else conds.push(`!Number.isFinite(${x})`);
  if (k.minimum !== undefined) conds.push(`${x} < ${num(k.minimum)}`);
  if (k.maximum !== undefined) conds.push(`${x} > ${num(k.maximum)}`);
  check(c, conds, path);
  return t.kind === "integer" && t.bigint ? `BigInt(${x})` : x;
}

function readEnum(t: Extract<TypeModel, { kind: "enum" }>, x: string, path: Path, c: Ctx): string {
  if (t.numeric !== undefined) {
    // Numeric TypeScript enum: matched by member name, read as the member's number.
    const r = c.scope.fresh("r");
    c.out.line(`let ${r};`);
    c.out.open(`switch (${x}) {`);
    t.values.forEach((name, i) => c.out.line(`case ${str(String(name))}: ${r} = ${num(t.numeric![i]!)}; break;`));
    c.out.line(`default: ${fail(path)}`);
    c.out.close();
    return r;
  }
  const lits = t.values.map((v) => (typeof v === "string" ? str(v) : num(v)));
  if (lits.length <= 8) check(c, [lits.map((l) => `${x} !== ${l}`).join(" && ")], path);
  else {
    const set = c.scope.hoist("en", `new Set([${lits.join(", ")}])`);
    check(c, [`!${set}.has(${x})`], path);
  }
  return x;
}

/** Reads an element/value with its own buffer, so the caller can see whether it was an identity read. */
function readInner(t: TypeModel, x: string, path: Path, c: Ctx): { body: Lines; expr: string } {
  const body = new Lines();
  const expr = readValue(t, x, path, { out: body, scope: c.scope });
  return { body, expr };
}

function readArray(t: Extract<TypeModel, { kind: "array" }>, x: string, path: Path, c: Ctx): string {
  checkConstraints(t.set ? "set" : "array", t.constraints, ALLOWED_CONSTRAINTS.array);
  const k = t.constraints ?? {};
  const conds = [`!Array.isArray(${x})`];
  // minItems/maxItems apply to the JSON array (a Set's duplicates count: they are dropped, not refused).
  if (k.minLength !== undefined && k.minLength > 0) conds.push(`${x}.length < ${k.minLength}`);
  if (k.maxLength !== undefined) conds.push(`${x}.length > ${k.maxLength}`);
  check(c, conds, path);
  const i = c.scope.fresh("i");
  const e = c.scope.fresh("e");
  const item = readInner(t.items, e, pathText(pathExpr(pathText(path, "["), i), "]"), c);
  const identity = item.expr === e;
  const r = identity ? x : c.scope.fresh("r");
  if (!identity) c.out.line(`const ${r} = [];`);
  c.out.open(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {`);
  c.out.line(`const ${e} = ${x}[${i}];`);
  c.out.append(item.body);
  if (!identity) c.out.line(`${r}.push(${item.expr});`);
  c.out.close();
  return t.set ? `new Set(${r})` : r;
}

/** `target[key] = value` where `key` is a runtime string: `__proto__` becomes an own data property. */
function assignDynamic(target: string, key: string, value: string): string {
  return `if (${key} === "__proto__") ${helperCall("defineOwn", target, key, value)}; else ${target}[${key}] = ${value};`;
}

function readRecord(t: Extract<TypeModel, { kind: "record" }>, x: string, path: Path, c: Ctx): string {
  check(c, [NOT_OBJECT(x)], path);
  const k = c.scope.fresh("k");
  const e = c.scope.fresh("e");
  const value = readInner(t.values, e, pathExpr(pathText(path, "."), k), c);
  // A JSON object already holds its keys as own data properties: reuse it when values need no conversion.
  const identity = value.expr === e && !t.map;
  const r = identity ? x : c.scope.fresh("r");
  if (!identity) c.out.line(`const ${r} = ${t.map ? "new Map()" : "{}"};`);
  c.out.open(`for (const ${k} in ${x}) {`);
  c.out.line(`if (!Object.hasOwn(${x}, ${k})) continue;`);
  c.out.line(`const ${e} = ${x}[${k}];`);
  c.out.append(value.body);
  if (t.map) c.out.line(`${r}.set(${k}, ${value.expr});`);
  else if (!identity) c.out.line(assignDynamic(r, k, value.expr));
  c.out.close();
  return r;
}

/** Sets a statically known property on a fresh object. */
function assignStatic(target: string, key: string, value: string): string {
  return key === "__proto__" ? `${helperCall("defineOwn", target, str(key), value)};` : `${member(target, key)} = ${value};`;
}

/**
 * Reads listed properties into locals. Returns one local per property (`undefined` at run time
 * when an optional property is absent).
 */
function readProperties(
  props: { name: string; type: TypeModel; required: boolean }[],
  x: string,
  path: Path,
  c: Ctx,
  prefix: string,
): string[] {
  const locals: string[] = [];
  for (const p of props) {
    const v = c.scope.fresh(prefix);
    locals.push(v);
    const at = path.length === 0 ? [{ text: p.name }] : pathText(path, "." + p.name);
    const e = c.scope.fresh("e");
    const inner = readInner(p.type, e, at, c);
    c.out.line(`let ${v};`);
    c.out.open(`if (Object.hasOwn(${x}, ${str(p.name)})) {`);
    c.out.line(`const ${e} = ${member(x, p.name)};`);
    c.out.append(inner.body);
    c.out.line(`${v} = ${inner.expr};`);
    if (p.required) c.out.close(`} else ${fail(at)}`);
    else c.out.close();
  }
  return locals;
}

/**
 * Builds a plain object from property locals, in listed order: required properties in one
 * literal up to the first optional one, the rest assigned when present.
 */
function buildObject(props: { key: string; required: boolean }[], locals: string[], c: Ctx): string {
  const r = c.scope.fresh("r");
  let n = 0;
  const head: string[] = [];
  while (n < props.length && props[n]!.required) {
    head.push(`${literalKey(props[n]!.key)}: ${locals[n]}`);
    n++;
  }
  c.out.line(`const ${r} = {${head.length > 0 ? ` ${head.join(", ")} ` : ""}};`);
  for (; n < props.length; n++) {
    const set = assignStatic(r, props[n]!.key, locals[n]!);
    c.out.line(props[n]!.required ? set : `if (${locals[n]} !== undefined) ${set}`);
  }
  return r;
}

function readObject(t: ObjectModel, x: string, path: Path, c: Ctx): string {
  check(c, [NOT_OBJECT(x)], path);
  const props = listedProperties(t, "input");
  const locals = readProperties(props, x, path, c, "p");
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
function readIndexSignature(t: ObjectModel, props: ObjectModel["properties"], x: string, r: string, path: Path, c: Ctx): void {
  const k = c.scope.fresh("k");
  const e = c.scope.fresh("e");
  const value = readInner(t.additionalProperties!, e, pathExpr(pathText(path, "."), k), c);
  const wire = props.map((p) => `${k} === ${str(p.name)}`);
  // A key equal to a renamed property's TypeScript key would overwrite it: refused.
  const clash = props.filter((p) => p.key !== p.name && !props.some((q) => q.name === p.key)).map((p) => `${k} === ${str(p.key)}`);
  c.out.open(`for (const ${k} in ${x}) {`);
  c.out.line(`if (!Object.hasOwn(${x}, ${k})${wire.length > 0 ? ` || ${wire.join(" || ")}` : ""}) continue;`);
  if (clash.length > 0) c.out.line(`if (${clash.join(" || ")}) ${fail(pathExpr(pathText(path, "."), k))}`);
  c.out.line(`const ${e} = ${x}[${k}];`);
  c.out.append(value.body);
  c.out.line(assignDynamic(r, k, value.expr));
  c.out.close();
}

function readNullable(t: Extract<TypeModel, { kind: "nullable" }>, x: string, path: Path, c: Ctx): string {
  if (t.inner.kind === "nullable") throw new CodegenError("A nullable type's inner type is itself nullable.");
  const inner = readInner(t.inner, x, path, c);
  if (inner.expr === x) {
    c.out.open(`if (${x} !== null) {`).append(inner.body).close();
    return x;
  }
  const r = c.scope.fresh("r");
  c.out.line(`let ${r} = null;`);
  c.out.open(`if (${x} !== null) {`).append(inner.body).line(`${r} = ${inner.expr};`).close();
  return r;
}

/**
 * The body of `read(a, ctx)` (spec §5): absent `arguments` means `{}`; parameters are read in
 * declaration order, the first failure returns its path; unknown top-level arguments are
 * reported only after every parameter passed; the result is the argument array with
 * `RequestContext` (`ctx`) and `AbortSignal` (`ctx.signal`) parameters at their positions and
 * `undefined` for absent optional parameters.
 */
export function readBody(params: ParamModel[], scope: Scope): Lines {
  const out = new Lines();
  const c: Ctx = { out, scope };
  out.line(`if (a === undefined) a = {};`);
  out.line(`else if (${NOT_OBJECT("a")}) return "arguments";`);
  const args: string[] = [];
  for (const p of params) {
    switch (p.role) {
      case "context":
        args.push("ctx");
        break;
      case "signal":
        args.push("ctx.signal");
        break;
      case "value":
        args.push(...readProperties([p], "a", [], c, "v"));
        break;
      case "destructured": {
        const props = p.properties.map((q: ValueParam) => ({ ...q, key: q.key ?? q.name }));
        const locals = readProperties(props, "a", [], c, "v");
        // The destructured parameter always gets an object (its absent properties stay absent).
        args.push(buildObject(props.map((q) => ({ key: q.key, required: q.required })), locals, c));
        break;
      }
      default:
        assertNever(p);
    }
  }
  const known = listedParams(params).map((p) => `k !== ${str(p.name)}`);
  out.line(`for (const k in a) if (${[...known, "Object.hasOwn(a, k)"].join(" && ")}) return k;`);
  out.line(`return [${args.join(", ")}];`);
  return out;
}
