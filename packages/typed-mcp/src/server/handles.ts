/**
 * The handles the quick paths return (spec §1, §8; docs/testing.md "Typed calls"):
 * `server.tool(name, fn)` a {@link ToolHandle}, `server.resource(uri, fn)` a {@link ResourceHandle},
 * `server.prompt(name, fn)` a {@link PromptHandle}: the registered descriptor (for `typed-mcp/testing`)
 * and `fn`'s type, which `client.call` / `read` / `prompt` type their arguments and result from.
 *
 * @module
 */
import type { GeneratedTool } from "../internal.js";
import type { GeneratedPrompt, GeneratedResource } from "../codegen-support/resource-descriptors.js";

/** A function a quick path registers (its type is what a handle carries). */
export type Fn = (...args: never[]) => unknown;

/** Where a {@link ToolHandle} keeps its descriptor (read by `typed-mcp/testing`). */
export const HANDLE_DESCRIPTOR: unique symbol = Symbol("typed-mcp.handleDescriptor") as never;

/**
 * A quick-path tool as registered: `name` is its listed name; `F` is the registered function's
 * type, seen only by TypeScript (`client.call(handle, …)` in `typed-mcp/testing`).
 */
export class ToolHandle<F extends Fn = Fn> {
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

/** A quick-path resource as registered: `F` is the function's type, seen only by TypeScript (`client.read(handle, …)`). */
export class ResourceHandle<F extends Fn = Fn> {
  /** The listed URI or URI template (spec §8). */
  readonly uri: string;
  /** The plugin's descriptor. @internal */
  readonly [HANDLE_DESCRIPTOR]: GeneratedResource;
  /** Never set: carries `F` for the type checker only. */
  declare readonly fn?: F;

  /** @param descriptor The generated descriptor the server registered. @internal */
  constructor(descriptor: GeneratedResource) {
    const listing = descriptor.listing as { uri?: string; uriTemplate?: string };
    this.uri = listing.uriTemplate ?? listing.uri ?? "";
    this[HANDLE_DESCRIPTOR] = descriptor;
  }
}

/** A quick-path prompt as registered: `F` is the function's type, seen only by TypeScript (`client.prompt(handle, …)`). */
export class PromptHandle<F extends Fn = Fn> {
  /** The listed prompt name (spec §8). */
  readonly name: string;
  /** The plugin's descriptor. @internal */
  readonly [HANDLE_DESCRIPTOR]: GeneratedPrompt;
  /** Never set: carries `F` for the type checker only. */
  declare readonly fn?: F;

  /** @param descriptor The generated descriptor the server registered. @internal */
  constructor(descriptor: GeneratedPrompt) {
    this.name = descriptor.listing.name;
    this[HANDLE_DESCRIPTOR] = descriptor;
  }
}
