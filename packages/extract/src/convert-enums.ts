/**
 * `enum` models of the type → model conversion (spec §4): a union of literals of one JSON type,
 * and the members of a TypeScript `enum`. Both convert.ts (a literal union) and convert-unions.ts
 * (a union's literal and enum members) build enums here; it converts no other type, so it
 * imports neither of them (no import cycle).
 */
import type { TypeModel } from "@typed-mcp/model";
import type { TypeNodeRef, TypeRef } from "./backend/host.js";
import type { ConvertContext } from "./convert.js";
import { fail } from "./convert-problems.js";

/** A union of literals of one JSON type as an `enum`, values in source order where written (spec §4), else sorted. */
export function literalEnum(
  ctx: ConvertContext,
  values: (string | number)[],
  whole: TypeRef,
  node: TypeNodeRef | undefined,
  valueType: "string" | "integer" | "number",
): TypeModel {
  const order = ctx.host.literalOrder(whole, node);
  let sorted: (string | number)[];
  if (order && values.every((v) => order.includes(v))) {
    sorted = [];
    for (const v of order) if (values.includes(v) && !sorted.includes(v)) sorted.push(v);
  } else if (valueType === "string") {
    sorted = [...values].sort((a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0));
  } else {
    sorted = [...values].sort((a, b) => (a as number) - (b as number));
  }
  return { kind: "enum", valueType, values: sorted };
}

/** The members of one TypeScript `enum` present in `members`, in declaration order (spec §4). */
export function enumModel(
  ctx: ConvertContext,
  members: TypeRef[],
  whole: TypeRef,
  path: string,
): TypeModel | undefined {
  const info = ctx.host.enumOf(members[0]!);
  if (!info)
    return fail(ctx, path, whole, "the enum's declaration could not be read", "Use a union of string literals.");
  const present = new Set(members.map((m) => (ctx.host.shape(m) as { value: string | number }).value));
  const chosen = info.members.filter((m) => present.has(m.value));
  if (chosen.every((m) => typeof m.value === "string")) {
    const values: string[] = [];
    for (const m of chosen) if (!values.includes(m.value as string)) values.push(m.value as string);
    return { kind: "enum", valueType: "string", values };
  }
  if (chosen.every((m) => typeof m.value === "number")) {
    return {
      kind: "enum",
      valueType: "string",
      values: chosen.map((m) => m.name),
      numeric: chosen.map((m) => m.value as number),
    };
  }
  return fail(ctx, path, whole, "an enum mixing string and number members", "Use a string enum or a numeric enum.");
}
