/**
 * The model types: what `@typed-mcp/extract` reads from a TypeScript module and
 * `@typed-mcp/codegen` generates from — types, parameters, results, tools, resources, prompts and
 * completion hooks, already resolved to what the contract needs — and {@link assertNever}, the
 * end of every `switch` over a model kind.
 *
 * @module
 */
import type { Diagnostic, SourceLocation } from "./diagnostics.js";

/**
 * Validation keywords that can be attached to a type (spec §4 "Validation tags").
 * `minLength`/`maxLength` on an array or set are written as `minItems`/`maxItems`.
 */
export interface Constraints {
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  /** ECMAScript pattern source, compiled with the `u` flag, unanchored. */
  pattern?: string;
  format?: "email" | "uri";
}

/**
 * A type as the contract sees it (spec §4). Each variant maps to exactly one schema shape
 * and one reader/writer shape.
 */
export type TypeModel =
  | { kind: "string"; constraints?: Constraints }
  | { kind: "number"; constraints?: Constraints }
  /** `Int` (a JS number that must be an integer) or `bigint` (`bigint: true`: read via `BigInt`, safe integers only). */
  | { kind: "integer"; bigint?: boolean; constraints?: Constraints }
  | { kind: "boolean" }
  /**
   * A string enum, a union of string literals, or a union of number literals: `values` are the
   * wire values in source order. For a numeric TypeScript `enum` the wire values are the member
   * names and `numeric` maps each name to its number (in the same order).
   */
  | {
      kind: "enum";
      /** `"boolean"` only for a discriminator typed by boolean literals (spec §4a). */
      valueType: "string" | "integer" | "number" | "boolean";
      values: (string | number | boolean)[];
      numeric?: number[];
    }
  | { kind: "date" }
  | { kind: "url" }
  | { kind: "bytes" }
  /** `T[]`, `readonly T[]`, `Array<T>`, `ReadonlyArray<T>`; `set: true` for `Set`/`ReadonlySet`. */
  | { kind: "array"; items: TypeModel; set?: boolean; constraints?: Constraints }
  /** `Record<string, T>` and string index signatures; `map: true` for `Map`/`ReadonlyMap`. */
  | { kind: "record"; values: TypeModel; map?: boolean }
  | ObjectModel
  /** `T | null`. `inner` is never itself nullable. */
  | { kind: "nullable"; inner: TypeModel }
  | UnionModel
  /** A homogeneous tuple `[T, T]` / `readonly [T, T, T]` (spec §4a): `length` elements of `items`. */
  | { kind: "tuple"; items: TypeModel; length: number };

/**
 * A union of spec §4a, `null` excluded (a nullable union is `nullable` of this). Members are in
 * the order written, never `nullable`. Without `discriminator`, no two members have the same
 * {@link wireType} and the reader dispatches on the JSON type; one member may be a discriminated
 * union (its objects, listed flat inside the `anyOf`: `Shape | Shape[]`). With it, every member is
 * an object whose property `discriminator` (a wire name) is a required `enum` of its literals,
 * disjoint across members, and the reader dispatches on that property's value.
 */
export interface UnionModel {
  kind: "union";
  members: TypeModel[];
  discriminator?: string;
}

/** The JSON type a value of a (non-nullable) model has on the wire (spec §4a dispatch). */
export type WireType = "string" | "number" | "boolean" | "array" | "object";

/**
 * The JSON type of the values of `t` (spec §4a: the reader of a union dispatches on it).
 * `integer` and `number` are both `"number"`; a numeric TypeScript enum is `"string"` (its wire
 * values are member names); `nullable` is the JSON type of its inner type.
 */
export function wireType(t: TypeModel): WireType {
  switch (t.kind) {
    case "string":
    case "date":
    case "url":
    case "bytes":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "enum":
      return t.numeric !== undefined || t.valueType === "string"
        ? "string"
        : t.valueType === "boolean"
          ? "boolean"
          : "number";
    case "array":
    case "tuple":
      return "array";
    case "record":
    case "object":
      return "object";
    case "nullable":
      return wireType(t.inner);
    case "union":
      return t.members.length > 0 && t.members.every((m) => wireType(m) === wireType(t.members[0]!))
        ? wireType(t.members[0]!)
        : "object";
    default:
      return assertNever(t);
  }
}

