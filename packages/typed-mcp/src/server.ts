/**
 * `McpServer`: the typed-mcp server (spec §0). The protocol (JSON-RPC, lifecycle, revisions,
 * transports) is the official SDK's low-level `Server`; typed-mcp answers `tools/list` and
 * `tools/call` itself so that listings and texts are exactly those of the spec.
 *
 * @packageDocumentation
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  createMcpHandler,
} from "@modelcontextprotocol/server";
import type {
  AuthInfo,
  ClientCapabilities,
  Implementation,
  McpHttpHandler,
  McpRequestContext,
  ServerCapabilities,
  ServerContext,
} from "@modelcontextprotocol/server";
import { publishToolError } from "./diagnostics.js";
import { TOOL_ERROR_BRAND, ToolError, pluginMissingMessage } from "./errors.js";
import type { QuickToolOptions } from "./decorators.js";
import { GENERATED, TOOLS, isGenerated } from "./internal.js";
import type { GeneratedTool, ToolListing } from "./internal.js";
import { ResourceRegistry } from "./resources.js";
import { checkRequestStateOptions, inputRoundOf, installInputRequired, isInputRequiredSignal, requestStateCodec } from "./input-required.js";
import type { RequestStateOptions } from "./input-required.js";
import { Subscriptions } from "./subscriptions.js";
import { missingUiResourceMessage, uiResourceParts } from "./apps.js";
import type { UiResourceHtml, UiResourceOptions } from "./apps.js";
import { decodeSession, installSessionHook } from "./session.js";
import type { QuickPromptOptions, QuickResourceOptions } from "./resource-decorators.js";
import type { CallToolResult, LogLevel, RequestContext } from "./types.js";

/** The MCP Apps extension id (spec §9). */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";

/** The revision assumed for a 2025-era HTTP request without `MCP-Protocol-Version` (as the SDK and the MCP spec do). */
const DEFAULT_HTTP_REVISION = "2025-03-26";

/** Options of {@link McpServer} (spec §0). */
export interface McpServerOptions {
  /** `serverInfo.name` sent to clients. */
  name: string;
  /** `serverInfo.version` sent to clients. */
  version: string;
  /** `serverInfo.title`: a human-readable name. */
  title?: string;
  /** `instructions` sent in the `initialize` / `server/discover` result. */
  instructions?: string;
  /**
   * Longest time a tool call may run, in milliseconds (a positive finite number). When it
   * elapses the tool's `AbortSignal` is aborted (reason: a `TimeoutError` `DOMException`) and the
   * call answers `isError` with text `The tool timed out.` at once (spec §7). Unset: no limit.
   */
  requestTimeoutMs?: number;
  /**
   * Called with every exception a tool (or its generated reader/writer) throws other than a
   * {@link ToolError} — the client only sees `The tool failed.` (spec §7). `tool` is the tool
   * name. Whatever it returns or throws does not change the answer.
   */
  onToolError?: (error: unknown, info: { tool: string }) => void;
  /**
   * How the 2026-07-28 `input_required` flow seals its `requestState` (HMAC key, lifetime): see
   * {@link RequestStateOptions} and docs/runtime.md, RequestContext. Default: a random key per
   * `McpServer` (one process serves every round of a call), 600 s.
   * @throws RangeError (from the constructor) when `key` is shorter than 32 bytes.
   */
  requestState?: RequestStateOptions;
}

/** Options of `server.fetch(request, options)`. */
export interface FetchOptions {
  /** Validated authentication information, passed through to `RequestContext.authInfo` (never derived from headers). */
  authInfo?: AuthInfo;
  /** A body already parsed by a framework (e.g. `req.body` of `express.json()`). */
  parsedBody?: unknown;
}

/** One registered tool. */
interface ToolEntry {
  readonly name: string;
  readonly descriptor: GeneratedTool;
  readonly fn: (...args: unknown[]) => unknown;
  readonly thisArg: unknown;
  /** Where it was registered, for error messages: `Orders.placeOrderAsync`, `server.tool("x")`. */
  readonly origin: string;
  /** Listed only to clients that negotiated MCP Apps (visibility is `["app"]`). */
  readonly appOnly: boolean;
}

