/**
 * `completion/complete` (MCP spec, server utilities / completion): argument completion for prompt
 * arguments and resource-template variables from the finite value sets the build plugin wrote
 * into the generated descriptors (`completions`, docs/resources.md "Completion"), or from the
 * {@link CompletionHook}s registered with `server.complete` (docs/resources.md "Completion
 * hooks"). Nothing is computed from types at run time.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { cutEchoed } from "../codegen-support/argument-errors.js";
import type { Server } from "@modelcontextprotocol/server";
import { thrownAnswer } from "../calls/errors.js";
import { bindMember, collect } from "../server/class-members.js";
import { COMPLETIONS, type GeneratedCompletion } from "../codegen-support/resource-descriptors.js";

/** The most values one `completion/complete` result carries (the MCP spec: "maximum 100 items"). */
const MAX_COMPLETION_VALUES = 100;

/** The `completion` part of a `CompleteResult`. */
type CompletionPart = {
  values: string[];
  total?: number;
  hasMore: boolean;
};

/**
 * A completion reference as in MCP `completion/complete` (`ref`): a prompt by name, or a resource
 * template by its exact `uriTemplate`.
 */
export type CompletionRef<T extends string = string> =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: T };

/**
 * The variable names of an RFC 6570 URI template literal type: `TemplateVariables<"books://{genre}/{id}{?page,size}">`
 * is `"genre" | "id" | "page" | "size"` (operators `+ # . / ; ? &` and the modifiers `*`, `:n`
 * removed). For a `string` that is not a literal: `string`.
 */
export type TemplateVariables<T extends string> = string extends T
  ? string
  : T extends `${string}{${infer Body}}${infer Rest}`
    ?
        | VariableList<Body extends `${"+" | "#" | "." | "/" | ";" | "?" | "&"}${infer List}` ? List : Body>
        | TemplateVariables<Rest>
    : never;
type VariableList<L extends string> = L extends `${infer A},${infer R}`
  ? VariableName<A> | VariableList<R>
  : VariableName<L>;
type VariableName<V extends string> = V extends `${infer N}*` ? N : V extends `${infer N}:${string}` ? N : V;

/**
 * A completion hook (docs/resources.md "Completion hooks"), registered with
 * `server.complete(ref, argument, hook)`: called for `completion/complete` of `argument` with
 *
 * @param value The partial value the client typed (`argument.value`).
 * @param given The other arguments the client already gave (`context.arguments`, MCP
 *   2025-06-18 and later), as the strings it sent — unparsed, since they may be partial; only the
 *   names of the prompt's arguments / the template's variables other than `argument`, each
 *   present only when the client sent a string for it.
 * @param info `signal`: aborted when the client cancels the request.
 * @returns The completion values (strings), best first; the first 100 are sent, with `total`
 *   (their number) and `hasMore`. Not filtered by `value` — the hook decides what matches.
 *   Throw `ToolError` for a `-32603` carrying its message, or the SDK's `ProtocolError` for that
 *   JSON-RPC error; anything else (or a result that is not an array of strings) is `-32603`
 *   `The completion failed.`, reported to `onToolError`.
 */
export type CompletionHook<Given extends string = string> = (
  value: string,
  given: Readonly<Partial<Record<Given, string>>>,
  info: { signal: AbortSignal },
) => readonly string[] | Promise<readonly string[]>;

/** A `@complete` hook of a registered object, ready for `server.complete`'s registry. */
export interface MethodHook {
  readonly ref: { type: "ref/prompt"; name: string };
  readonly argument: string;
  readonly hook: CompletionHook;
}

/**
 * The `@complete(prompt, argument)` hooks stored on `target`'s class chain (instance ones for an
 * instance, static ones for a class; docs/resources.md "Completion hooks"), each bound to
 * `target`'s method: it is called with `this` = `target`, the partial `value`, and the values of
 * the prompt arguments its other parameters name (the plugin checked the names at build time),
 * `undefined` for those the client did not send.
 *
 * @throws Error when a hook's method is not a function on `target`.
 */
export function methodHooks(target: object): MethodHook[] {
  return collect<GeneratedCompletion>(target, COMPLETIONS, (d) => `${d.prompt}\u0000${d.argument}`).map((d) => {
    const { fn, thisArg } = bindMember(
      target,
      d,
      (origin) => `typed-mcp: completion hook ${origin} is not a function on the registered object.`,
    );
    const hook: CompletionHook = (value, given) =>
      fn.call(thisArg, value, ...d.given.map((name) => given[name])) as readonly string[];
    return { ref: { type: "ref/prompt", name: d.prompt }, argument: d.argument, hook };
  });
}

/** A registered hook and the argument names it may be given. */
export interface RegisteredHook {
  readonly hook: CompletionHook;
  /** The other arguments / variables of the prompt or template (the keys `given` may have). */
  readonly others: readonly string[];
}

