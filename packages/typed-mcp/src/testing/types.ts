/**
 * What TypeScript can see of a tool, for the typed calls of `typed-mcp/testing` (docs/testing.md
 * "Typed calls"). Types carry no parameter names and decorators do not change a class's type, so
 * the arguments are positional (the method's parameters without `RequestContext` / `AbortSignal`;
 * one object for a single destructured parameter) and the result is typed as it arrives on the
 * wire (spec §6): {@link Json} of the return type. Types only: nothing here exists at run time.
 *
 * @module
 */
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/server";
import type { RequestContext } from "../types.js";

/** `true` when `T` is `any` (kept as an argument, never taken for a runtime-filled parameter). */
type IsAny<T> = 0 extends 1 & T ? true : false;

/** Whether a parameter of type `T` is filled in by the runtime (spec §3: `RequestContext`, `AbortSignal`). */
type RuntimeFilled<T> =
  IsAny<T> extends true ? false : [NonNullable<T>] extends [RequestContext | AbortSignal] ? true : false;

/**
 * A parameter list without its runtime-filled parameters (spec §3), optional elements kept
 * optional: `[items: Item[], rush?: boolean, ctx?: RequestContext]` → `[Item[], boolean?]`.
 * A rest parameter is kept as it is (no tool has one: spec §3 lists named parameters).
 */
export type ListedArguments<P extends readonly unknown[], Acc extends unknown[] = []> = P extends readonly []
  ? Acc
  : number extends P["length"]
    ? [...Acc, ...P]
    : P extends readonly [infer H, ...infer R]
      ? ListedArguments<R, RuntimeFilled<H> extends true ? Acc : [...Acc, H]>
      : P extends readonly [(infer H)?, ...infer R]
        ? ListedArguments<R, RuntimeFilled<H> extends true ? Acc : [...Acc, H?]>
        : [...Acc, ...P];

/** The arguments of a typed call of a tool function `F`: its parameters as {@link ListedArguments}. */
export type ToolArguments<F> = F extends (...args: infer P) => unknown ? ListedArguments<P> : never;

/**
 * A value of type `T` as its JSON arrives on the wire (spec §6 writers): `Date` and `URL` → `string`
 * (RFC 3339 / the href), `Uint8Array` → base64 `string`, `bigint` → `number`, `Set<U>` → array,
 * `Map<K, V>` → object, objects with their data properties (methods dropped). A numeric enum
 * arrives as its member name, which the type cannot tell from a number (docs/testing.md).
 */
export type Json<T> = T extends Date | URL | Uint8Array
  ? string
  : T extends bigint
    ? number
    : T extends string | number | boolean | null | undefined
      ? T
      : T extends ReadonlySet<infer U>
        ? Json<U>[]
        : T extends ReadonlyMap<string, infer V>
          ? Record<string, Json<V>>
          : T extends readonly unknown[]
            ? { -readonly [K in keyof T]: Json<T[K]> }
            : T extends (...args: never[]) => unknown
              ? never
              : T extends object
                ? { -readonly [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Json<T[K]> }
                : unknown;

/**
 * What a typed call resolves with for a tool returning `R` (spec §6): nothing for `void`, the
 * text for `string`, the whole `CallToolResult` for a passed-through result (a `CallToolResult`,
 * a content block or an array of them), else {@link Json} of the value.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: matches a function's declared `void` return type (spec §6).
export type CallValue<R> = [Awaited<R>] extends [void]
  ? undefined
  : [Awaited<R>] extends [CallToolResult | ContentBlock | readonly ContentBlock[]]
    ? CallToolResult
    : [Awaited<R>] extends [string | null]
      ? string
      : Json<Awaited<R>>;

/** The function-valued keys of `T` (the methods a typed call may name; decorators are invisible to types). */
type MethodKeys<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string;

/**
 * `client.tools(target)`: one typed call per method of `target` (an instance for its instance
 * tools, a class for its static ones, as given to `server.addTools`). Calling a method that is
 * not a registered tool rejects with a TypeError naming it.
 */
export type TypedTools<T> = {
  readonly [K in MethodKeys<T>]: T[K] extends (...args: never[]) => unknown
    ? (...args: ToolArguments<T[K]>) => Promise<CallValue<ReturnType<T[K]>>>
    : never;
};

/**
 * `client.resources(target)` / `client.prompts(target)`: one typed read per method of `target`, its
 * arguments as {@link ToolArguments} (each sent as its string form, spec §8), resolving with `A`
 * (the client's `ReadResourceResult` or `GetPromptResult`, as it arrived).
 */
export type TypedReads<T, A> = {
  readonly [K in MethodKeys<T>]: T[K] extends (...args: never[]) => unknown
    ? (...args: ToolArguments<T[K]>) => Promise<A>
    : never;
};
