/**
 * The second sentences of argument errors (spec §5), as generated code: each is built only on
 * the failing branch, from the keyword that failed; a wrong JSON type names what it got (the JSON
 * type only, through the runtime helper `got`, never the value). The whole table is in
 * docs/unions.md "Error sentences".
 *
 * @module
 */
import { assertNever, type TypeModel } from "@typed-mcp/model";
import { helperCall, inUnit, str, type Path, pathCode } from "./emit.js";

/** The JSON type a schema of `t` lists, with its article: `a string`, `an integer`, … (spec §5 "names the member types without their constraints"). */
export function expectedName(t: TypeModel): string {
  switch (t.kind) {
    case "string":
    case "date":
    case "url":
    case "bytes":
      return "a string";
    case "number":
      return "a number";
    case "integer":
      return "an integer";
    case "boolean":
      return "a boolean";
    case "enum":
      if (t.numeric !== undefined || t.valueType === "string") return "a string";
      return t.valueType === "integer" ? "an integer" : t.valueType === "number" ? "a number" : "a boolean";
    case "array":
    case "tuple":
      return "an array";
    case "record":
    case "object":
      return "an object";
    case "nullable":
      return expectedName(t.inner);
    case "union":
      return t.discriminator !== undefined ? "an object" : t.members.map(expectedName).join(", ");
    default:
      return assertNever(t);
  }
}

/** `a, b or c` (spec §5: `Expected a string, a number or null, got a boolean.`). */
export function listOr(names: string[]): string {
  const unique = names.filter((n, i) => names.indexOf(n) === i);
  if (unique.length <= 1) return unique[0] ?? "";
  return `${unique.slice(0, -1).join(", ")} or ${unique[unique.length - 1]}`;
}

/** Code of the sentence for a wrong JSON type: `"Expected a string or null, got " + __tmcp.got(x) + "."`. */
export function wrongType(names: string[], orNull: boolean, x: string): string {
  return `${str(`Expected ${listOr(orNull ? [...names, "null"] : names)}, got `)} + ${helperCall("got", x)} + "."`;
}

/** A fixed sentence as code. */
export function fixed(sentence: string): string {
  return str(sentence);
}

/** `3 characters`, `1 character` (the unit of §5's length sentences). */
export function count(n: number, unit: string): string {
  return `${n} ${n === 1 ? unit : unit + "s"}`;
}

/** `Expected one of "a", 1, null.`: the enum values JSON-encoded in enum order (spec §5). */
export function oneOf(values: readonly (string | number | boolean | null)[]): string {
  return `Expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}.`;
}

/**
 * `return __tmcp.invalid(<path>, <sentence>);`: the failing branch of a reader (spec §5). Inside a
 * shared reader (a path from `UNIT_ROOT`, `shared.ts`) the failure is the string
 * `<path suffix> + "\n" + <sentence>` instead, which the caller completes with its own path
 * (`__tmcp.invalidFrom`); a safe path never holds a line feed (`pathKey` escapes it).
 */
export function failWith(path: Path, sentence: string): string {
  if (inUnit(path)) return `return ${pathCode(path)} + ${str("\n")} + ${sentence};`;
  return `return ${helperCall("invalid", pathCode(path), sentence)};`;
}
