/**
 * Option values as compile-time constants (spec §1): literals read from oxc nodes, anything else
 * folded by the backend (constant folding: an expression of constants evaluated at build time).
 *
 * @module
 */
import type { Argument, Expression } from "oxc-parser";
import type { ConstantValue, FoldResult } from "./backend/host.js";

/**
 * How option values that are not literals are folded to compile-time constants (spec §1): the
 * backend's {@link ModuleSession.foldConstant} by module span. Without one (the first, purely
 * syntactic scan), such a value sets `pending` and is left out; the caller scans again with the
 * backend's folder.
 */
export interface ConstantReader {
  /** The backend's constant folding (`foldConstant`: an expression of constants evaluated at build time), by module span. */
  fold?: (span: [number, number]) => FoldResult;
  pending: boolean;
}

/** A value written as a literal (string, no-substitution template, number, boolean, `null`, `-n`, arrays of these); `undefined` otherwise. */
function literalConstant(node: Argument): ConstantValue | undefined {
  const s = literalString(node);
  if (s !== undefined) return s;
  if (
    node.type === "Literal" &&
    (typeof node.value === "boolean" || typeof node.value === "number" || node.value === null)
  )
    return node.value;
  if (node.type === "ArrayExpression") {
    const out: ConstantValue[] = [];
    for (const el of node.elements) {
      const v = el && el.type !== "SpreadElement" ? literalConstant(unwrap(el)) : undefined;
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }
  return undefined;
}

/** The compile-time constant of an option value (spec §1): literal syntax, else the backend's fold; `undefined` while pending. */
export function constantOf(node: Argument, reader: ConstantReader): FoldResult | undefined {
  const lit = literalConstant(node);
  if (lit !== undefined) return { value: lit };
  if (!reader.fold) {
    reader.pending = true;
    return undefined;
  }
  return reader.fold([node.start, node.end]);
}

/** A string literal or a template literal without substitutions; else `undefined`. */
function literalString(node: Argument): string | undefined {
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0)
    return node.quasis[0]?.value?.cooked ?? undefined;
  return undefined;
}

/** The expression inside parentheses and non-null assertions (`((x)!)` → `x`). */
export function unwrap(node: Expression): Expression;
export function unwrap(node: Argument): Argument;
export function unwrap(node: Argument): Argument {
  while (node.type === "ParenthesizedExpression" || node.type === "TSNonNullExpression") node = node.expression;
  return node;
}