/** Where the completion handler looks up a reference; implemented by the resource registry. */
export interface CompletionSource {
  /** The hook registered for `argument` of the prompt `name` / the template `uri` (`kind`), if any. */
  completionHook(kind: "prompt" | "resource", key: string, argument: string): RegisteredHook | undefined;
  /** Reports an exception of a hook of the prompt or template `key` (to `onError` / `onToolError`). */
  reportHookFailure(kind: "prompt" | "resource", key: string, error: unknown): void;
  /** The value sets of the prompt `name`, `{}` when it has none, `undefined` when there is no such prompt. */
  promptCompletions(name: string): Readonly<Record<string, readonly string[]>> | undefined;
  /**
   * The value sets of the resource template whose `uriTemplate` is exactly `uri`, `{}` when it has
   * none or when `uri` is a registered fixed resource (no variables), `undefined` when neither.
   */
  resourceCompletions(uri: string): Readonly<Record<string, readonly string[]>> | undefined;
}

/**
 * The completion of `prefix` from a finite value set (MCP spec, completion/complete result):
 * the values that start with `prefix` (case-sensitive; `""` matches all), in source order, at
 * most {@link MAX_COMPLETION_VALUES}; `total` is the number of matches and `hasMore` whether
 * more matched than were sent. Without a value set (`undefined`: the parameter's type has no
 * finite set, or there is no such parameter) the result is `{ values: [], hasMore: false }`
 * without `total` — the same shape as the SDK's own `McpServer` for an argument without a completer.
 */
function completeFrom(values: readonly string[] | undefined, prefix: string): CompletionPart {
  if (values === undefined) return { values: [], hasMore: false };
  const matching = values.filter((v) => v.startsWith(prefix));
  return {
    values: matching.slice(0, MAX_COMPLETION_VALUES),
    total: matching.length,
    hasMore: matching.length > MAX_COMPLETION_VALUES,
  };
}

/**
 * Installs the `completion/complete` handler on one SDK `Server`, which must advertise the
 * `completions` capability (the SDK refuses the handler otherwise).
 *
 * - `ref/prompt` naming an unknown prompt: JSON-RPC `-32602` `Prompt <name> not found`.
 * - `ref/resource` whose `uri` is neither a registered template (compared as the exact
 *   `uriTemplate` string) nor a registered fixed URI: `-32602` `Resource template <uri> not found`
 *   (the SDK `McpServer`'s texts). A fixed URI has no variables: an empty result.
 * - An argument name that is not a parameter, or a parameter without a value set: an empty result.
 * - An argument with a {@link CompletionHook}: the hook's answer ({@link runHook}); the hook wins
 *   over the built-in value set of a literal union.
 * - Otherwise `context.arguments` is not used: the value sets are static.
 */
export function installCompletion(sdk: Server, source: CompletionSource): void {
  sdk.setRequestHandler("completion/complete", (request, ctx) => {
    const { ref, argument } = request.params;
    let sets: Readonly<Record<string, readonly string[]>> | undefined;
    let key: string;
    if (ref.type === "ref/prompt") {
      sets = source.promptCompletions((key = ref.name));
      if (sets === undefined)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${cutEchoed(ref.name)} not found`);
    } else if (ref.type === "ref/resource") {
      sets = source.resourceCompletions((key = ref.uri));
      if (sets === undefined)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource template ${cutEchoed(ref.uri)} not found`);
    } else {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid completion reference: ${String((ref as { type?: unknown }).type)}`,
      );
    }
    const kind = ref.type === "ref/prompt" ? "prompt" : "resource";
    const hook = source.completionHook(kind, key, argument.name);
    if (hook !== undefined) {
      const given = (request.params.context?.arguments ?? {}) as Record<string, unknown>;
      return runHook(hook, argument.value, given, ctx.mcpReq.signal, (error) =>
        source.reportHookFailure(kind, key, error),
      );
    }
    const values = Object.hasOwn(sets, argument.name) ? sets[argument.name] : undefined;
    return { completion: completeFrom(values, argument.value) };
  });
}

/** The answer of a hook that failed without a ToolError or ProtocolError. */
const HOOK_FAILED = "The completion failed.";

/**
 * Runs one hook: `given` holds only the hook's other argument names whose value the client sent
 * as a string (looked up by name, so the cost is bounded by the prompt's or template's own
 * arguments, not by what the client sent). The answer: the first {@link MAX_COMPLETION_VALUES}
 * values, `total` = their number, `hasMore` = `total > 100`.
 *
 * @throws ProtocolError as {@link thrownAnswer}: a non-array or non-string value is `The completion failed.`.
 */
async function runHook(
  registered: RegisteredHook,
  value: string,
  sent: Record<string, unknown>,
  signal: AbortSignal,
  report: (error: unknown) => void,
): Promise<{ completion: CompletionPart }> {
  const given: Record<string, string> = {};
  for (const name of registered.others) {
    const v = Object.hasOwn(sent, name) ? sent[name] : undefined;
    if (typeof v === "string") given[name] = v;
  }
  let values: unknown;
  try {
    values = await registered.hook(value, Object.freeze(given), { signal });
  } catch (error) {
    throw thrownAnswer(error, HOOK_FAILED, report);
  }
  if (!Array.isArray(values) || !values.every((v) => typeof v === "string")) {
    throw thrownAnswer(
      new TypeError(
        `a completion hook returned ${Array.isArray(values) ? "an array with a non-string value" : typeof values}, not an array of strings`,
      ),
      HOOK_FAILED,
      report,
    );
  }
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETION_VALUES),
      total: values.length,
      hasMore: values.length > MAX_COMPLETION_VALUES,
    },
  };
}