/** An interface, object type, intersection of object types, or class (spec §4 "Objects"). */
export interface ObjectModel {
  kind: "object";
  /** Properties in listing order (base first, then declaration order). */
  properties: PropertyModel[];
  /** Values of a string index signature written next to `properties`, if any. */
  additionalProperties?: TypeModel;
  /**
   * For a class read into an instance: how generated code reaches the constructor (an import
   * it must add) and which properties fill its parameters. Absent for plain object types.
   */
  construct?: {
    /**
     * Module specifier, as resolvable from the tool's file, and the export name. `from` is `""`
     * when the class is declared in the tool's own module; `exportName` is then its local name.
     */
    from: string;
    exportName: string;
    /** Wire names of properties passed to the constructor, in parameter order. */
    args: string[];
  };
  /** Where the type is declared (for diagnostics and watch files). */
  declaredAt?: SourceLocation;
}

/** A property of an object type. */
export interface PropertyModel {
  /** The name on the wire (after `@jsonName` / `@naming`). */
  name: string;
  /** The property name in TypeScript (what the reader assigns / the writer reads). */
  key: string;
  type: TypeModel;
  required: boolean;
  description?: string;
  /** `true` for a getter without a setter: written in output schemas only. */
  readOnly?: boolean;
}

/**
 * A default value that is a compile-time constant (spec §3), as its JSON wire value: a string,
 * number or boolean, or an array of these (nested arrays included; never `null` inside).
 */
export type DefaultValue = string | number | boolean | DefaultValue[];

/** A listed parameter (or a property of the destructured parameter). */
export interface ValueParam {
  role: "value";
  /** Parameter name (for a destructured parameter, the property's wire name). */
  name: string;
  /** For a destructured parameter: the property key in TypeScript. Absent otherwise. */
  key?: string;
  type: TypeModel;
  required: boolean;
  description?: string;
  /** Written as the schema's `default` when present. */
  default?: DefaultValue;
  /**
   * `true` when the default is `null` (`p: string | null = null`): nothing is written (spec §3),
   * and the `openai-strict` profile raises no OMCW0003 for the property (spec §11).
   */
  nullDefault?: true;
}

/** One parameter of the tool function, in declaration order. */
export type ParamModel =
  | ValueParam
  /** `RequestContext`: filled by the runtime, never listed. */
  | { role: "context"; name: string }
  /** `AbortSignal`: filled by the runtime with the call's signal, never listed. */
  | { role: "signal"; name: string }
  /** `({ a, b }: Args)`: the only listed parameter; its properties become the tool's properties. */
  | { role: "destructured"; properties: ValueParam[] };

/** How a tool's return value is written (spec §6). `Promise<T>` is already unwrapped. */
export type ResultModel =
  | { kind: "void" }
  /** `string` or `string | null`. */
  | { kind: "text" }
  /** Object-shaped (an object, record or map, or a discriminated union of §4a): `outputSchema` + `structuredContent` + a text block with the same JSON. */
  | {
      kind: "structured";
      type: ObjectModel | Extract<TypeModel, { kind: "record" }> | UnionModel;
      nullable: boolean;
      /** `WithContent<T>` (docs/runtime.md "Custom text beside a typed result"): `content` is the tool's own blocks, not the JSON text. */
      customContent?: true;
    }
  /** Anything else listed in §6 (number, boolean, array, set, date, enum): one text block of JSON. */
  | { kind: "json"; type: TypeModel }
  /** `CallToolResult`, a content block or an array of content blocks: passed through. */
  | { kind: "passthrough" };

