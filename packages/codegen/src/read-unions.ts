/**
 * Readers of the unions and tuples of spec §4a. A union is read by its plan (union-plan.ts): without
 * a discriminator it dispatches on the value's JSON type (no coercion: `"3"` is a string); a
 * discriminated union reads the discriminator first (missing or unknown: the error names `path.kind` and lists every member's
 * literals in member order), then that member exactly. A tuple checks its length, then reads
 * each element at `p[i]`.
 *
 * @module
 */
import { assertNever, type ObjectModel, type TypeModel, type UnionModel } from "@typed-mcp/model";
import { str, type Path } from "./emit.js";
import { member } from "./property-access.js";
import { type Ctx, type Readers, NOT_OBJECT, check, checkType, propertyPath } from "./read-context.js";
import { count, failWith, fixed, oneOf, wrongType } from "./sentences.js";
import { type CasesPlan, type TestsPlan, emitCases, emitTests, planUnion } from "./union-plan.js";

/** Reads a union of spec §4a into a fresh local, which it returns, by its plan ({@link planUnion}); `read`: read.ts's readers of the members. */
export function readUnion(t: UnionModel, x: string, path: Path, c: Ctx, read: Readers): string {
  const plan = planUnion(t, "json");
  switch (plan.kind) {
    case "tests":
      return readByJsonType(plan, x, path, c, read);
    case "discriminator":
      return readDiscriminated(t, plan, x, path, c, read);
    default:
      return assertNever(plan);
  }
}

function readByJsonType(plan: TestsPlan, x: string, path: Path, c: Ctx, read: Readers): string {
  const r = c.scope.fresh("r");
  c.out.line(`let ${r};`);
  const names = plan.branches.map((b) => b.expected);
  const fail = failWith(path, wrongType(names, !!c.orNull, x));
  const readMember = (m: TypeModel) => {
    const inner = read.inner(m, x, path, c);
    c.out.append(inner.body);
    return inner.expr;
  };
  emitTests(c.out, plan, x, r, readMember, fail);
  return r;
}

function readDiscriminated(t: UnionModel, plan: CasesPlan, x: string, path: Path, c: Ctx, read: Readers): string {
  checkType(c, t, NOT_OBJECT(x), x, path);
  const d = c.scope.fresh("d");
  const r = c.scope.fresh("r");
  c.out.line(`const ${d} = Object.hasOwn(${x}, ${str(plan.property)}) ? ${member(x, plan.property)} : undefined;`);
  c.out.line(`let ${r};`);
  const literals = plan.cases.flatMap((k) => k.literals);
  const fail = failWith(propertyPath(path, plan.property), fixed(oneOf(literals)));
  // The member's reader starts with its object check, already passed: it reads the member exactly.
  const readMember = (m: ObjectModel) =>
    read.object(m, x, path, { out: c.out, scope: c.scope, nullAsAbsent: c.nullAsAbsent });
  emitCases(c.out, plan, d, r, readMember, fail);
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
