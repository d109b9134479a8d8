/**
 * What each declaration kind accepts at its site, and the reading of its literal arguments
 * (spec §1 "Name", "Description", "Annotations"; §8; §9). {@link DECLARATIONS} is the one table
 * from a decorator (`@tool`, `@resource`, `@prompt`) and its quick-path method (`.tool(`,
 * `.resource(`, `.prompt(`) to its option keys and its diagnostic code; the readers below
 * serve all three kinds. Literals are read from oxc nodes; any other value is folded to a
 * compile-time constant (spec §1) by the backend through a {@link ConstantReader}.
 */
import { SCOPE_TOKEN, assertNever } from "@typed-mcp/model";
import type { AnnotationsModel, DiagnosticCode, TaskStart, TaskSupport, ToolExecutionModel } from "@typed-mcp/model";
import type { ConstantValue } from "./backend/host.js";
import type { Argument, ObjectExpression, PropertyKey } from "oxc-parser";
import { constantOf, unwrap, type ConstantReader } from "./constants.js";

/** A problem found syntactically, reported at `offset` of the module text. */
export interface SiteProblem {
  code: DiagnosticCode;
  offset: number;
  message: string;
}

/** What a site declares: its decorator is `@<kind>`, its quick-path method `.<kind>(`. */
export type SiteKind = "tool" | "resource" | "prompt";

/** Tool options read from a literal (spec §1, §9). Only the keys the source assigns are present. */
interface ToolOptions {
  /** `@tool("name")`, the `name` option, or the quick path's first argument. */
  name?: string;
  /** The `description` option (wins over the doc comment). */
  description?: string;
  /** `title`, `readOnly`, `destructive`, `idempotent`, `openWorld` as MCP annotations, in that order (spec §1). */
  annotations?: AnnotationsModel;
  /** `uiResource` and `uiVisibility` (spec §9). */
  ui?: { resourceUri: string; visibility?: ("model" | "app")[] };
  /** `scopes`: the OAuth scopes a call needs (docs/auth.md "Scopes"). */
  scopes?: string[];
  /** `task`: `"forbidden" | "optional" | "required"`, listed as `execution.taskSupport`; `taskStart` as `execution.start` (never listed) (docs/runtime.md "Tasks"). */
  execution?: ToolExecutionModel;
}

/** Options of a resource or prompt site (spec §8). Only the keys the source assigns are present. */
interface ResourceOptions {
  /** Resource only: the URI or URI template. */
  uri?: string;
  /** Prompt: `@prompt("name")` or the quick path's first argument; both: the `name` option. */
  name?: string;
  /** The `title` option. */
  title?: string;
  /** The `description` option (wins over the doc comment). */
  description?: string;
  /** Resource only: the `mimeType` option. */
  mimeType?: string;
  /** `scopes`: the OAuth scopes a read (resource) or get (prompt) needs (docs/auth.md "Scopes"). */
  scopes?: string[];
}

/** The options type of each kind. */
export interface OptionsOf {
  tool: ToolOptions;
  resource: ResourceOptions;
  prompt: ResourceOptions;
}

/** The literal an option takes: a string, a boolean, one of the MCP Apps forms (§9, OMCG0010), or an array of OAuth scope tokens. */
type ValueKind = "string" | "boolean" | "uiResource" | "uiVisibility" | "scopes" | "taskSupport" | "taskStart";

/** The values of the `task` option (MCP 2025-11-25 `ToolExecution.taskSupport`). */
const TASK_SUPPORT: readonly TaskSupport[] = ["forbidden", "optional", "required"];
/** The values of the `taskStart` option (docs/runtime.md "Tasks", "Input before the task"). */
const TASK_START: readonly TaskStart[] = ["call", "after-input"];

