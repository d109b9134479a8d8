/**
 * Low-level pieces of the emitter: JavaScript literals, a line buffer with indentation, the
 * per-tool scope (fresh local names, hoisted constants, imports), error paths and the descriptor
 * assembly. Property access and assignment are in property-access.ts.
 *
 * @module
 */

import type { RuntimeHelperName } from "@typed-mcp/model";
import type { SharedUnits } from "./shared.js";

/** The runtime namespace the generated code refers to (`import * as __tmcp from "typed-mcp/internal"`). */
export const RUNTIME_NAMESPACE = "__tmcp";

/**
 * The code of one call of a runtime helper: `__tmcp.<name>(<args>)`. The only way codegen
 * writes a helper call, so that `name` is checked against {@link RuntimeHelperName} (the list
 * `typed-mcp/internal` must implement; a renamed helper fails the build on both sides).
 *
 * @param name The helper (`@typed-mcp/model` `RUNTIME_HELPERS`).
 * @param args The arguments, as JavaScript expressions (code, not values).
 */
export function helperCall(name: RuntimeHelperName, ...args: string[]): string {
  return `${RUNTIME_NAMESPACE}.${name}(${args.join(", ")})`;
}

/** A reference to a runtime export (not a call): `__tmcp.<name>`, `name` checked as in {@link helperCall}. */
function runtimeRef(name: RuntimeHelperName): string {
  return `${RUNTIME_NAMESPACE}.${name}`;
}

/**
 * The argument a generated reader passes for a parameter the runtime fills (spec §3: never
 * listed): the call's `RequestContext` (`ctx`) or its `AbortSignal` (`ctx.signal`). Shared by
 * the tool reader and the resource/prompt string reader.
 */
export const RUNTIME_ARGUMENT = { context: "ctx", signal: "ctx.signal" } as const;

/** An import the generated code needs: `import { <exportName> as <local> } from "<from>"`. */
export interface ImportRequest {
  from: string;
  exportName: string;
  local: string;
}

/** Thrown when a model cannot be turned into code (a model that extraction should have refused). */
export class CodegenError extends Error {
  override name = "CodegenError";
}

const LINE_SEPARATORS = /[\u2028\u2029]/g;

/** JSON text with U+2028/U+2029 escaped, so the emitted code has `\n` as its only line terminator. */
function json(value: unknown): string {
  return JSON.stringify(value).replace(LINE_SEPARATORS, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

/** A JavaScript string literal for `s` (JSON string syntax is valid ES2019+ string syntax). */
export function str(s: string): string {
  return json(s);
}

/** A number as code, parenthesized when negative (`x < (-1)`, `case (-1):`). */
export function numberLiteral(n: number): string {
  return n < 0 ? `(${n})` : String(n);
}

/**
 * A JavaScript expression for a JSON value, with object keys in insertion order. Unlike plain
 * `JSON.stringify`, a key `__proto__` stays an own property when the literal is evaluated.
 *
 * @param ref Asked for every object and array first: an expression that evaluates to an equal
 *   value (a shared schema constant, `shared.ts`) to write instead of the literal, or `undefined`.
 */
export function literal(value: unknown, ref?: (obj: object) => string | undefined): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value))
      throw new CodegenError(`Cannot write the number ${value} as JSON.`);
    if (value === undefined) throw new CodegenError("Cannot write undefined as JSON.");
    return json(value);
  }
  const shared = ref?.(value);
  if (shared !== undefined) return shared;
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, ref)).join(",")}]`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    parts.push(`${k === "__proto__" ? `[${str(k)}]` : str(k)}:${literal(v, ref)}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * A RegExp literal `/…/u` for an ECMAScript pattern source (spec §4: `u` flag, unanchored).
 * Unescaped `/` and line terminators are escaped; the result denotes the same pattern.
 *
 * @throws CodegenError when the pattern does not compile with the `u` flag.
 */
function regexLiteral(source: string): string {
  try {
    new RegExp(source, "u");
  } catch (e) {
    throw new CodegenError(`The pattern ${str(source)} does not compile with the "u" flag: ${(e as Error).message}`);
  }
  let out = "";
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === "\\") {
      out += ch + source[i + 1]!;
      i++;
    } else if (ch === "/") out += "\\/";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\u2028") out += "\\u2028";
    else if (ch === "\u2029") out += "\\u2029";
    else out += ch;
  }
  return `/${out === "" ? "(?:)" : out}/u`;
}

