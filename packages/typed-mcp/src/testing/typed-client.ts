/**
 * The client `connect` gives (docs/testing.md "Typed calls"): the official `Client` plus typed
 * calls of quick-path handles and of the tools of registered objects.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/client";
import type { GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/client";
import { TOOLS, type GeneratedTool } from "../internal.js";
import { collect, type MemberDescriptor } from "../server/class-members.js";
import { PROMPTS, RESOURCES } from "../codegen-support/resource-descriptors.js";
import type { GeneratedPrompt, GeneratedResource } from "../codegen-support/resource-descriptors.js";
import { typedPrompt, typedRead } from "./reads.js";
import { HANDLE_DESCRIPTOR, type PromptHandle, type ResourceHandle, type ToolHandle } from "../server/handles.js";
import { typedCall } from "./calls.js";
import type { CallValue, ToolArguments, TypedReads, TypedTools } from "./types.js";

/** The official MCP client with typed calls (see {@link TypedClient.call}, {@link TypedClient.tools}). */
export class TypedClient extends Client {
  /**
   * Calls the quick-path tool `handle` (what `server.tool(name, fn)` returned) with `fn`'s
   * arguments, positionally (`RequestContext` / `AbortSignal` left out; one object for a
   * destructured parameter), through `tools/call` (a task when the tool requires one).
   *
   * @returns What arrived (spec §6): `undefined` for `void`, the text for `string`,
   *   `structuredContent` for an object, the parsed JSON otherwise, the `CallToolResult` when passed through.
   * @throws ToolCallError for an `isError` answer (the §5 argument error, a `ToolError`'s message);
   *   `ProtocolError` for a JSON-RPC error; TypeError for more arguments than the tool lists.
   */
  call<F extends (...args: never[]) => unknown>(
    handle: ToolHandle<F>,
    ...args: ToolArguments<F>
  ): Promise<CallValue<ReturnType<F>>> {
    return typedCall(this, handle[HANDLE_DESCRIPTOR], args) as Promise<CallValue<ReturnType<F>>>;
  }

  /**
   * Reads the quick-path resource `handle` (what `server.resource(uri, fn)` returned): its fixed URI,
   * or its template expanded with `fn`'s arguments in parameter order, each in its §8 string form.
   * @returns The `ReadResourceResult` as it arrived. Rejects with the client's `ProtocolError` for an error answer.
   */
  read<F extends (...args: never[]) => unknown>(
    handle: ResourceHandle<F>,
    ...args: ToolArguments<F>
  ): Promise<ReadResourceResult> {
    return typedRead(this, handle[HANDLE_DESCRIPTOR], args);
  }

  /**
   * `prompts/get` of the quick-path prompt `handle` (what `server.prompt(name, fn)` returned) with
   * `fn`'s arguments in parameter order under their listed names, each in its §8 string form.
   * @returns The `GetPromptResult` as it arrived. Rejects with the client's `ProtocolError` for an error answer.
   */
  prompt<F extends (...args: never[]) => unknown>(
    handle: PromptHandle<F>,
    ...args: ToolArguments<F>
  ): Promise<GetPromptResult> {
    return typedPrompt(this, handle[HANDLE_DESCRIPTOR], args);
  }

  /**
   * Typed calls of the `@tool()` methods of `target`, the object given to `server.addTools` /
   * `server.add` (an instance: its instance tools; a class: its static ones):
   * `await client.tools(new Weather()).getForecast("Oslo", 3)`. Arguments and result as {@link call}.
   * A method that is no tool of `target` rejects with a TypeError naming it.
   */
  tools<T extends object>(target: T): TypedTools<T> {
    return members<T, GeneratedTool>(target, TOOLS, (d, args) => typedCall(this, d, args)) as TypedTools<T>;
  }

  /**
   * Typed reads of the `@resource()` methods of `target` (as given to `server.addResources` / `add`):
   * `await client.resources(new Library()).book("fiction", 42)` reads `books://fiction/42` (the
   * template expanded with the arguments in parameter order, each in its §8 string form).
   * @returns The `ReadResourceResult` as it arrived. Rejects with the client's `ProtocolError` for an error answer.
   */
  resources<T extends object>(target: T): TypedReads<T, ReadResourceResult> {
    return members<T, GeneratedResource>(target, RESOURCES, (d, args) => typedRead(this, d, args)) as TypedReads<
      T,
      ReadResourceResult
    >;
  }

  /**
   * Typed `prompts/get` of the `@prompt()` methods of `target` (as given to `server.addPrompts` / `add`),
   * the arguments in parameter order under their listed names, each in its §8 string form.
   * @returns The `GetPromptResult` as it arrived. Rejects with the client's `ProtocolError` for an error answer.
   */
  prompts<T extends object>(target: T): TypedReads<T, GetPromptResult> {
    return members<T, GeneratedPrompt>(target, PROMPTS, (d, args) => typedPrompt(this, d, args)) as TypedReads<
      T,
      GetPromptResult
    >;
  }
}

/**
 * A proxy whose property `m` calls `run` with the descriptor of `target`'s member `m` stored under
 * `key` (class-members.ts `collect`); a member without one rejects with a TypeError naming it.
 */
function members<T extends object, D extends MemberDescriptor>(
  target: T,
  key: symbol,
  run: (descriptor: D, args: unknown[]) => Promise<unknown>,
): object {
  const byMember = new Map<string, D>();
  for (const d of collect<D>(target, key)) byMember.set(d.member ?? "", d);
  const owner = typeof target === "function" ? (target as { name: string }).name : target.constructor?.name;
  const kind = key === TOOLS ? "tool" : key === RESOURCES ? "resource" : "prompt";
  return new Proxy(
    {},
    {
      get: (_, member) => {
        // Not a thenable (`then`), and no symbol-named members.
        if (typeof member !== "string" || member === "then") return undefined;
        const descriptor = byMember.get(member);
        return (...args: unknown[]) =>
          descriptor === undefined
            ? Promise.reject(new TypeError(`typed-mcp/testing: ${owner}.${member} is not a typed-mcp ${kind}.`))
            : run(descriptor, args);
      },
    },
  );
}