/** What one declaration kind accepts at its site. */
export interface DeclarationRules {
  /** The code of its option and first-argument problems (spec §10). */
  code: DiagnosticCode;
  /** The options a decorator's object literal may assign, in the order messages list them, with the literal each takes. */
  options: Record<string, ValueKind>;
  /** Options the quick path's options object may not assign (its first argument does). */
  quickOmits: string[];
  /** The option the quick path's first argument, and a decorator's string argument, set. */
  firstKey: "name" | "uri";
  /** How messages name that argument. */
  firstLabel: string;
  /** Appended to a decorator's "takes at most one argument". */
  arityHint: string;
  /** A decorator that must assign `firstKey` (by argument or option), and the message when it does not. */
  requiredMessage?: string;
}

const STRINGS = (keys: string[]): Record<string, ValueKind> =>
  Object.fromEntries(keys.map((k) => [k, "string" as const]));

/** The one table of declaration kinds (spec §1, §8, §9; codes of §10). */
export const DECLARATIONS: Record<SiteKind, DeclarationRules> = {
  tool: {
    code: "OMCG0001",
    options: {
      ...STRINGS(["name", "description", "title"]),
      readOnly: "boolean",
      destructive: "boolean",
      idempotent: "boolean",
      openWorld: "boolean",
      uiResource: "uiResource",
      uiVisibility: "uiVisibility",
      scopes: "scopes",
      task: "taskSupport",
      taskStart: "taskStart",
    },
    quickOmits: [],
    firstKey: "name",
    firstLabel: "tool name",
    arityHint: " (a name or an options object literal)",
  },
  resource: {
    code: "OMCG0011",
    options: { ...STRINGS(["uri", "name", "title", "description", "mimeType"]), scopes: "scopes" },
    quickOmits: ["uri"],
    firstKey: "uri",
    firstLabel: "URI",
    arityHint: "",
    requiredMessage: `@resource needs a URI: @resource("scheme://path/{var}") or @resource({ uri: "…" }).`,
  },
  prompt: {
    code: "OMCG0012",
    options: { ...STRINGS(["name", "title", "description"]), scopes: "scopes" },
    quickOmits: ["name"],
    firstKey: "name",
    firstLabel: "prompt name",
    arityHint: "",
  },
};

/** Whether `name` is a declaration kind (a decorator's imported name, a quick-path method). */
export function isSiteKind(name: string): name is SiteKind {
  return Object.hasOwn(DECLARATIONS, name);
}

/** Options read from a site, with the offset of the value that set `firstKey` (when one did). */
export interface ReadOptions<K extends SiteKind> {
  options: OptionsOf[K];
  firstOffset?: number;
}

/**
 * Reads a decorator's arguments (`@tool("name")`, `@resource("uri")`, `@prompt({ … })`): none,
 * or one string literal (sets the kind's `firstKey`) or object literal of options. Problems
 * (kind's code, OMCG0010 for MCP Apps values) are appended to `problems` in source order.
 */
export function readDecoratorOptions<K extends SiteKind>(
  what: K,
  args: Argument[],
  problems: SiteProblem[],
  reader: ConstantReader,
): ReadOptions<K> {
  const rules = DECLARATIONS[what];
  const label = `@${what}`;
  if (args.length === 0) return { options: {} };
  if (args.length > 1)
    problems.push({
      code: rules.code,
      offset: args[1]!.start,
      message: `${label}: takes at most one argument${rules.arityHint}.`,
    });
  const arg = unwrap(args[0]!);
  if (arg.type !== "ObjectExpression") {
    const c = constantOf(arg, reader);
    if (c && "value" in c && typeof c.value === "string")
      return { options: { [rules.firstKey]: c.value }, firstOffset: arg.start };
    if (c)
      problems.push({
        code: rules.code,
        offset: arg.start,
        message: `${label}: the argument must be a string constant (the ${rules.firstLabel}) or an object literal of options, so that it can be read at build time${"error" in c ? `; ${c.error}` : ""}.`,
      });
    return { options: {} };
  }
  return readObject(what, arg, Object.keys(rules.options), label, problems, reader);
}

