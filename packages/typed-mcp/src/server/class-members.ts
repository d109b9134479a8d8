/**
 * Reading the generated descriptors the build plugin stored on a class (`defineTools`,
 * `defineResources`, `definePrompts` in its `static {}` block; spec §1 generator path, §8) and
 * binding them to the registered object's methods. Shared by tools (registry.ts) and by
 * resources and prompts (resources/resource-registry.ts).
 *
 * @module
 */
import { pluginMissingMessage } from "../calls/errors.js";

/** What every class-stored descriptor has: the decorated method's name, and whether it is static. */
export interface MemberDescriptor {
  member?: string;
  static?: boolean;
}

/** A registered function: what the server calls, with which `this`, and where it came from (for error messages). */
export interface BoundMember {
  readonly fn: (...args: unknown[]) => unknown;
  readonly thisArg: unknown;
  /** `Orders.placeOrder`, `static Orders.version`. */
  readonly origin: string;
}

/**
 * The descriptors stored under `key` on `target`'s class chain: for a class, the static ones of
 * it and its base classes; for an instance, the instance ones of its class chain. A member
 * declared in several classes is taken once, from the most derived class.
 *
 * @param target The object passed to `server.addTools` / `add` / `addResources` / `addPrompts`.
 * @param key The storage symbol (`TOOLS`, `RESOURCES`, `PROMPTS`).
 * @param memberOf The member a descriptor stands for (defaults to `d.member`).
 */
export function collect<D extends MemberDescriptor>(
  target: object,
  key: symbol,
  memberOf: (d: D) => string = (d) => d.member ?? "",
): D[] {
  const wantStatic = typeof target === "function";
  const out: D[] = [];
  const members = new Set<string>();
  let ctor: unknown = wantStatic ? target : Object.getPrototypeOf(target)?.constructor;
  const visited = new Set<unknown>();
  while (typeof ctor === "function" && ctor !== Function.prototype && !visited.has(ctor)) {
    visited.add(ctor);
    if (Object.hasOwn(ctor, key)) {
      for (const d of (ctor as unknown as Record<symbol, D[]>)[key] ?? []) {
        if (!!d.static !== wantStatic) continue;
        const member = memberOf(d);
        if (members.has(member)) continue;
        members.add(member);
        out.push(d);
      }
    }
    ctor = Object.getPrototypeOf(ctor);
  }
  return out;
}

/**
 * The method a class-stored descriptor names, looked up on `target` now (so overrides are
 * called), with `this` = `target`.
 *
 * @param notAFunction The error message when the member is not a function, given its origin text.
 * @throws Error with that message.
 */
export function bindMember(target: object, d: MemberDescriptor, notAFunction: (origin: string) => string): BoundMember {
  const owner =
    typeof target === "function" ? target.name || "(anonymous class)" : target.constructor?.name || "(object)";
  const origin = `${d.static ? "static " : ""}${owner}.${d.member ?? "?"}`;
  const fn = d.member === undefined ? undefined : (target as Record<string, unknown>)[d.member];
  if (typeof fn !== "function") throw new Error(notAFunction(origin));
  return { fn: fn as (...args: unknown[]) => unknown, thisArg: target, origin };
}

/**
 * The error message of `addTools` / `add` / `addResources` / `addPrompts` on an object without
 * compiled members of the kind asked for, with the plugin hint (docs/runtime.md "Plugin-missing message").
 *
 * @param what The decorators looked for, e.g. `@tool()` or `@tool(), @resource() or @prompt()`.
 */
export function noMembersMessage(target: object, what: string): string {
  const name =
    typeof target === "function"
      ? `class ${target.name || "(anonymous)"}`
      : `this ${target.constructor?.name ?? "object"} instance`;
  const kind = typeof target === "function" ? "static" : "instance";
  return (
    `typed-mcp: ${name} has no ${kind} ${what} members to register. ` +
    `If it has decorated methods, the build plugin did not compile them: ${pluginMissingMessage("this code")}`
  );
}

/** The last two of a quick-path call's arguments after the name: the function and the appended descriptor (`server.tool(name, [options,] fn, descriptor)`). */
export function quickArguments(rest: readonly unknown[]): { fn: unknown; descriptor: unknown } {
  return { descriptor: rest[rest.length - 1], fn: rest.length >= 2 ? rest[rest.length - 2] : undefined };
}
