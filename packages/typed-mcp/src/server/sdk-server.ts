/**
 * Folder `server/`: what `McpServer` (../server.ts) is made of — its options and their checks, the
 * registry and the binding of decorated class members, the SDK server factory, list-change
 * announcements to lasting connections, and the MCP Apps parts.
 *
 * Building one SDK `Server` from an `McpServer`'s parts (spec §0): the SDK server factory behind
 * `server.fetch` (one per HTTP request), `serveStdio` and `serveHttp` (one per connection). It
 * installs every handler — `tools/list`, `tools/call` (tool-call.ts; tasks.ts through the installer
 * a task tool's descriptor carries), resources and prompts (resource-handlers.ts), the 2026-07-28
 * `input_required` flow — and the SDK patches the request's transport needs (sdk-patches.ts).
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/server";
import type { Implementation, McpRequestContext } from "@modelcontextprotocol/server";
import { UI_EXTENSION } from "./apps.js";
import type { AuthHandler } from "../auth/option.js";
import { markWithoutBackChannel } from "../calls/back-channel.js";
import type { CallerKey } from "../transports/caller.js";
import { viewOf } from "../calls/client-view.js";
import type { ListChanges } from "./dynamic-lists.js";
import { installInputRequired } from "../calls/input-required.js";
import type { requestStateCodec } from "../calls/input-required.js";
import { checkArgumentBounds } from "../protocol/limits.js";
import type { ArgumentLimits } from "../protocol/limits.js";
import { reportFailure } from "../calls/pipeline.js";
import type { CallPolicy } from "../calls/pipeline.js";
import type { Registry } from "./registry.js";
import { requestContext } from "../calls/request-context.js";
import { installResourceHandlers } from "../resources/resource-handlers.js";
import {
  installSessionHook,
  isLegacyHttpRequest,
  patchRawMessages,
  servesConnection,
} from "../protocol/sdk-patches.js";
import type { McpServerOptions } from "./options.js";
import type { Subscriptions } from "../resources/subscriptions.js";
import type { SharedInstance } from "../store/shared.js";
import { relayAnswers } from "../store/answers.js";
import { afterCancel, connectWithEventStore } from "../protocol/sdk-patches-store.js";
import { eventStoreFor } from "../store/resumption.js";
import { callerOf } from "../transports/caller.js";
import type { Pager } from "../protocol/pagination.js";
import { withTaskCapabilities } from "../tasks/capabilities.js";
import type { TaskSource } from "../tasks/access.js";
import { callTool } from "../calls/tool-call.js";
import { installMiddleware } from "../calls/middleware.js";
import type { Middleware } from "../calls/middleware.js";
import { bindInstrumentation } from "../calls/instrumentation.js";
import type { ConnectionInfo, Instrumentation } from "../calls/instrumentation.js";
import { installLifecycleHooks } from "./lifecycle.js";

/** What every SDK `Server` of one `McpServer` is built from. */
export interface ServerParts {
  /** `serverInfo`. */
  readonly info: Implementation;
  /** The `McpServer`'s options (`instructions`, `requestTimeoutMs`, the error hooks). */
  readonly options: McpServerOptions;
  /** What is registered. */
  readonly registry: Registry;
  /** The OAuth gate (its `tools/list` filter), when the `auth` option is set. */
  readonly auth: AuthHandler | undefined;
  /** Bounds on `tools/call` arguments. */
  readonly limits: ArgumentLimits;
  /** What the tasks of every connection and request are made from (by the tasks runtime, when a task tool is registered). */
  readonly tasks: TaskSource;
  /** This instance's part in a shared store (the `store` option), else `undefined`. */
  readonly shared: SharedInstance | undefined;
  /** The pages of `tools/list` and the resource and prompt listings (the `pageSize` option). */
  readonly pages: Pager;
  /** The `callerKey` option. */
  readonly callerKey: CallerKey | undefined;
  /** Resource subscriptions of lasting connections. */
  readonly subscriptions: Subscriptions;
  /** The lasting connections told about list changes. */
  readonly lists: ListChanges;
  /** Seals and verifies the 2026-07-28 `requestState`. */
  readonly codec: ReturnType<typeof requestStateCodec>;
  /** The middleware chain of a request: the instrumentation's, then `server.use`'s (calls/middleware.ts `chainOf`). */
  readonly chain: () => readonly Middleware[];
  /** The `typed-mcp/otel` instrumentation, when set. */
  readonly instrumentation: Instrumentation | undefined;
}