/** Reads a quick path's options argument (`server.tool("name", { … }, fn)`): an object literal. */
export function readQuickOptions<K extends SiteKind>(
  what: K,
  options: Argument,
  problems: SiteProblem[],
  reader: ConstantReader,
): OptionsOf[K] {
  const rules = DECLARATIONS[what];
  const label = `server.${what}`;
  const arg = unwrap(options);
  if (arg.type !== "ObjectExpression") {
    problems.push({
      code: rules.code,
      offset: arg.start,
      message: `${label}: the options must be an object literal, so that they can be read at build time.`,
    });
    return {};
  }
  const allowed = Object.keys(rules.options).filter((k) => !rules.quickOmits.includes(k));
  return readObject(what, arg, allowed, label, problems, reader).options;
}

/** Reads an options object literal whose keys may be `allowed`; each value must be the literal its kind takes. */
function readObject<K extends SiteKind>(
  what: K,
  arg: ObjectExpression,
  allowed: string[],
  label: string,
  problems: SiteProblem[],
  reader: ConstantReader,
): ReadOptions<K> {
  const rules = DECLARATIONS[what];
  const values = new Map<string, string | boolean | string[]>();
  let firstOffset: number | undefined;
  for (const prop of arg.properties) {
    if (prop.type !== "Property" || prop.computed || prop.kind !== "init" || prop.method) {
      problems.push({
        code: rules.code,
        offset: prop.start,
        message: `${label}: options must be plain properties with literal values (no spread, computed keys or methods).`,
      });
      continue;
    }
    const key = keyName(prop.key);
    if (!allowed.includes(key)) {
      problems.push({
        code: rules.code,
        offset: prop.key.start,
        message: `${label}: unknown option '${key}'; the options are ${allowed.join(", ")}.`,
      });
      continue;
    }
    const value = unwrap(prop.value);
    const folded = constantOf(value, reader);
    if (!folded) continue;
    if ("error" in folded) {
      problems.push({
        code: rules.code,
        offset: value.start,
        message: `${label}: option '${key}' must be a compile-time constant (spec §1): ${folded.error}.`,
      });
      continue;
    }
    const read = readValue(rules.options[key]!, folded.value, value, label, problems, rules.code);
    if (read === undefined) {
      const [kind, code] = NON_LITERAL[rules.options[key]!];
      problems.push({
        code: code ?? rules.code,
        offset: value.start,
        message: `${label}: option '${key}' must be ${kind} constant, so that it can be read at build time.`,
      });
      continue;
    }
    values.set(key, read);
    if (key === rules.firstKey) firstOffset = value.start;
  }
  const options = what === "tool" ? toolOptions(values, arg.start, label, problems) : resourceOptions(values);
  return { options, ...(firstOffset !== undefined && { firstOffset }) };
}

/** How a value that is not the right literal is described, and its code when not the kind's. */
const NON_LITERAL: Record<ValueKind, [string, DiagnosticCode?]> = {
  string: ["a string"],
  boolean: ["a boolean"],
  uiResource: ["a string", "OMCG0010"],
  uiVisibility: ["an array", "OMCG0010"],
  scopes: ["an array"],
  taskSupport: ['"optional", "required" or "forbidden" (MCP execution.taskSupport) as a'],
  taskStart: ['"call" or "after-input" as a'],
};

/**
 * The value of one option from its constant, or `undefined` when it is not what `kind` takes. MCP
 * Apps value problems (§9) and bad scope entries (under `code`, the kind's) go to `problems`, at
 * the written value `node` (its element, for an array literal).
 */
