/**
 * Resources and prompts at run time (spec §8): the registry behind `server.addResources`,
 * `server.addPrompts`, `server.resource`, `server.prompt` and `server.add`, and the SDK request
 * handlers `resources/list`, `resources/templates/list`, `resources/read`, `prompts/list` and
 * `prompts/get`. Template matching is the MCP SDK's `UriTemplate` (the RFC 6570 matcher the
 * SDK's own `McpServer` uses); matched values are percent-decoded before they are read.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, UriTemplate } from "@modelcontextprotocol/server";
import type { GetPromptResult, ReadResourceResult, Server, ServerContext } from "@modelcontextprotocol/server";
import { argumentError, pathStep } from "@typed-mcp/model";
import { bindMember, collect } from "./class-members.js";
import { pluginMissingMessage } from "./errors.js";
import { installCompletion } from "./completion.js";
import { isGenerated } from "./internal.js";
import { resourceNotFoundIsInvalidParams } from "./revisions.js";
import { RESOURCE_NOT_FOUND_2025, patchResourceNotFoundCode } from "./sdk-patches.js";
import type { Subscriptions } from "./subscriptions.js";
import { PROMPTS, RESOURCES } from "./resource-internal.js";
import type { GeneratedPrompt, GeneratedResource } from "./resource-internal.js";
import type { RequestContext } from "./types.js";

/** One registered resource, template or prompt. */
interface Entry<D> {
  readonly key: string;
  readonly descriptor: D;
  readonly fn: (...args: unknown[]) => unknown;
  readonly thisArg: unknown;
  /** Where it was registered, for error messages. */
  readonly origin: string;
  readonly template?: UriTemplate;
}

type ResourceEntry = Entry<GeneratedResource>;
type PromptEntry = Entry<GeneratedPrompt>;

/** What the handlers need to know about one request: its revision and its {@link RequestContext}. */
export interface RequestInfo {
  protocolVersion: string;
  context: RequestContext;
}

/** Entries about to be registered; see {@link ResourceRegistry.prepare}. */
export interface PendingEntries {
  readonly resources: ResourceEntry[];
  readonly prompts: PromptEntry[];
}

/**
 * The resources and prompts of one `McpServer` (spec §8). Registration is two-step
 * ({@link prepare} checks, {@link commit} stores) so that `server.add(x)` registers nothing when
 * any part fails.
 */
export class ResourceRegistry {
  readonly #fixed = new Map<string, ResourceEntry>();
  readonly #templates = new Map<string, ResourceEntry>();
  readonly #prompts = new Map<string, PromptEntry>();
  readonly #onError: (name: string, error: unknown) => void;

  /** @param onError Told about every exception a resource or prompt (or its generated code) throws. */
  constructor(onError: (name: string, error: unknown) => void) {
    this.#onError = onError;
  }

  /** Whether any resource or template is registered (the `resources` capability). */
  get hasResources(): boolean {
    return this.#fixed.size > 0 || this.#templates.size > 0;
  }

  /** Whether a resource with this fixed URI is registered (MCP Apps: a tool's `uiResource`, spec §9). */
  hasResource(uri: string): boolean {
    return this.#fixed.has(uri);
  }

  /** Whether any prompt is registered (the `prompts` capability). */
  get hasPrompts(): boolean {
    return this.#prompts.size > 0;
  }

  /** Whether any prompt or resource template is registered (the `completions` capability, docs/resources.md "Completion"). */
  get hasCompletions(): boolean {
    return this.#prompts.size > 0 || this.#templates.size > 0;
  }

  /** `completion/complete` lookup ({@link CompletionSource}): the prompt's value sets, `{}` without any, `undefined` when unknown. */
  promptCompletions(name: string): Readonly<Record<string, readonly string[]>> | undefined {
    const entry = this.#prompts.get(name);
    return entry === undefined ? undefined : (entry.descriptor.completions ?? {});
  }

  /**
   * `completion/complete` lookup ({@link CompletionSource}): the value sets of the template whose
   * `uriTemplate` is exactly `uri`; `{}` for a template without any or a fixed URI; `undefined` when unknown.
   */
  resourceCompletions(uri: string): Readonly<Record<string, readonly string[]>> | undefined {
    const template = this.#templates.get(uri);
    if (template !== undefined) return template.descriptor.completions ?? {};
    return this.#fixed.has(uri) ? {} : undefined;
  }

