/**
 * Folder `server/`: what `McpServer` (../server.ts) is made of — its options and their checks, the
 * registry and the binding of decorated class members, the SDK server factory, list-change
 * announcements to lasting connections, and the MCP Apps parts.
 *
 * Building one SDK `Server` from an `McpServer`'s parts (spec §0): the SDK server factory behind
 * `server.fetch` (one per HTTP request), `serveStdio` and `serveHttp` (one per connection). It
 * installs every handler — `tools/list`, `tools/call` (tool-call.ts, tasks.ts), resources and
 * prompts (resource-handlers.ts), the 2026-07-28 `input_required` flow — and the SDK patches the
 * request's transport needs (sdk-patches.ts).
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
import type { TaskStore } from "../tasks/store.js";
import type { Pager } from "../protocol/pagination.js";
import { installTasks, withTaskCapabilities } from "../tasks/tasks.js";
import { callTool } from "../calls/tool-call.js";
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
  /** The tasks of every connection and request. */
  readonly tasks: TaskStore;
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
}

/**
 * Builds one SDK `Server` answering from `parts.registry`.
 *
 * @param ctx The SDK's factory context (`era`, `requestInfo` for an HTTP request; none on stdio).
 */
export function buildSdkServer(parts: ServerParts, ctx?: McpRequestContext): Server {
  const { registry, codec, options } = parts;
  registry.checkUiResources();
  const sdk = new Server(parts.info, {
    capabilities: withTaskCapabilities(registry.capabilities(), registry.hasTaskTools()),
    ...(options.instructions !== undefined && { instructions: options.instructions }),
    requestState: { verify: codec.verify },
  });
  // 2026-07-28: RequestContext.elicit/sample/listRoots end the call with input_required (input-required.ts).
  installInputRequired(sdk, codec, (ctx) => viewOf(sdk, ctx).protocolVersion);
  sdk.setRequestHandler("tools/list", (request, ctx) => {
    const view = viewOf(sdk, ctx);
    const tools = registry.listTools(view);
    const answer = parts.auth?.listTools(tools, ctx.http?.authInfo, view.protocolVersion) ?? { tools };
    const page = parts.pages.page("tools", tools, (t) => t.name, request.params?.cursor, answer.tools);
    return {
      ...answer,
      tools: page.items,
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    } as never;
  });
  const policy: CallPolicy = {
    timeoutMs: options.requestTimeoutMs,
    report: (failure) => reportFailure(failure, options),
  };
  // Bounds and `__proto__` are checked on the raw message, before the SDK's parse (tool-call.ts, sdk-patches.ts).
  const limits = parts.limits;
  const rawArguments = patchRawMessages(sdk, (args) => checkArgumentBounds(args, limits));
  // `task` option tools run as tasks for clients that negotiated them (tasks.ts), installed only while one is registered.
  const tasks = registry.hasTaskTools()
    ? installTasks(sdk, parts.tasks, (ctx) => viewOf(sdk, ctx), servesConnection(ctx), parts.callerKey, registry)
    : undefined;
  sdk.setRequestHandler("tools/call", (request, ctx) => {
    const entry = registry.tool(request.params.name);
    const capture = rawArguments(ctx.mcpReq.id);
    const run = (c: typeof ctx) => callTool(sdk, entry, request.params, c, viewOf(sdk, c), policy, capture);
    return (tasks?.dispatch(
      entry?.listing.execution?.taskSupport,
      entry?.descriptor.taskStart,
      request.params,
      ctx,
      run,
    ) ?? run(ctx)) as never;
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
  installLifecycleHooks(sdk, options.lifecycle, ctx);
  if (isLegacyHttpRequest(ctx)) {
    installSessionHook(sdk, UI_EXTENSION);
    markWithoutBackChannel(sdk);
  }
  return sdk;
}