/**
 * Builds one SDK `Server` answering from `parts.registry`.
 *
 * @param ctx The SDK's factory context (`era`, `requestInfo` for an HTTP request; none on stdio).
 * @param connectionId A lasting connection's id when its transport made it (server.ts `SDK_FACTORY`).
 */
export function buildSdkServer(parts: ServerParts, ctx?: McpRequestContext, connectionId?: string): Server {
  const { registry, codec, options } = parts;
  registry.checkUiResources();
  const sdk = new Server(parts.info, {
    capabilities: withTaskCapabilities(registry.capabilities(), registry.hasTaskTools()),
    ...(options.instructions !== undefined && { instructions: options.instructions }),
    requestState: { verify: codec.verify },
  });
  const connection = servesConnection(ctx) ? (connectionId ?? `connection:${crypto.randomUUID()}`) : undefined;
  // The instrumentation's middleware, then `server.use`'s, outside input_required: each round passes them once (middleware.ts).
  installMiddleware(sdk, {
    chain: parts.chain,
    connection,
    view: (c) => viewOf(sdk, c),
    caller: (c) => callerOf(c, connection, parts.callerKey).bucket,
    report: (failure) => reportFailure(failure, options),
  });
  // 2026-07-28: RequestContext.elicit/sample/listRoots end the call with input_required (input-required.ts).
  installInputRequired(sdk, codec, (ctx) => viewOf(sdk, ctx).protocolVersion);
  installToolsList(sdk, parts);
  const policy: CallPolicy = {
    timeoutMs: options.requestTimeoutMs,
    report: (failure) => reportFailure(failure, options),
  };
  // Bounds and `__proto__` are checked on the raw message, before the SDK's parse (tool-call.ts, sdk-patches.ts).
  const limits = parts.limits;
  const observed = observe(sdk, parts.instrumentation, connection, ctx);
  const rawArguments = patchRawMessages(sdk, (args) => checkArgumentBounds(args, limits), observed);
  // `task` option tools run as tasks for clients that negotiated them (tasks.ts), installed only while one is
  // registered, by the installer their descriptors carry (tasks/capabilities.ts: no task tool, no task runtime bundled).
  const tasks = registry.taskInstaller()?.(
    sdk,
    parts.tasks,
    (ctx) => viewOf(sdk, ctx),
    connection,
    parts.callerKey,
    registry,
  );
  const shared = parts.shared;
  sdk.setRequestHandler("tools/call", (request, ctx) => {
    const entry = registry.tool(request.params.name);
    const capture = rawArguments(ctx.mcpReq.id);
    const run = (c: typeof ctx) => callTool(sdk, entry, request.params, c, viewOf(sdk, c), policy, capture);
    const task = tasks?.dispatch(
      entry?.listing.execution?.taskSupport,
      entry?.descriptor.taskStart,
      request.params,
      ctx,
      run,
    );
    if (task !== undefined) return task as never;
    // With a shared store, a `notifications/cancelled` reaching another instance aborts this call (store/shared.ts).
    const tracked = shared?.trackCall(callerOf(ctx, undefined, parts.callerKey).owner, ctx.mcpReq.id);
    if (tracked === undefined) return run(ctx) as never;
    const signal = AbortSignal.any([ctx.mcpReq.signal, tracked.signal]);
    return run({ ...ctx, mcpReq: { ...ctx.mcpReq, signal } }).finally(tracked.done) as never;
  });
  installResourceHandlers(
    sdk,
    registry.resources,
    (ctx) => {
      const view = viewOf(sdk, ctx);
      return { protocolVersion: view.protocolVersion, context: (signal) => requestContext(sdk, ctx, view, signal) };
    },
    policy,
    { hub: parts.subscriptions, connection: servesConnection(ctx) },
    parts.pages,
  );
  // A stateless 2025-era HTTP request: answer `initialize` with an Mcp-Session-Id carrying what was negotiated (sdk-patches.ts, session.ts).
  // It also cannot carry a server→client request: RequestContext rejects them at once (back-channel.ts).
  if (servesConnection(ctx)) parts.lists.track(sdk);
  const relayed = shareRequest(sdk, shared, ctx, parts.callerKey);
  installLifecycleHooks(sdk, options.lifecycle, ctx);
  if (isLegacyHttpRequest(ctx)) {
    installSessionHook(sdk, UI_EXTENSION);
    if (!relayed) markWithoutBackChannel(sdk);
  }
  return sdk;
}

