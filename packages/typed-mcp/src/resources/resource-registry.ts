/**
 * Folder `resources/`: resources and prompts (spec §8) — their registry (this file), request
 * handlers, `completion/complete`, and resource subscriptions.
 *
 * The registry of resources and prompts (spec §8) behind `server.addResources`,
 * `server.addPrompts`, `server.resource`, `server.prompt` and `server.add`: registration, lookups
 * and completion hooks. The request handlers are resource-handlers.ts. Template matching is the
 * MCP SDK's `UriTemplate` (the RFC 6570 matcher the SDK's own `McpServer` uses), made by the
 * `template` a template's descriptor carries (`__tmcp.uriTemplate`), so a bundle without
 * templates holds no matcher.
 *
 * @module
 */
import type { UriTemplate } from "@modelcontextprotocol/server";
import { bindMember, collect } from "../server/class-members.js";
import { pluginMissingMessage, staleDescriptorMessage } from "../calls/errors.js";
import { methodHooks } from "./completion.js";
import type { CompletionHook, CompletionRef, MethodHook, RegisteredHook } from "./completion.js";
import { isGenerated } from "../internal.js";
import type { Failure } from "../calls/pipeline.js";
import { PROMPTS, RESOURCES } from "../codegen-support/resource-descriptors.js";
import type { GeneratedPrompt, GeneratedResource } from "../codegen-support/resource-descriptors.js";

/** One registered resource, template or prompt. */
export interface Entry<D> {
  readonly key: string;
  readonly descriptor: D;
  readonly fn: (...args: unknown[]) => unknown;
  readonly thisArg: unknown;
  /** Where it was registered, for error messages. */
  readonly origin: string;
  readonly template?: UriTemplate;
}

/** A registered resource or resource template. */
export type ResourceEntry = Entry<GeneratedResource>;
/** A registered prompt. */
export type PromptEntry = Entry<GeneratedPrompt>;

