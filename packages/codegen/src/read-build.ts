/**
 * What an object or array reader hands back (spec §4 Objects, §5; issue 26 "Zero copy", docs/codegen.md):
 * the own-key test of the single pass, the clean copy of a plain object in listed order, whether an
 * object type may be read as itself, and the element loop of an array that is reused while every
 * element is. Used by read.ts.
 *
 * @module
 */
import type { ObjectModel } from "@typed-mcp/model";
import type { Lines } from "./emit.js";
import { assignStatic, literalKey } from "./property-access.js";
import type { Ctx } from "./read-context.js";

/**
 * The own-property test of the `for…in` key `k` of `x`: `Object.prototype.hasOwnProperty.call(x, k)`.
 * In a `for…in` over `x`, V8's optimizing compiler reduces exactly this form to a check of the
 * object's map against the loop's enum cache — no call per key (`Object.hasOwn` is not reduced:
 * measured ×1.5 slower on the flat payload, issue 12). Inherited enumerable keys (a polluted
 * `Object.prototype`) fail it, so they are never read as arguments, properties or record entries.
 */
export function ownKey(x: string, k: string): string {
  return `Object.prototype.hasOwnProperty.call(${x}, ${k})`;
}

/**
 * Builds a plain object from property locals, in listed order: required properties in one
 * literal up to the first optional one, the rest assigned when present.
 */
export function buildObject(props: { key: string; required: boolean }[], locals: string[], c: Ctx): string {
  const r = c.scope.fresh("r");
  let n = 0;
  const head: string[] = [];
  while (n < props.length && props[n]!.required) {
    head.push(`${literalKey(props[n]!.key)}: ${locals[n]}`);
    n++;
  }
  c.out.line(`const ${r} = {${head.length > 0 ? ` ${head.join(", ")} ` : ""}};`);
  for (; n < props.length; n++) {
    const set = assignStatic(r, props[n]!.key, locals[n]!);
    c.out.line(props[n]!.required ? set : `if (${locals[n]} !== undefined) ${set}`);
  }
  return r;
}

/**
 * Whether an object of type `t` may be read as itself (zero copy, {@link readObject}): a plain
 * object (no class to construct, no index signature) whose TypeScript keys are its wire names,
 * and no property the `openai-strict` profile turns from `null` to absent.
 */
export function mayReuse(t: ObjectModel, props: ObjectModel["properties"], c: Ctx): boolean {
  if (t.construct !== undefined || t.additionalProperties !== undefined) return false;
  if (props.some((p) => p.key !== p.name)) return false;
  return !(c.nullAsAbsent === true && props.some((p) => !p.required && p.type.kind !== "nullable"));
}

/**
 * The element loop of an array whose items may be read as themselves (zero copy, see
 * {@link readObject}): the array is `x` itself while every element read is its own element; at
 * the first that is not, a copy of the elements before it is taken and filled from then on.
 * Returns the local holding the array (a {@link Scope.same} local).
 */
export function reuseElements(x: string, i: string, e: string, item: { body: Lines; expr: string }, c: Ctx): string {
  const r = c.scope.fresh("r");
  c.out.line(`let ${r} = ${x};`);
  c.out.open(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {`);
  c.out.line(`const ${e} = ${x}[${i}];`);
  c.out.append(item.body);
  c.out.line(`if (${r} !== ${x}) ${r}[${i}] = ${item.expr};`);
  c.out.line(`else if (${item.expr} !== ${e}) (${r} = ${x}.slice(0, ${i}))[${i}] = ${item.expr};`);
  c.out.close();
  c.scope.same.add(r);
  return r;
}
