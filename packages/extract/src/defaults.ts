/**
 * Parameter defaults (spec §3): the folded default of a parameter or destructured property as its
 * wire value ({@link defaultValue}), and the check that a written default lies inside the
 * parameter's own listed constraints ({@link defaultOutside}, OMCG0007 at the default).
 *
 * @module
 */
import { assertNever } from "@typed-mcp/model";
import type { DefaultValue, TypeModel } from "@typed-mcp/model";
import type { DefaultInfo, TypeHost } from "./backend/host.js";

/**
 * A default written as `default` (spec §3): a constant folded under §1's rule (string, number,
 * negated number, boolean, template of constants, `+`, a `const` of those, an array of these),
 * an enum member (its wire value), or a `const` of such a literal type; `undefined` for anything
 * else (the parameter is then only optional).
 */
export function defaultValue(host: TypeHost, d: DefaultInfo | undefined, model: TypeModel): DefaultValue | undefined {
  if (!d) return undefined;
  if (d.kind === "const") return wireDefault(d.value, model);
  if (d.kind !== "type") return undefined;
  const s = host.shape(d.type);
  switch (s.kind) {
    case "stringLiteral":
    case "numberLiteral":
      return s.value;
    case "booleanLiteral":
      return s.value;
    case "enumLiteral": {
      if (typeof s.value === "string") return s.value;
      const inner = model.kind === "nullable" ? model.inner : model;
      if (inner.kind === "enum" && inner.numeric) {
        const i = inner.numeric.indexOf(s.value);
        return i >= 0 ? (inner.values[i] as string) : undefined;
      }
      const info = host.enumOf(d.type);
      return info?.members.find((m) => m.value === s.value)?.name;
    }
    case "string":
    case "number":
    case "bigint":
    case "boolean":
    case "null":
    case "undefined":
    case "void":
    case "any":
    case "unknown":
    case "never":
    case "symbol":
    case "nonPrimitive":
    case "bigintLiteral":
    case "union":
    case "intersection":
    case "object":
    case "typeParameter":
    case "other":
      return undefined;
    default:
      return assertNever(s);
  }
}

/** A folded constant as its wire value for `model`: numeric-enum numbers become member names (spec §4); `undefined` when one has none. */
function wireDefault(value: DefaultValue, model: TypeModel): DefaultValue | undefined {
  const m = model.kind === "nullable" ? model.inner : model;
  if (Array.isArray(value)) {
    if (m.kind !== "array" && m.kind !== "tuple") return value;
    const out: DefaultValue[] = [];
    for (const v of value) {
      const w = wireDefault(v, m.items);
      if (w === undefined) return undefined;
      out.push(w);
    }
    return out;
  }
  if (m.kind === "enum" && m.numeric && typeof value === "number") {
    const i = m.numeric.indexOf(value);
    return i >= 0 ? (m.values[i] as string) : undefined;
  }
  return value;
}

/**
 * Why the written default `value` lies outside the constraints `model` lists for it (spec §3,
 * OMCG0007): `minimum`/`maximum`, `minLength`/`maxLength` (code points), `pattern` (with `u`),
 * `minItems`/`maxItems`, the items of a `Set` being unique, `enum` membership — each array element
 * against the item type; `undefined` when it fits. `format` is left to the reader (its validators
 * run at call time). Bounded by the default's own nesting (a folded source literal, spec §1).
 */
export function defaultOutside(value: DefaultValue, model: TypeModel): string | undefined {
  const m = model.kind === "nullable" ? model.inner : model;
  const c = "constraints" in m ? m.constraints : undefined;
  const shown = JSON.stringify(value);
  if (typeof value === "number" && (m.kind === "number" || m.kind === "integer")) {
    if (c?.minimum !== undefined && value < c.minimum) return `${shown} is below its minimum ${c.minimum}`;
    if (c?.maximum !== undefined && value > c.maximum) return `${shown} is above its maximum ${c.maximum}`;
  }
  if (typeof value === "string" && m.kind === "string") {
    const length = [...value].length;
    if (c?.minLength !== undefined && length < c.minLength)
      return `${shown} is shorter than its minLength ${c.minLength}`;
    if (c?.maxLength !== undefined && length > c.maxLength)
      return `${shown} is longer than its maxLength ${c.maxLength}`;
    if (c?.pattern !== undefined && !new RegExp(c.pattern, "u").test(value))
      return `${shown} does not match its pattern ${c.pattern}`;
  }
  if (m.kind === "enum" && !Array.isArray(value) && !m.values.includes(value))
    return `${shown} is not one of its values ${m.values.map((v) => JSON.stringify(v)).join(", ")}`;
  if (Array.isArray(value) && (m.kind === "array" || m.kind === "tuple")) {
    if (m.kind === "array") {
      if (c?.minLength !== undefined && value.length < c.minLength)
        return `${shown} has fewer items than its minItems ${c.minLength}`;
      if (c?.maxLength !== undefined && value.length > c.maxLength)
        return `${shown} has more items than its maxItems ${c.maxLength}`;
      const keys = value.map((v) => JSON.stringify(v));
      if (m.set && new Set(keys).size !== keys.length) return `${shown} lists an item twice in a Set`;
    }
    for (const v of value) {
      const why = defaultOutside(v, m.items);
      if (why !== undefined) return `${shown}: ${why}`;
    }
  }
  return undefined;
}
