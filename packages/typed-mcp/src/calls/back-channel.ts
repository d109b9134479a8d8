/**
 * Which SDK `Server` instances cannot carry a server→client request (docs/runtime.md
 * "Server→client requests"): those built for one stateless 2025-era Streamable HTTP request
 * (sdk-patches.ts `isLegacyHttpRequest`). There the client's answer to `elicitation/create`,
 * `sampling/createMessage` or `roots/list` would arrive as a new HTTP request served by another
 * instance, so the request would wait until the client gives up. `RequestContext` rejects such
 * calls at once with {@link ServerRequestUnavailableError} instead.
 *
 * @module
 */
import type { Server } from "@modelcontextprotocol/server";
import { ServerRequestUnavailableError } from "./errors.js";
import type { ServerRequestMethod } from "./errors.js";

/** Instances serving one stateless 2025-era HTTP request. */
const withoutBackChannel = new WeakSet<Server>();

/** Marks `sdk` as serving one stateless 2025-era HTTP request (called by the server factory). */
export function markWithoutBackChannel(sdk: Server): void {
  withoutBackChannel.add(sdk);
}

/**
 * A promise rejected with {@link ServerRequestUnavailableError} for `method` when `sdk` was marked
 * by {@link markWithoutBackChannel}; `undefined` when the request can be sent.
 */
export function unavailableRequest(sdk: Server, method: ServerRequestMethod): Promise<never> | undefined {
  return withoutBackChannel.has(sdk) ? Promise.reject(new ServerRequestUnavailableError(method)) : undefined;
}
