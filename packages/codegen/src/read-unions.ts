/**
 * Readers of the unions and tuples of spec §4a. A union without a discriminator dispatches on
 * the value's JSON type (no coercion: `"3"` is a string); a discriminated union reads the
 * discriminator first (missing or unknown: the error names `path.kind` and lists every member's
 * literals in member order), then that member exactly. A tuple checks its length, then reads
 * each element at `p[i]`.
 *
 * @module
 */
import { assertNever, wireType, type TypeModel, type UnionModel, type WireType } from "@typed-mcp/model";
import { CodegenError, str, type Path } from "./emit.js";
import { member } from "./property-access.js";
import { type Ctx, type Readers, NOT_OBJECT, check, checkType, propertyPath } from "./read-context.js";
import { checkUnion } from "./schema.js";
import { count, expectedName, failWith, fixed, oneOf, wrongType } from "./sentences.js";

/** The test that a JSON value `x` has the JSON type `w`. */
export function isWireType(w: WireType, x: string): string {
  switch (w) {
    case "string":
    case "number":
    case "boolean":
      return `typeof ${x} === "${w}"`;
    case "array":
      return `Array.isArray(${x})`;
    case "object":
      return `!(${NOT_OBJECT(x)})`;
    default:
      return assertNever(w);
  }
}

/** Reads a union of spec §4a into a fresh local, which it returns; `read`: read.ts's readers of the members. */
export function readUnion(t: UnionModel, x: string, path: Path, c: Ctx, read: Readers): string {
  checkUnion(t);
  return t.discriminator === undefined
    ? readByJsonType(t, x, path, c, read)
    : readDiscriminated(t, t.discriminator, x, path, c, read);
}

function readByJsonType(t: UnionModel, x: string, path: Path, c: Ctx, read: Readers): string {
  const r = c.scope.fresh("r");
  c.out.line(`let ${r};`);
  t.members.forEach((m, i) => {
    const inner = read.inner(m, x, path, c);
    const head = `(${isWireType(wireType(m), x)}) {`;
    if (i === 0) c.out.open(`if ${head}`);
    else c.out.reopen(`} else if ${head}`);
    c.out.append(inner.body).line(`${r} = ${inner.expr};`);
  });
  c.out.reopen("} else {");
  c.out.line(failWith(path, wrongType(t.members.map(expectedName), !!c.orNull, x)));
  c.out.close();
  return r;
}

/** The discriminator's literals of each member, in member order (checked by {@link checkUnion}). */
function literalsOf(t: UnionModel, discriminator: string): (string | number | boolean)[][] {
  return t.members.map((m) => {
    const p = m.kind === "object" ? m.properties.find((q) => q.name === discriminator) : undefined;
    return p !== undefined && p.type.kind === "enum" ? p.type.values : [];
  });
}

function readDiscriminated(t: UnionModel, discriminator: string, x: string, path: Path, c: Ctx, read: Readers): string {
  checkType(c, t, NOT_OBJECT(x), x, path);
  const literals = literalsOf(t, discriminator);
  const d = c.scope.fresh("d");
  const r = c.scope.fresh("r");
  c.out.line(`const ${d} = Object.hasOwn(${x}, ${str(discriminator)}) ? ${member(x, discriminator)} : undefined;`);
  c.out.line(`let ${r};`);
  c.out.open(`switch (${d}) {`);
  t.members.forEach((m, i) => {
    const labels = literals[i]!.map(
      (v) => `case ${typeof v === "string" ? str(v) : typeof v === "number" && v < 0 ? `(${v})` : String(v)}:`,
    ).join(" ");
    if (m.kind !== "object") throw new CodegenError("A discriminated union member must be an object type (spec §4a).");
    c.out.open(`${labels} {`);
    // The member's reader starts with its object check, already passed: it reads the member exactly.
    const expr = read.object(m, x, path, { out: c.out, scope: c.scope, nullAsAbsent: c.nullAsAbsent });
    c.out.line(`${r} = ${expr};`);
    c.out.line("break;");
    c.out.close();
  });
  c.out.line(`default: ${failWith(propertyPath(path, discriminator), fixed(oneOf(literals.flat())))}`);
  c.out.close();
  return r;
}

/** Reads a homogeneous tuple: a JSON array of exactly `length` elements (spec §4a); `read`: read.ts's readers of the elements. */
export function readTuple(
  t: Extract<TypeModel, { kind: "tuple" }>,
  x: string,
  path: Path,
  c: Ctx,
  read: Readers,
): string {
  checkType(c, t, `!Array.isArray(${x})`, x, path);
  check(c, `${x}.length !== ${t.length}`, path, fixed(`Expected an array of exactly ${count(t.length, "item")}.`));
  return read.elements(t.items, x, path, c, "array");
}