/**
 * `tools/list` (spec §0): the registry's listing for the request's revision and client, filtered
 * by the OAuth gate's scopes when `auth` is set, then paged (the `pageSize` option).
 */
function installToolsList(sdk: Server, parts: ServerParts): void {
  sdk.setRequestHandler("tools/list", (request, ctx) => {
    const view = viewOf(sdk, ctx);
    const tools = parts.registry.listTools(view);
    const answer = parts.auth?.listTools(tools, ctx.http?.authInfo, view.protocolVersion) ?? { tools };
    const page = parts.pages.page("tools", tools, (t) => t.name, request.params?.cursor, answer.tools);
    return {
      ...answer,
      tools: page.items,
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    } as never;
  });
}

/**
 * Binds `instrumentation` to `sdk`: its connection hook on a lasting connection (ended by the
 * SDK's `onclose`), and the notification observer handed to the raw-message patch.
 */
function observe(
  sdk: Server,
  instrumentation: Instrumentation | undefined,
  connection: string | undefined,
  ctx: McpRequestContext | undefined,
): ((method: string, params: unknown) => void) | undefined {
  if (instrumentation === undefined) return undefined;
  bindInstrumentation(sdk, instrumentation);
  const header = ctx?.requestInfo instanceof Request ? ctx.requestInfo.headers.get("mcp-session-id") : null;
  const info: ConnectionInfo = {
    transport: connection === undefined ? "http" : "stdio",
    session: connection ?? (header === null || header === "" ? undefined : header),
    protocolVersion: () => sdk.getNegotiatedProtocolVersion(),
  };
  if (connection !== undefined && instrumentation.enabled()) {
    const ended = instrumentation.connection(info);
    const onclose = sdk.onclose;
    sdk.onclose = () => {
      onclose?.();
      ended();
    };
  }
  return (method, params) => {
    if (instrumentation.enabled()) instrumentation.notification(method, params, info);
  };
}

/**
 * With a shared store, for an HTTP request: a `notifications/cancelled` arriving here is also
 * published to every instance (store/shared.ts `cancelCall`, keyed by the caller's owner); and on
 * 2025-era HTTP, for a caller with an owner, the client's answers to this instance's server→client
 * requests reach it from any instance (store/answers.ts).
 * @returns whether those answers are relayed (else the instance cannot carry such requests: back-channel.ts).
 */
function shareRequest(
  sdk: Server,
  shared: SharedInstance | undefined,
  ctx: McpRequestContext | undefined,
  callerKey: CallerKey | undefined,
): boolean {
  if (shared === undefined || ctx?.requestInfo === undefined) return false;
  const { owner } = callerOf({ http: { authInfo: ctx.authInfo, req: ctx.requestInfo } } as never, undefined, callerKey);
  afterCancel(sdk, (id, reason) => shared.cancelCall(owner, id, reason).catch(() => {}));
  // A 2025-era tools/call stream is kept for resumption on any instance (store/resumption.ts).
  const events = isLegacyHttpRequest(ctx) ? eventStoreFor(ctx.requestInfo as Request) : undefined;
  if (events !== undefined) connectWithEventStore(sdk, events);
  return isLegacyHttpRequest(ctx) && relayAnswers(shared, sdk, owner, ctx.requestInfo);
}