  /** Whether `uri` is a registered fixed URI or matches a registered template with every variable non-empty (as `resources/read`). */
  matches(uri: string): boolean {
    if (this.#fixed.has(uri)) return true;
    for (const t of this.#templates.values()) if (t.template!.match(uri) !== null) return true;
    return false;
  }

  /**
   * Collects the decorated resources and/or prompts of `target` (an instance: its class chain's
   * instance members; a class: its static ones) and checks them against the registry.
   *
   * @throws Error on a duplicate URI (template) or prompt name (naming both registrations), or
   *   when a descriptor's method is not a function on `target`.
   */
  prepare(target: object, kinds: { resources: boolean; prompts: boolean }): PendingEntries {
    const resources = kinds.resources ? collect<GeneratedResource>(target, RESOURCES).map((d) => this.#resourceEntry(d, ...bind(target, d, "resource"))) : [];
    const prompts = kinds.prompts ? collect<GeneratedPrompt>(target, PROMPTS).map((d) => promptEntry(d, ...bind(target, d, "prompt"))) : [];
    const pending = { resources, prompts };
    this.#check(pending);
    return pending;
  }

  /**
   * Prepares a quick-path registration (`server.resource(uri, …)` / `server.prompt(name, …)`;
   * `origin` names another registration call in errors, e.g. `server.addUiResource("ui://x")`).
   *
   * @throws Error when `descriptor` is not a plugin-made descriptor (the plugin is missing), or on a duplicate.
   */
  prepareQuick(kind: "resource" | "prompt", label: string, descriptor: unknown, fn: unknown, origin?: string): PendingEntries {
    if (!isGenerated(descriptor) || typeof fn !== "function") {
      throw new Error(pluginMissingMessage(`server.${kind}(${JSON.stringify(label)}, …)`));
    }
    const call = fn as (...args: unknown[]) => unknown;
    const pending: PendingEntries =
      kind === "resource"
        ? { resources: [this.#resourceEntry(descriptor as unknown as GeneratedResource, call, undefined, origin ?? `server.resource(${JSON.stringify(label)})`)], prompts: [] }
        : { resources: [], prompts: [promptEntry(descriptor as unknown as GeneratedPrompt, call, undefined, `server.prompt(${JSON.stringify(label)})`)] };
    this.#check(pending);
    return pending;
  }

  /** Stores entries checked by {@link prepare} / {@link prepareQuick}. */
  commit(pending: PendingEntries): void {
    for (const e of pending.resources) (e.template ? this.#templates : this.#fixed).set(e.key, e);
    for (const e of pending.prompts) this.#prompts.set(e.key, e);
  }

  #resourceEntry(d: GeneratedResource, fn: (...args: unknown[]) => unknown, thisArg: unknown, origin: string): ResourceEntry {
    const listing = d.listing as { uri?: string; uriTemplate?: string };
    if (listing.uriTemplate !== undefined) return { key: listing.uriTemplate, descriptor: d, fn, thisArg, origin, template: new UriTemplate(listing.uriTemplate) };
    return { key: listing.uri!, descriptor: d, fn, thisArg, origin };
  }

  #check(pending: PendingEntries): void {
    const seen = new Map<string, Entry<unknown>>();
    for (const e of pending.resources) {
      const kind = e.template ? "template" : "uri";
      const other = (e.template ? this.#templates : this.#fixed).get(e.key) ?? seen.get(kind + e.key);
      if (other) throw new Error(`typed-mcp: two resources have the URI ${JSON.stringify(e.key)} on this server: ${other.origin} and ${e.origin}. Resource URIs must be unique.`);
      seen.set(kind + e.key, e);
    }
    for (const e of pending.prompts) {
      const other = this.#prompts.get(e.key) ?? seen.get("prompt" + e.key);
      if (other) throw new Error(`typed-mcp: two prompts are named ${JSON.stringify(e.key)} on this server: ${other.origin} and ${e.origin}. Prompt names must be unique.`);
      seen.set("prompt" + e.key, e);
    }
  }

  /**
   * Installs the handlers on one SDK `Server` whose capabilities include `resources` / `prompts`
   * when {@link hasResources} / {@link hasPrompts}. `info(ctx)` gives the request's revision and
   * context. For a 2025-era client an unknown URI is answered `-32002` (the SDK itself always
   * sends `-32602`, so sdk-patches.ts puts the code of exactly those responses back on the way out).
   * With {@link hasCompletions} it installs `completion/complete` (completion.ts; the server must
   * advertise `completions`); with `subscriptions` and resources, `resources/subscribe` /
   * `resources/unsubscribe` (subscriptions.ts; the server must advertise `resources.subscribe`),
   * `connection` telling whether `sdk` serves a lasting connection (stdio).
   */
  install(sdk: Server, info: (ctx: ServerContext) => RequestInfo, subscriptions?: { hub: Subscriptions; connection: boolean }): void {
    if (this.hasCompletions) installCompletion(sdk, this);
    if (this.hasResources) {
      const markNotFound2025 = patchResourceNotFoundCode(sdk);
      const notFound = (uri: string, ctx: ServerContext): never => {
        if (resourceNotFoundIsInvalidParams(info(ctx).protocolVersion)) throw new ResourceNotFoundError(uri);
        markNotFound2025(ctx.mcpReq.id);
        throw new ProtocolError(RESOURCE_NOT_FOUND_2025 as ProtocolErrorCode, `Resource not found: ${uri}`, { uri });
      };
      subscriptions?.hub.install(sdk, subscriptions.connection, { matches: (uri) => this.matches(uri), notFound });
      sdk.setRequestHandler("resources/list", () => ({ resources: [...this.#fixed.values()].map((e) => e.descriptor.listing) as never }));
      sdk.setRequestHandler("resources/templates/list", () => ({
        resourceTemplates: [...this.#templates.values()].map((e) => e.descriptor.listing) as never,
      }));
      sdk.setRequestHandler("resources/read", async (request, ctx) => {
        const uri = request.params.uri;
        const request_ = info(ctx);
        let entry = this.#fixed.get(uri);
        let vars: Record<string, string> = {};
        if (entry === undefined) {
          for (const t of this.#templates.values()) {
            const m = t.template!.match(uri);
            if (m === null) continue;
            entry = t;
            for (const [k, v] of Object.entries(m)) {
              const raw = Array.isArray(v) ? v.join(",") : v;
              try {
                vars[k] = decodeURIComponent(raw);
              } catch {
                throw invalidArgument(argumentError(pathStep(k, true), "Expected percent-encoded UTF-8."));
              }
            }
            break;
          }
        }
        if (entry === undefined) return notFound(uri, ctx);
        const e = entry;
        return this.#run(e, "resource", () => e.descriptor.read(vars, request_.context), (value) => e.descriptor.write(value, uri)) as Promise<ReadResourceResult>;
      });
    }
    if (this.hasPrompts) {
      sdk.setRequestHandler("prompts/list", () => ({ prompts: [...this.#prompts.values()].map((e) => e.descriptor.listing) as never }));
      sdk.setRequestHandler("prompts/get", async (request, ctx) => {
        const entry = this.#prompts.get(request.params.name);
        if (entry === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${request.params.name} not found`);
        const request_ = info(ctx);
        return this.#run(entry, "prompt", () => entry.descriptor.read(request.params.arguments, request_.context), (value) => entry.descriptor.write(value)) as Promise<GetPromptResult>;
      });
    }
  }

  /** Reads the arguments, calls the function, writes the result; a failure is `-32602` (bad argument) or `-32603` (anything thrown). */
  async #run(entry: Entry<unknown>, what: "resource" | "prompt", read: () => unknown[] | string, write: (value: unknown) => unknown): Promise<unknown> {
    let args: unknown[] | string;
    try {
      args = read();
    } catch (error) {
      throw this.#failed(entry, what, error);
    }
    if (typeof args === "string") throw invalidArgument(args);
    let value: unknown;
    try {
      value = await entry.fn.apply(entry.thisArg, args);
      return write(value);
    } catch (error) {
      throw this.#failed(entry, what, error);
    }
  }

  #failed(entry: Entry<unknown>, what: "resource" | "prompt", error: unknown): ProtocolError {
    try {
      this.#onError(entry.key, error);
    } catch {
      // The answer stays the same.
    }
    return new ProtocolError(ProtocolErrorCode.InternalError, `The ${what} failed.`);
  }
}

/** JSON-RPC `-32602` whose message is the §5 text the reader built (`Argument 'id' is not valid. Expected an integer.`). */
function invalidArgument(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

function promptEntry(d: GeneratedPrompt, fn: (...args: unknown[]) => unknown, thisArg: unknown, origin: string): PromptEntry {
  return { key: d.listing.name, descriptor: d, fn, thisArg, origin };
}

/** The method a class-stored descriptor names, bound to `target`, and its origin text. */
function bind(target: object, d: GeneratedResource | GeneratedPrompt, kind: "resource" | "prompt"): [(...args: unknown[]) => unknown, unknown, string] {
  const bound = bindMember(target, d, (origin) => `typed-mcp: ${kind} ${origin} is not a function on the registered object.`);
  return [bound.fn, bound.thisArg, bound.origin];
}
