/**
 * Writer emitters (spec §6): one small writer per type kind that turns a tool's return value
 * into its JSON form, and the result shapes (void, text, structured, json, passthrough).
 * Writers trust the declared type: a value that does not fit it may throw, which the runtime
 * reports as `The tool failed.` (spec §7).
 *
 * @module
 */
import { assertNever, type ObjectModel, type ResultModel, type TypeModel, type UnionModel } from "@typed-mcp/model";
import { CodegenError, Lines, helperCall, numberLiteral, Scope, str } from "./emit.js";
import { assignDynamic, assignStatic, isIdentifier, literalKey, member } from "./property-access.js";
import { writeShared } from "./shared.js";
import { emitCases, emitTests, planUnion } from "./union-plan.js";

/** Emission state of one writer. */
interface Ctx {
  out: Lines;
  scope: Scope;
}

/** Names of `Object.prototype` members: a property with such a key is read only when it is own. */
const PROTOTYPE_MEMBERS = new Set([
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
]);

/**
 * Reads property `key` of the value `v`. A key named like an `Object.prototype` member is read
 * only as an own property: otherwise an absent optional `constructor` (or `__proto__`, …) of a
 * plain object would be written as `Object` (or `Object.prototype`) instead of being left out.
 */
function readProperty(v: string, key: string): string {
  return PROTOTYPE_MEMBERS.has(key)
    ? `(Object.hasOwn(${v}, ${str(key)}) ? ${member(v, key)} : undefined)`
    : member(v, key);
}

/** Binds `x` to a local unless it already is one (so it is evaluated once). */
function bind(x: string, c: Ctx): string {
  if (isIdentifier(x)) return x;
  const t = c.scope.fresh("t");
  c.out.line(`const ${t} = ${x};`);
  return t;
}

/** Writes an element with its own buffer, so the caller can tell an identity write. */
function writeInner(t: TypeModel, x: string, c: Ctx): { body: Lines; expr: string } {
  const body = new Lines();
  const expr = writeValue(t, x, { out: body, scope: c.scope });
  return { body, expr };
}

/**
 * Appends code that converts the value of expression `x` (of type `t`) to its JSON form and
 * returns an expression for it — `x` itself when the value is already JSON (strings, numbers,
 * booleans, string enums, arrays/records of those).
 */
function writeValue(t: TypeModel, x: string, c: Ctx): string {
  switch (t.kind) {
    case "string":
    case "number":
    case "boolean":
      return x;
    case "integer":
      return t.bigint ? `Number(${x})` : x;
    case "enum":
      return t.numeric === undefined ? x : writeNumericEnum(t, x, c);
    case "date":
      return `${x}.toISOString()`;
    case "url":
      return `${x}.href`;
    case "bytes":
      return helperCall("toBase64", x);
    case "array":
      return writeArray(t, x, c);
    case "record":
      return writeRecord(t, x, c);
    case "object":
      return c.scope.share !== undefined ? writeShared(t, x, c.scope.share, writeObject) : writeObject(t, x, c);
    case "nullable": {
      const v = bind(x, c);
      const inner = writeInner(t.inner, v, c);
      if (inner.expr === v) return v;
      if (inner.body.empty) return `(${v} === null ? null : ${inner.expr})`;
      const w = c.scope.fresh("w");
      c.out.line(`let ${w} = null;`);
      c.out.open(`if (${v} !== null) {`).append(inner.body).line(`${w} = ${inner.expr};`).close();
      return w;
    }
    case "union":
      return writeUnion(t, x, c);
    case "tuple":
      return writeArray({ kind: "array", items: t.items }, x, c);
    default:
      return assertNever(t);
  }
}

/** A numeric enum is written as its member name; for equal values, the first declared name. */
function writeNumericEnum(t: Extract<TypeModel, { kind: "enum" }>, x: string, c: Ctx): string {
  const w = c.scope.fresh("w");
  const seen = new Set<number>();
  c.out.line(`let ${w};`);
  c.out.open(`switch (${x}) {`);
  t.values.forEach((name, i) => {
    const n = t.numeric![i]!;
    if (seen.has(n)) return;
    seen.add(n);
    c.out.line(`case ${numberLiteral(n)}: ${w} = ${str(String(name))}; break;`);
  });
  c.out.line(`default: throw new TypeError("typed-mcp: the value is not a member of the enum.");`);
  c.out.close();
  return w;
}

