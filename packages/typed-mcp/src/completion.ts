/**
 * `completion/complete` (MCP spec, server utilities / completion): argument completion for prompt
 * arguments and resource-template variables from the finite value sets the build plugin wrote
 * into the generated descriptors (`completions`, docs/resources.md "Completion"). Nothing is
 * computed from types at run time.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { Server } from "@modelcontextprotocol/server";

/** The most values one `completion/complete` result carries (the MCP spec: "maximum 100 items"). */
export const MAX_COMPLETION_VALUES = 100;

/** The `completion` part of a `CompleteResult`. */
export type CompletionPart = {
  values: string[];
  total?: number;
  hasMore: boolean;
};

/** Where the completion handler looks up a reference; implemented by the resource registry. */
export interface CompletionSource {
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
export function completeFrom(values: readonly string[] | undefined, prefix: string): CompletionPart {
  if (values === undefined) return { values: [], hasMore: false };
  const matching = values.filter((v) => v.startsWith(prefix));
  return { values: matching.slice(0, MAX_COMPLETION_VALUES), total: matching.length, hasMore: matching.length > MAX_COMPLETION_VALUES };
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
 * - `context.arguments` (values of the other arguments) is accepted and not used: the value sets
 *   are static, they do not depend on other arguments.
 */
export function installCompletion(sdk: Server, source: CompletionSource): void {
  sdk.setRequestHandler("completion/complete", (request) => {
    const { ref, argument } = request.params;
    let sets: Readonly<Record<string, readonly string[]>> | undefined;
    if (ref.type === "ref/prompt") {
      sets = source.promptCompletions(ref.name);
      if (sets === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
    } else if (ref.type === "ref/resource") {
      sets = source.resourceCompletions(ref.uri);
      if (sets === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource template ${ref.uri} not found`);
    } else {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid completion reference: ${String((ref as { type?: unknown }).type)}`);
    }
    const values = Object.prototype.hasOwnProperty.call(sets, argument.name) ? sets[argument.name] : undefined;
    return { completion: completeFrom(values, argument.value) };
  });
}
