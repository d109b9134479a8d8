/**
 * The registry of one `McpServer`: what is registered — tools, resources, resource templates,
 * prompts and MCP Apps UI resources — with the registration rules of docs/runtime.md
 * ("Registration", "Plugin-missing message") and the capabilities that follow from it. Serving
 * (SDK handlers) is elsewhere: server.ts wires this registry into each SDK `Server`.
 *
 * @module
 */
import type { ServerCapabilities } from "@modelcontextprotocol/server";
import { UI_EXTENSION, missingUiResourceMessage, uiResourceParts } from "./apps.js";
import type { UiResourceHtml, UiResourceOptions } from "./apps.js";
import { bindMember, collect, noMembersMessage, quickArguments } from "./class-members.js";
import { ToolListings } from "../calls/client-view.js";
import type { ClientView, ListedTool } from "../calls/client-view.js";
import { pluginMissingMessage, staleDescriptorMessage } from "../calls/errors.js";
import { GENERATED, TOOLS, isGenerated } from "../internal.js";
import type { GeneratedTool } from "../internal.js";
import type { ListKind } from "./dynamic-lists.js";
import type { TaskInstaller } from "../tasks/capabilities.js";
import type { Failure } from "../calls/pipeline.js";
import { ResourceRegistry } from "../resources/resource-registry.js";
import type { PendingEntries } from "../resources/resource-registry.js";
import { mayRunAsTask } from "@typed-mcp/model";
import type { ToolListing } from "@typed-mcp/model";

/** One registered tool. */
export interface ToolEntry extends ListedTool {
  readonly name: string;
  readonly descriptor: GeneratedTool;
  readonly fn: (...args: unknown[]) => unknown;
  readonly thisArg: unknown;
  /** Where it was registered, for error messages: `Orders.placeOrderAsync`, `server.tool("x")`. */
  readonly origin: string;
}

/**
 * Everything registered on one `McpServer` (spec §0, §1, §8, §9). Every method that registers
 * checks everything first, so a call that fails registers nothing; the `McpServer` method of
 * the same name documents each one.
 */
export class Registry {
  readonly #tools = new Map<string, ToolEntry>();
  readonly #listings = new ToolListings();
  /** The task installer of a registered tool that may run as a task (its descriptor's `tasks`), kept up to date like the MCP Apps flag. */
  #taskInstaller: TaskInstaller | undefined;
  /** Resources, templates and prompts (spec §8). */
  readonly resources: ResourceRegistry;
  #hasUi = false;
  /** Whether the tools' `uiResource`s were checked against the registered resources since the last registration. */
  #uiChecked = false;
  /** `tool uri` pairs already warned about (each is reported once per server). */
  readonly #uiWarned = new Set<string>();

  /** Told which lists changed after every registration and removal (dynamic-lists.ts). */
  readonly #changed: (kinds: ListKind[]) => void;
  /** The server option `dynamic` (docs/runtime.md "Dynamic lists"). */
  readonly #dynamic: boolean;

  /**
   * @param onResourceFailure Told about every exception a completion hook of a prompt or template throws.
   * @param dynamic The server option `dynamic`: `listChanged` advertised, every list served even when empty.
   * @param changed Told which lists changed after every registration and removal.
   */
  constructor(
    onResourceFailure: (failure: Failure) => void,
    dynamic = false,
    changed: (kinds: ListKind[]) => void = () => {},
  ) {
    this.resources = new ResourceRegistry(onResourceFailure, dynamic);
    this.#dynamic = dynamic;
    this.#changed = changed;
  }

