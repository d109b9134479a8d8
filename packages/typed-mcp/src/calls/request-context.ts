/**
 * Building the {@link RequestContext} a tool, resource or prompt receives (spec §0;
 * docs/runtime.md "RequestContext") from the SDK's context of the request and the client's view.
 *
 * @module
 */
import { sessionIdOf } from "../server/lifecycle.js";
import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { sendServerRequest, unavailableRequest } from "./back-channel.js";
import type { ServerRequestMethod } from "./errors.js";
import { instrumentationOf } from "./instrumentation.js";
import type { ClientView } from "./client-view.js";
import { inputRoundOf } from "./input-required.js";
import { hasMissingCapabilityError } from "../protocol/revisions.js";
import { setTaskStatusMessage } from "../tasks/store.js";
import { closeResumableStream } from "../store/resumption.js";
import type { LogLevel, RequestContext } from "../types.js";

/**
 * The {@link RequestContext} of one request (spec §0).
 *
 * - `progress` sends `notifications/progress` only when the request has `_meta.progressToken`.
 * - `taskStatus` sets the `statusMessage` of the task the call runs as (tasks/store.ts), else nothing.
 * - `closeStream` ends the client's side of a resumable 2025-era `tools/call` stream
 *   (store/resumption.ts `closeResumableStream`), else returns `false`.
 * - `elicit` / `sample` / `listRoots`: on revisions with {@link hasMissingCapabilityError}, a
 *   rejected `MissingRequiredClientCapabilityError` (`-32021`) when the declared client
 *   capabilities lack the one needed; else the `input_required` round of the request
 *   (input-required.ts) when there is one; else, on an instance that cannot carry a server→client
 *   request (stateless 2025-era HTTP, back-channel.ts), a rejected `ServerRequestUnavailableError`;
 *   else the SDK's server→client request, related to this request and aborted with `signal`, its
 *   refusals and the client's JSON-RPC error as `ServerRequestError` (back-channel.ts `sendServerRequest`).
 *
 * @param sdk The SDK `Server` instance serving the request.
 * @param ctx The SDK's context of the request.
 * @param view What the client negotiated (client-view.ts).
 * @param signal The signal handed to the function (for tools: linked to the request's and the timeout).
 */
export function requestContext(sdk: Server, ctx: ServerContext, view: ClientView, signal: AbortSignal): RequestContext {
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const progressToken = meta?.["progressToken"] as string | number | undefined;
  const related = { relatedRequestId: ctx.mcpReq.id };
  // 2026-07-28: no server→client requests; answers come from the retry, else input_required.
  const round = inputRoundOf(ctx);
  const declared = view.clientCapabilities as Record<string, unknown> | undefined;
  return {
    signal,
    requestId: ctx.mcpReq.id,
    protocolVersion: view.protocolVersion,
    clientInfo: view.clientInfo,
    clientCapabilities: view.clientCapabilities,
    authInfo: ctx.http?.authInfo,
    meta,
    sessionId: sessionIdOf(sdk, ctx.http?.req?.headers),
    progress(progress: number, total?: number, message?: string): Promise<void> {
      if (progressToken === undefined) return Promise.resolve();
      return ctx.mcpReq.notify({
        method: "notifications/progress",
        params: {
          progressToken,
          progress,
          ...(total !== undefined && { total }),
          ...(message !== undefined && { message }),
        },
      });
    },
    log(level: LogLevel, data: unknown): Promise<void> {
      return ctx.mcpReq.log(level, data);
    },
    closeStream: () => closeResumableStream(ctx.http?.req),
    taskStatus(message: string): Promise<void> {
      try {
        setTaskStatusMessage(ctx, message);
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    elicit: (params, options) =>
      missingCapability(view, "elicitation") ??
      round?.elicit(params, options) ??
      unavailableRequest(sdk, "elicitation/create") ??
      sendServerRequest("elicitation/create", declared, () =>
        traced(sdk, ctx, "elicitation/create", (m) => sdk.elicitInput(withMeta(params, m), { ...related, signal })),
      ),
    sample: (params, options) =>
      missingCapability(view, "sampling") ??
      round?.sample(params, options) ??
      unavailableRequest(sdk, "sampling/createMessage") ??
      sendServerRequest("sampling/createMessage", declared, () =>
        traced(sdk, ctx, "sampling/createMessage", (m) =>
          sdk.createMessage(withMeta(params, m), { ...related, signal }),
        ),
      ),
    listRoots: (options) =>
      missingCapability(view, "roots") ??
      round?.listRoots(options) ??
      unavailableRequest(sdk, "roots/list") ??
      sendServerRequest("roots/list", declared, () =>
        traced(sdk, ctx, "roots/list", (m) => sdk.listRoots(withMeta(undefined, m), { ...related, signal })),
      ),
  };
}

/** `send(meta)` through the instrumentation of `sdk` (the CLIENT span, its trace context in `meta`), else `send(undefined)`. */
function traced<T>(
  sdk: Server,
  ctx: ServerContext,
  method: ServerRequestMethod,
  send: (meta: Record<string, string> | undefined) => Promise<T>,
): Promise<T> {
  const instrumentation = instrumentationOf(sdk);
  return instrumentation === undefined
    ? send(undefined)
    : instrumentation.serverRequest(method, ctx.mcpReq.signal, send);
}

/** `params` with `meta` merged into its `_meta` (a copy); `params` itself when `meta` is `undefined`. */
function withMeta<P extends { _meta?: Record<string, unknown> } | undefined>(
  params: P,
  meta: Record<string, string> | undefined,
): P {
  if (meta === undefined) return params;
  return { ...params, _meta: { ...params?._meta, ...meta } } as P;
}

/**
 * With {@link hasMissingCapabilityError} (SEP-2575): a rejected promise of the SDK's
 * `MissingRequiredClientCapabilityError` (-32021, `data.requiredCapabilities = { [capability]: {} }`)
 * when the request's declared client capabilities lack `capability`; `undefined` otherwise
 * (earlier revisions: the SDK decides).
 */
function missingCapability(
  view: ClientView,
  capability: "elicitation" | "sampling" | "roots",
): Promise<never> | undefined {
  if (!hasMissingCapabilityError(view.protocolVersion)) return undefined;
  const declared = view.clientCapabilities as Record<string, unknown> | undefined;
  if (
    declared !== undefined &&
    declared !== null &&
    declared[capability] !== undefined &&
    declared[capability] !== null
  )
    return undefined;
  return Promise.reject(new MissingRequiredClientCapabilityError({ requiredCapabilities: { [capability]: {} } }));
}

/**
 * Whether `error`, escaping a tool on a request with revision `protocolVersion`, is answered as
 * the JSON-RPC error `-32021` instead of a tool failure (docs/runtime.md "Missing client capability").
 */
export function isMissingCapabilityAnswer(error: unknown, protocolVersion: string): boolean {
  return (
    hasMissingCapabilityError(protocolVersion) &&
    error instanceof ProtocolError &&
    error.code === ProtocolErrorCode.MissingRequiredClientCapability
  );
}