/** Lines of code with indentation; child buffers can be built separately and appended. */
export class Lines {
  readonly lines: string[] = [];
  private depth = 0;

  line(s: string): this {
    this.lines.push("  ".repeat(this.depth) + s);
    return this;
  }
  open(s: string): this {
    this.line(s);
    this.depth++;
    return this;
  }
  close(s = "}"): this {
    this.depth--;
    this.line(s);
    return this;
  }
  /** Closes a block and opens the next at the same depth: `} else {`. */
  reopen(s: string): this {
    this.depth--;
    this.line(s);
    this.depth++;
    return this;
  }
  append(other: Lines): this {
    const pad = "  ".repeat(this.depth);
    for (const l of other.lines) this.lines.push(pad + l);
    return this;
  }
  get empty(): boolean {
    return this.lines.length === 0;
  }
  toString(): string {
    return this.lines.join("\n");
  }
}

function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/**
 * Per-tool state: fresh local names, constants hoisted to the tool's closure (regular
 * expressions, enum sets) and imports of class constructors.
 */
export class Scope {
  private counter = 0;
  /**
   * The shared units of the build (`shared.ts`): when set, object types get one schema constant,
   * reader and writer per distinct generated text, referenced by name instead of inlined.
   */
  share?: SharedUnits;
  /** Whether the code refers to a class constructor ({@link importClass}): it must stay in the tool's module. */
  constructs = false;
  readonly hoisted: string[] = [];
  readonly imports: ImportRequest[] = [];
  /**
   * Zero copy (issue 26, docs/codegen.md "Zero copy"): the locals a reader set either to the
   * very JSON value it read (when that value needed no copy) or to a fresh copy; the reader of
   * the enclosing object or array compares them with their source to reuse its own value too.
   */
  readonly same = new Set<string>();
  private readonly regexes = new Map<string, string>();

