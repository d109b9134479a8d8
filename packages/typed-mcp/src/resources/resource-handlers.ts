/**
 * The SDK request handlers of resources and prompts (spec §8): `resources/list`,
 * `resources/templates/list`, `resources/read`, `prompts/list` and `prompts/get`, answering from
 * a {@link ResourceRegistry}. `resources/read` and `prompts/get` run the shared bounded pipeline
 * (pipeline.ts: `requestTimeoutMs`, cancellation, the error hooks) with the answers of a
 * resource or prompt — JSON-RPC errors. Matched template values are percent-decoded before they
 * are read.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from "@modelcontextprotocol/server";
import type { GetPromptResult, ReadResourceResult, Server, ServerContext } from "@modelcontextprotocol/server";
import { cutEchoed, invalid, pathKey } from "../codegen-support/argument-errors.js";
import { installCompletion } from "./completion.js";
import { isToolError } from "../calls/errors.js";
import { runCall } from "../calls/pipeline.js";
import type { CallAnswers, CallKind, CallPolicy } from "../calls/pipeline.js";
import type { Entry, ResourceRegistry } from "./resource-registry.js";
import { resourceNotFoundIsInvalidParams } from "../protocol/revisions.js";
import { RESOURCE_NOT_FOUND_2025, patchResourceNotFoundCode } from "../protocol/sdk-patches.js";
import type { Subscriptions } from "./subscriptions.js";
import type { Page, Pager } from "../protocol/pagination.js";
import type { RequestContext } from "../types.js";

/** What the handlers need to know about one request: its revision, and its {@link RequestContext} for a signal. */
export interface RequestInfo {
  readonly protocolVersion: string;
  /** The `RequestContext` the function gets, with `signal` (the pipeline's: linked to the timeout when there is one). */
  context(signal: AbortSignal): RequestContext;
}

/**
 * Installs the handlers on one SDK `Server` whose capabilities include `resources` / `prompts`
 * when `registry.servesResources` / `servesPrompts`. `info(ctx)` gives the request's revision and
 * context. For a 2025-era client an unknown URI is answered `-32002` (the SDK itself always
 * sends `-32602`, so sdk-patches.ts puts the code of exactly those responses back on the way out).
 * With `registry.servesCompletions` it installs `completion/complete` (completion.ts; the server
 * must advertise `completions`); with `subscriptions` and resources, `resources/subscribe` /
 * `resources/unsubscribe` (subscriptions.ts; the server must advertise `resources.subscribe`),
 * `connection` telling whether `sdk` serves a lasting connection (stdio).
 *
 * @param policy `requestTimeoutMs` and the error hooks (pipeline.ts), as for tools.
 * @param pages The pages of the three listings (the `pageSize` option).
 */
