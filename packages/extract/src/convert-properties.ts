/**
 * Property rules of object types in the type → model conversion (docs/mapping.md §4, "Objects"
 * and "Order of `enum` values"): which properties are listed, in which order (keyed mapped types),
 * the `@naming` policy, and which class constructor parameters make a property required.
 */
import type { PropertyModel } from "@typed-mcp/model";
import type { DocComment } from "./jsdoc.js";
import type { NamedInfo, PropertyInfo, TypeHost, TypeNodeRef, TypeRef } from "./backend/host.js";
import type { ConvertContext } from "./convert.js";
import { tagProblem } from "./convert-problems.js";
import { classifyTag } from "./jsdoc-tags.js";

/** Code-unit order of strings (JavaScript's `<`), the order of computed unions (spec §4). */
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Property order of an object type that the standard library's keyed mapped types build from a
 * union of keys (spec §4, "Order of `enum` values" and "`Record<"a" | "b", T>`"): `Record<K, T>`
 * and `Pick<T, K>` list their properties in the order the key union is written in the source
 * (the type argument itself, or a type alias of a written union: `Record<"b" | "a", T>` → `b`,
 * `a`), also behind a type alias of the `Record`/`Pick` (`type Opts = Record<"b" | "a", T>`,
 * read from the alias declaration); computed keys (`keyof X`, `Exclude<…>`, a mapped type, and
 * `Omit<T, K>`, whose keys are `Exclude<keyof T, K>`) are sorted by UTF-16 code unit. Never the
 * checker's union order, which differs between TypeScript versions. Other mapped types whose
 * properties no declaration writes (`{ [K in "b" | "a"]: T }`) are sorted by code unit too. Any
 * other object type (interfaces, classes, object literals, homomorphic mapped types such as
 * `Partial<T>`, which keep `T`'s property order) is returned as given. `node` is the annotation
 * the type was written as, if any.
 */
export function mappedKeyOrder(
  ctx: ConvertContext,
  t: TypeRef,
  node: TypeNodeRef | undefined,
  props: PropertyInfo[],
): PropertyInfo[] {
  const isKeyed = (a: NamedInfo | undefined) =>
    !!a?.builtin && (a.name === "Record" || a.name === "Pick" || a.name === "Omit");
  let alias = ctx.host.aliasNamed(t);
  let keyed = isKeyed(alias);
  if (!keyed && alias && !alias.builtin) {
    // A type alias of a `Record`/`Pick` (`type Opts = Record<"b" | "a", T>`, or an alias of such an
    // alias): the keys are written in the alias declaration.
    const declared = ctx.host.aliasTypeNode(t);
    const named = ctx.host.referenceNamed(declared);
    if (isKeyed(named)) [alias, keyed, node] = [named, true, declared];
  }
  // Properties that no declaration writes (a mapped type over a union of keys, such as
  // `{ [K in "b" | "a"]: T }`) come in the checker's union order: sort them.
  const synthesized = props.length > 0 && props.every((p) => p.declaredAt === undefined);
  if (!keyed && !synthesized) return props;
  const names = props.map((p) => p.name);
  let order: string[] | undefined;
  if (keyed && alias!.name !== "Omit") {
    const keyNode = ctx.host.childNode(node, alias!.name === "Record" ? 0 : 1);
    const written = keyNode ? ctx.host.literalOrder(t, keyNode) : undefined;
    if (written && names.every((n) => written.includes(n)))
      order = written.filter((v): v is string => typeof v === "string");
  }
  order ??= [...names].sort(byCodeUnit);
  const rank = new Map(order.map((n, i) => [n, i] as const));
  return [...props].sort((a, b) => rank.get(a.name)! - rank.get(b.name)!);
}

/** Whether the class constructor `ctor` requires a parameter named `name` (a parameter property). */
export function ctorRequired(ctor: ReturnType<TypeHost["classConstructor"]>, name: string): boolean {
  return ctorParamRequired(ctor, name) === true;
}
/** `true`/`false` when `ctor` has a parameter `name` (required or not), `undefined` when it has none. */
export function ctorParamRequired(ctor: ReturnType<TypeHost["classConstructor"]>, name: string): boolean | undefined {
  const p = ctor?.params.find((cp) => cp.name === name);
  return p ? !p.optional && !p.hasDefault : undefined;
}

/**
 * Whether a property is listed (spec §4 "Objects"): public, not static, not a typed-mcp tag; of a
 * class, no methods or setters; getters only in results.
 */
export function keepProperty(ctx: ConvertContext, p: PropertyInfo, isClass: boolean): boolean {
  if (p.visibility !== "public" || p.isStatic) return false;
  if (p.name.startsWith("typed-mcp:")) return false;
  if (isClass && (p.kind === "method" || p.kind === "setter" || p.kind === "other")) return false;
  if (p.kind === "getter" && ctx.mode === "input") return false;
  return true;
}

/**
 * `@naming camelCase` on the type's declaration (spec §4); another policy is OMCG0006. A mistaken
 * tag name there (`@namig`, a validation-tag typo; {@link classifyTag}) is OMCG0007.
 */
export function parseNaming(ctx: ConvertContext, path: string, doc: DocComment | undefined): "camelCase" | undefined {
  for (const t of doc?.tags ?? []) {
    const c = classifyTag(t.name);
    if (c.kind === "mistake") tagProblem(ctx, path, c.message);
  }
  const tag = doc?.tags.find((x) => x.name === "naming");
  if (!tag) return undefined;
  const policy = tag.text.trim().split(/\s+/)[0] ?? "";
  if (policy === "camelCase") return "camelCase";
  ctx.problems.push({
    code: "OMCG0006",
    message: `${ctx.subject}: '${path}': @naming '${policy}' is not supported; the only policy is camelCase (or leave the tag out).`,
  });
  return undefined;
}

/** OMCG0006 for two properties with the same wire name. */
export function checkWireNames(ctx: ConvertContext, path: string, properties: PropertyModel[]): void {
  const seen = new Map<string, string>();
  for (const p of properties) {
    const other = seen.get(p.name);
    if (other !== undefined) {
      ctx.problems.push({
        code: "OMCG0006",
        message: `${ctx.subject}: '${path}': properties '${other}' and '${p.key}' have the same wire name '${p.name}'; rename one (or use @jsonName).`,
      });
    }
    seen.set(p.name, p.key);
  }
}