function writeArray(t: Extract<TypeModel, { kind: "array" }>, x: string, c: Ctx): string {
  const e = c.scope.fresh("e");
  const item = writeInner(t.items, e, c);
  if (item.expr === e) return t.set ? `Array.from(${x})` : x;
  const v = bind(x, c);
  const w = c.scope.fresh("w");
  c.out.line(`const ${w} = [];`);
  if (t.set) c.out.open(`for (const ${e} of ${v}) {`);
  else {
    const i = c.scope.fresh("i");
    c.out.open(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`);
    c.out.line(`const ${e} = ${v}[${i}];`);
  }
  c.out.append(item.body);
  c.out.line(`${w}.push(${item.expr});`);
  c.out.close();
  return w;
}

function writeRecord(t: Extract<TypeModel, { kind: "record" }>, x: string, c: Ctx): string {
  const e = c.scope.fresh("e");
  const k = c.scope.fresh("k");
  const value = writeInner(t.values, e, c);
  if (value.expr === e && !t.map) return x;
  const v = bind(x, c);
  const w = c.scope.fresh("w");
  c.out.line(`const ${w} = {};`);
  if (t.map) c.out.open(`for (const [${k}, ${e}] of ${v}) {`);
  else {
    c.out.open(`for (const ${k} in ${v}) {`);
    c.out.line(`if (!Object.hasOwn(${v}, ${k})) continue;`);
    c.out.line(`const ${e} = ${v}[${k}];`);
  }
  c.out.append(value.body);
  c.out.line(assignDynamic(w, k, value.expr));
  c.out.close();
  return w;
}

/**
 * Writes exactly the listed properties (getter-only ones included), in listed order, under
 * their wire names; absent (`undefined`) optional properties are left out; then, for an index
 * signature, the value's other own enumerable keys.
 */
function writeObject(t: ObjectModel, x: string, c: Ctx): string {
  const v = bind(x, c);
  const w = c.scope.fresh("w");
  const head: string[] = [];
  const tail = new Lines();
  let inHead = true;
  for (const p of t.properties) {
    const get = readProperty(v, p.key);
    if (inHead && p.required) {
      // Required properties up to the first optional one go into one object literal.
      const inner = writeInner(p.type, get, c);
      if (inner.body.empty) {
        head.push(`${literalKey(p.name)}: ${inner.expr}`);
        continue;
      }
    }
    inHead = false;
    const e = c.scope.fresh("e");
    tail.line(`const ${e} = ${get};`);
    const inner = writeInner(p.type, e, { out: tail, scope: c.scope });
    const set = assignStatic(w, p.name, inner.expr);
    if (p.required) tail.append(inner.body).line(set);
    else tail.open(`if (${e} !== undefined) {`).append(inner.body).line(set).close();
  }
  c.out.line(`const ${w} = {${head.length > 0 ? ` ${head.join(", ")} ` : ""}};`);
  c.out.append(tail);
  if (t.additionalProperties !== undefined) {
    const k = c.scope.fresh("k");
    const e = c.scope.fresh("e");
    const value = writeInner(t.additionalProperties, e, c);
    const skip = [...new Set(t.properties.flatMap((p) => [p.key, p.name]))]
      .map((n) => ` || ${k} === ${str(n)}`)
      .join("");
    c.out.open(`for (const ${k} in ${v}) {`);
    c.out.line(`if (!Object.hasOwn(${v}, ${k})${skip}) continue;`);
    c.out.line(`const ${e} = ${v}[${k}];`);
    c.out.append(value.body);
    c.out.line(assignDynamic(w, k, value.expr));
    c.out.close();
  }
  return w;
}

/**
 * A union of spec §4a, by its plan ({@link planUnion}): a discriminated union switches on the
 * discriminator's value and writes that member; any other union tests the value's run-time type
 * per member (`instanceof Date` before the object test). A value that fits no member throws
 * (`The tool failed.`, spec §7).
 */
function writeUnion(t: UnionModel, x: string, c: Ctx): string {
  const plan = planUnion(t, "value");
  const v = bind(x, c);
  const w = c.scope.fresh("w");
  c.out.line(`let ${w};`);
  const fit = `throw new TypeError("typed-mcp: the value fits no member of the union.");`;
  const member = (m: TypeModel) => {
    const inner = writeInner(m, v, c);
    c.out.append(inner.body);
    return inner.expr;
  };
  switch (plan.kind) {
    case "discriminator":
      emitCases(c.out, plan, readProperty(v, plan.property), w, member, fit);
      break;
    case "tests":
      emitTests(c.out, plan, v, w, member, fit);
      break;
    default:
      assertNever(plan);
  }
  return w;
}

const TEXT = (expr: string) => `{ type: "text", text: ${expr} }`;

/**
 * The body of `write(value)` (spec §6), returning a `CallToolResult` for the newest revision.
 * Key order of the result: `content`, then `structuredContent`. JSON text is compact
 * (`JSON.stringify(value)` without indentation).
 */
export function writeBody(result: ResultModel, scope: Scope): Lines {
  const out = new Lines();
  const c: Ctx = { out, scope };
  switch (result.kind) {
    case "void":
      out.line(`return { content: [] };`);
      break;
    case "text":
      out.line(`return { content: [${TEXT(`value === null ? "null" : value`)}] };`);
      break;
    case "structured": {
      if (
        result.type.kind !== "object" &&
        result.type.kind !== "record" &&
        !(result.type.kind === "union" && result.type.discriminator !== undefined)
      ) {
        throw new CodegenError(
          "A structured result must be an object type, a record/map or a discriminated union (spec §6, §4a).",
        );
      }
      // `WithContent<T>` (docs/runtime.md "Custom text beside a typed result"): the tool's blocks as `content`.
      let v = "value";
      let content = (s: string) => `[${TEXT(`JSON.stringify(${s})`)}]`;
      if (result.customContent) {
        const u = c.scope.fresh("w");
        out.line(`const ${u} = ${helperCall("withContent", "value")};`);
        v = `${u}.value`;
        content = () => `${u}.content`;
      }
      const nullContent = result.customContent ? content("null") : `[${TEXT(`"null"`)}]`;
      if (result.nullable) out.line(`if (${v} === null) return { content: ${nullContent} };`);
      const w = writeValue(result.type, v, c);
      const s = bind(w, c);
      out.line(`return { content: ${content(s)}, structuredContent: ${s} };`);
      break;
    }
    case "json": {
      const w = writeValue(result.type, "value", c);
      out.line(`return { content: [${TEXT(`JSON.stringify(${w})`)}] };`);
      break;
    }
    case "passthrough":
      out.line(`return ${helperCall("passthrough", "value")};`);
      break;
    default:
      return assertNever(result);
  }
  return out;
}
