/**
 * Errors of the `typed-mcp` runtime.
 *
 * @packageDocumentation
 */

/** Brand on {@link ToolError} instances, shared by every copy of typed-mcp loaded in a process. */
export const TOOL_ERROR_BRAND: unique symbol = Symbol.for("typed-mcp.ToolError") as never;

/**
 * An error whose message is meant for the client (spec §7).
 *
 * `throw new ToolError("No such order.")` inside a tool answers the call with
 * `{"content":[{"type":"text","text":"No such order."}],"isError":true}`.
 * Any other exception answers `The tool failed.` and is never sent.
 */
export class ToolError extends Error {
  /**
   * @param message The text sent to the client as the tool result's only text block.
   * @param options Standard `ErrorOptions` (`cause` is kept locally and never sent).
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ToolError";
  }

  /** Always `true`: lets the runtime recognize a ToolError from another copy of typed-mcp. */
  get [TOOL_ERROR_BRAND](): true {
    return true;
  }
}

/**
 * The message of every error thrown when code that only the typed-mcp build plugin can compile
 * runs untransformed (spec §1: "Without the plugin, `@tool` and `server.tool` throw … with a
 * message that says to add the plugin").
 *
 * @param what What was called, e.g. `@tool("search")` or `server.tool("search", …)`.
 * @internal
 */
export function pluginMissingMessage(what: string): string {
  return (
    `${what} ran without the typed-mcp build plugin. typed-mcp reads the TypeScript types of a tool ` +
    `at build time; add the plugin to your bundler, e.g. in vite.config.ts: ` +
    `import typedMcp from "@typed-mcp/unplugin/vite"; export default { plugins: [typedMcp()] } ` +
    `(also @typed-mcp/unplugin/rollup, /rolldown, /esbuild, /webpack or /rspack).`
  );
}
