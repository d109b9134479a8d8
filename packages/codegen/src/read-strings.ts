/**
 * The reader of string arguments (spec §8): the URI template variables of a resource and the
 * arguments of a prompt arrive as strings, each converted by its type's string grammar and then
 * checked as a tool reader checks it (read.ts); a union's members are told apart by their
 * grammars (union-plan.ts).
 *
 * @module
 */
import { assertNever, type StringParamModel, type TypeModel } from "@typed-mcp/model";
import { pathKey } from "typed-mcp/internal/argument-errors";
import { CodegenError, Lines, RUNTIME_ARGUMENT, helperCall, type Path, type Scope, str } from "./emit.js";
import { readValue } from "./read.js";
import { failWith, fixed, listOr, wrongType } from "./sentences.js";
import { emitTests, planUnion } from "./union-plan.js";

/** The error path of the string argument `name` (spec §5 safe paths, at the top level). */
function argumentPath(name: string): Path {
  return [{ text: pathKey(name, true) }];
}

/**
 * The body of `read(a, ctx)` for string arguments (spec §8): each listed parameter is looked
 * up as an own property of `a`; absent → the name when required, else `undefined` (or `null`
 * for a nullable parameter without a default); present → converted from the string by its
 * type and checked against its constraints (the same generated checks as tool readers).
 */
export function stringReader(params: StringParamModel[], scope: Scope, refuseUnknown: boolean): Lines {
  const fail = (name: string, sentence: string) => failWith(argumentPath(name), sentence);
  const out = new Lines();
  const c = { out, scope };
  out.line(`if (a === undefined || a === null) a = {};`);
  const args: string[] = [];
  const names: string[] = [];
  for (const p of params) {
    switch (p.role) {
      case "context":
      case "signal":
        args.push(RUNTIME_ARGUMENT[p.role]);
        continue;
      case "value":
        break;
      default:
        assertNever(p);
    }
    names.push(p.name);
    const s = scope.fresh("s");
    const v = scope.fresh("v");
    out.line(`const ${s} = Object.hasOwn(a, ${str(p.name)}) ? a[${str(p.name)}] : undefined;`);
    out.line(`let ${v};`);
    const absent = p.required
      ? fail(p.name, fixed("It is required."))
      : `${v} = ${p.absentAsNull ? "null" : "undefined"};`;
    out.open(`if (${s} === undefined) {`).line(absent).close("}");
    out.open("else {");
    const inner: TypeModel = p.type.kind === "nullable" ? p.type.inner : p.type;
    out.line(`if (typeof ${s} !== "string") ${fail(p.name, wrongType(["a string"], false, s))}`);
    if (inner.kind === "union") readUnionFromString(inner, s, v, p.name, c);
    else out.line(`${v} = ${readMember(inner, s, p.name, c, true)};`);
    out.close("}");
    args.push(v);
  }
  if (refuseUnknown) {
    const k = scope.fresh("k");
    const known = names.map((n) => `${k} !== ${str(n)}`).join(" && ");
    out.open(`for (const ${k} in a) {`);
    const unknown = failWith(
      [{ expr: helperCall("pathKey", k, "true") }],
      fixed("It is not an argument of this prompt."),
    );
    out.line(`if (Object.hasOwn(a, ${k})${known ? ` && ${known}` : ""}) ${unknown}`);
    out.close("}");
  }
  out.line(`return [${args.join(", ")}];`);
  return out;
}

/**
 * Reads the string `s` as a value of `t` (not a union): converted by its grammar, then checked as
 * a tool reader checks it. With `refuse`, a string the grammar does not take fails here; without,
 * the caller has already tested the grammar (the union's plan, {@link readUnionFromString}).
 */
function readMember(t: TypeModel, s: string, name: string, c: { out: Lines; scope: Scope }, refuse: boolean): string {
  if (t.kind === "integer" && t.bigint) {
    // A bigint read from a string keeps every digit: no detour through a number (spec §8).
    const n = c.scope.fresh("n");
    c.out.line(`const ${n} = ${helperCall("bigintFromString", s)};`);
    const k = t.constraints ?? {};
    if (refuse) c.out.line(`if (${n} === undefined) ${failWith(argumentPath(name), fixed("Expected an integer."))}`);
    if (k.minimum !== undefined)
      c.out.line(
        `if (${n} < ${k.minimum}) ${failWith(argumentPath(name), fixed(`Expected an integer of at least ${k.minimum}.`))}`,
      );
    if (k.maximum !== undefined)
      c.out.line(
        `if (${n} > ${k.maximum}) ${failWith(argumentPath(name), fixed(`Expected an integer of at most ${k.maximum}.`))}`,
      );
    return n;
  }
  const x = fromString(t, s, name, c);
  return readValue(t, x, argumentPath(name), c);
}

/**
 * A union read from a string (spec §8), by its plan ({@link planUnion}): the grammar of each
 * member is tried in the order written; the first that takes the string reads it (`string`, which
 * takes everything, is last: extraction refuses it elsewhere). None: `Expected an integer or one
 * of "latest".`.
 */
function readUnionFromString(
  t: Extract<TypeModel, { kind: "union" }>,
  s: string,
  v: string,
  name: string,
  c: { out: Lines; scope: Scope },
): void {
  const plan = planUnion(t, "string");
  const none = failWith(argumentPath(name), fixed(`Expected ${listOr(plan.branches.map((b) => b.expected))}.`));
  emitTests(c.out, plan, s, v, (m) => readMember(m, s, name, c, false), none);
}

/** Converts the string in `s` to the JSON value a tool reader of type `t` expects; returns its expression. */
function fromString(t: TypeModel, s: string, name: string, c: { out: Lines; scope: Scope }): string {
  switch (t.kind) {
    case "string":
    case "date":
    case "enum":
      return s;
    case "number":
    case "integer": {
      const n = c.scope.fresh("n");
      c.out.line(`const ${n} = ${helperCall(t.kind === "number" ? "numberFromString" : "integerFromString", s)};`);
      c.out.line(
        `if (${n} === undefined) ${failWith(argumentPath(name), fixed(t.kind === "number" ? "Expected a number." : "Expected an integer."))}`,
      );
      return n;
    }
    case "boolean": {
      const b = c.scope.fresh("b");
      c.out.line(`const ${b} = ${s} === "true" ? true : ${s} === "false" ? false : undefined;`);
      c.out.line(`if (${b} === undefined) ${failWith(argumentPath(name), fixed("Expected true or false."))}`);
      return b;
    }
    case "url":
    case "bytes":
    case "array":
    case "record":
    case "object":
    case "nullable":
    case "union":
    case "tuple":
      throw new CodegenError(`Parameter '${name}': a ${t.kind} is not read from a string (spec §8).`);
    default:
      return assertNever(t);
  }
}