  /**
   * Removes the tool `name` (docs/runtime.md "Dynamic lists").
   * @returns `true` when it was registered, `false` when there was no such tool.
   */
  removeTool(name: string): boolean {
    if (!this.#tools.delete(name)) return false;
    this.#hasUi = [...this.#tools.values()].some((e) => e.listing._meta?.ui !== undefined);
    this.#taskInstaller = [...this.#tools.values()].find(isTaskTool)?.descriptor.tasks;
    this.#listings.invalidate();
    this.#changed(["tools"]);
    return true;
  }

  /**
   * Removes the resource with the fixed URI or the template `uriOrTemplate`, or the prompt `name`.
   * @returns `true` when it was registered, `false` otherwise.
   */
  removeResourceOrPrompt(kind: "resource" | "prompt", key: string): boolean {
    if (!this.resources.remove(kind, key)) return false;
    this.#uiChecked = false;
    this.#changed([kind === "resource" ? "resources" : "prompts"]);
    return true;
  }

  /** `server.addTools(target)`. @throws Error when `target` has no compiled tools, or on a bad member or duplicate name. */
  addTools(target: object): void {
    const found = collectTools(target);
    if (found.length === 0) throw new Error(noMembersMessage(target, "@tool()"));
    this.#registerTools(found.map((d) => toolEntryFor(target, d)));
  }

  /** `server.add(target)`. @throws Error when `target` has nothing to register, or on a duplicate name or URI. */
  add(target: object): void {
    const tools = collectTools(target);
    const pending = this.resources.prepare(target, { resources: true, prompts: true });
    if (tools.length === 0 && pending.resources.length === 0 && pending.prompts.length === 0) {
      throw new Error(noMembersMessage(target, "@tool(), @resource() or @prompt()"));
    }
    if (tools.length > 0) this.#registerTools(tools.map((d) => toolEntryFor(target, d)));
    this.#commitResources(pending);
  }

  /** `server.addResources(target)` / `server.addPrompts(target)`. @throws Error when nothing of that kind is compiled, or on a duplicate. */
  addResourcesOrPrompts(target: object, kind: "resources" | "prompts"): void {
    const pending = this.resources.prepare(target, { resources: kind === "resources", prompts: kind === "prompts" });
    if (pending[kind].length === 0)
      throw new Error(noMembersMessage(target, kind === "resources" ? "@resource()" : "@prompt()"));
    this.#commitResources(pending);
  }

  /**
   * `server.resource(uri, [options,] fn, descriptor)` / `server.prompt(name, [options,] fn, descriptor)`;
   * returns the descriptor, checked and registered (for the quick path's handle).
   * @throws Error when the plugin did not append a descriptor, or on a duplicate.
   */
  addQuick(kind: "resource" | "prompt", label: string, rest: readonly unknown[]): unknown {
    const { fn, descriptor } = quickArguments(rest);
    this.#commitResources(this.resources.prepareQuick(kind, label, descriptor, fn));
    return descriptor;
  }

  /** `server.tool(name, [options,] fn, descriptor)`; returns the descriptor. @throws Error when the plugin did not append a descriptor, or on a duplicate name. */
  addQuickTool(name: string, rest: readonly unknown[]): GeneratedTool {
    const { fn, descriptor } = quickArguments(rest);
    if (!isGenerated(descriptor) || typeof fn !== "function") {
      throw new Error(pluginMissingMessage(`server.tool(${JSON.stringify(name)}, …)`));
    }
    const origin = `server.tool(${JSON.stringify(descriptor.listing.name)})`;
    this.#registerTools([
      makeToolEntry(descriptor, { fn: fn as (...args: unknown[]) => unknown, thisArg: undefined, origin }),
    ]);
    return descriptor;
  }

  /** `server.addUiResource(uri, html, options)` (spec §9). @throws as {@link uiResourceParts}, or on a duplicate URI. */
  addUiResource(uri: `ui://${string}`, html: UiResourceHtml, options?: UiResourceOptions): void {
    const { descriptor, fn } = uiResourceParts(uri, html, options);
    const branded = Object.assign(descriptor, { [GENERATED]: true as const });
    this.#commitResources(
      this.resources.prepareQuick("resource", uri, branded, fn, `server.addUiResource(${JSON.stringify(uri)})`),
    );
  }

  /** The registered tool `name`, if any. */
  tool(name: string): ToolEntry | undefined {
    return this.#tools.get(name);
  }

  /** The `scopes` option of the tool `name`, for the auth gate (docs/auth.md "Scopes"). */
  toolScopes(name: string): readonly string[] | undefined {
    return this.#tools.get(name)?.descriptor.scopes;
  }

  /** Every `scopes` entry of the registered tools, resources and prompts, without repeats (RFC 9728 `scopes_supported`). */
  allScopes(): string[] {
    return [
      ...new Set([
        ...[...this.#tools.values()].flatMap((t) => t.descriptor.scopes ?? []),
        ...this.resources.allScopes(),
      ]),
    ];
  }

  /** The `tools/list` array for a client view (client-view.ts; memoized until the next registration). */
  listTools(view: ClientView): ToolListing[] {
    return this.#listings.list(this.#tools.values(), view);
  }

  /**
   * The capabilities advertised to clients: `tools` and `logging` always; `resources`
   * (with `subscribe`), `prompts`, `completions` when registered; the MCP Apps extension when a
   * tool has `_meta.ui` (docs/runtime.md "Capabilities").
   */
  capabilities(): ServerCapabilities {
    const listChanged = this.#dynamic ? { listChanged: true } : {};
    return {
      tools: { ...listChanged },
      logging: {},
      ...(this.resources.servesResources && { resources: { subscribe: true, ...listChanged } }),
      ...(this.resources.servesPrompts && { prompts: { ...listChanged } }),
      ...(this.resources.servesCompletions && { completions: {} }),
      ...(this.#hasUi && { extensions: { [UI_EXTENSION]: {} } }),
    };
  }

  /** Whether a registered tool may run as a task (`execution.taskSupport` "optional" or "required"; tasks.ts). */
  hasTaskTools(): boolean {
    return this.#taskInstaller !== undefined;
  }

  /** What installs the tasks runtime on an SDK instance while a tool may run as a task (tasks/capabilities.ts), else `undefined`. */
  taskInstaller(): TaskInstaller | undefined {
    return this.#taskInstaller;
  }

  /** Whether the tool `name` may run as a task (tasks.ts answers only such calls' results specially). */
  mayRunAsTask(name: string): boolean {
    const entry = this.#tools.get(name);
    return entry !== undefined && isTaskTool(entry);
  }

  /**
   * Spec §9 / MCP Apps "Resource MUST exist on the server": warns once (console.warn, i.e.
   * stderr) about each tool whose `uiResource` names no registered resource. Does nothing when
   * nothing was registered since the last check. A warning, not an error, because tools and
   * resources may be registered in any order and after serving started (docs/apps.md).
   */
  checkUiResources(): void {
    if (this.#uiChecked) return;
    this.#uiChecked = true;
    for (const entry of this.#tools.values()) {
      const resourceUri = entry.listing._meta?.ui?.resourceUri;
      if (resourceUri === undefined || this.resources.hasResource(resourceUri)) continue;
      const key = `${entry.name} ${resourceUri}`;
      if (this.#uiWarned.has(key)) continue;
      this.#uiWarned.add(key);
      console.warn(missingUiResourceMessage({ tool: entry.name, resourceUri }));
    }
  }

  #commitResources(pending: PendingEntries): void {
    this.resources.commit(pending);
    this.#uiChecked = false;
    this.#changed([
      ...(pending.resources.length > 0 ? ["resources" as const] : []),
      ...(pending.prompts.length > 0 ? ["prompts" as const] : []),
    ]);
  }

  #registerTools(entries: ToolEntry[]): void {
    // Check everything first so a failing call registers nothing.
    const seen = new Map<string, ToolEntry>();
    for (const entry of entries) {
      const other = this.#tools.get(entry.name) ?? seen.get(entry.name);
      if (other !== undefined) {
        throw new Error(
          `typed-mcp: two tools are named ${JSON.stringify(entry.name)} on this server: ${other.origin} and ${entry.origin}. Tool names must be unique.`,
        );
      }
      seen.set(entry.name, entry);
    }
    for (const entry of entries) {
      this.#tools.set(entry.name, entry);
      if (entry.listing._meta?.ui !== undefined) this.#hasUi = true;
      if (isTaskTool(entry)) this.#taskInstaller ??= entry.descriptor.tasks;
    }
    this.#listings.invalidate();
    this.#uiChecked = false;
    this.#changed(["tools"]);
  }
}

