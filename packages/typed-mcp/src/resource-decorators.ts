/**
 * Resources and prompts (spec §8): the `@resource` and `@prompt` decorators, their options, and
 * the result types a resource or prompt may return as is. Like `@tool`, the decorators are
 * compiled away by the build plugin; evaluated at run time they throw, saying to add it.
 *
 * @module
 */
import type {
  BlobResourceContents as SdkBlobResourceContents,
  GetPromptResult as SdkGetPromptResult,
  PromptMessage as SdkPromptMessage,
  ReadResourceResult as SdkReadResourceResult,
  TextResourceContents as SdkTextResourceContents,
} from "@modelcontextprotocol/server";
import { pluginMissingMessage } from "./calls/errors.js";
import type { ToolDecorator } from "./decorators.js";

/** A resource's full result (MCP `ReadResourceResult`), returned as is (spec §8). */
export type ReadResourceResult = SdkReadResourceResult;
/** Text resource contents: `{ uri, mimeType?, text }`. */
export type TextResourceContents = SdkTextResourceContents;
/** Binary resource contents: `{ uri, mimeType?, blob }` (base64). */
export type BlobResourceContents = SdkBlobResourceContents;
/** Resource contents (text or blob); a resource may return one or an array (spec §8). */
export type ResourceContents = TextResourceContents | BlobResourceContents;
/** A prompt message; a prompt may return `PromptMessage[]` (spec §8). */
export type PromptMessage = SdkPromptMessage;
/** A prompt's full result (MCP `GetPromptResult`), returned as is (spec §8). */
export type GetPromptResult = SdkGetPromptResult;

/** Options of the quick path `server.resource(uri, options, fn)` (spec §8). Read at build time. */
export interface QuickResourceOptions {
  /** The resource's `name`. Default: the method's (or bound function's) name without `Async`, snake_case (§1); else the URI. */
  name?: string;
  /** The resource's `title`. */
  title?: string;
  /** The resource's `description`; wins over the JSDoc (§1 Description). */
  description?: string;
  /** The `mimeType` listed and sent with the contents; default for a string result `text/plain`. */
  mimeType?: string;
  /**
   * OAuth scopes (RFC 6749 §3.3 scope tokens) the caller's access token must carry to read the resource, when the
   * server has `auth` (docs/auth.md "Scopes"): else HTTP 403 `insufficient_scope` naming them.
   * Never listed; ignored on stdio and without `auth`. An array of string literals, read at build time.
   */
  scopes?: readonly string[];
}

/** Options of `@resource({...})` (spec §8): the URI or RFC 6570 template and {@link QuickResourceOptions}. */
export interface ResourceOptions extends QuickResourceOptions {
  /** A fixed URI (listed in `resources/list`) or an RFC 6570 template (listed in `resources/templates/list`). */
  uri: string;
}

/** Options of the quick path `server.prompt(name, options, fn)` (spec §8). Read at build time. */
export interface QuickPromptOptions {
  /** The prompt's `title`. */
  title?: string;
  /** The prompt's `description`; wins over the JSDoc. */
  description?: string;
  /**
   * OAuth scopes (RFC 6749 §3.3 scope tokens) the caller's access token must carry to get the prompt, when the
   * server has `auth` (docs/auth.md "Scopes"): else HTTP 403 `insufficient_scope` naming them.
   * Never listed; ignored on stdio and without `auth`. An array of string literals, read at build time.
   */
  scopes?: readonly string[];
}

/** Options of `@prompt({...})` (spec §8). */
export interface PromptOptions extends QuickPromptOptions {
  /** The prompt name. Default: the method name without `Async`, snake_case (§1). */
  name?: string;
}

/**
 * Marks a class method as an MCP resource (spec §8): `@resource("scheme://path/{var}")` or
 * `@resource({ uri, name?, title?, description?, mimeType? })`. Template variables are bound to
 * the parameters of the same name. Register with `server.addResources(x)` or `server.add(x)`.
 *
 * @throws Error always at run time: the build plugin compiles the decorator away; if it runs, the
 *   plugin is missing and the message says to add it.
 */
export function resource(uriOrOptions: string | ResourceOptions): ToolDecorator {
  const uri = typeof uriOrOptions === "string" ? uriOrOptions : uriOrOptions?.uri;
  throw new Error(pluginMissingMessage(`@resource(${JSON.stringify(uri)})`));
}

/**
 * Marks a class method as an MCP prompt (spec §8): `@prompt()`, `@prompt("name")` or
 * `@prompt({ name?, title?, description? })`. Parameters become the prompt's `arguments`.
 * Register with `server.addPrompts(x)` or `server.add(x)`.
 *
 * @throws Error always at run time (the plugin is missing; the message says to add it).
 */
export function prompt(nameOrOptions?: string | PromptOptions): ToolDecorator {
  const name = typeof nameOrOptions === "string" ? nameOrOptions : nameOrOptions?.name;
  throw new Error(pluginMissingMessage(name === undefined ? "@prompt()" : `@prompt(${JSON.stringify(name)})`));
}

/**
 * A method that completes one prompt argument (docs/resources.md "Completion hooks"): the
 * partial value the client typed first, then the other arguments its parameters name (as the
 * client sent them, `undefined` when not sent); it answers the values, best first (the first 100
 * are sent, with `total` and `hasMore`).
 */
export type CompletionMethod = (
  value: string,
  ...given: Array<string | undefined>
) => readonly string[] | Promise<readonly string[]>;

/**
 * The decorator returned by {@link complete}: a standard (TC39) or `experimentalDecorators`
 * method decorator. TypeScript checks that the class has a method named `P` (the prompt) and
 * that the decorated method is a {@link CompletionMethod}; the build plugin checks the names.
 */
export interface CompleteDecorator<P extends string> {
  /** Standard (TC39) decorators. */
  <This extends { readonly [K in P]: (...args: any[]) => unknown }, Fn extends CompletionMethod>(
    value: Fn,
    context: ClassMethodDecoratorContext<This, Fn>,
  ): void;
  /** `experimentalDecorators`. */
  <This extends { readonly [K in P]: (...args: any[]) => unknown }>(
    target: This,
    propertyKey: string | symbol,
    descriptor: TypedPropertyDescriptor<CompletionMethod>,
  ): void;
}

/**
 * Marks a method as the completion of one argument of a prompt of the same class
 * (`completion/complete` with `ref/prompt`; docs/resources.md "Completion hooks"):
 *
 * ```ts
 * @prompt() promote(department: Department, name: string): string { … }
 * @complete("promote", "name") members(value: string, department?: string): string[] { … }
 * ```
 *
 * Checked at build time (OMCG0012 otherwise): `prompt` is the name of a `@prompt` method of the
 * class (TypeScript checks it too), `argument` one of its parameters, and each parameter of the
 * hook after `value` is named after one of the prompt's other parameters, of which it receives
 * the client's value (`context.arguments`, unparsed). Registered with the prompt
 * (`server.add(x)` / `addPrompts(x)`); it wins over the built-in completion of a literal union.
 *
 * @param prompt The prompt method's name (not the listed prompt name).
 * @param argument The completed parameter's name.
 * @throws Error always at run time (the plugin is missing; the message says to add it).
 */
export function complete<const P extends string>(prompt: P, argument: string): CompleteDecorator<P> {
  throw new Error(pluginMissingMessage(`@complete(${JSON.stringify(prompt)}, ${JSON.stringify(argument)})`));
}