export function installResourceHandlers(
  sdk: Server,
  registry: ResourceRegistry,
  info: (ctx: ServerContext) => RequestInfo,
  policy: CallPolicy,
  subscriptions: { hub: Subscriptions; connection: boolean } | undefined,
  pages: Pager,
): void {
  if (registry.servesCompletions) installCompletion(sdk, registry);
  if (registry.servesResources) installResources(sdk, registry, info, policy, subscriptions);
  if (registry.servesResources) installResourceLists(sdk, registry, pages);
  if (registry.servesPrompts) {
    sdk.setRequestHandler("prompts/list", (request) => {
      const page = pages.page("prompts", registry.listings().prompts, keyOf("name"), request.params?.cursor);
      return { prompts: page.items as never, ...nextCursorOf(page) };
    });
    sdk.setRequestHandler("prompts/get", async (request, ctx) => {
      const entry = registry.prompt(request.params.name);
      if (entry === undefined)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${cutEchoed(request.params.name)} not found`);
      const request_ = info(ctx);
      return run(entry, "prompt", ctx, policy, {
        read: (signal) => entry.descriptor.read(request.params.arguments, request_.context(signal)),
        write: (value) => entry.descriptor.write(value),
      }) as Promise<GetPromptResult>;
    });
  }
}

/** `resources/list`, `resources/templates/list`, `resources/read` and, with `subscriptions`, the subscription handlers. */
function installResources(
  sdk: Server,
  registry: ResourceRegistry,
  info: (ctx: ServerContext) => RequestInfo,
  policy: CallPolicy,
  subscriptions: { hub: Subscriptions; connection: boolean } | undefined,
): void {
  const markNotFound2025 = patchResourceNotFoundCode(sdk);
  const notFound = (uri: string, ctx: ServerContext): never => {
    if (resourceNotFoundIsInvalidParams(info(ctx).protocolVersion)) throw new ResourceNotFoundError(uri);
    markNotFound2025(ctx.mcpReq.id);
    throw new ProtocolError(RESOURCE_NOT_FOUND_2025 as ProtocolErrorCode, `Resource not found: ${uri}`, { uri });
  };
  subscriptions?.hub.install(sdk, subscriptions.connection, { matches: (uri) => registry.matches(uri), notFound });
  sdk.setRequestHandler("resources/read", async (request, ctx) => {
    const uri = request.params.uri;
    const found = registry.find(uri);
    if (found === undefined) return notFound(uri, ctx);
    const vars = decodeVariables(found.match);
    const request_ = info(ctx);
    const e = found.entry;
    try {
      return (await run(e, "resource", ctx, policy, {
        read: (signal) => e.descriptor.read(vars, request_.context(signal)),
        write: (value) => e.descriptor.write(value, uri),
      })) as ReadResourceResult;
    } catch (error) {
      throw notFoundForRevision(error, request_.protocolVersion, () => markNotFound2025(ctx.mcpReq.id));
    }
  });
}

/** `resources/list` and `resources/templates/list`, paged by `pages` (protocol/pagination.ts). */
function installResourceLists(sdk: Server, registry: ResourceRegistry, pages: Pager): void {
  sdk.setRequestHandler("resources/list", (request) => {
    const page = pages.page("resources", registry.listings().resources, keyOf("uri"), request.params?.cursor);
    return { resources: page.items as never, ...nextCursorOf(page) };
  });
  sdk.setRequestHandler("resources/templates/list", (request) => {
    const all = registry.listings().resourceTemplates;
    const page = pages.page("resourceTemplates", all, keyOf("uriTemplate"), request.params?.cursor);
    return { resourceTemplates: page.items as never, ...nextCursorOf(page) };
  });
}

/** The key of a listing entry: its `name`, `uri` or `uriTemplate` member. */
function keyOf(member: "name" | "uri" | "uriTemplate"): (entry: unknown) => string {
  return (entry) => String((entry as Record<string, unknown>)[member]);
}

/** `{ nextCursor }` when the page has one, else nothing (spread into a list result). */
function nextCursorOf(page: Page<unknown>): { nextCursor?: string } {
  return page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor };
}

/**
 * A resource function's own "not found" answered as the runtime's unknown URI is, for the
 * request's revision (spec §8, docs/resources.md "Unknown resource URI"): the SDK's
 * `ResourceNotFoundError` (`-32602`) or a `ProtocolError` with the 2025-era code `-32002`
 * becomes `-32002` up to 2025-11-25 (`mark` has the response's code put back on the way out, as
 * the SDK sends a handler-thrown `-32002` as `-32602`) and `-32602` from 2026-07-28, message and
 * `data` kept. Any other error is returned as it is.
 */
function notFoundForRevision(error: unknown, revision: string, mark: () => void): unknown {
  if (!(error instanceof ProtocolError)) return error;
  const notFound = error instanceof ResourceNotFoundError || error.code === RESOURCE_NOT_FOUND_2025;
  if (!notFound) return error;
  if (resourceNotFoundIsInvalidParams(revision)) {
    return error.code === ProtocolErrorCode.InvalidParams
      ? error
      : new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, error.data);
  }
  mark();
  return error.code === RESOURCE_NOT_FOUND_2025
    ? error
    : new ProtocolError(RESOURCE_NOT_FOUND_2025 as ProtocolErrorCode, error.message, error.data);
}

/**
 * The matched template variables, percent-decoded (a list variable joined with `,` first).
 * @throws ProtocolError `-32602` `Argument '<name>' is not valid. Expected percent-encoded UTF-8.` for a value that does not decode.
 */
function decodeVariables(match: Record<string, string | string[]> | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(match ?? {})) {
    const raw = Array.isArray(v) ? v.join(",") : v;
    try {
      vars[k] = decodeURIComponent(raw);
    } catch {
      throw invalidArgument(invalid(pathKey(k, true), "Expected percent-encoded UTF-8."));
    }
  }
  return vars;
}

/**
 * Runs a resource or prompt through the pipeline (pipeline.ts). A bad argument is `-32602`; a
 * `ToolError` from the function is `-32603` with its message; the SDK's `ProtocolError` is sent as
 * is (spec §7); a timeout is `-32603` `The resource read timed out.` / `The prompt timed out.`;
 * anything else thrown is `-32603` `The resource failed.` / `The prompt failed.`.
 */
function run(
  entry: Entry<unknown>,
  kind: Exclude<CallKind, "tool">,
  ctx: ServerContext,
  policy: CallPolicy,
  steps: { read(signal: AbortSignal): unknown[] | string; write(value: unknown): unknown },
): Promise<unknown> {
  return runCall(
    kind,
    entry.key,
    ctx.mcpReq.signal,
    policy,
    { ...steps, call: (args) => entry.fn.apply(entry.thisArg, args) },
    JSON_RPC_ANSWERS,
  );
}

/** The answers of a resource or prompt: every outcome but a value is a thrown JSON-RPC error. */
const JSON_RPC_ANSWERS: CallAnswers<never> = {
  invalid: (text) => {
    throw invalidArgument(text);
  },
  refuse: (text) => {
    throw new ProtocolError(ProtocolErrorCode.InternalError, text);
  },
  thrown: (error) => {
    if (error instanceof ProtocolError) throw error;
    if (isToolError(error)) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
    return undefined;
  },
};

/** JSON-RPC `-32602` whose message is the §5 text the reader built (`Argument 'id' is not valid. Expected an integer.`). */
function invalidArgument(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}
