/**
 * The state and checks every reader emitter shares (spec §5): the emission context, the
 * `if (cond) return __tmcp.invalid(…)` check, the JSON type check and property paths — used by
 * read.ts, read-unions.ts and shared.ts — and {@link Readers}, the recursive readers read.ts
 * passes to the other two so that no reader module imports read.ts back.
 *
 * @module
 */
import type { ObjectModel, TypeModel } from "@typed-mcp/model";
import { pathKey } from "typed-mcp/internal/argument-errors";
import { type Lines, type Path, type Scope, pathText } from "./emit.js";
import { expectedName, failWith, wrongType } from "./sentences.js";

/** Emission state of one reader. */
export interface Ctx {
  out: Lines;
  scope: Scope;
  /** The value may also be `null` (the inner read of a nullable): a wrong-type sentence lists `null` too. */
  orNull?: boolean;
  /**
   * `openai-strict` (spec §11): an optional, non-nullable property sent as `null` is read as
   * absent (its default applies). A codegen option of the whole reader, never a runtime switch.
   */
  nullAsAbsent?: boolean;
  /** The value read is a check unit's own value (shared.ts `checkShared`): read it inline, never through that unit again. Never inherited. */
  unitTop?: boolean;
}

/** `if (cond) return __tmcp.invalid(path, sentence);` */
export function check(c: Ctx, cond: string, path: Path, sentence: string): void {
  c.out.line(`if (${cond}) ${failWith(path, sentence)}`);
}

/** The JSON type check of `t` at `x`: fails with `Expected <type>[ or null], got <JSON type>.`. */
export function checkType(c: Ctx, t: TypeModel, cond: string, x: string, path: Path): void {
  check(c, cond, path, wrongType([expectedName(t)], !!c.orNull, x));
}

/** The test that the JSON value `x` is not an object (`null` and arrays are not objects on the wire). */
export const NOT_OBJECT = (x: string) => `typeof ${x} !== "object" || ${x} === null || Array.isArray(${x})`;

/** The path of property `name` under `path` (spec §5 safe paths: `.name`, or `["…"]`). */
export function propertyPath(path: Path, name: string): Path {
  return pathText(path, pathKey(name, path.length === 0));
}

/** The readers of read.ts that the union and tuple readers (read-unions.ts) recurse into. */
export interface Readers {
  /** read.ts `readInner`: reads `t` at `x` into its own {@link Lines}, the body and the value's expression. */
  inner(t: TypeModel, x: string, path: Path, c: Ctx, orNull?: boolean): { body: Lines; expr: string };
  /** read.ts `readElements`: reads every element of the JSON array `x` as `items`, into an array or a `Set`. */
  elements(items: TypeModel, x: string, path: Path, c: Ctx, as: "array" | "set"): string;
  /** read.ts `readObject`: reads the object type `t` at `x` inline. */
  object(t: ObjectModel, x: string, path: Path, c: Ctx): string;
}
