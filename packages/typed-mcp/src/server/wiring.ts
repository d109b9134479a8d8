/**
 * What one `McpServer` keeps between requests, built from its options in one place: the
 * registry, the stores of tasks and subscriptions, the list-change and fan-out machinery, the
 * OAuth gate, the listen streams and the bounds (server.ts holds the public API over it;
 * sdk-server.ts builds an SDK `Server` per connection or request from it).
 *
 * @module
 */
import type { Implementation } from "@modelcontextprotocol/server";
import { authGate } from "../auth/option.js";
import { reportFailure } from "../calls/pipeline.js";
import type { Middleware } from "../calls/middleware.js";
import type { ArgumentLimits } from "../protocol/limits.js";
import { Pager } from "../protocol/pagination.js";
import { Subscriptions } from "../resources/subscriptions.js";
import { shareFanOut } from "../store/fan-out.js";
import { SharedInstance } from "../store/shared.js";
import { resolveTaskOptions } from "../tasks/quotas.js";
import type { TaskSource } from "../tasks/access.js";
import { ListenStreams } from "../streams/listen-streams.js";
import type { StreamLimits } from "../streams/listen-streams.js";
import { checkAllowedOrigins } from "../transports/origin.js";
import { ListChanges } from "./dynamic-lists.js";
import type { McpServerOptions } from "./options.js";
import { Registry } from "./registry.js";
import type { ServerParts } from "./sdk-server.js";

/** A server's state: {@link ServerParts} but what is made per request, plus what only server.ts reads. */
export interface ServerState extends Omit<ServerParts, "codec" | "chain" | "instrumentation"> {
  /** `allowedOrigins`, checked ({@link checkAllowedOrigins}); `undefined`: same host only. */
  readonly origins: ReadonlySet<string> | undefined;
  /** Open `subscriptions/listen` streams per caller, and their bounds (the `streams` option, streams/listen-streams.ts). */
  readonly listen: ListenStreams;
  /** `list_changed` and `resources/updated` here and, with a shared store, on every instance (store/fan-out.ts). */
  readonly fanOut: ReturnType<typeof shareFanOut>;
}

/** What {@link wireServer} needs from the `McpServer` it builds for. */
export interface ServerHooks {
  /** The middleware chain of a request (calls/middleware.ts `chainOf`). */
  readonly chain: () => readonly Middleware[];
  /** Delivers `resources/updated` on this instance only (what the fan-out calls for every instance's update). */
  readonly resourceUpdatedHere: (uri: string) => Promise<void>;
}

/**
 * Builds the state of a server from its checked options (`limits` is server/options.ts
 * `checkServerOptions`'s answer for `options`).
 *
 * @throws RangeError or TypeError for invalid `tasks` options (tasks/quotas.ts) or `store.leaseMs`
 *   (store/shared.ts), RangeError as `checkAllowedOrigins` for an invalid `allowedOrigins`.
 */
export function wireServer(
  options: McpServerOptions,
  limits: { readonly arguments: ArgumentLimits; readonly streams: StreamLimits },
  hooks: ServerHooks,
): ServerState {
  const report = (failure: Parameters<typeof reportFailure>[0]) => reportFailure(failure, options);
  const lists = new ListChanges(options.dynamic === true);
  // The `tasks` option is checked here, then `store` (its `leaseMs`); the tasks themselves are made by
  // the tasks runtime a task tool carries (tasks/access.ts `TaskSource`).
  resolveTaskOptions(options.tasks);
  const shared = options.store === undefined ? undefined : new SharedInstance(options.store);
  const tasks: TaskSource = { options: options.tasks, shared };
  const fanOut = shareFanOut(shared, {
    dynamic: options.dynamic === true,
    lists: (kinds) => lists.announce(kinds),
    resource: (uri) => hooks.resourceUpdatedHere(uri),
  });
  const registry = new Registry(report, options.dynamic === true, (kinds) => fanOut.listsChanged(kinds));
  const info: Implementation = {
    name: options.name,
    version: options.version,
    ...(options.title !== undefined && { title: options.title }),
  };
  return {
    info,
    options,
    registry,
    auth: authGate(options.auth, {
      toolScopes: (name) => registry.toolScopes(name),
      resourceScopes: (uri) => registry.resources.resourceScopes(uri),
      promptScopes: (name) => registry.resources.promptScopes(name),
      allScopes: () => registry.allScopes(),
    }),
    limits: limits.arguments,
    tasks,
    shared,
    pages: new Pager(options.pageSize),
    callerKey: options.callerKey,
    subscriptions: new Subscriptions(limits.streams.maxSubscribedUris),
    lists,
    origins: checkAllowedOrigins(options.allowedOrigins),
    listen: new ListenStreams(limits.streams, options.callerKey, hooks.chain, report),
    fanOut,
  };
}
