/**
 * Publishing tool failures on `node:diagnostics_channel` (spec §7).
 *
 * The module is loaded with `globalThis.process?.getBuiltinModule?.("node:diagnostics_channel")`:
 * synchronous, no static or dynamic `import` a bundler would try to resolve, and simply absent
 * where the runtime has no such module (browsers, Cloudflare workerd without `nodejs_compat`,
 * Node < 20.16). Its absence never breaks the server: nothing is published there.
 *
 * The channel object is taken once, when this module is loaded, and held: Bun (1.4) keeps a
 * channel alive only while something references it, so a subscription made with
 * `diagnostics_channel.subscribe(name, fn)` was lost at the next garbage collection when nobody
 * held the channel (test/runtimes/bun.test.ts). Node, Deno and workerd are unaffected either way.
 *
 * @packageDocumentation
 */

/** Name of the channel on which failing tools are published as `{ tool, error }` (spec §7). */
export const TOOL_ERROR_CHANNEL = "typed-mcp:tool-error";

interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

let channel: Channel | null | undefined;

function toolErrorChannel(): Channel | null {
  if (channel !== undefined) return channel;
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const dc = proc?.getBuiltinModule?.("node:diagnostics_channel") as
      | { channel?: (name: string) => Channel }
      | undefined;
    channel = dc?.channel?.(TOOL_ERROR_CHANNEL) ?? null;
  } catch {
    channel = null;
  }
  return channel;
}

// Held from load on (see above); where the module is missing this caches `null`.
toolErrorChannel();

/** Publishes `{ tool, error }` on {@link TOOL_ERROR_CHANNEL} when the runtime has the module and someone listens. */
export function publishToolError(tool: string, error: unknown): void {
  const ch = toolErrorChannel();
  if (ch === null || !ch.hasSubscribers) return;
  try {
    ch.publish({ tool, error });
  } catch {
    // A throwing subscriber must not change the answer to the client.
  }
}
