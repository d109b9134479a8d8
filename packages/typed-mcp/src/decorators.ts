/**
 * The `@tool` decorator (spec §1). The typed-mcp build plugin removes it from the source and puts
 * the generated descriptors on the class instead; the function below only ever runs when the
 * plugin is missing, and then throws at class definition.
 *
 * @packageDocumentation
 */
import { pluginMissingMessage } from "./calls/errors.js";

/**
 * Options of the quick path `server.tool(name, options, fn)` (spec §1): {@link ToolOptions}
 * without `name`. Read by the build plugin at build time, never at run time.
 */
export interface QuickToolOptions {
  /** The tool's description; wins over the JSDoc (spec §1 Description). */
  description?: string;
  /** `annotations.title` (spec §1 Annotations). */
  title?: string;
  /** `annotations.readOnlyHint`. */
  readOnly?: boolean;
  /** `annotations.destructiveHint`. */
  destructive?: boolean;
  /** `annotations.idempotentHint`. */
  idempotent?: boolean;
  /** `annotations.openWorldHint`. */
  openWorld?: boolean;
  /** MCP Apps (spec §9): the `ui://` resource that renders this tool's results → `_meta.ui.resourceUri`. */
  uiResource?: `ui://${string}`;
  /** MCP Apps (spec §9): who may see the tool → `_meta.ui.visibility`; default both. */
  uiVisibility?: ("model" | "app")[];
  /**
   * OAuth scopes (RFC 6749 §3.3 scope tokens) the caller's access token must carry to call the tool, when the
   * server has `auth` (docs/auth.md "Scopes"): else HTTP 403 `insufficient_scope` naming them.
   * Never listed; ignored on stdio and without `auth`. An array of string literals, read at build time.
   */
  scopes?: readonly string[];
  /**
   * MCP tasks (docs/runtime.md "Tasks"; MCP 2025-11-25 "Tasks" tool-level negotiation, SEP-2663
   * on 2026-07-28) → listed as `execution: { taskSupport }` (after `annotations`, spec §1 key order).
   * `"optional"`: a client that negotiated tasks gets a task (2025-11-25: when its `tools/call`
   * carries `params.task`; 2026-07-28: always), any other client an ordinary call. `"required"`:
   * only as a task; otherwise 2025-11-25 answers `-32601` and 2026-07-28 `-32021` (missing
   * client capability `extensions["io.modelcontextprotocol/tasks"]`). `"forbidden"` (the default
   * when absent): never a task; written out when given. A string literal, read at build time.
   */
  task?: "optional" | "required" | "forbidden";
  /**
   * When a task-capable tool's task is created on 2026-07-28 (docs/runtime.md "Tasks", "Input
   * before the task"; SEP-2663 composition with SEP-2322 `input_required` rounds). `"call"` (the
   * default): when the call starts. `"after-input"`: a round without `inputResponses` and without
   * `requestState` runs as an ordinary call (its `ctx.elicit` / `sample` / `listRoots` answer
   * `input_required`); a round that carries either answers the `CreateTaskResult` and runs the
   * function as a task, with that round's answers. Needs `task` `"optional"` or `"required"`
   * (OMCG0001 otherwise). Never listed; 2025-era calls are unchanged. A string literal, read at build time.
   */
  taskStart?: "call" | "after-input";
}

/** Options of `@tool({...})` (spec §1): the tool name and {@link QuickToolOptions}. */
export interface ToolOptions extends QuickToolOptions {
  /**
   * The tool name: 1 to 128 of `A–Z a–z 0–9 _ - .` (spec §1 Name). Default: the method name
   * without a trailing `Async`, in snake_case.
   */
  name?: string;
}

/**
 * The decorator returned by {@link tool}: usable both as a standard (TC39) method decorator and
 * as an `experimentalDecorators` one.
 */
export interface ToolDecorator {
  /** Standard (TC39) decorators. */
  <This, Fn extends (this: This, ...args: any[]) => any>(
    value: Fn,
    context: ClassMethodDecoratorContext<This, Fn>,
  ): void;
  /** `experimentalDecorators`. */
  (target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor): void;
}

/**
 * Marks a class method as an MCP tool (spec §1 generator path). Forms: `@tool()`,
 * `@tool("name")`, `@tool({ name?, description?, title?, readOnly?, destructive?, idempotent?,
 * openWorld?, uiResource?, uiVisibility?, scopes?, task? })`. Instance methods are registered with
 * `server.addTools(instance)`, static ones with `server.addTools(Class)`.
 *
 * The build plugin compiles the decorator away. If it is ever evaluated at run time the plugin
 * was not applied, and it throws at once (at class definition).
 *
 * @throws Error always at run time: the message says to add the typed-mcp build plugin.
 */
export function tool(nameOrOptions?: string | ToolOptions): ToolDecorator {
  const name = typeof nameOrOptions === "string" ? nameOrOptions : nameOrOptions?.name;
  const what = name === undefined ? "@tool()" : `@tool(${JSON.stringify(name)})`;
  throw new Error(pluginMissingMessage(what));
}