/** Tool annotations (spec §1), already under their wire names and in wire order. */
export interface AnnotationsModel {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** MCP `Tool.execution.taskSupport` values (MCP 2025-11-25 "Tasks", tool-level negotiation). */
export type TaskSupport = "forbidden" | "optional" | "required";

/**
 * Whether a tool with this `execution` may run as a task (`taskSupport` "optional" or "required"):
 * the one rule codegen (which tools carry the tasks runtime) and the runtime (which tools need it) share.
 */
export function mayRunAsTask(execution: { readonly taskSupport: TaskSupport } | undefined): boolean {
  return execution?.taskSupport === "optional" || execution?.taskSupport === "required";
}

/** A tool's `execution` (MCP 2025-11-25 `ToolExecution`): whether it may, or must, run as a task. */
export interface ToolExecutionModel {
  taskSupport: TaskSupport;
  /**
   * The `taskStart` option (docs/runtime.md "Tasks", "Input before the task"; SEP-2663 composition
   * with SEP-2322 `input_required` rounds): `"after-input"` — on 2026-07-28 the first round runs as
   * an ordinary call and the task is created on a round that carries `inputResponses` or
   * `requestState`. Absent: the task is created when the call starts. Never listed.
   */
  start?: TaskStart;
}

/** Values of the `taskStart` tool option (docs/runtime.md "Tasks"). */
export type TaskStart = "call" | "after-input";

/**
 * Where a tool was declared, with the source spans the splice step needs. Offsets are
 * UTF-16 code-unit offsets into the module text that extraction was given.
 */
export type ToolSite =
  /** `@tool()` on a class method. */
  | {
      kind: "method";
      member: string;
      static: boolean;
      /** Offset just after the `{` that opens the class body (where a `static {}` block goes). */
      classBodyStart: number;
      /** `[start, end)` of the `@tool(...)` decorator, removed by the splice. */
      decorator: [number, number];
    }
  /** `server.tool("name", [options,] fn)`. */
  | {
      kind: "quick";
      /** Offset of the call's closing `)` (the generated descriptor is inserted before it). */
      callEnd: number;
      /** Whether the last argument is followed by a trailing comma. */
      trailingComma: boolean;
    };

/** One tool, ready for code generation. */
export interface ToolModel {
  name: string;
  description?: string;
  annotations?: AnnotationsModel;
  /** MCP Apps (spec §9). */
  ui?: { resourceUri: string; visibility?: ("model" | "app")[] };
  /** MCP tasks (the `task` option; MCP 2025-11-25 "Tasks", SEP-2663): listed as `execution.taskSupport`. Absent: not task-capable. */
  execution?: ToolExecutionModel;
  /** OAuth scopes a call needs (docs/auth.md "Scopes"); never listed. Absent: none. */
  scopes?: string[];
  params: ParamModel[];
  result: ResultModel;
  site: ToolSite;
  /** The declaration (the method name, or the `server.tool` call). */
  location: SourceLocation;
}

/**
 * A parameter of a resource or prompt (spec §8): read from a string (a URI template variable or
 * a prompt argument). `type` is `string`, `number`, `integer`, `boolean`, `date`, a string
 * `enum`, or `nullable` of one of these.
 */
export interface StringParam extends ValueParam {
  /** When absent and not required: pass `null` (a nullable parameter without a default) instead of `undefined`. */
  absentAsNull?: boolean;
}

/** A parameter of a resource or prompt function, in declaration order (never destructured). */
export type StringParamModel = StringParam | { role: "context"; name: string } | { role: "signal"; name: string };

/** Where a resource or prompt was declared: as {@link ToolSite} (`@resource`/`@prompt` on a method, or the quick path). */
export type DeclarationSite = ToolSite;

/** How a resource's return value is written (spec §8). `Promise<T>` is already unwrapped. */
export type ResourceResultModel =
  /** `string`: one text contents, `mimeType` the option's or `text/plain`. */
  | { kind: "text" }
  /** `Uint8Array`: one blob contents (base64). */
  | { kind: "bytes" }
  /** `ReadResourceResult`, or resource contents (one or an array): passed through. */
  | { kind: "passthrough" };

/** One resource (fixed `uri`) or resource template (`uriTemplate`), ready for code generation (spec §8). */
export interface ResourceModel {
  /** A URI without variables: listed in `resources/list`. Exactly one of `uri` and `uriTemplate` is set. */
  uri?: string;
  /** An RFC 6570 template: listed in `resources/templates/list`. */
  uriTemplate?: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** OAuth scopes a read needs (docs/auth.md "Scopes"); never listed. Absent: none. */
  scopes?: string[];
  params: StringParamModel[];
  result: ResourceResultModel;
  site: DeclarationSite;
  location: SourceLocation;
}

/** How a prompt's return value is written (spec §8). */
export type PromptResultModel =
  /** `string`: one user text message. */
  | { kind: "text" }
  /** `PromptMessage[]`: the messages. */
  | { kind: "messages" }
  /** `GetPromptResult`: passed through. */
  | { kind: "passthrough" };

/** One prompt, ready for code generation (spec §8). */
export interface PromptModel {
  name: string;
  title?: string;
  description?: string;
  /** OAuth scopes a `prompts/get` needs (docs/auth.md "Scopes"); never listed. Absent: none. */
  scopes?: string[];
  /** Listed parameters become `arguments` in declaration order. */
  params: StringParamModel[];
  result: PromptResultModel;
  site: DeclarationSite;
  location: SourceLocation;
}

/**
 * A completion hook declared with `@complete(prompt, argument)` on a method of the prompt's class
 * (docs/resources.md "Completion hooks"): the method completes `argument` of the prompt and
 * receives the other arguments named by its own parameters after the first.
 */
export interface CompletionHookModel {
  /** The prompt's listed name (what `completion/complete`'s `ref/prompt` names). */
  prompt: string;
  /** The completed argument (a listed parameter of the prompt). */
  argument: string;
  /** The hook method's name, and whether it is static (as the prompt). */
  member: string;
  static: boolean;
  /** The hook's parameters after `value`, in order: names of the prompt's other arguments. */
  given: string[];
  /** Offset just after the `{` of the class body, and `[start, end)` of the `@complete(...)` decorator (removed by the splice). */
  classBodyStart: number;
  decorator: [number, number];
  location: SourceLocation;
}

/** Everything extraction learned about one module. */
export interface ModuleModel {
  file: string;
  /** Tools grouped by declaration site: decorated classes (by the class's start offset) and quick-path calls. */
  tools: ToolModel[];
  /** Resources and resource templates (spec §8), in source order. Absent: none. */
  resources?: ResourceModel[];
  /** Prompts (spec §8), in source order. Absent: none. */
  prompts?: PromptModel[];
  /** `@complete` hooks of the module's prompts, in source order. Absent: none. */
  completions?: CompletionHookModel[];
  diagnostics: Diagnostic[];
  /** Every file whose declarations were consulted (for `addWatchFile` and cache invalidation). */
  consultedFiles: string[];
  /**
   * Which declarations of the consulted files the model depends on (watch mode and the cache
   * reuse the model after an edit of a consulted file that leaves them unchanged; docs/bundlers.md
   * "Invalidation per declaration"). Absent: every consulted file counts as a whole.
   */
  declarations?: DeclarationDependencies;
}

/** The per-declaration dependencies of a {@link ModuleModel} (computed by `@typed-mcp/extract`'s `dependencyDigest`). */
export interface DeclarationDependencies {
  /** The names the dependency closure starts from (sorted): the module's own identifiers and the declarations the checker consulted. */
  names: string[];
  /** Consulted files depended on as a whole (sorted). */
  whole: string[];
  /** SHA-256 (hex) over the reached statements of every consulted file, each with its line and column. */
  digest: string;
}

/**
 * The end of every `switch` over a model kind ({@link TypeModel}, {@link ResultModel},
 * {@link ResourceResultModel}, {@link PromptResultModel}, parameter roles, constraint keys):
 * `default: return assertNever(x)`. When a member is added to one of those unions, each switch
 * that does not handle it stops compiling (`x` is no longer `never`), so `pnpm build` lists
 * every place the new kind must be handled (docs/extraction.md "Adding a type kind").
 *
 * @param x The value the switch did not handle; `never` when every member is handled.
 * @throws {Error} Always, naming the unhandled kind — reached only by data that bypassed the types.
 */
export function assertNever(x: never): never {
  const kind = (x as { kind?: unknown } | null)?.kind ?? x;
  throw new Error(`typed-mcp: unhandled model kind ${JSON.stringify(kind)}.`);
}
