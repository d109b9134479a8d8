/**
 * The union strategy (spec §4a, §8), modelled on typia's `UnionExplorer`: ONE place decides how
 * the members of a union are told apart and writes that down as a {@link UnionPlan}; the tool
 * reader (read-unions.ts), the writer (write.ts) and the string reader of resources and prompts
 * (read-strings.ts) only emit code from the plan, through {@link emitCases} and {@link emitTests}.
 *
 * What tells the members apart depends on what the value is ({@link UnionSide}):
 * - a discriminated union: the value of its literal property (the discriminator), one `case` per
 *   member, on a JSON argument and on a value of the declared type alike;
 * - otherwise, on a JSON argument: the member's JSON type (no coercion: `"3"` is a string);
 * - on a value of the declared type: its run-time type, specific tests (`instanceof Date`) before
 *   the catch-all object test;
 * - on a string argument (§8): the member's string grammar, in the order written.
 *
 * @module
 */
import {
  assertNever,
  wireType,
  type ObjectModel,
  type RuntimeHelperName,
  type TypeModel,
  type UnionModel,
  type WireType,
} from "@typed-mcp/model";
import { CodegenError, helperCall, numberLiteral, str, type Lines } from "./emit.js";
import { NOT_OBJECT } from "./read-context.js";
import { checkUnion } from "./schema.js";
import { expectedName, oneOf } from "./sentences.js";

/** A literal of a discriminator (spec §4a). */
type Literal = string | number | boolean;

/**
 * What the value dispatched on is: a JSON argument (`"json"`, the tool reader), a value of the
 * declared type (`"value"`, the writer) or a string argument of a resource or prompt (`"string"`, §8).
 */
export type UnionSide = "json" | "value" | "string";

/** A test that a value is of one member, as data; {@link testCode} writes its code. */
type MemberTest =
  /** `typeof x === "<type>"`. */
  | { kind: "typeof"; type: "string" | "number" | "bigint" | "boolean" }
  /** `Array.isArray(x)`. */
  | { kind: "array" }
  /** A JSON object: not `null`, not an array. */
  | { kind: "json-object" }
  /** Any non-null object: the catch-all of a value's members, tested after every other one. */
  | { kind: "object" }
  /** `x instanceof <constructor>`. */
  | { kind: "instanceof"; constructor: "Date" | "URL" | "Uint8Array" | "Set" | "Map" }
  /** A string the runtime helper parses (it returns `undefined` for one it does not). */
  | { kind: "parses"; helper: RuntimeHelperName }
  /** A string equal to one of `values`. */
  | { kind: "one-of"; values: string[] }
  /** Every string. */
  | { kind: "any" };

/** A union told apart by the value of its discriminator: one case per member. */
export interface CasesPlan {
  kind: "discriminator";
  /** The property the discriminator is read from: its wire name on a JSON value, its TypeScript key on a value of the declared type. */
  property: string;
  /** Each member with the discriminator's literals that select it, in member order. */
  cases: { member: ObjectModel; literals: Literal[] }[];
}

/** A union told apart by one test per member, tried in order: the first that passes selects its member. */
export interface TestsPlan {
  kind: "tests";
  /**
   * Each member with its test and the name of what it takes (for a reader's sentence when none
   * passes; the writer throws a fixed text).
   */
  branches: { member: TypeModel; test: MemberTest; expected: string }[];
}

/** How the members of one union are told apart on one {@link UnionSide}. */
export type UnionPlan = CasesPlan | TestsPlan;

/**
 * The plan of union `t` on `side`. On a JSON argument and on a value, the union's invariants are
 * checked first ({@link checkUnion}). A string argument is never discriminated, and two of its
 * members may share a JSON type (`Date | "latest"`): they are told apart by their grammars.
 *
 * @throws CodegenError for a union that breaks §4a, discriminator keys that differ between the
 * members (on a value), or a member that is not read from a string (on a string).
 */
export function planUnion(t: UnionModel, side: "string"): TestsPlan;
export function planUnion(t: UnionModel, side: UnionSide): UnionPlan;
export function planUnion(t: UnionModel, side: UnionSide): UnionPlan {
  if (side !== "string") checkUnion(t);
  if (t.discriminator !== undefined && side !== "string") return planCases(t, t.discriminator, side);
  const branches = t.members.map((member) => {
    if (side === "string") return { member, ...stringTest(member) };
    return {
      member,
      test: side === "json" ? jsonTypeTest(wireType(member)) : valueTest(member),
      expected: expectedName(member),
    };
  });
  // On a value, the catch-all object test comes after the specific ones (a stable sort: else in member order).
  if (side === "value") branches.sort((a, b) => Number(a.test.kind === "object") - Number(b.test.kind === "object"));
  return { kind: "tests", branches };
}

function planCases(t: UnionModel, discriminator: string, side: "json" | "value"): CasesPlan {
  let property: string | undefined;
  const cases = t.members.map((m) => {
    if (m.kind !== "object") throw new CodegenError("A discriminated union member must be an object type (spec §4a).");
    const p = m.properties.find((q) => q.name === discriminator)!;
    const at = side === "json" ? p.name : p.key;
    if (property !== undefined && at !== property)
      throw new CodegenError(
        `The discriminator ${discriminator} has different TypeScript keys in the members of a union.`,
      );
    property = at;
    return { member: m, literals: p.type.kind === "enum" ? p.type.values : [] };
  });
  return { kind: "discriminator", property: property!, cases };
}