function readValue(
  kind: ValueKind,
  value: ConstantValue,
  node: Argument,
  label: string,
  problems: SiteProblem[],
  code: DiagnosticCode,
): string | boolean | string[] | undefined {
  const offset = node.start;
  switch (kind) {
    case "string":
      return typeof value === "string" ? value : undefined;
    case "boolean":
      return typeof value === "boolean" ? value : undefined;
    case "uiResource": {
      if (typeof value !== "string") return undefined;
      if (!value.startsWith("ui://"))
        problems.push({ code: "OMCG0010", offset, message: `${label}: uiResource '${value}' must be a ui:// URI.` });
      return value;
    }
    case "uiVisibility": {
      if (!Array.isArray(value)) return undefined;
      const visibility: ("model" | "app")[] = [];
      for (const [i, el] of value.entries()) {
        const at = node.type === "ArrayExpression" ? (node.elements[i]?.start ?? offset) : offset;
        if (el === "model" || el === "app") visibility.push(el);
        else
          problems.push({
            code: "OMCG0010",
            offset: at,
            message: `${label}: uiVisibility entries must be the literals "model" or "app".`,
          });
      }
      return visibility;
    }
    case "scopes": {
      if (!Array.isArray(value)) return undefined;
      const scopes: string[] = [];
      for (const [i, el] of value.entries()) {
        const at = node.type === "ArrayExpression" ? (node.elements[i]?.start ?? offset) : offset;
        if (typeof el === "string" && SCOPE_TOKEN.test(el)) {
          if (!scopes.includes(el)) scopes.push(el);
        } else {
          const what =
            typeof el !== "string"
              ? "a string constant"
              : `an OAuth scope token (RFC 6749 §3.3: no spaces, quotes or backslashes), got ${JSON.stringify(el)}`;
          problems.push({ code, offset: at, message: `${label}: each entry of scopes must be ${what}.` });
        }
      }
      return scopes;
    }
    case "taskSupport":
      return typeof value === "string" && (TASK_SUPPORT as readonly string[]).includes(value) ? value : undefined;
    case "taskStart":
      return typeof value === "string" && (TASK_START as readonly string[]).includes(value) ? value : undefined;
    default:
      return assertNever(kind);
  }
}

/** Tool options from the values read (spec §1 "Annotations" in their fixed order, §9 `ui`). */
function toolOptions(
  values: Map<string, unknown>,
  objectStart: number,
  label: string,
  problems: SiteProblem[],
): ToolOptions {
  const options: ToolOptions = {};
  const name = values.get("name") as string | undefined;
  const description = values.get("description") as string | undefined;
  if (name !== undefined) options.name = name;
  if (description !== undefined) options.description = description;
  const annotations: AnnotationsModel = {};
  const hints = [
    ["title", "title"],
    ["readOnly", "readOnlyHint"],
    ["destructive", "destructiveHint"],
    ["idempotent", "idempotentHint"],
    ["openWorld", "openWorldHint"],
  ] as const;
  for (const [key, hint] of hints)
    if (values.has(key)) (annotations as Record<string, unknown>)[hint] = values.get(key);
  if (Object.keys(annotations).length > 0) options.annotations = annotations;
  const resourceUri = values.get("uiResource") as string | undefined;
  const visibility = values.get("uiVisibility") as ("model" | "app")[] | undefined;
  if (resourceUri !== undefined) options.ui = visibility ? { resourceUri, visibility } : { resourceUri };
  else if (visibility)
    problems.push({ code: "OMCG0010", offset: objectStart, message: `${label}: uiVisibility needs a uiResource.` });
  const scopes = values.get("scopes") as string[] | undefined;
  if (scopes !== undefined && scopes.length > 0) options.scopes = scopes;
  const task = values.get("task") as TaskSupport | undefined;
  const start = values.get("taskStart") as TaskStart | undefined;
  if (task !== undefined)
    options.execution =
      start === "after-input" && (task === "optional" || task === "required")
        ? { taskSupport: task, start }
        : { taskSupport: task };
  if (start === "after-input" && task !== "optional" && task !== "required") {
    problems.push({
      code: "OMCG0001",
      offset: objectStart,
      message: `${label}: taskStart "after-input" needs task "optional" or "required".`,
    });
  }
  return options;
}

/** Resource and prompt options from the values read; an empty `scopes` is left out (as for tools). */
function resourceOptions(values: Map<string, unknown>): ResourceOptions {
  const options = Object.fromEntries(values) as ResourceOptions;
  if (options.scopes !== undefined && options.scopes.length === 0) delete options.scopes;
  return options;
}

/** The written name of a non-computed object key: an identifier, or a literal's value as a string. */
function keyName(key: PropertyKey): string {
  if (key.type === "Identifier") return key.name;
  return key.type === "Literal" ? String(key.value) : "";
}
