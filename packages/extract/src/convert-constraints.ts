/**
 * Validation constraints of the type → model conversion (docs/mapping.md §4, "Validation tags"):
 * typed-mcp type tags (`Minimum<1>`, `MaxLength<20>`) and JSDoc tags (`@minimum`, `@pattern`, …),
 * checked against the type they are attached to. Problems are OMCG0007 in the context's list.
 */
import { assertNever } from "@typed-mcp/model";
import type { Constraints, TypeModel } from "@typed-mcp/model";
import type { ConvertContext } from "./convert.js";
import { tagLocation, type DocComment } from "./jsdoc.js";
import { tagProblem } from "./convert-problems.js";
import { classifyTag, defaultTagMessage, isDefaultTag } from "./jsdoc-tags.js";

/**
 * Reads validation tags from a doc comment (spec §4): exact names `@minimum @maximum @minLength
 * @maxLength @pattern @format`; a name within two edits of one (`@minimun`, `@minlength`), a JSON
 * Schema keyword typed-mcp does not write (`@min`, `@maxItems`, `@exclusiveMinimum`, …) or a
 * near-miss of `@jsonName` / `@naming` / `@ignore` is OMCG0007 ({@link classifyTag}). On an input,
 * a `@default` / `@defaultValue` tag is OMCG0007 too, at the tag (spec §3: never a second way to
 * state a default); output-only properties ignore it.
 */
export function docConstraints(ctx: ConvertContext, path: string, doc: DocComment | undefined): Constraints {
  const c: Constraints = {};
  if (!doc) return c;
  for (const tag of doc.tags) {
    if (ctx.mode === "input" && isDefaultTag(tag.name)) {
      tagProblem(ctx, path, defaultTagMessage(tag.name, tag.text, path), tagLocation(doc, tag));
      continue;
    }
    const kind = classifyTag(tag.name);
    if (kind.kind === "mistake") tagProblem(ctx, path, kind.message);
    if (kind.kind !== "validation") continue;
    const canonical = kind.tag;
    const text = tag.text.trim();
    if (canonical === "pattern") {
      addConstraint(ctx, path, c, canonical, text, "JSDoc tag");
    } else if (canonical === "format") {
      addConstraint(ctx, path, c, canonical, text.split(/\s+/)[0] ?? "", "JSDoc tag");
    } else {
      const word = text.split(/\s+/)[0] ?? "";
      const n = word === "" ? NaN : Number(word);
      if (!Number.isFinite(n)) {
        tagProblem(ctx, path, `@${canonical} needs a number, got '${text}'.`);
        continue;
      }
      addConstraint(ctx, path, c, canonical, n, "JSDoc tag");
    }
  }
  return c;
}

/** Adds one constraint `name` = `value` (from a type tag or a JSDoc tag, named by `source`), checking its value. */
export function addConstraint(
  ctx: ConvertContext,
  path: string,
  c: Constraints,
  name: string,
  value: unknown,
  source: string,
): void {
  const set = (k: keyof Constraints, v: unknown) => {
    if (c[k] !== undefined && c[k] !== v) {
      tagProblem(ctx, path, `${k} is given twice with different values (${String(c[k])} and ${String(v)}).`);
      return;
    }
    (c as Record<string, unknown>)[k] = v;
  };
  switch (name) {
    case "minimum":
    case "maximum":
      if (typeof value !== "number" || !Number.isFinite(value))
        return tagProblem(ctx, path, `${name} needs a number literal (${source}).`);
      return set(name, value);
    case "minLength":
    case "maxLength":
      if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
        return tagProblem(ctx, path, `${name} needs a non-negative integer (${source}).`);
      return set(name, value);
    case "pattern":
      if (typeof value !== "string" || value === "")
        return tagProblem(ctx, path, `pattern needs a regular expression (${source}).`);
      try {
        new RegExp(value, "u");
      } catch (e) {
        return tagProblem(ctx, path, `pattern /${value}/ does not compile with the u flag: ${(e as Error).message}.`);
      }
      return set("pattern", value);
    case "format":
      if (value !== "email" && value !== "uri")
        return tagProblem(ctx, path, `format must be "email" or "uri", got '${String(value)}'.`);
      return set("format", value);
    default:
      return tagProblem(ctx, path, `unknown type tag '${name}'.`);
  }
}