/** The test that a JSON value has the JSON type `w`. */
function jsonTypeTest(w: WireType): MemberTest {
  switch (w) {
    case "string":
    case "number":
    case "boolean":
      return { kind: "typeof", type: w };
    case "array":
      return { kind: "array" };
    case "object":
      return { kind: "json-object" };
    default:
      return assertNever(w);
  }
}

/** The run-time test that a value of the declared type is of member `t` (spec §4a writer dispatch). */
function valueTest(t: TypeModel): MemberTest {
  switch (t.kind) {
    case "string":
    case "number":
    case "boolean":
      return { kind: "typeof", type: t.kind };
    case "integer":
      return { kind: "typeof", type: t.bigint ? "bigint" : "number" };
    case "enum":
      return {
        kind: "typeof",
        type: t.numeric !== undefined || t.valueType === "integer" ? "number" : t.valueType,
      };
    case "date":
      return { kind: "instanceof", constructor: "Date" };
    case "url":
      return { kind: "instanceof", constructor: "URL" };
    case "bytes":
      return { kind: "instanceof", constructor: "Uint8Array" };
    case "array":
      return t.set ? { kind: "instanceof", constructor: "Set" } : { kind: "array" };
    case "tuple":
      return { kind: "array" };
    case "record":
      return t.map ? { kind: "instanceof", constructor: "Map" } : { kind: "object" };
    case "object":
    case "union":
    case "nullable":
      return { kind: "object" };
    default:
      return assertNever(t);
  }
}

/**
 * The string grammar of a union member (spec §8): the test that a string is in it, and what it
 * takes, for the union's sentence (`an integer`, `one of "latest"`).
 *
 * @throws CodegenError for a kind that is not read from a string.
 */
function stringTest(t: TypeModel): { test: MemberTest; expected: string } {
  switch (t.kind) {
    case "integer":
      return {
        test: { kind: "parses", helper: t.bigint ? "bigintFromString" : "integerFromString" },
        expected: "an integer",
      };
    case "number":
      return { test: { kind: "parses", helper: "numberFromString" }, expected: "a number" };
    case "boolean":
      return { test: { kind: "one-of", values: ["true", "false"] }, expected: "true or false" };
    case "date":
      return { test: { kind: "parses", helper: "readDateTime" }, expected: "an RFC 3339 date-time" };
    case "enum":
      return {
        test: { kind: "one-of", values: t.values.map(String) },
        expected: oneOf(t.values).slice("Expected ".length, -1),
      };
    case "string":
      return { test: { kind: "any" }, expected: "a string" };
    case "url":
    case "bytes":
    case "array":
    case "tuple":
    case "record":
    case "object":
    case "nullable":
    case "union":
      throw new CodegenError(`A ${t.kind} is not read from a string (spec §8).`);
    default:
      return assertNever(t);
  }
}

/** The code of `test` on the value in the local `x`. */
function testCode(test: MemberTest, x: string): string {
  switch (test.kind) {
    case "typeof":
      return `typeof ${x} === "${test.type}"`;
    case "array":
      return `Array.isArray(${x})`;
    case "json-object":
      return `!(${NOT_OBJECT(x)})`;
    case "object":
      return `typeof ${x} === "object" && ${x} !== null`;
    case "instanceof":
      return `${x} instanceof ${test.constructor}`;
    case "parses":
      return `${helperCall(test.helper, x)} !== undefined`;
    case "one-of":
      return `(${test.values.map((v) => `${x} === ${str(v)}`).join(" || ")})`;
    case "any":
      return "true";
    default:
      return assertNever(test);
  }
}

/** `case "a": case (-1):`: the labels of one member's literals. */
function caseLabels(literals: Literal[]): string {
  return literals
    .map((v) => `case ${typeof v === "string" ? str(v) : typeof v === "number" ? numberLiteral(v) : String(v)}:`)
    .join(" ");
}

/**
 * Emits a {@link CasesPlan}: `switch (<subject>) { <labels> { <result> = <value>; break; } … default: <otherwise> }`.
 *
 * @param value Emits the read or write of one member (its lines go inside the case) and returns its expression.
 */
export function emitCases(
  out: Lines,
  plan: CasesPlan,
  subject: string,
  result: string,
  value: (member: ObjectModel) => string,
  otherwise: string,
): void {
  out.open(`switch (${subject}) {`);
  for (const { member, literals } of plan.cases) {
    out.open(`${caseLabels(literals)} {`);
    out.line(`${result} = ${value(member)};`);
    out.line("break;");
    out.close();
  }
  out.line(`default: ${otherwise}`);
  out.close();
}

/**
 * Emits a {@link TestsPlan} on the value in the local `x`: `if (<test>) { <result> = <value>; }
 * else if … else { <otherwise> }`.
 *
 * @param value Emits the read or write of one member (its lines go inside the branch) and returns its expression.
 */
export function emitTests(
  out: Lines,
  plan: TestsPlan,
  x: string,
  result: string,
  value: (member: TypeModel) => string,
  otherwise: string,
): void {
  plan.branches.forEach((b, i) => {
    const head = `(${testCode(b.test, x)}) {`;
    if (i === 0) out.open(`if ${head}`);
    else out.reopen(`} else if ${head}`);
    out.line(`${result} = ${value(b.member)};`);
  });
  out.reopen("} else {").line(otherwise).close();
}