/** The tool descriptors of `target`'s class chain (a member is identified by its method name, else its tool name). */
function collectTools(target: object): GeneratedTool[] {
  return collect<GeneratedTool>(target, TOOLS, (d) => d.member ?? d.listing.name);
}

/** The entry of a class-stored tool descriptor, its method bound to `target`. @throws Error when the method is not a function. */
function toolEntryFor(target: object, d: GeneratedTool): ToolEntry {
  const bound = bindMember(
    target,
    d,
    (origin) =>
      `typed-mcp: tool ${JSON.stringify(d.listing.name)} refers to method ${origin}, which is not a function on the registered object.`,
  );
  return makeToolEntry(d, bound);
}

function makeToolEntry(
  descriptor: GeneratedTool,
  bound: { fn: (...args: unknown[]) => unknown; thisArg: unknown; origin: string },
): ToolEntry {
  const visibility = descriptor.listing._meta?.ui?.visibility;
  if (mayRunAsTask(descriptor.listing.execution) && typeof descriptor.tasks !== "function") {
    const what = `tool ${JSON.stringify(descriptor.listing.name)}`;
    throw new Error(staleDescriptorMessage(what, bound.origin, "may run as a task", ["task runtime", "tasks"]));
  }
  return {
    name: descriptor.listing.name,
    listing: descriptor.listing,
    descriptor,
    fn: bound.fn,
    thisArg: bound.thisArg,
    origin: bound.origin,
    appOnly: visibility !== undefined && visibility.includes("app") && !visibility.includes("model"),
  };
}

/** Whether a tool may run as a task (`execution.taskSupport` "optional" or "required"; tasks.ts). */
function isTaskTool(entry: ToolEntry): boolean {
  return mayRunAsTask(entry.listing.execution);
}
