/**
 * `McpServer`: the typed-mcp server (spec §0). The protocol (JSON-RPC, lifecycle, revisions,
 * transports) is the official SDK's low-level `Server`; typed-mcp answers `tools/list` and
 * `tools/call` itself so that listings and texts are exactly those of the spec.
 *
 * This class only holds the parts and wires them together (docs/runtime.md "Module layout"): the
 * registry (registry.ts), its options and their checks (server/options.ts), the HTTP entry
 * (fetch-entry.ts), and the SDK server factory (sdk-server.ts) that installs the handlers.
 *
 * @packageDocumentation
 */
import { createMcpHandler } from "@modelcontextprotocol/server";
import type { McpHttpHandler, McpRequestContext, Server } from "@modelcontextprotocol/server";
import type { UiResourceHtml, UiResourceOptions } from "./server/apps.js";
import type { CompletionHook, TemplateVariables } from "./resources/completion.js";
import type { QuickToolOptions } from "./decorators.js";
import { PromptHandle, ResourceHandle, ToolHandle, type Fn } from "./server/handles.js";
import type { GeneratedPrompt, GeneratedResource } from "./codegen-support/resource-descriptors.js";
import { serveRequest } from "./transports/fetch-entry.js";
import type { FetchOptions } from "./transports/fetch-entry.js";
import { requestStateCodec } from "./calls/input-required.js";
import { originRefusal } from "./transports/origin.js";
import { withCors } from "./transports/cors.js";
import type { QuickPromptOptions, QuickResourceOptions } from "./resource-decorators.js";
import { buildSdkServer, type ServerParts } from "./server/sdk-server.js";
import { wireServer, type ServerState } from "./server/wiring.js";
import { checkServerOptions, type McpServerOptions } from "./server/options.js";
import type { ListenStreams, StreamLimits } from "./streams/listen-streams.js";
import type { LogLevel } from "./types.js";
import { chainOf, type Middleware } from "./calls/middleware.js";
import { INSTRUMENT, type Instrumentation } from "./calls/instrumentation.js";

/** The options of {@link McpServer} (server/options.ts) and of {@link McpServer.fetch} (fetch-entry.ts), exported here as before. */
export type { McpServerOptions, FetchOptions };

