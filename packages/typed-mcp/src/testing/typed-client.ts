/**
 * The client `connect` gives (docs/testing.md "Typed calls"): the official `Client` plus typed
 * calls of quick-path handles and of the tools of registered objects.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/client";
import { TOOLS, type GeneratedTool } from "../internal.js";
import { collect } from "../server/class-members.js";
import { HANDLE_DESCRIPTOR, type ToolHandle } from "../server/tool-handle.js";
import { typedCall } from "./calls.js";
import type { CallValue, ToolArguments, TypedTools } from "./types.js";

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
   * Typed calls of the `@tool()` methods of `target`, the object given to `server.addTools` /
   * `server.add` (an instance: its instance tools; a class: its static ones):
   * `await client.tools(new Weather()).getForecast("Oslo", 3)`. Arguments and result as {@link call}.
   * A method that is no tool of `target` rejects with a TypeError naming it.
   */
  tools<T extends object>(target: T): TypedTools<T> {
    const byMember = new Map<string, GeneratedTool>();
    for (const d of collect<GeneratedTool>(target, TOOLS)) byMember.set(d.member ?? "", d);
    const origin =
      typeof target === "function"
        ? (target as { name: string }).name
        : (target as { constructor?: { name?: string } }).constructor?.name;
    return new Proxy({} as TypedTools<T>, {
      get: (_, member) => {
        // Not a thenable (`then`), and no symbol-named tools.
        if (typeof member !== "string" || member === "then") return undefined;
        const descriptor = byMember.get(member);
        return (...args: unknown[]) =>
          descriptor === undefined
            ? Promise.reject(new TypeError(`typed-mcp/testing: ${origin}.${member} is not a typed-mcp tool.`))
            : typedCall(this, descriptor, args);
      },
    });
  }
}
