/**
 * Sending a server→client request of `RequestContext` (docs/runtime.md "Server→client requests")
 * on a 2025-era request, and what its failures become ({@link ServerRequestError}, spec §7).
 *
 * Which SDK `Server` instances cannot carry such a request: those built for one stateless
 * 2025-era Streamable HTTP request (sdk-patches.ts `isLegacyHttpRequest`). There the client's
 * answer to `elicitation/create`, `sampling/createMessage` or `roots/list` would arrive as a new
 * HTTP request served by another instance, so the request would wait until the client gives up.
 * `RequestContext` rejects such calls at once with {@link ServerRequestUnavailableError} instead.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from "@modelcontextprotocol/server";
import type { Server } from "@modelcontextprotocol/server";
import { ServerRequestError, ServerRequestUnavailableError } from "./errors.js";
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

/** The client capability (MCP `ClientCapabilities` key) each server→client request needs. */
const CAPABILITY: Record<ServerRequestMethod, "elicitation" | "sampling" | "roots"> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/**
 * Sends `method` to the client with `send` (the SDK's `elicitInput` / `createMessage` /
 * `listRoots`), on a 2025-era request. Its failures become {@link ServerRequestError}s:
 *
 * - when the client's declared capabilities lack the one `method` needs: rejected at once with
 *   code `-32021`, nothing sent (the SDK itself refuses an undeclared elicitation mode the same way);
 * - the client's JSON-RPC error answer (the SDK's `ProtocolError`): its code, message and data;
 * - anything else (the signal aborted, the connection closed, an invalid result) is left as it is:
 *   none of them is a protocol error, so an uncaught one is already a tool failure.
 *
 * @param method The MCP method.
 * @param declared The client capabilities the request declared.
 * @param send Sends the request.
 */
export function sendServerRequest<T>(
  method: ServerRequestMethod,
  declared: Record<string, unknown> | undefined,
  send: () => Promise<T>,
): Promise<T> {
  const capability = CAPABILITY[method];
  if (declared?.[capability] === undefined || declared[capability] === null)
    return Promise.reject(
      new ServerRequestError(
        method,
        ProtocolErrorCode.MissingRequiredClientCapability,
        `typed-mcp: cannot send ${method}: the client did not declare the ${capability} capability.`,
      ),
    );
  return new Promise<T>((resolve) => resolve(send())).catch((error: unknown) => {
    throw asServerRequestError(method, error);
  });
}

/**
 * `error` rejecting the SDK's send of `method`, as a {@link ServerRequestError} when it answers
 * the request (the client's JSON-RPC error, or the SDK's refusal of an undeclared capability, `-32021`).
 */
export function asServerRequestError(method: ServerRequestMethod, error: unknown): unknown {
  if (error instanceof ProtocolError)
    return new ServerRequestError(method, error.code, error.message, { cause: error, data: error.data });
  if (error instanceof SdkError && error.code === SdkErrorCode.CapabilityNotSupported)
    return new ServerRequestError(method, ProtocolErrorCode.MissingRequiredClientCapability, error.message, {
      cause: error,
    });
  return error;
}