/** Symbol under which {@link McpServer} exposes its SDK server factory to `typed-mcp/stdio` and `typed-mcp/node`. */
export const SDK_FACTORY: unique symbol = Symbol("typed-mcp.sdkFactory") as never;
/** The key of {@link McpServer}'s listen streams (streams/listen-streams.ts), for `serveStdio`. */
export const LISTEN_STREAMS: unique symbol = Symbol("typed-mcp.listenStreams") as never;

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
  /** What the server keeps between requests (server/wiring.ts). */
  readonly #state: ServerState;
  #handler: McpHttpHandler | undefined;
  /** Seals and verifies the 2026-07-28 `requestState` (input-required.ts); made when serving starts (Workers forbid random values at global scope). */
  #requestStateCodec: ReturnType<typeof requestStateCodec> | undefined;
  /** What {@link buildSdkServer} is given, made again only when its codec or instrumentation changed (the state's fields are read-only). */
  #parts: ServerParts | undefined;
  /** The HTTP body limit in bytes, {@link McpServerOptions.maxRequestBodySize} or its default (read by `serveHttp`). */
  readonly maxRequestBodySize: number;
  /** `use`'s middleware in registration order, `typed-mcp/otel`'s instrumentation, and the chain of both (calls/middleware.ts). */
  readonly #chain: Middleware[] = [];
  #instrumentation: Instrumentation | undefined;
  readonly #chained = chainOf(() => this.#instrumentation, this.#chain);
  /** The `streams` option with its defaults (streams/listen-streams.ts; docs/security.md "Limits"), read by `serveHttp` (`writeTimeoutMs`) and `serveStdio`. */
  readonly streamLimits: StreamLimits;

  /**
   * @param options Server identity and behaviour, see {@link McpServerOptions}.
   * @throws RangeError when `requestTimeoutMs` or `maxRequestBodySize` is given and is not a
   *   positive finite number, `maxArgumentDepth`, `maxArgumentValues` or `pageSize` not a positive integer, or
   *   `requestState.key` is shorter than 32 bytes or `requestState.ttlSeconds` is not a positive number.
   */
  constructor(options: McpServerOptions) {
    const limits = checkServerOptions(options);
    this.maxRequestBodySize = limits.maxRequestBodySize;
    this.streamLimits = limits.streams;
    this.#state = wireServer({ ...options }, limits, {
      chain: this.#chained,
      resourceUpdatedHere: (uri) => this.#resourceUpdatedHere(uri),
    });
  }

  /**
   * Web-standard Streamable HTTP handler (spec §0): serves 2026-07-28 clients and, statelessly,
   * 2025-era clients (the SDK's `createMcpHandler`). A bound property, so
   * `export default { fetch: server.fetch }` works. MCP is served on every path and method the
   * SDK handles. A request whose `Origin` is not allowed (`McpServerOptions.allowedOrigins`;
   * default same host) is answered HTTP 403 first (origin.ts); put Host validation and routing in
   * front of it when it serves a local address.
   * With the `auth` option the OAuth gate answers first (auth.ts: metadata, 401, 403, 503).
   *
   * @param request The HTTP request.
   * @param options `authInfo` passed through to tools as `RequestContext.authInfo` (without `auth`); `parsedBody`;
   *   `cors` (transports/cors.ts: preflights, exposed MCP headers, origins allowed past the Origin check).
   * @returns The HTTP response (JSON, or an SSE stream when the call sends progress or logs).
   */
  readonly fetch = (request: Request, options?: FetchOptions): Promise<Response> =>
    // CORS first (cors.ts): a preflight is answered there, an origin it allows is one the Origin check allows.
    withCors(request, options?.cors, (checkOrigin) => {
      // Origin next, on every runtime (Streamable HTTP "Security Warning"; origin.ts).
      const refused = checkOrigin ? originRefusal(request, this.#state.origins) : undefined;
      if (refused !== undefined) return Promise.resolve(refused);
      if (this.#state.auth === undefined) return this.#serve(request, options);
      return this.#state.auth.handle(
        request,
        (r, verified) => this.#serve(r, { ...options, ...verified }),
        this.maxRequestBodySize,
      );
    });

  /**
   * Hands `request` to the SDK's handler, its JSON body read ahead as `parsedBody` unless given
   * (request-body.ts); a JSON-RPC batch on a revision without batches is answered HTTP 400 `-32600` first (`refuseBatch`),
   * and so is a message nested deeper than limits.ts `MAX_MESSAGE_DEPTH` (`refuseDeep`).
   */
  #serve(request: Request, options: FetchOptions | undefined): Promise<Response> {
    if (this.#state.shared?.started === false) this.#state.shared.ready().catch(() => {}); // the first request starts the store's part
    const handler =
      (this.#state.lists.handler =
      this.#handler ??=
        createMcpHandler((ctx) => this[SDK_FACTORY](ctx), {
          maxRequestBodySize: this.maxRequestBodySize,
          maxSubscriptions: this.#state.listen.limits.maxListenStreams,
        }));
    return serveRequest(request, options, handler, this.#state.listen, this.maxRequestBodySize, this.#state.shared);
  }

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
    this.#state.registry.addTools(target);
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
    this.#state.registry.add(target);
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
    this.#state.registry.addResourcesOrPrompts(target, "resources");
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
    this.#state.registry.addResourcesOrPrompts(target, "prompts");
    return this;
  }

  /**
   * Quick path (spec §8): registers `fn` as the resource at `uriOrTemplate` (a fixed URI or an
   * RFC 6570 template whose variables are `fn`'s parameters). The build plugin appends the
   * generated descriptor; `options` are read at build time.
   *
   * @returns The resource's {@link ResourceHandle} (`client.read(handle, …)` of `typed-mcp/testing`).
   * @throws Error when the plugin did not transform the call (the message says to add it), or on a duplicate URI.
   */
  resource<F extends Fn>(uriOrTemplate: string, fn: F): ResourceHandle<F>;
  resource<F extends Fn>(uriOrTemplate: string, options: QuickResourceOptions, fn: F): ResourceHandle<F>;
  resource(uriOrTemplate: string, ...rest: unknown[]): ResourceHandle {
    return new ResourceHandle(this.#state.registry.addQuick("resource", uriOrTemplate, rest) as GeneratedResource);
  }

  /**
   * Quick path (spec §8): registers `fn` as the prompt `name`; its parameters become the
   * prompt's arguments. The build plugin appends the generated descriptor.
   *
   * @returns The prompt's {@link PromptHandle} (`client.prompt(handle, …)` of `typed-mcp/testing`).
   * @throws Error when the plugin did not transform the call (the message says to add it), or on a duplicate name.
   */
  prompt<F extends Fn>(name: string, fn: F): PromptHandle<F>;
  prompt<F extends Fn>(name: string, options: QuickPromptOptions, fn: F): PromptHandle<F>;
  prompt(name: string, ...rest: unknown[]): PromptHandle {
    return new PromptHandle(this.#state.registry.addQuick("prompt", name, rest) as GeneratedPrompt);
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
    await this.#state.fanOut.resourceUpdated(uri);
  }

  /** {@link resourceUpdated} on this instance only (what the fan-out delivers from other instances). */
  async #resourceUpdatedHere(uri: string): Promise<void> {
    this.#handler?.notify.resourceUpdated(uri);
    await this.#state.subscriptions.resourceUpdated(uri);
  }

  /** With `store`: resolves once this instance heartbeats and listens (docs/scaling.md); serve after it. Rejects with the store's error. */
  storeReady(): Promise<void> {
    return this.#state.shared?.ready() ?? Promise.resolve();
  }

  /** The URIs lasting 2025-era (stdio) connections subscribed to, each once (docs/resources.md "Subscriptions"). */
  subscribedUris(): string[] {
    return this.#state.subscriptions.subscribed();
  }

  /**
   * MCP "Logging" outside a request: `notifications/message` `{ level, logger?, data }` to lasting 2025-era
   * (stdio) connections whose `logging/setLevel` lets `level` through (docs/runtime.md "Logging outside a request").
   * `level`: RFC 5424 severity; `data`: any JSON value; `logger`: sent when given. Never throws; resolves once handed to the transports.
   */
  async log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    await this.#state.lists.log({ level, ...(logger !== undefined && { logger }), data });
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
    this.#state.registry.addUiResource(uri, html, options);
    return this;
  }

  /**
   * Removes the tool `name` while serving or before (docs/runtime.md "Dynamic lists"): later
   * `tools/list` answers leave it out and `tools/call` answers it `-32602` `Tool <name> not found`.
   * With `dynamic: true`, connected clients get `notifications/tools/list_changed`.
   *
   * @returns `true` when the tool was registered, `false` when there was none of that name.
   */
  removeTool(name: string): boolean {
    return this.#state.registry.removeTool(name);
  }

  /**
   * Removes the resource with the fixed URI, or the template, `uriOrTemplate` (exactly as
   * registered), as {@link removeTool} does for tools; `notifications/resources/list_changed`.
   *
   * @returns `true` when it was registered, `false` otherwise.
   */
  removeResource(uriOrTemplate: string): boolean {
    return this.#state.registry.removeResourceOrPrompt("resource", uriOrTemplate);
  }

  /**
   * Removes the prompt `name`, as {@link removeTool} does for tools (`prompts/get` then answers
   * `-32602` `Prompt <name> not found`); `notifications/prompts/list_changed`.
   *
   * @returns `true` when it was registered, `false` otherwise.
   */
  removePrompt(name: string): boolean {
    return this.#state.registry.removeResourceOrPrompt("prompt", name);
  }

  /**
   * Registers a completion hook (docs/resources.md "Completion hooks"; MCP `completion/complete`):
   * `hook(value, given, { signal })` answers the completion of `argument` of the resource
   * template `{ type: "ref/resource", uri }` (its exact `uriTemplate`) or the prompt
   * `{ type: "ref/prompt", name }`, receiving the other arguments the client already gave. For a
   * template literal, `argument` and the keys of `given` are typed from the template's variables:
   *
   * ```ts
   * server.complete({ type: "ref/resource", uri: "books://{genre}/{id}" }, "id",
   *   (value, given) => ids(given.genre).filter((id) => id.startsWith(value)));
   * ```
   *
   * The hook wins over the built-in completion of a literal-union parameter. Register the
   * prompt or template first; removing it removes its hooks.
   *
   * @returns this server, for chaining.
   * @throws Error when `ref` names no registered prompt / template, `argument` is not one of its
   *   arguments / variables, or already has a hook; TypeError when `hook` is not a function.
   */
  complete<T extends string, A extends TemplateVariables<T>>(
    ref: { type: "ref/resource"; uri: T },
    argument: A,
    hook: CompletionHook<Exclude<TemplateVariables<T>, A>>,
  ): this;
  complete(ref: { type: "ref/prompt"; name: string }, argument: string, hook: CompletionHook): this;
  complete(
    ref: { type: "ref/resource"; uri: string } | { type: "ref/prompt"; name: string },
    argument: string,
    hook: CompletionHook<never>,
  ): this {
    this.#state.registry.resources.addCompletionHook(ref, argument, hook as CompletionHook);
    return this;
  }

  /**
   * Adds `middleware` to the chain around every request but `initialize` and `ping` (docs/observability.md "Middleware"):
   * in registration order, each `(ctx, next)` sees the method, target, `authInfo`, session, caller and client, and passes on with `next()` or answers itself.
   * @returns this server, for chaining.
   * @throws TypeError when `middleware` is not a function.
   */
  use(middleware: Middleware): this {
    if (typeof middleware !== "function")
      throw new TypeError(`use() takes a middleware function (ctx, next), got ${typeof middleware}`);
    this.#chain.push(middleware);
    return this;
  }

  /** Sets the instrumentation (`typed-mcp/otel`); not public API. @throws Error when one is set. @internal */
  [INSTRUMENT](instrumentation: Instrumentation): void {
    if (this.#instrumentation) throw new Error("typed-mcp: this server is already instrumented.");
    this.#instrumentation = instrumentation;
  }

  /**
   * Quick path (spec §1): registers `fn` as the tool `name`. The build plugin reads `fn`'s types
   * and appends the generated descriptor as one more argument; `options` are read at build time.
   *
   * @param name The tool name (1 to 128 of `A–Z a–z 0–9 _ - .`).
   * @param fn An arrow function, function expression, or a name bound to a function; called with
   *   `this` = `undefined`.
   * @returns The tool's {@link ToolHandle} (its name; `client.call(handle, …)` of `typed-mcp/testing`).
   * @throws Error when the plugin did not transform the call (the message says to add it), or when
   *   the name is already registered (naming both registrations).
   */
  tool<F extends Fn>(name: string, fn: F): ToolHandle<F>;
  tool<F extends Fn>(name: string, options: QuickToolOptions, fn: F): ToolHandle<F>;
  tool(name: string, ...rest: unknown[]): ToolHandle {
    return new ToolHandle(this.#state.registry.addQuickTool(name, rest));
  }

  /**
   * Builds one SDK `Server` answering from this registry: used per HTTP request by
   * {@link McpServer.fetch} and per connection by `serveStdio`. Not public API.
   *
   * @param ctx The SDK's factory context (`era`, `requestInfo` for an HTTP request; none on stdio).
   * @param connection On a lasting connection, its id (`connection:…`) when the transport made it
   *   (`serveStdio`: the one its listen streams use too); default a new random one.
   * @internal
   */
  [SDK_FACTORY](ctx?: McpRequestContext, connection?: string): Server {
    // With a store: the requestState key the instances share (store/shared.ts), kept once known.
    const codec =
      this.#requestStateCodec ??
      requestStateCodec(
        this.#state.shared?.requestStateOptions(this.#state.options.requestState) ?? this.#state.options.requestState,
      );
    if (this.#state.shared?.started !== false) this.#requestStateCodec = codec;
    let parts = this.#parts;
    if (parts?.codec !== codec || parts.instrumentation !== this.#instrumentation) {
      parts = { ...this.#state, codec, chain: this.#chained, instrumentation: this.#instrumentation };
      this.#parts = parts;
    }
    return buildSdkServer(parts, ctx, connection);
  }

  /** The listen-stream bounds and middleware chain of `server.fetch`, shared by `serveStdio`'s listens. Not public API. @internal */
  get [LISTEN_STREAMS](): ListenStreams {
    return this.#state.listen;
  }
}
