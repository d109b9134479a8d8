/**
 * The handle `server.tool(name, fn)` returns (spec §1 quick path; docs/testing.md "Typed calls"):
 * the tool's name, its generated descriptor (for `typed-mcp/testing`), and `fn`'s type, which
 * `client.call(handle, …)` types its arguments and result from.
 *
 * @module
 */
import type { GeneratedTool } from "../internal.js";

/** Where a {@link ToolHandle} keeps its descriptor (read by `typed-mcp/testing`). */
export const HANDLE_DESCRIPTOR: unique symbol = Symbol("typed-mcp.handleDescriptor") as never;

/**
 * A quick-path tool as registered: `name` is its listed name; `F` is the registered function's
 * type, seen only by TypeScript (`client.call(handle, …)` in `typed-mcp/testing`).
 */
export class ToolHandle<F extends (...args: never[]) => unknown = (...args: never[]) => unknown> {
  /** The tool's listed name (spec §1). */
  readonly name: string;
  /** The plugin's descriptor. @internal */
  readonly [HANDLE_DESCRIPTOR]: GeneratedTool;
  /** Never set: carries `F` for the type checker only. */
  declare readonly fn?: F;

  /** @param descriptor The generated descriptor the server registered. @internal */
  constructor(descriptor: GeneratedTool) {
    this.name = descriptor.listing.name;
    this[HANDLE_DESCRIPTOR] = descriptor;
  }
}
