/**
 * Intersections in the type → model conversion (spec §4, "Validation tags" and "Objects"): a
 * primitive with typed-mcp type tags (`number & Minimum<1>`, `Int`, `string & MaxLength<20>`)
 * becomes the primitive's model with its constraints; an intersection of object types is one
 * object type. Anything else has no JSON Schema (OMCG0005/OMCG0009).
 */
import type { Constraints, TypeModel } from "@typed-mcp/model";
import type { TypeNodeRef, TypeRef } from "./backend/host.js";
import type { ConvertContext, ConvertNested } from "./convert.js";
import { addConstraint, applyConstraints } from "./convert-constraints.js";
import { convertObjectType } from "./convert-objects.js";
import { fail, tagProblem } from "./convert-problems.js";

/** `number & Minimum<1>`, `Int`, `string & MaxLength<20>`, or an intersection of object types. */
export function convertIntersection(
  ctx: ConvertContext,
  t: TypeRef,
  members: TypeRef[],
  node: TypeNodeRef | undefined,
  path: string,
  nested: ConvertNested,
): TypeModel | undefined {
  const { host } = ctx;
  const constraints: Constraints = {};
  let int = false;
  const others: TypeRef[] = [];
  for (const m of members) {
    const tags = host.shape(m).kind === "object" ? host.tags(m) : undefined;
    if (!tags) {
      others.push(m);
      continue;
    }
    for (const tag of tags) {
      if (tag.name === "int") int = true;
      else addConstraint(ctx, path, constraints, tag.name, tag.value, "type tag");
    }
  }
  let base: TypeModel | undefined;
  if (others.length === 1) {
    base = nested.single(ctx, others[0]!, undefined, path);
  } else if (others.length > 1 && others.every((m) => host.shape(m).kind === "object")) {
    if (int || Object.keys(constraints).length) {
      tagProblem(
        ctx,
        path,
        "type tags (Int, Minimum, MaxLength, …) apply to numbers, strings and arrays, not to object types.",
      );
      return undefined;
    }
    return convertObjectType(ctx, t, node, path, nested);
  } else {
    return fail(
      ctx,
      path,
      t,
      "an intersection of these types has no JSON Schema",
      "Use an interface or a primitive with type tags.",
    );
  }
  if (!base) return undefined;
  if (int) {
    if (base.kind === "number") base = { kind: "integer" };
    else if (!(base.kind === "integer")) {
      tagProblem(ctx, path, "`Int` applies to numbers only.");
      return undefined;
    }
  }
  return applyConstraints(ctx, path, base, constraints, "type tag");
}
