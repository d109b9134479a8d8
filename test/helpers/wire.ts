/** Test helpers for looking at what actually crosses the wire. */

/** A JSON-RPC message as received. */
export type Raw = { id?: unknown; method?: string; result?: Record<string, unknown>; error?: unknown };

/**
 * Records every JSON-RPC message a client transport receives, exactly as parsed from the wire
 * (key order included). The official client's own `listTools()` re-parses and reorders keys, so
 * byte comparisons of listings must use these raw messages.
 */
export function recordIncoming<T extends { onmessage?: unknown }>(transport: T): Raw[] {
  const raw: Raw[] = [];
  let handler: unknown;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => handler,
    set: (h: ((m: unknown, extra?: unknown) => void) | undefined) => {
      // The SDK may read the handler back and chain it: record each message object once.
      handler =
        h &&
        ((message: unknown, extra?: unknown) => {
          if (raw[raw.length - 1] !== message) raw.push(message as Raw);
          h(message, extra);
        });
    },
  });
  return raw;
}