/** What a request's client may see: the shape of listings and results (spec §6, §9). */
interface ClientView {
  readonly protocolVersion: string;
  /** outputSchema / structuredContent exist from 2025-06-18 on. */
  readonly structured: boolean;
  /** annotations exist from 2025-03-26 on. */
  readonly annotations: boolean;
  /** The client negotiated the MCP Apps extension. */
  readonly apps: boolean;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;
}

/** Symbol under which {@link McpServer} exposes its SDK server factory to `typed-mcp/stdio` and `typed-mcp/node`. */
export const SDK_FACTORY: unique symbol = Symbol("typed-mcp.sdkFactory") as never;

const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * An MCP server whose tools are typed TypeScript functions compiled by the typed-mcp build plugin
 * (spec §0).
 *
 * ```ts
 * const server = new McpServer({ name: "orders", version: "1.0.0" });
 * server.addTools(new Orders());
 * export default { fetch: server.fetch };      // Workers, Deno, Bun
 * // or: serveStdio(server) from "typed-mcp/stdio", serveHttp(server, { port }) from "typed-mcp/node"
 * ```
 *
 * Registration methods throw on a duplicate name (naming both registrations) and on
 * descriptors the plugin did not produce. Every connection (stdio) or HTTP request gets its own
 * SDK `Server` instance built from the same registry, so registering after serving starts is seen
 * by later connections and requests.
 */
