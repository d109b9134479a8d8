/**
 * Built-in object types in the type → model conversion (spec §4, "Built-ins"): `Date`, `URL` and
 * `Uint8Array` have model kinds of their own, `Set<T>` is an array of unique items, `Map<string,
 * T>` a record; `Array`, `Object` and anonymous object types are read as plain objects; any other
 * built-in (`Promise`, `RegExp`, …) has no JSON form.
 */
import type { TypeModel } from "@typed-mcp/model";
import type { ObjectShape, TypeNodeRef, TypeRef } from "./backend/host.js";
import type { ConvertContext } from "./convert.js";
import { fail } from "./convert-problems.js";
import type { ConvertOne } from "./convert-unions.js";

const BUILTIN_UNSUPPORTED_FIX = "Use a plain data type (string, number, an interface, …).";

/** The built-ins with a model of their own kind (spec §4 "Built-ins"). */
const BUILTIN_KINDS = new Map<string, "date" | "url" | "bytes">([
  ["Date", "date"],
  ["URL", "url"],
  ["Uint8Array", "bytes"],
]);

/**
 * A built-in object type (`o.named.builtin`): its model, a problem (`undefined`), or `"object"`
 * for the built-ins read as plain objects (`Array`/`ReadonlyArray` references, `Object`, `__type`).
 * `convertType` converts the item and value types.
 */
export function convertBuiltin(
  ctx: ConvertContext,
  t: TypeRef,
  o: ObjectShape,
  node: TypeNodeRef | undefined,
  path: string,
  convertType: ConvertOne,
): TypeModel | undefined | "object" {
  const { host } = ctx;
  const name = o.named!.name;
  const kind = BUILTIN_KINDS.get(name);
  if (kind) return { kind };
  switch (name) {
    case "Set":
    case "ReadonlySet": {
      const el = o.typeArguments[0];
      if (!el) return fail(ctx, path, t, "a Set without an item type", "Write `Set<T>`.");
      const items = convertType(ctx, el, host.childNode(node, "element"), path + "[]");
      return items ? { kind: "array", items, set: true } : undefined;
    }
    case "Map":
    case "ReadonlyMap": {
      const [k, v] = o.typeArguments;
      if (!k || !v || host.shape(k).kind !== "string")
        return fail(ctx, path, t, "maps are supported only with `string` keys", "Use `Map<string, T>`.");
      const values = convertType(ctx, v, host.childNode(node, 1), path + "{}");
      return values ? { kind: "record", values, map: true } : undefined;
    }
    case "Promise":
      return fail(ctx, path, t, "a Promise is not a value that can be sent", "Take the awaited value instead.");
    case "Array":
    case "ReadonlyArray":
    case "Object":
    case "__type":
      return "object";
    default:
      return fail(ctx, path, t, `the built-in '${name}' has no JSON form`, BUILTIN_UNSUPPORTED_FIX);
  }
}