/** Whether the validation keyword `k` fits a value of model `model` (spec §4 validation tags). */
function constraintFits(model: TypeModel, k: keyof Constraints): boolean {
  switch (model.kind) {
    case "number":
    case "integer":
      return k === "minimum" || k === "maximum";
    case "string":
      return k !== "minimum" && k !== "maximum";
    case "array":
      return k === "minLength" || k === "maxLength";
    case "boolean":
    case "enum":
    case "date":
    case "url":
    case "bytes":
    case "record":
    case "object":
    case "tuple":
    case "union":
    case "nullable":
      return false;
    default:
      return assertNever(model);
  }
}

/** Spec §4a: a JSDoc tag on a whole union is copied into each member it fits; one that fits no member is OMCG0007. */
function applyToMembers(
  ctx: ConvertContext,
  path: string,
  model: Extract<TypeModel, { kind: "union" }>,
  add: Constraints,
  source: string,
): TypeModel {
  const keys = Object.keys(add) as (keyof Constraints)[];
  const unfit = keys.filter((k) => !model.members.some((m) => constraintFits(m, k)));
  if (unfit.length) {
    tagProblem(ctx, path, `${unfit.map((k) => "@" + k).join(", ")} fits no member of the union (${source}).`);
    return model;
  }
  const members = model.members.map((m) => {
    const own: Constraints = {};
    for (const k of keys) if (constraintFits(m, k)) (own as Record<string, unknown>)[k] = add[k];
    return applyConstraints(ctx, path, m, own, source);
  });
  return { ...model, members };
}

/**
 * Attaches constraints to a model (through `nullable`), checking that each fits the type
 * (spec §4): minimum/maximum on numbers; minLength/maxLength on strings and arrays/sets;
 * pattern/format on strings. Also checks `minimum <= maximum` and `minLength <= maxLength`.
 */
export function applyConstraints(
  ctx: ConvertContext,
  path: string,
  model: TypeModel,
  add: Constraints,
  source: string,
): TypeModel {
  const keys = Object.keys(add) as (keyof Constraints)[];
  if (keys.length === 0) return model;
  if (model.kind === "nullable")
    return { kind: "nullable", inner: applyConstraints(ctx, path, model.inner, add, source) };
  if (model.kind === "union") return applyToMembers(ctx, path, model, add, source);
  const fits = (k: keyof Constraints): boolean => constraintFits(model, k);
  const bad = keys.filter((k) => !fits(k));
  if (bad.length) {
    const hint =
      model.kind === "array" ? " (put the type tag on the item type instead, e.g. `(string & MaxLength<20>)[]`)" : "";
    tagProblem(
      ctx,
      path,
      `${bad.map((k) => "@" + k).join(", ")} does not fit ${/^[aeiou]/.test(model.kind) ? "an" : "a"} ${model.kind} (${source})${hint}.`,
    );
    return model;
  }
  if (model.kind !== "number" && model.kind !== "integer" && model.kind !== "string" && model.kind !== "array")
    return model;
  const merged: Constraints = { ...(model.constraints ?? {}) };
  for (const k of keys) {
    const v = add[k];
    if (merged[k] !== undefined && merged[k] !== v) {
      tagProblem(ctx, path, `${k} is given twice with different values (${String(merged[k])} and ${String(v)}).`);
      continue;
    }
    (merged as Record<string, unknown>)[k] = v;
  }
  if (merged.minimum !== undefined && merged.maximum !== undefined && merged.minimum > merged.maximum)
    tagProblem(ctx, path, `minimum ${merged.minimum} is greater than maximum ${merged.maximum}.`);
  if (merged.minLength !== undefined && merged.maxLength !== undefined && merged.minLength > merged.maxLength)
    tagProblem(ctx, path, `minLength ${merged.minLength} is greater than maxLength ${merged.maxLength}.`);
  return { ...model, constraints: merged } as TypeModel;
}