export class McpServer {
  readonly #info: Implementation;
  readonly #options: McpServerOptions;
  readonly #tools = new Map<string, ToolEntry>();
  /** Memoized `tools` arrays per client view (key: structured|annotations|apps). */
  #listCache = new Map<string, ToolListing[]>();
  #hasUi = false;
  /** Whether the tools' `uiResource`s were checked against the registered resources since the last registration. */
  #uiChecked = false;
  /** `tool uri` pairs already warned about (each is reported once per server). */
  readonly #uiWarned = new Set<string>();
  #handler: McpHttpHandler | undefined;
  /** Seals and verifies the 2026-07-28 `requestState` (input-required.ts); made when serving starts (Workers forbid random values at global scope). */
  #requestStateCodec: ReturnType<typeof requestStateCodec> | undefined;
  /** Resources, templates and prompts (spec §8). */
  /** Resource subscriptions of live connections (docs/resources.md "Subscriptions"). */
  readonly #subscriptions = new Subscriptions();
  readonly #resources = new ResourceRegistry((name, error) => {
    if (isInputRequiredSignal(error)) return; // 2026-07-28: answered input_required, not a failure
    publishToolError(name, error);
    this.#options.onToolError?.(error, { tool: name });
  });

  /**
   * @param options Server identity and behaviour, see {@link McpServerOptions}.
   * @throws RangeError when `requestTimeoutMs` is given and is not a positive finite number, or
   *   `requestState.key` is shorter than 32 bytes or `requestState.ttlSeconds` is not a positive number.
   */
  constructor(options: McpServerOptions) {
    const { requestTimeoutMs } = options;
    if (requestTimeoutMs !== undefined && !(Number.isFinite(requestTimeoutMs) && requestTimeoutMs > 0)) {
      throw new RangeError(`requestTimeoutMs must be a positive number of milliseconds, got ${String(requestTimeoutMs)}`);
    }
    this.#options = { ...options };
    checkRequestStateOptions(options.requestState);
    this.#info = {
      name: options.name,
      version: options.version,
      ...(options.title !== undefined && { title: options.title }),
    };
  }

  /**
   * Web-standard Streamable HTTP handler (spec §0): serves 2026-07-28 clients and, statelessly,
   * 2025-era clients (the SDK's `createMcpHandler`). A bound property, so
   * `export default { fetch: server.fetch }` works. MCP is served on every path and method the
   * SDK handles; put Origin/Host validation and routing in front of it when exposed publicly.
   *
   * @param request The HTTP request.
   * @param options `authInfo` passed through to tools as `RequestContext.authInfo`; `parsedBody`.
   * @returns The HTTP response (JSON, or an SSE stream when the call sends progress or logs).
   */
  readonly fetch = (request: Request, options?: FetchOptions): Promise<Response> => {
    this.#handler ??= createMcpHandler((ctx) => this[SDK_FACTORY](ctx));
    return this.#handler.fetch(request, options);
  };

  /**
   * Registers the typed-mcp tools of `target` (spec §0, §1 generator path): for an instance, the
   * decorated instance methods of its class and its base classes; for a class, its decorated
   * static methods (and those of its base classes). The methods are called with `this` = `target`.
   *
   * @returns this server, for chaining.
   * @throws Error when `target` has no typed-mcp tools (the plugin was not applied, or nothing is
   *   decorated), when a method is missing, or when a name is already registered (naming both).
   */
  addTools(target: object): this {
    const found = collect(target);
    if (found.length === 0) throw new Error(noMembersMessage(target, "@tool()"));
    this.#registerAll(found.map((d) => this.#entryFor(target, d)));
    return this;
  }

  /**
   * Registers everything typed-mcp finds on `target`: its tools (as {@link addTools}), resources
   * (as {@link addResources}) and prompts (as {@link addPrompts}) (spec §0, §8). Nothing is
   * registered when any part fails.
   *
   * @returns this server, for chaining.
   * @throws Error when `target` has nothing to register, or on a duplicate name or URI.
   */
  add(target: object): this {
    const tools = collect(target);
    const pending = this.#resources.prepare(target, { resources: true, prompts: true });
    if (tools.length === 0 && pending.resources.length === 0 && pending.prompts.length === 0) {
      throw new Error(noMembersMessage(target, "@tool(), @resource() or @prompt()"));
    }
    if (tools.length > 0) this.#registerAll(tools.map((d) => this.#entryFor(target, d)));
    this.#resources.commit(pending);
    return this;
  }

  /**
   * Registers the `@resource()` methods of `target` (spec §8): instance methods for an instance,
   * static ones for a class. Fixed URIs are listed in `resources/list`, templates in
   * `resources/templates/list`.
   *
   * @returns this server, for chaining.
   * @throws Error when `target` has no compiled resources (the plugin hint), or on a duplicate URI (naming both).
   */
  addResources(target: object): this {
    const pending = this.#resources.prepare(target, { resources: true, prompts: false });
    if (pending.resources.length === 0) throw new Error(noMembersMessage(target, "@resource()"));
    this.#resources.commit(pending);
    return this;
  }

  /**
   * Registers the `@prompt()` methods of `target` (spec §8): instance methods for an instance,
   * static ones for a class.
   *
   * @returns this server, for chaining.
   * @throws Error when `target` has no compiled prompts (the plugin hint), or on a duplicate name (naming both).
   */
  addPrompts(target: object): this {
    const pending = this.#resources.prepare(target, { resources: false, prompts: true });
    if (pending.prompts.length === 0) throw new Error(noMembersMessage(target, "@prompt()"));
    this.#resources.commit(pending);
    return this;
  }

  /**
   * Quick path (spec §8): registers `fn` as the resource at `uriOrTemplate` (a fixed URI or an
   * RFC 6570 template whose variables are `fn`'s parameters). The build plugin appends the
   * generated descriptor; `options` are read at build time.
   *
   * @returns this server, for chaining.
   * @throws Error when the plugin did not transform the call (the message says to add it), or on a duplicate URI.
   */
  resource(uriOrTemplate: string, fn: Function): this;
  resource(uriOrTemplate: string, options: QuickResourceOptions, fn: Function): this;
  resource(uriOrTemplate: string, ...rest: unknown[]): this {
    const descriptor = rest[rest.length - 1];
    const fn = rest.length >= 2 ? rest[rest.length - 2] : undefined;
    this.#resources.commit(this.#resources.prepareQuick("resource", uriOrTemplate, descriptor, fn));
    return this;
  }

  /**
   * Quick path (spec §8): registers `fn` as the prompt `name`; its parameters become the
   * prompt's arguments. The build plugin appends the generated descriptor.
   *
   * @returns this server, for chaining.
   * @throws Error when the plugin did not transform the call (the message says to add it), or on a duplicate name.
   */
  prompt(name: string, fn: Function): this;
  prompt(name: string, options: QuickPromptOptions, fn: Function): this;
  prompt(name: string, ...rest: unknown[]): this {
    const descriptor = rest[rest.length - 1];
    const fn = rest.length >= 2 ? rest[rest.length - 2] : undefined;
    this.#resources.commit(this.#resources.prepareQuick("prompt", name, descriptor, fn));
    return this;
  }

  /**
   * Announces that the resource at `uri` changed (MCP spec, resources "Subscriptions"): sends
   * `notifications/resources/updated` `{ uri }` to every client that subscribed to exactly `uri`
   * and has a channel to receive it (docs/resources.md "Subscriptions"):
   *
   * - stdio, 2025-era: connections that sent `resources/subscribe` for `uri` (and not
   *   `resources/unsubscribe` since);
   * - stdio and HTTP, 2026-07-28: open `subscriptions/listen` streams whose
   *   `resourceSubscriptions` contain `uri` (the SDK's listen routers; `server.fetch`'s handler's
   *   `notify.resourceUpdated`);
   * - stateless 2025-era HTTP: nobody — each request is served by a fresh instance and there is
   *   no stream to deliver on (`resources/subscribe` is answered `{}` and forgotten).
   *
   * `uri` is not checked against the registered resources (a template-matching URI is announced
   * as is). Delivery failures of one connection are ignored.
   *
   * @param uri The resource URI, exactly as clients subscribed to it.
   * @returns A promise settled when the notifications were handed to the transports.
   */
  async resourceUpdated(uri: string): Promise<void> {
    this.#handler?.notify.resourceUpdated(uri);
    await this.#subscriptions.resourceUpdated(uri);
  }

  /**
   * Registers an MCP Apps view (spec §9): the resource `uri` with MIME type
   * `text/html;profile=mcp-app`, listed in `resources/list` (key order `uri, name, title,
   * description, mimeType, _meta`, spec §8) and read by `resources/read` as
   * `{ contents: [{ uri, mimeType, text, _meta? }] }`. Tools point at it with
   * `@tool({ uiResource: uri })`. Unlike tools, the resource is listed to every client, whether
   * or not it negotiated MCP Apps (docs/apps.md).
   *
   * @param uri A `ui://` URI, e.g. `ui://weather/view`.
   * @param html The view: one self-contained HTML document, or a function returning it (sync or
   *   async; called on every read; a failure or a non-string is `-32603 The resource failed.`).
   * @param options `name` (default: the URI), `title`, `description`, `_meta` (e.g.
   *   `{ ui: { csp: { connectDomains: [...] }, prefersBorder: true } }`, MCP Apps `UIResourceMeta`).
   * @returns this server, for chaining.
   * @throws Error when `uri` does not start with `ui://` (naming it) or is already registered
   *   (naming both registrations); TypeError when `html` or an option has the wrong type.
   */
  addUiResource(uri: `ui://${string}`, html: UiResourceHtml, options?: UiResourceOptions): this {
    const { descriptor, fn } = uiResourceParts(uri, html, options);
    const branded = Object.assign(descriptor, { [GENERATED]: true as const });
    this.#resources.commit(this.#resources.prepareQuick("resource", uri, branded, fn, `server.addUiResource(${JSON.stringify(uri)})`));
    this.#uiChecked = false;
    return this;
  }

  /**
   * Quick path (spec §1): registers `fn` as the tool `name`. The build plugin reads `fn`'s types
   * and appends the generated descriptor as one more argument; `options` are read at build time.
   *
   * @param name The tool name (1 to 128 of `A–Z a–z 0–9 _ - .`).
   * @param fn An arrow function, function expression, or a name bound to a function; called with
   *   `this` = `undefined`.
   * @returns this server, for chaining.
   * @throws Error when the plugin did not transform the call (the message says to add it), or when
   *   the name is already registered (naming both registrations).
   */
  tool(name: string, fn: Function): this;
  tool(name: string, options: QuickToolOptions, fn: Function): this;
  tool(name: string, ...rest: unknown[]): this {
    const descriptor = rest[rest.length - 1];
    const fn = rest.length >= 2 ? rest[rest.length - 2] : undefined;
    if (!isGenerated(descriptor) || typeof fn !== "function") {
      throw new Error(pluginMissingMessage(`server.tool(${JSON.stringify(name)}, …)`));
    }
    this.#registerAll([
      makeEntry(descriptor, fn as (...args: unknown[]) => unknown, undefined, `server.tool(${JSON.stringify(descriptor.listing.name)})`),
    ]);
    return this;
  }

  #entryFor(target: object, d: GeneratedTool): ToolEntry {
    const member = d.member;
    const owner = typeof target === "function" ? target.name || "(anonymous class)" : target.constructor?.name || "(object)";
    const origin = `${d.static ? "static " : ""}${owner}.${member ?? "?"}`;
    const fn = member === undefined ? undefined : (target as Record<string, unknown>)[member];
    if (typeof fn !== "function") {
      throw new Error(`typed-mcp: tool ${JSON.stringify(d.listing.name)} refers to method ${origin}, which is not a function on the registered object.`);
    }
    return makeEntry(d, fn as (...args: unknown[]) => unknown, target, origin);
  }

  #registerAll(entries: ToolEntry[]): void {
    // Check everything first so a failing call registers nothing.
    const seen = new Map<string, ToolEntry>();
    for (const entry of entries) {
      const other = this.#tools.get(entry.name) ?? seen.get(entry.name);
      if (other !== undefined) {
        throw new Error(`typed-mcp: two tools are named ${JSON.stringify(entry.name)} on this server: ${other.origin} and ${entry.origin}. Tool names must be unique.`);
      }
      seen.set(entry.name, entry);
    }
    for (const entry of entries) {
      this.#tools.set(entry.name, entry);
      if (entry.descriptor.listing._meta?.ui !== undefined) this.#hasUi = true;
    }
    this.#listCache = new Map();
    this.#uiChecked = false;
  }

  /** The capabilities advertised to clients. */
  #capabilities(): ServerCapabilities {
    return {
      tools: {},
      logging: {},
      ...(this.#resources.hasResources && { resources: { subscribe: true } }),
      ...(this.#resources.hasPrompts && { prompts: {} }),
      ...(this.#resources.hasCompletions && { completions: {} }),
      ...(this.#hasUi && { extensions: { [UI_EXTENSION]: {} } }),
    };
  }

  /**
   * Builds one SDK `Server` answering from this registry: used per HTTP request by
   * {@link McpServer.fetch} and per connection by `serveStdio`. Not public API.
   * @internal
   */
  [SDK_FACTORY](ctx?: McpRequestContext): Server {
    if (!this.#uiChecked) this.#checkUiResources();
    const codec = (this.#requestStateCodec ??= requestStateCodec(this.#options.requestState));
    const sdk = new Server(this.#info, {
      capabilities: this.#capabilities(),
      ...(this.#options.instructions !== undefined && { instructions: this.#options.instructions }),
      requestState: { verify: codec.verify },
    });
    // 2026-07-28: RequestContext.elicit/sample/listRoots end the call with input_required (input-required.ts).
    installInputRequired(sdk, codec, (ctx) => viewOf(sdk, ctx).protocolVersion);
    sdk.setRequestHandler("tools/list", (_request, ctx) => ({ tools: this.#list(viewOf(sdk, ctx)) as never }));
    sdk.setRequestHandler("tools/call", (request, ctx) => this.#call(sdk, request.params, ctx));
    // An instance built for an HTTP request gets the request (`requestInfo`); stdio's lasting connection does not.
    const connection = (ctx as { requestInfo?: unknown } | undefined)?.requestInfo === undefined;
    this.#resources.install(
      sdk,
      (ctx) => {
        const view = viewOf(sdk, ctx);
        return { protocolVersion: view.protocolVersion, context: requestContext(sdk, ctx, view, ctx.mcpReq.signal) };
      },
      { hub: this.#subscriptions, connection },
    );
    // A stateless 2025-era HTTP request: answer `initialize` with an Mcp-Session-Id carrying what was negotiated (session.ts).
    // (The SDK's HTTP legacy fallback passes era "legacy" with the HTTP request; stdio passes no request.)
    const factoryCtx = ctx as { era?: string; requestInfo?: unknown } | undefined;
    if (factoryCtx?.era === "legacy" && factoryCtx.requestInfo instanceof Request) installSessionHook(sdk, UI_EXTENSION);
    return sdk;
  }

  /**
   * Spec §9 / MCP Apps "Resource MUST exist on the server": warns once (console.warn, i.e. stderr)
   * about each tool whose `uiResource` names no registered resource. Run when serving starts
   * and again after any registration; a warning, not an error, because tools and resources may be
   * registered in any order and after serving started (docs/apps.md).
   */
  #checkUiResources(): void {
    this.#uiChecked = true;
    for (const entry of this.#tools.values()) {
      const resourceUri = entry.descriptor.listing._meta?.ui?.resourceUri;
      if (resourceUri === undefined || this.#resources.hasResource(resourceUri)) continue;
      const key = `${entry.name} ${resourceUri}`;
      if (this.#uiWarned.has(key)) continue;
      this.#uiWarned.add(key);
      console.warn(missingUiResourceMessage({ tool: entry.name, resourceUri }));
    }
  }

  /** The listing for a client view (spec §1, §6 last paragraph, §9). */
  #list(view: ClientView): ToolListing[] {
    const key = `${+view.structured}${+view.annotations}${+view.apps}`;
    let tools = this.#listCache.get(key);
    if (tools === undefined) {
      tools = [];
      for (const entry of this.#tools.values()) {
        if (entry.appOnly && !view.apps) continue;
        tools.push(shapeListing(entry.descriptor.listing, view));
      }
      this.#listCache.set(key, tools);
    }
    return tools;
  }

  async #call(
    sdk: Server,
    params: { name: string; arguments?: Record<string, unknown> | undefined },
    ctx: ServerContext,
  ): Promise<CallToolResult> {
    const entry = this.#tools.get(params.name);
    if (entry === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${params.name} not found`);
    const view = viewOf(sdk, ctx);

    const controller = new AbortController();
    const upstream = ctx.mcpReq.signal;
    const onUpstreamAbort = (): void => controller.abort(upstream.reason);
    if (upstream.aborted) onUpstreamAbort();
    else upstream.addEventListener("abort", onUpstreamAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;

    try {
      const rc = requestContext(sdk, ctx, view, controller.signal);
      let args: unknown[] | string;
      try {
        args = entry.descriptor.read(params.arguments, rc);
      } catch (error) {
        return this.#failed(entry.name, error);
      }
      if (typeof args === "string") return errorResult(`Argument '${args}' is not valid.`);

      let pending: Promise<unknown>;
      try {
        pending = Promise.resolve(entry.fn.apply(entry.thisArg, args));
      } catch (error) {
        pending = Promise.reject(error);
      }
      let value: unknown;
      try {
        const timeoutMs = this.#options.requestTimeoutMs;
        value =
          timeoutMs === undefined
            ? await pending
            : await Promise.race([
                pending,
                new Promise<typeof TIMED_OUT>((resolve) => {
                  timer = setTimeout(resolve, timeoutMs, TIMED_OUT);
                }),
              ]);
        if (value === TIMED_OUT) {
          pending.catch(() => {});
          controller.abort(new DOMException("The tool timed out.", "TimeoutError"));
          return errorResult("The tool timed out.");
        }
      } catch (error) {
        // 2026-07-28: a pending input request; answered input_required by installInputRequired.
        if (isInputRequiredSignal(error)) throw error;
        // 2026-07-28 (SEP-2575): a request the client lacks a capability for is a protocol error
        // (-32021, HTTP 400), not a tool failure; RequestContext raises it (missingCapability).
        if (isMissingCapability(error) && view.protocolVersion >= MISSING_CAPABILITY_REVISION) throw error;
        if (isToolError(error)) return errorResult(error.message);
        // Cancelled by the client: the SDK sends nothing for an aborted request.
        if (upstream.aborted) return errorResult("The tool failed.");
        return this.#failed(entry.name, error);
      }

      let result: CallToolResult;
      try {
        result = entry.descriptor.write(value);
      } catch (error) {
        return this.#failed(entry.name, error);
      }
      return view.structured || result.structuredContent === undefined ? result : omit(result, "structuredContent");
    } finally {
      clearTimeout(timer);
      upstream.removeEventListener("abort", onUpstreamAbort);
    }
  }

  /** Spec §7: any exception other than ToolError → `The tool failed.`, published and reported, never sent. */
  #failed(tool: string, error: unknown): CallToolResult {
    publishToolError(tool, error);
    const onToolError = this.#options.onToolError;
    if (onToolError !== undefined) {
      try {
        onToolError(error, { tool });
      } catch {
        // The answer stays the same whatever the callback does.
      }
    }
    return errorResult("The tool failed.");
  }
}

function makeEntry(descriptor: GeneratedTool, fn: (...args: unknown[]) => unknown, thisArg: unknown, origin: string): ToolEntry {
  const visibility = descriptor.listing._meta?.ui?.visibility;
  return {
    name: descriptor.listing.name,
    descriptor,
    fn,
    thisArg,
    origin,
    appOnly: visibility !== undefined && visibility.includes("app") && !visibility.includes("model"),
  };
}

/**
 * The descriptors of `target`'s tools: for a class, its static ones and those of its base
 * classes; for an instance, the instance ones of its class chain. A member overridden in a
 * subclass is taken from the most derived class that declares it as a tool.
 */
function collect(target: object): GeneratedTool[] {
  const wantStatic = typeof target === "function";
  const out: GeneratedTool[] = [];
  const members = new Set<string>();
  let ctor: unknown = wantStatic ? target : Object.getPrototypeOf(target)?.constructor;
  const visited = new Set<unknown>();
  while (typeof ctor === "function" && ctor !== Function.prototype && !visited.has(ctor)) {
    visited.add(ctor);
    if (Object.prototype.hasOwnProperty.call(ctor, TOOLS)) {
      for (const d of (ctor as unknown as Record<symbol, GeneratedTool[]>)[TOOLS] ?? []) {
        if (!!d.static !== wantStatic) continue;
        const member = d.member ?? d.listing.name;
        if (members.has(member)) continue;
        members.add(member);
        out.push(d);
      }
    }
    ctor = Object.getPrototypeOf(ctor);
  }
  return out;
}

function noMembersMessage(target: object, what: string): string {
  const name = typeof target === "function" ? `class ${target.name || "(anonymous)"}` : `this ${target.constructor?.name ?? "object"} instance`;
  const kind = typeof target === "function" ? "static" : "instance";
  return (
    `typed-mcp: ${name} has no ${kind} ${what} members to register. ` +
    `If it has decorated methods, the build plugin did not compile them: ${pluginMissingMessage("this code")}`
  );
}

function isToolError(error: unknown): error is ToolError {
  // The brand also recognizes a ToolError from a second copy of typed-mcp in the same process.
  return error instanceof ToolError || (typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[TOOL_ERROR_BRAND] === true);
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A copy of `value` without `key`, other keys in their order. */
function omit<T extends object>(value: T, key: string): T {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) if (k !== key) out[k] = (value as Record<string, unknown>)[k];
  return out as T;
}

/** A listing shaped for a client (spec §6 last paragraph, §9), key order kept. */
function shapeListing(listing: ToolListing, view: ClientView): ToolListing {
  if (view.structured && view.annotations && view.apps) return listing;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(listing)) {
    const value = (listing as unknown as Record<string, unknown>)[key];
    if (key === "outputSchema" && !view.structured) continue;
    if (key === "annotations" && !view.annotations) continue;
    if (key === "_meta" && !view.apps) {
      const meta = omit(value as Record<string, unknown>, "ui");
      if (Object.keys(meta).length > 0) out[key] = meta;
      continue;
    }
    out[key] = value;
  }
  return out as unknown as ToolListing;
}

/** What the client of this request negotiated. */
function viewOf(sdk: Server, ctx: ServerContext): ClientView {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = envelope?.[PROTOCOL_VERSION_META_KEY];
  const negotiated = sdk.getNegotiatedProtocolVersion();
  // A stateless 2025-era HTTP request: what its `initialize` negotiated travels in Mcp-Session-Id (session.ts).
  const session = typeof fromEnvelope !== "string" && negotiated === undefined ? decodeSession(ctx.http?.req?.headers.get("mcp-session-id")) : undefined;
  const protocolVersion =
    (typeof fromEnvelope === "string" ? fromEnvelope : undefined) ??
    negotiated ??
    session?.protocolVersion ??
    ctx.http?.req?.headers.get("mcp-protocol-version") ??
    DEFAULT_HTTP_REVISION;
  const clientCapabilities =
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? sdk.getClientCapabilities() ?? session?.clientCapabilities;
  const clientInfo = (envelope?.[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? sdk.getClientVersion() ?? session?.clientInfo;
  const extensions = (clientCapabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return {
    protocolVersion,
    structured: protocolVersion >= "2025-06-18",
    annotations: protocolVersion >= "2025-03-26",
    apps: extensions !== undefined && extensions !== null && typeof extensions === "object" && Object.prototype.hasOwnProperty.call(extensions, UI_EXTENSION),
    clientInfo,
    clientCapabilities,
  };
}

/** The tool's {@link RequestContext} (spec §0). */
function requestContext(sdk: Server, ctx: ServerContext, view: ClientView, signal: AbortSignal): RequestContext {
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const progressToken = meta?.["progressToken"] as string | number | undefined;
  const related = { relatedRequestId: ctx.mcpReq.id };
  // 2026-07-28: no server→client requests; answers come from the retry, else input_required.
  const round = inputRoundOf(ctx);
  return {
    signal,
    requestId: ctx.mcpReq.id,
    protocolVersion: view.protocolVersion,
    clientInfo: view.clientInfo,
    clientCapabilities: view.clientCapabilities,
    authInfo: ctx.http?.authInfo,
    meta,
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
    elicit: (params, options) =>
      missingCapability(view, "elicitation") ?? round?.elicit(params, options) ?? sdk.elicitInput(params, { ...related, signal }),
    sample: (params, options) =>
      missingCapability(view, "sampling") ?? round?.sample(params, options) ?? sdk.createMessage(params, { ...related, signal }),
    listRoots: (options) => missingCapability(view, "roots") ?? round?.listRoots(options) ?? sdk.listRoots(undefined, { ...related, signal }),
  };
}

/** The first revision with MissingRequiredClientCapabilityError (-32021, SEP-2575). */
const MISSING_CAPABILITY_REVISION = "2026-07-28";

/**
 * From 2026-07-28 (SEP-2575): a rejected promise of the SDK's `MissingRequiredClientCapabilityError`
 * (-32021, `data.requiredCapabilities = { [capability]: {} }`) when the request's declared client
 * capabilities lack `capability`; `undefined` otherwise (earlier revisions: the SDK decides).
 */
function missingCapability(view: ClientView, capability: "elicitation" | "sampling" | "roots"): Promise<never> | undefined {
  if (view.protocolVersion < MISSING_CAPABILITY_REVISION) return undefined;
  const declared = view.clientCapabilities as Record<string, unknown> | undefined;
  if (declared !== undefined && declared !== null && declared[capability] !== undefined && declared[capability] !== null) return undefined;
  return Promise.reject(new MissingRequiredClientCapabilityError({ requiredCapabilities: { [capability]: {} } }));
}

function isMissingCapability(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === ProtocolErrorCode.MissingRequiredClientCapability;
}
