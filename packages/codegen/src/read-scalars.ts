/**
 * Readers of the leaf kinds (spec §5): strings, numbers and integers, booleans, enums, and the
 * values read from a JSON string (dates, URLs, bytes). None recurses into another type; each
 * appends its JSON type check, then its keywords' checks in §2 order, and returns the read value.
 *
 * @module
 */
import type { TypeModel } from "@typed-mcp/model";
import { CodegenError, helperCall, numberLiteral, str, type Path } from "./emit.js";
import { type Ctx, check, checkType } from "./read-context.js";
import { ALLOWED_CONSTRAINTS, checkConstraints } from "./schema.js";
import { count, expectedName, failWith, fixed, oneOf } from "./sentences.js";

/** Reads a string (spec §4 `format`, `minLength`/`maxLength` in code points, `pattern`). */
export function readString(t: Extract<TypeModel, { kind: "string" }>, x: string, path: Path, c: Ctx): string {
  checkConstraints("string", t.constraints, ALLOWED_CONSTRAINTS.string);
  const k = t.constraints ?? {};
  checkType(c, t, `typeof ${x} !== "string"`, x, path);
  if (k.format === "email") check(c, `!${helperCall("isEmail", x)}`, path, fixed("Expected an email address."));
  else if (k.format === "uri") check(c, `!${helperCall("isUri", x)}`, path, fixed("Expected an absolute URI."));
  else if (k.format !== undefined) throw new CodegenError(`Unknown format ${k.format}.`);
  // Code points ≤ UTF-16 length ≤ 2 × code points: count only when the length cannot decide.
  if (k.minLength !== undefined && k.minLength > 0) {
    const sentence = fixed(`Expected a string of at least ${count(k.minLength, "character")}.`);
    check(c, `${x}.length < ${2 * k.minLength} && ${helperCall("codePoints", x)} < ${k.minLength}`, path, sentence);
  }
  if (k.maxLength !== undefined) {
    const sentence = fixed(`Expected a string of at most ${count(k.maxLength, "character")}.`);
    check(c, `${x}.length > ${k.maxLength} && ${helperCall("codePoints", x)} > ${k.maxLength}`, path, sentence);
  }
  if (k.pattern !== undefined)
    check(
      c,
      `!${c.scope.regex(k.pattern)}.test(${x})`,
      path,
      fixed(`Expected a string matching the pattern ${k.pattern}.`),
    );
  return x;
}

/** Reads a number or an integer (a `bigint` is read from a safe integer). */
export function readNumber(
  t: Extract<TypeModel, { kind: "number" | "integer" }>,
  x: string,
  path: Path,
  c: Ctx,
): string {
  checkConstraints(t.kind, t.constraints, ALLOWED_CONSTRAINTS.number);
  const k = t.constraints ?? {};
  const name = expectedName(t);
  checkType(c, t, `typeof ${x} !== "number"`, x, path);
  if (t.kind === "integer") {
    check(c, `!Number.isInteger(${x})`, path, fixed("Expected an integer."));
    if (t.bigint)
      check(
        c,
        `!Number.isSafeInteger(${x})`,
        path,
        fixed("Expected an integer from -9007199254740991 to 9007199254740991."),
      );
  } else check(c, `!Number.isFinite(${x})`, path, fixed("Expected a number."));
  if (k.minimum !== undefined)
    check(c, `${x} < ${numberLiteral(k.minimum)}`, path, fixed(`Expected ${name} of at least ${k.minimum}.`));
  if (k.maximum !== undefined)
    check(c, `${x} > ${numberLiteral(k.maximum)}`, path, fixed(`Expected ${name} of at most ${k.maximum}.`));
  return t.kind === "integer" && t.bigint ? `BigInt(${x})` : x;
}

/** Reads an enum's value; a numeric TypeScript enum is matched by member name. */
export function readEnum(t: Extract<TypeModel, { kind: "enum" }>, x: string, path: Path, c: Ctx): string {
  const type =
    t.numeric !== undefined || t.valueType === "string" ? "string" : t.valueType === "boolean" ? "boolean" : "number";
  checkType(c, t, `typeof ${x} !== "${type}"`, x, path);
  const sentence = fixed(oneOf(c.orNull ? [...t.values, null] : t.values));
  if (t.numeric !== undefined) {
    // Numeric TypeScript enum: matched by member name, read as the member's number.
    const r = c.scope.fresh("r");
    c.out.line(`let ${r};`);
    c.out.open(`switch (${x}) {`);
    t.values.forEach((name, i) => {
      c.out.line(`case ${str(String(name))}: ${r} = ${numberLiteral(t.numeric![i]!)}; break;`);
    });
    c.out.line(`default: ${failWith(path, sentence)}`);
    c.out.close();
    return r;
  }
  const lits = t.values.map((v) =>
    typeof v === "string" ? str(v) : typeof v === "boolean" ? String(v) : numberLiteral(v),
  );
  if (lits.length <= 8) check(c, lits.map((l) => `${x} !== ${l}`).join(" && "), path, sentence);
  else {
    const set = c.scope.hoist("en", `new Set([${lits.join(", ")}])`);
    check(c, `!${set}.has(${x})`, path, sentence);
  }
  return x;
}

/** Reads a boolean. */
export function readBoolean(t: Extract<TypeModel, { kind: "boolean" }>, x: string, path: Path, c: Ctx): string {
  checkType(c, t, `typeof ${x} !== "boolean"`, x, path);
  return x;
}

/** Reads a date-time, URL or base64 value from its JSON string through the runtime helper that parses it. */
export function readFromString(
  t: Extract<TypeModel, { kind: "date" | "url" | "bytes" }>,
  x: string,
  path: Path,
  c: Ctx,
): string {
  const helper = t.kind === "date" ? "readDateTime" : t.kind === "url" ? "readUrl" : "readBase64";
  const what = t.kind === "date" ? "an RFC 3339 date-time" : t.kind === "url" ? "an absolute URI" : "base64";
  checkType(c, t, `typeof ${x} !== "string"`, x, path);
  const r = c.scope.fresh("r");
  c.out.line(`const ${r} = ${helperCall(helper, x)};`);
  check(c, `${r} === undefined`, path, fixed(`Expected ${what}.`));
  return r;
}