  /** A fresh local name `<prefix><n>`. */
  fresh(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  /** The name of a closure-level constant holding `/source/u` (one per distinct pattern). */
  regex(source: string): string {
    let name = this.regexes.get(source);
    if (name === undefined) {
      name = `re${this.regexes.size}`;
      this.regexes.set(source, name);
      this.hoisted.push(`const ${name} = ${regexLiteral(source)};`);
    }
    return name;
  }

  /** The name of a closure-level constant initialised with `init`. */
  hoist(prefix: string, init: string): string {
    const name = this.fresh(prefix);
    this.hoisted.push(`const ${name} = ${init};`);
    return name;
  }

  /**
   * The local name of an imported class constructor. The name is derived from the module and
   * export names only, so equal requests from different tools of one module get equal names.
   * A class declared in the tool's own module (`from === ""`, see `ObjectModel.construct`) is
   * referred to by its local name and needs no import: the reader runs at call time, after the
   * module has evaluated the class declaration.
   */
  importClass(from: string, exportName: string): string {
    this.constructs = true;
    if (from === "") return exportName;
    const safe = exportName.replace(/[^A-Za-z0-9_$]/g, "_");
    const local = `__tmcp_ctor_${safe}_${fnv1a(from + "\0" + exportName)}`;
    if (!this.imports.some((i) => i.local === local)) this.imports.push({ from, exportName, local });
    return local;
  }
}

/**
 * A path to a value, as static text and runtime expressions (spec §5 error paths). A path that
 * starts with {@link UNIT_ROOT} is relative to the value a shared reader reads (`shared.ts`).
 */
export type Path = readonly ({ text: string; unit?: true } | { expr: string })[];

/** The root of a shared reader's paths: its steps are the suffix the caller's own path gets (spec §5). */
export const UNIT_ROOT: Path = [{ text: "", unit: true }];

/** Whether `path` is relative to a shared reader's value ({@link UNIT_ROOT}). */
export function inUnit(path: Path): boolean {
  const first = path[0];
  return first !== undefined && "unit" in first && first.unit === true;
}

/** Appends a static step to `path`. */
export function pathText(path: Path, text: string): Path {
  return [...path, { text }];
}

/** Appends a runtime step (an expression converted to string by `+`) to `path`. */
export function pathExpr(path: Path, expr: string): Path {
  return [...path, { expr }];
}

/** A JavaScript expression building the path's string. */
export function pathCode(whole: Path): string {
  const path = inUnit(whole) ? whole.slice(1) : whole;
  const parts: string[] = [];
  let text = "";
  for (const p of path) {
    if ("text" in p) text += p.text;
    else {
      if (text !== "") parts.push(str(text));
      text = "";
      parts.push(p.expr);
    }
  }
  if (text !== "" || parts.length === 0) parts.push(str(text));
  if (!("text" in (path[0] ?? { text: "" }))) parts.unshift('""');
  return parts.join(" + ");
}

/** Where a descriptor was declared: a decorated method carries `member` and `static`. */
export type DescriptorSite = { kind: "method"; member: string; static: boolean } | { kind: "quick" };

/**
 * Writes one generated descriptor (a tool's, resource's or prompt's) as a JS expression:
 * `{ listing, read(a, ctx) {…}, <writeHead>…}, completions?, scopes?, taskStart?, <carried>?, result?, destructured?, params?, member?, static? }`, wrapped in an
 * arrow-function IIFE when the scope hoisted closure-level constants (built once per module load).
 *
 * @param read The reader's body, or the name of the shared unit (`shared.ts` `shareMethod`) that is the reader.
 * @param writeHead The writer's opening line, e.g. `"write(value) {"`.
 * @param write The writer's body, or the name of the shared unit that is the writer.
 * @param scopes The OAuth scopes a call needs (docs/auth.md "Scopes"); written only when non-empty.
 * @param taskStart A tool's `taskStart` option (docs/runtime.md "Tasks"); written only when `"after-input"`.
 * @param carries The capability runtimes the descriptor carries into the bundle, key → `typed-mcp/internal` export
 *   (`{ tasks: "installTasks" }`, `{ template: "uriTemplate" }`; docs/codegen.md "What a descriptor carries"),
 *   written as references `key: __tmcp.<export>,` in the given order.
 * @param call The call shape for `typed-mcp/testing` (docs/testing.md "Typed calls"): a tool's §6 result kind
 *   (`result`) and `destructured: true` when its one listed parameter is a destructuring pattern (spec §3);
 *   a resource template's variables in parameter order (`params`, written when non-empty).
 * @returns The expression and the constructor imports the scope requested.
 */
export function assemble(
  listing: object,
  read: Lines | string,
  writeHead: string,
  write: Lines | string,
  site: DescriptorSite,
  scope: Scope,
  completions?: Record<string, string[]>,
  scopes?: readonly string[],
  taskStart?: string,
  call?: { result?: string; destructured?: boolean; params?: readonly string[] },
  carries?: Readonly<Record<string, RuntimeHelperName>>,
): { code: string; imports: ImportRequest[] } {
  const obj = new Lines();
  obj.open("{");
  obj.line(`listing: ${literal(listing, scope.share?.listingRef)},`);
  if (typeof read === "string") obj.line(`read: ${read},`);
  else obj.open("read(a, ctx) {").append(read).close("},");
  if (typeof write === "string") obj.line(`write: ${write},`);
  else obj.open(writeHead).append(write).close("},");
  if (completions !== undefined) obj.line(`completions: ${literal(completions)},`);
  if (scopes !== undefined && scopes.length > 0) obj.line(`scopes: ${literal(scopes)},`);
  if (taskStart === "after-input") obj.line(`taskStart: ${str(taskStart)},`);
  for (const [key, name] of Object.entries(carries ?? {})) obj.line(`${key}: ${runtimeRef(name)},`);
  // How `typed-mcp/testing` calls the tool and reads its answer (docs/testing.md "Typed calls").
  if (call?.result !== undefined)
    obj.line(`result: ${str(call.result)},${call.destructured ? " destructured: true," : ""}`);
  if (call?.params !== undefined && call.params.length > 0) obj.line(`params: ${literal(call.params)},`);
  if (site.kind === "method") {
    obj.line(`member: ${str(site.member)},`);
    obj.line(`static: ${site.static},`);
  }
  obj.close("}");
  let code: string;
  if (scope.hoisted.length === 0) code = `(${obj.toString()})`;
  else {
    const iife = new Lines();
    iife.open("(() => {");
    for (const h of scope.hoisted) iife.line(h);
    const body = obj.toString().split("\n");
    iife.line(`return ${body[0]}`);
    for (const l of body.slice(1)) iife.line(l + (l === "}" ? ";" : ""));
    iife.close("})()");
    code = iife.toString();
  }
  return { code, imports: scope.imports.map((i) => ({ ...i })) };
}
