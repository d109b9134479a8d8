/**
 * The part of the generated-code contract (`typed-mcp/internal`) for resources and prompts
 * (spec §8): descriptor shapes, the class storage called from the plugin's `static {}` block,
 * and the helpers generated readers and writers call.
 *
 * @module
 */
import { UriTemplate } from "@modelcontextprotocol/server";
import type { GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/server";
import type { PromptListing, ResourceListingEntry } from "@typed-mcp/model";
import type { RequestContext } from "../types.js";

/** Property under which generated resource descriptors are stored on a class. */
export const RESOURCES: unique symbol = Symbol.for("typed-mcp.resources") as never;
/** Property under which generated prompt descriptors are stored on a class. */
export const PROMPTS: unique symbol = Symbol.for("typed-mcp.prompts") as never;

/** The listing entries of resources, templates and prompts (spec §8), defined once in `@typed-mcp/model`. */
export type { ResourceListingEntry, PromptListing as PromptListingEntry };

/** What the plugin generates for one resource or resource template (spec §8). */
export interface GeneratedResource {
  listing: ResourceListingEntry;
  /**
   * Reads the template variables (percent-decoded strings; `{}` for a fixed URI). Returns the
   * argument list (RequestContext / AbortSignal placed from `ctx`) or, for the first variable that
   * does not parse, the spec §5 text (`Argument 'id' is not valid. Expected an integer.`), sent as
   * the `-32602` message (spec §8).
   */
  read(vars: Record<string, string> | undefined, ctx: RequestContext): unknown[] | string;
  /** Writes the (awaited) return value as the `ReadResourceResult` for `uri`. */
  write(value: unknown, uri: string): ReadResourceResult;
  /**
   * `completion/complete` value sets (docs/resources.md, Completion): template variable name →
   * its finite values in source order (string enum / string-literal union values, or `true`,
   * `false` for a boolean). Variables of other types are absent; absent when none has a set.
   */
  completions?: Readonly<Record<string, readonly string[]>>;
  /** The `scopes` option: OAuth scopes a `resources/read` needs when the server has `auth` (docs/auth.md "Scopes"). */
  scopes?: readonly string[];
  /**
   * A template's RFC 6570 matcher, `__tmcp.uriTemplate` ({@link uriTemplate}), carried by its descriptor so that only a
   * bundle with a template holds it (docs/codegen.md "What a descriptor carries"); absent for a fixed URI.
   * Registering a template without it throws (a descriptor from an older plugin).
   */
  template?: (uriTemplate: string) => UriTemplate;
  /** A template's variables in parameter order (`typed-mcp/testing`'s positional reads); absent for a fixed URI. */
  params?: readonly string[];
  /** Generator path: the decorated method's name, and whether it is static. */
  member?: string;
  static?: boolean;
}

/** What the plugin generates for one prompt (spec §8). */
export interface GeneratedPrompt {
  listing: PromptListing;
  /** Reads `arguments` (strings). Returns the argument list or the spec §5 text of the first invalid (or unknown) argument. */
  read(args: Record<string, string> | undefined, ctx: RequestContext): unknown[] | string;
  /** Writes the (awaited) return value as a `GetPromptResult`. */
  write(value: unknown): GetPromptResult;
  /** `completion/complete` value sets: argument name → finite values in source order (as {@link GeneratedResource.completions}). */
  completions?: Readonly<Record<string, readonly string[]>>;
  /** The `scopes` option: OAuth scopes a `prompts/get` needs when the server has `auth` (docs/auth.md "Scopes"). */
  scopes?: readonly string[];
  member?: string;
  static?: boolean;
}

/** Property under which the `@complete` hooks of a class are stored. */
export const COMPLETIONS: unique symbol = Symbol.for("typed-mcp.completions") as never;

/**
 * One `@complete(prompt, argument)` hook as the plugin writes it (docs/resources.md "Completion
 * hooks"): checked at build time against the prompt's parameters.
 */
export interface GeneratedCompletion {
  /** The prompt's listed name. */
  prompt: string;
  /** The completed argument. */
  argument: string;
  /** The hook method, and whether it is static. */
  member: string;
  static: boolean;
  /** The hook's parameters after `value`: names of the prompt's other arguments, in order. */
  given: readonly string[];
}

/** Called from the plugin's `static {}` block of a class with `@complete()` methods. */
export function defineCompletions(target: Function, completions: GeneratedCompletion[]): void {
  Object.defineProperty(target, COMPLETIONS, {
    value: completions,
    enumerable: false,
    configurable: true,
    writable: false,
  });
}

/** Called from the plugin's `static {}` block of a class with `@resource()` methods. */
export function defineResources(target: Function, resources: GeneratedResource[]): void {
  Object.defineProperty(target, RESOURCES, {
    value: resources,
    enumerable: false,
    configurable: true,
    writable: false,
  });
}

/** Called from the plugin's `static {}` block of a class with `@prompt()` methods. */
export function definePrompts(target: Function, prompts: GeneratedPrompt[]): void {
  Object.defineProperty(target, PROMPTS, { value: prompts, enumerable: false, configurable: true, writable: false });
}

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/**
 * A `number` parameter read from a string (spec §8): the JSON number grammar exactly (no
 * spaces, no `+`, no hex, no leading zeros, not empty), finite. `undefined` when it does not parse.
 */
export function numberFromString(s: string): number | undefined {
  if (!JSON_NUMBER.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * An `Int` / `bigint` parameter read from a string (spec §8): `-?(0|[1-9][0-9]*)`. Returns the
 * number (the generated reader then checks `Number.isInteger`, or safe integers for `bigint`).
 */
export function integerFromString(s: string): number | undefined {
  return INTEGER.test(s) ? Number(s) : undefined;
}

/** A `bigint` parameter read from a string (spec §8): `-?(0|[1-9][0-9]*)`, every digit kept. `undefined` when it does not parse. */
export function bigintFromString(s: string): bigint | undefined {
  return INTEGER.test(s) ? BigInt(s) : undefined;
}

/**
 * Writes a resource's pass-through return value (spec §8): an array of resource contents →
 * `{ contents: array }`; an object with a `contents` array (a `ReadResourceResult`) → as is;
 * any other object (one resource contents) → `{ contents: [value] }`. A contents without `uri`
 * gets the requested `uri` first.
 */
export function resourceResult(value: unknown, uri: string): ReadResourceResult {
  const withUri = (c: unknown): never => {
    if (typeof c === "object" && c !== null && (c as { uri?: unknown }).uri === undefined)
      return { uri, ...(c as object) } as never;
    return c as never;
  };
  if (Array.isArray(value)) return { contents: value.map(withUri) };
  if (typeof value === "object" && value !== null && Array.isArray((value as { contents?: unknown }).contents))
    return value as ReadResourceResult;
  return { contents: [withUri(value)] };
}

/**
 * The RFC 6570 matcher of a resource template (the MCP SDK's `UriTemplate`, the one the SDK's own
 * `McpServer` uses), referenced (not called) by a template's descriptor as `template` and called by
 * the registry with the listing's `uriTemplate`.
 * @throws Error as the SDK's `UriTemplate` for a template it cannot parse (too long, too many expressions).
 */
export function uriTemplate(template: string): UriTemplate {
  return new UriTemplate(template);
}