/** Entries about to be registered; see {@link ResourceRegistry.prepare}. */
export interface PendingEntries {
  readonly resources: ResourceEntry[];
  readonly prompts: PromptEntry[];
  /** The `@complete` hooks of the registered object's prompts (docs/resources.md "Completion hooks"). */
  readonly hooks?: MethodHook[];
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
  readonly #onError: (failure: Failure) => void;
  /** Completion hooks: `prompt`/`resource` → prompt name / template → argument → hook (`server.complete`). */
  readonly #hooks = {
    prompt: new Map<string, Map<string, RegisteredHook>>(),
    resource: new Map<string, Map<string, RegisteredHook>>(),
  };
  /** The server option `dynamic`: resources, prompts and completion are served even while none is registered. */
  readonly #dynamic: boolean;

  /**
   * @param onError Told about every exception a completion hook throws (as a failure of its prompt or template).
   * @param dynamic The server option `dynamic` (docs/runtime.md "Dynamic lists").
   */
  constructor(onError: (failure: Failure) => void, dynamic = false) {
    this.#onError = onError;
    this.#dynamic = dynamic;
  }

  /** Whether `resources/*` is served and the `resources` capability advertised: any registered, or `dynamic`. */
  get servesResources(): boolean {
    return this.#dynamic || this.hasResources;
  }

  /** Whether `prompts/*` is served and the `prompts` capability advertised: any registered, or `dynamic`. */
  get servesPrompts(): boolean {
    return this.#dynamic || this.hasPrompts;
  }

  /** Whether `completion/complete` is served and the `completions` capability advertised: a prompt or template registered, or `dynamic`. */
  get servesCompletions(): boolean {
    return this.#dynamic || this.hasCompletions;
  }

  /**
   * Removes the resource with the fixed URI or template `key` (`kind` `"resource"`), or the prompt
   * named `key` (docs/runtime.md "Dynamic lists").
   * @returns Whether something was removed.
   */
  remove(kind: "resource" | "prompt", key: string): boolean {
    this.#hooks[kind].delete(key);
    if (kind === "prompt") return this.#prompts.delete(key);
    return this.#fixed.delete(key) || this.#templates.delete(key);
  }

  /**
   * Registers `hook` as the completion of `argument` of the prompt or resource template `ref`
   * (docs/resources.md "Completion hooks"). Removing the prompt or template removes its hooks.
   *
   * @throws TypeError when `hook` is not a function; Error when `ref` names no registered prompt
   *   / template (a fixed URI has no variables), when `argument` is not one of its arguments /
   *   variables (the message lists them), or when that argument already has a hook.
   */
  addCompletionHook(ref: CompletionRef, argument: string, hook: CompletionHook): void {
    if (typeof hook !== "function")
      throw new TypeError(
        `typed-mcp: server.complete(…, ${JSON.stringify(argument)}, hook): hook must be a function, got ${typeof hook}.`,
      );
    const [kind, key, names, what] =
      ref?.type === "ref/prompt"
        ? ([
            "prompt",
            ref.name,
            this.#prompts.get(ref.name)?.descriptor.listing.arguments?.map((a) => a.name),
            `prompt ${JSON.stringify(ref.name)}`,
          ] as const)
        : ref?.type === "ref/resource"
          ? ([
              "resource",
              ref.uri,
              this.#templates.get(ref.uri)?.template?.variableNames,
              `resource template ${JSON.stringify(ref.uri)}`,
            ] as const)
          : (() => {
              throw new TypeError(
                `typed-mcp: server.complete(ref, …): ref must be { type: "ref/prompt", name } or { type: "ref/resource", uri }.`,
              );
            })();
    if (names === undefined)
      throw new Error(
        `typed-mcp: server.complete: no ${what} is registered on this server; register it before its completion hooks.`,
      );
    if (!names.includes(argument)) {
      throw new Error(
        `typed-mcp: server.complete: ${what} has no argument ${JSON.stringify(argument)}; its arguments are ${names.map((n) => JSON.stringify(n)).join(", ") || "none"}.`,
      );
    }
    const forKey = this.#hooks[kind].get(key) ?? new Map<string, RegisteredHook>();
    if (forKey.has(argument))
      throw new Error(
        `typed-mcp: server.complete: ${what} already has a completion hook for ${JSON.stringify(argument)}.`,
      );
    forKey.set(argument, { hook: hook as CompletionHook, others: names.filter((n) => n !== argument) });
    this.#hooks[kind].set(key, forKey);
  }

  /** `completion/complete` lookup ({@link CompletionSource}): the hook of `argument` of the prompt / template `key`. */
  completionHook(kind: "prompt" | "resource", key: string, argument: string): RegisteredHook | undefined {
    return this.#hooks[kind].get(key)?.get(argument);
  }

  /** Reports a hook's exception as a failure of the prompt / template `key` ({@link CompletionSource}). */
  reportHookFailure(kind: "prompt" | "resource", key: string, error: unknown): void {
    this.#onError({ kind, name: key, error });
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
    return this.#find(uri) !== undefined;
  }

  /** The `scopes` option of the resource serving `uri` (as `resources/read` finds it), for the auth gate (docs/auth.md "Scopes"). */
  resourceScopes(uri: string): readonly string[] | undefined {
    return this.#find(uri)?.entry.descriptor.scopes;
  }

  /** The `scopes` option of the prompt `name`, for the auth gate. */
  promptScopes(name: string): readonly string[] | undefined {
    return this.#prompts.get(name)?.descriptor.scopes;
  }

  /** Every `scopes` entry of the registered resources, templates and prompts, in registration order. */
  allScopes(): string[] {
    return [...this.#fixed.values(), ...this.#templates.values(), ...this.#prompts.values()].flatMap(
      (e) => e.descriptor.scopes ?? [],
    );
  }

  /** The entry serving `uri`: the fixed URI, else the first template (in registration order) that matches, with its variables. */
  #find(uri: string): { entry: ResourceEntry; match?: Record<string, string | string[]> } | undefined {
    const fixed = this.#fixed.get(uri);
    if (fixed !== undefined) return { entry: fixed };
    for (const t of this.#templates.values()) {
      const match = matchTemplate(t.template!, uri);
      if (match !== null) return { entry: t, match };
    }
    return undefined;
  }

  /**
   * Collects the decorated resources and/or prompts of `target` (an instance: its class chain's
   * instance members; a class: its static ones) and checks them against the registry.
   *
   * @throws Error on a duplicate URI (template) or prompt name (naming both registrations), or
   *   when a descriptor's method is not a function on `target`.
   */
  prepare(target: object, kinds: { resources: boolean; prompts: boolean }): PendingEntries {
    const resources = kinds.resources
      ? collect<GeneratedResource>(target, RESOURCES).map((d) => this.#resourceEntry(d, ...bind(target, d, "resource")))
      : [];
    const prompts = kinds.prompts
      ? collect<GeneratedPrompt>(target, PROMPTS).map((d) => promptEntry(d, ...bind(target, d, "prompt")))
      : [];
    const pending = { resources, prompts, hooks: kinds.prompts ? methodHooks(target) : [] };
    this.#check(pending);
    return pending;
  }

  /**
   * Prepares a quick-path registration (`server.resource(uri, …)` / `server.prompt(name, …)`;
   * `origin` names another registration call in errors, e.g. `server.addUiResource("ui://x")`).
   *
   * @throws Error when `descriptor` is not a plugin-made descriptor (the plugin is missing), or on a duplicate.
   */
  prepareQuick(
    kind: "resource" | "prompt",
    label: string,
    descriptor: unknown,
    fn: unknown,
    origin?: string,
  ): PendingEntries {
    if (!isGenerated(descriptor) || typeof fn !== "function") {
      throw new Error(pluginMissingMessage(`server.${kind}(${JSON.stringify(label)}, …)`));
    }
    const call = fn as (...args: unknown[]) => unknown;
    const pending: PendingEntries =
      kind === "resource"
        ? {
            resources: [
              this.#resourceEntry(
                descriptor as unknown as GeneratedResource,
                call,
                undefined,
                origin ?? `server.resource(${JSON.stringify(label)})`,
              ),
            ],
            prompts: [],
          }
        : {
            resources: [],
            prompts: [
              promptEntry(
                descriptor as unknown as GeneratedPrompt,
                call,
                undefined,
                `server.prompt(${JSON.stringify(label)})`,
              ),
            ],
          };
    this.#check(pending);
    return pending;
  }

  /** Stores entries checked by {@link prepare} / {@link prepareQuick}. */
  commit(pending: PendingEntries): void {
    for (const e of pending.resources) (e.template ? this.#templates : this.#fixed).set(e.key, e);
    for (const e of pending.prompts) this.#prompts.set(e.key, e);
    for (const h of pending.hooks ?? []) this.addCompletionHook(h.ref, h.argument, h.hook);
  }

  #resourceEntry(
    d: GeneratedResource,
    fn: (...args: unknown[]) => unknown,
    thisArg: unknown,
    origin: string,
  ): ResourceEntry {
    const listing = d.listing as { uri?: string; uriTemplate?: string };
    if (listing.uriTemplate !== undefined) {
      // The matcher is carried by the template's descriptor (docs/codegen.md "What a descriptor carries").
      if (typeof d.template !== "function") {
        const what = `resource template ${JSON.stringify(listing.uriTemplate)}`;
        throw new Error(staleDescriptorMessage(what, origin, "is a URI template", ["template matcher", "template"]));
      }
      return {
        key: listing.uriTemplate,
        descriptor: d,
        fn,
        thisArg,
        origin,
        template: d.template(listing.uriTemplate),
      };
    }
    return { key: listing.uri!, descriptor: d, fn, thisArg, origin };
  }

  #check(pending: PendingEntries): void {
    const seen = new Map<string, Entry<unknown>>();
    for (const e of pending.resources) {
      const kind = e.template ? "template" : "uri";
      const other = (e.template ? this.#templates : this.#fixed).get(e.key) ?? seen.get(kind + e.key);
      if (other)
        throw new Error(
          `typed-mcp: two resources have the URI ${JSON.stringify(e.key)} on this server: ${other.origin} and ${e.origin}. Resource URIs must be unique.`,
        );
      seen.set(kind + e.key, e);
    }
    for (const e of pending.prompts) {
      const other = this.#prompts.get(e.key) ?? seen.get("prompt" + e.key);
      if (other)
        throw new Error(
          `typed-mcp: two prompts are named ${JSON.stringify(e.key)} on this server: ${other.origin} and ${e.origin}. Prompt names must be unique.`,
        );
      seen.set("prompt" + e.key, e);
    }
  }

  /** The resource serving `uri` (as `resources/read` finds it): the fixed URI, else the first matching template and its variables. */
  find(uri: string): { entry: ResourceEntry; match?: Record<string, string | string[]> } | undefined {
    return this.#find(uri);
  }

  /** The prompt `name`, if registered. */
  prompt(name: string): PromptEntry | undefined {
    return this.#prompts.get(name);
  }

  /** The `resources/list` listing, the `resources/templates/list` listing and the `prompts/list` listing, in registration order. */
  listings(): { resources: unknown[]; resourceTemplates: unknown[]; prompts: unknown[] } {
    return {
      resources: [...this.#fixed.values()].map((e) => e.descriptor.listing),
      resourceTemplates: [...this.#templates.values()].map((e) => e.descriptor.listing),
      prompts: [...this.#prompts.values()].map((e) => e.descriptor.listing),
    };
  }
}

function promptEntry(
  d: GeneratedPrompt,
  fn: (...args: unknown[]) => unknown,
  thisArg: unknown,
  origin: string,
): PromptEntry {
  return { key: d.listing.name, descriptor: d, fn, thisArg, origin };
}

/** The method a class-stored descriptor names, bound to `target`, and its origin text. */
function bind(
  target: object,
  d: GeneratedResource | GeneratedPrompt,
  kind: "resource" | "prompt",
): [(...args: unknown[]) => unknown, unknown, string] {
  const bound = bindMember(
    target,
    d,
    (origin) => `typed-mcp: ${kind} ${origin} is not a function on the registered object.`,
  );
  return [bound.fn, bound.thisArg, bound.origin];
}

/**
 * Longest resource URI matched against a template, in UTF-16 code units (docs/security.md
 * "Limits"). Longer URIs match no template: `resources/read` answers resource-not-found (spec §8)
 * instead of the SDK matcher's internal "URI exceeds maximum length" (`-32603`).
 */
const MAX_RESOURCE_URI_LENGTH = 65_536;

/** `template.match(uri)`, or `null` for a URI over {@link MAX_RESOURCE_URI_LENGTH}. */
function matchTemplate(template: UriTemplate, uri: string): ReturnType<UriTemplate["match"]> {
  return uri.length > MAX_RESOURCE_URI_LENGTH ? null : template.match(uri);
}
