/**
 * Shared types (issue 12; docs/architecture.md "Shared types"): with a {@link SharedUnits} on the
 * tool's {@link Scope}, every object type (an interface, an object alias, an intersection, a class
 * read into a plain object) gets ONE schema constant, ONE reader and ONE writer per bundle,
 * referenced by name from every tool that uses it, instead of its text inlined at each use.
 *
 * A unit is keyed by the SHA-256 of its generated text: the text is a pure function of the type's
 * model and of what the reader's sentences depend on (`orNull`, the profile's `nullAsAbsent`), so
 * equal types share, and a description or constraint that differs gives a different unit. The
 * host binds each unit's name (`__tmcp_u_<id>`) once: `@typed-mcp/unplugin` as a virtual module
 * per unit (every bundler dedupes it by id, across modules), `@typed-mcp/babel` as a declaration
 * hoisted to the module (`@typed-mcp/transform` splice.ts, units.ts).
 *
 * - Schema: the constant is the object schema {@link typeSchema} wrote (`shareablePart`); a
 *   listing refers to it; a use that adds a description is `__tmcp.described(<constant>, "…")`
 *   (the same keys in the same order, built at module load), or, when it differs otherwise, refers
 *   to the constant's `properties` / `required` / `additionalProperties`. Evaluated, the listing holds equal values in the same key order, so
 *   its JSON is byte-identical; nothing at run time modifies listings (client-view.ts copies
 *   their top-level keys only; §11 profiles are applied at build time, to copies).
 * - Reader `function (x)`: returns the read value (always an object), or on failure the string
 *   `<path suffix>\n<sentence>` (spec §5 texts; a safe path never holds a line feed). The caller
 *   tests `typeof r === "string"` and only then builds its path: `__tmcp.invalidFrom(path, r)`
 *   at a tool's reader, `<own suffix> + r` inside another unit. Its checks are the inline
 *   reader's, in the same order (§5 failure order). Recursion is over the TYPE only.
 * - Writer `function (v)`: the inline writer's code, returning the written JSON value.
 * - Check unit `function (x)` ({@link checkShared}): a read that converts nothing and takes more
 *   than one check (numbers, `Int`, constrained strings, enums, arrays of such); `undefined` when
 *   valid, else the failure string.
 * - The tool's whole `read(a, ctx)` and `write(value)` ({@link shareMethod}).
 *
 * A class read into an instance (`ObjectModel.construct`) needs its constructor imported from
 * the tool's module; a unit has no such module, so those types (and types holding one) stay
 * inline.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { ObjectModel, TypeModel } from "@typed-mcp/model";
import { Lines, Scope, UNIT_ROOT, helperCall, inUnit, literal, pathCode, str, type Path } from "./emit.js";
import { member } from "./property-access.js";
import type { Ctx } from "./read-context.js";
import { shareablePart } from "./schema.js";

/** One shared unit: its name in generated code, the JavaScript expression it is bound to, and the units that expression refers to. */
export interface SharedUnit {
  /** 16 hex digits: the start of the SHA-256 of `code`. */
  id: string;
  /** `__tmcp_u_<id>`: the binding generated code uses. */
  name: string;
  /** An expression (a schema literal, a reader or writer function, or an IIFE returning one) that refers to the runtime only as `__tmcp` and to other units by name. */
  code: string;
  /** The ids of the units `code` refers to. */
  deps: string[];
}

/** The prefix of a unit's binding. */
export const UNIT_NAME_PREFIX = "__tmcp_u_";
const UNIT_NAME = /__tmcp_u_([0-9a-f]{16})/g;

/**
 * The units one tool's generated code refers to (set as `Scope.share`), each listed once, every
 * unit after the units it refers to.
 */
export class SharedUnits {
  private readonly byId = new Map<string, SharedUnit>();
  private readonly schemas = new WeakMap<object, string>();

  /** Every unit added, dependencies first. */
  get units(): SharedUnit[] {
    return [...this.byId.values()];
  }

  /** Adds the unit whose expression is `code` (its dependencies are added already) and returns its name. */
  add(code: string): string {
    const id = createHash("sha256").update(code).digest("hex").slice(0, 16);
    if (!this.byId.has(id)) {
      const deps = [...new Set([...code.matchAll(UNIT_NAME)].map((m) => m[1]!))];
      this.byId.set(id, { id, name: UNIT_NAME_PREFIX + id, code, deps });
    }
    return UNIT_NAME_PREFIX + id;
  }

  /**
   * For `literal`: the expression of a shared object schema (or of one of its keywords'
   * values), or `undefined` for an object that is not part of one.
   */
  readonly schemaRef = (obj: object): string | undefined => {
    const part = shareablePart(obj);
    if (part === undefined) return this.describedRef(obj);
    let name = this.schemas.get(part.base);
    if (name === undefined) {
      // The base's own keywords are written out in its literal; nested shared schemas are referred to.
      const code = literal(part.base, (o) =>
        o === part.base || shareablePart(o)?.base === part.base ? undefined : this.schemaRef(o),
      );
      name = this.add(code);
      this.schemas.set(part.base, name);
    }
    return part.key === undefined ? name : member(name, part.key);
  };

  /**
   * For a tool's listing (`emit.ts` `assemble`): {@link schemaRef}, else, for a leaf schema (see
   * {@link isLeafSchema}: a property's `{"type":"string","description":…,"enum":[…],"default":…}`),
   * a schema unit holding that object, written once per bundle however many tools list the same
   * property (issue 26: code per tool, no repeated long literals). Listings hold the unit's object
   * by reference, as they hold object schema constants; they are never modified.
   */
  readonly listingRef = (obj: object): string | undefined => {
    const ref = this.schemaRef(obj);
    if (ref !== undefined || !isLeafSchema(obj)) return ref;
    const code = literal(obj);
    return code.length < LEAF_UNIT_MIN ? undefined : this.add(code);
  };

  /**
   * For a described use of a shared object schema ({@link describedBase}): `__tmcp.described(<constant>,
   * "<description>")`, which builds the same object (same keys, same order) at module load, instead of
   * `{"type":"object","description":…,"properties":<constant>.properties,"required":<constant>.required}`
   * at every use (issue 26: code per tool). `undefined` for any other object.
   */
  private describedRef(obj: object): string | undefined {
    const base = describedBase(obj);
    if (base === undefined) return undefined;
    return helperCall("described", this.schemaRef(base)!, str((obj as { description: string }).description));
  }
}

/**
 * Shorter leaf schemas stay inline: `{"type":"string","format":"uri"}` (32 characters) is about as
 * long as the unit's name, and a unit costs a binding.
 */
const LEAF_UNIT_MIN = 40;

/**
 * Whether `obj` is a schema node with a `type` whose every keyword value is a JSON primitive or an
 * array of primitives (`enum`, a nullable `type`): no subschema, no object `default`, so its text is
 * the whole of it.
 */
function isLeafSchema(obj: object): boolean {
  if (Array.isArray(obj) || !Object.hasOwn(obj, "type")) return false;
  const primitive = (v: unknown): boolean => v === null || typeof v !== "object";
  return Object.values(obj).every((v) => primitive(v) || (Array.isArray(v) && v.every(primitive)));
}

/**
 * Whether `obj` is exactly `{ type, description, …the other keywords of one shared object schema }`:
 * a described use of it, with every other keyword its base's own value, in its base's order.
 */
function describedBase(obj: object): object | undefined {
  if (Array.isArray(obj)) return undefined;
  const o = obj as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length < 3 || keys[0] !== "type" || keys[1] !== "description" || typeof o.description !== "string")
    return undefined;
  const first = o[keys[2]!];
  const base = typeof first === "object" && first !== null ? shareablePart(first)?.base : undefined;
  if (base === undefined) return undefined;
  const b = base as Record<string, unknown>;
  const baseKeys = Object.keys(b);
  if (baseKeys.length !== keys.length - 1 || baseKeys[0] !== "type" || b.type !== o.type) return undefined;
  for (let i = 2; i < keys.length; i++)
    if (baseKeys[i - 1] !== keys[i] || o[keys[i]!] !== b[keys[i]!]) return undefined;
  return base;
}

/**
 * `function (<params>) { <body> return <expr>; }` (no `return` line without `expr`: the body
 * returns itself), wrapped in an IIFE when the unit hoisted constants (regular expressions, enum sets).
 */
function unitFunction(params: string, scope: Scope, body: Lines, expr?: string): string {
  const fn = new Lines();
  fn.open(`function (${params}) {`).append(body);
  if (expr !== undefined) fn.line(`return ${expr};`);
  fn.close();
  if (scope.hoisted.length === 0) return fn.toString();
  const iife = new Lines();
  iife.open("(() => {");
  for (const h of scope.hoisted) iife.line(h);
  const lines = fn.toString().split("\n");
  iife.line(`return ${lines[0]}`);
  for (const l of lines.slice(1, -1)) iife.line(l);
  iife.line(`${lines[lines.length - 1]};`);
  iife.close("})()");
  return iife.toString();
}

/**
 * Reads the object type `t` at `x` through its shared reader (see the module comment): appends
 * the call and the failure test, and returns the local holding the value. A type whose reader
 * would import a class constructor is read inline (by `readObject`).
 *
 * @param readObject read.ts's inline object reader, passed in to keep the module graph acyclic.
 */
export function readShared(
  t: ObjectModel,
  x: string,
  path: Path,
  c: Ctx,
  readObject: (t: ObjectModel, x: string, path: Path, c: Ctx) => string,
): string {
  const share = c.scope.share!;
  const scope = new Scope();
  scope.share = share;
  const body = new Lines();
  const expr = readObject(t, "x", UNIT_ROOT, { out: body, scope, orNull: c.orNull, nullAsAbsent: c.nullAsAbsent });
  if (scope.constructs) return readObject(t, x, path, c);
  const name = share.add(unitFunction("x", scope, body, expr));
  const r = c.scope.fresh("r");
  c.out.line(`const ${r} = ${name}(${x});`);
  c.out.line(`if (typeof ${r} === "string") return ${unitFailure(path, r)};`);
  // Zero copy: the unit returns `x` itself when it may (read.ts `readObject`), so the caller may too.
  if (scope.same.has(expr)) c.scope.same.add(r);
  return r;
}

/** The failure a unit's `<path suffix>\n<sentence>` in local `r` becomes at `path`: the whole §5 text at a tool's reader, the longer suffix inside another unit. */
function unitFailure(path: Path, r: string): string {
  return inUnit(path)
    ? path.length === 1
      ? r
      : `${pathCode(path)} + ${r}`
    : helperCall("invalidFrom", pathCode(path), r);
}

/** Kinds whose reads may be check units ({@link checkShared}). */
const CHECKABLE = new Set<TypeModel["kind"]>(["string", "number", "integer", "enum", "array"]);

/**
 * Reads `t` at `x` through a shared CHECK unit when its read converts nothing (the value is `x`
 * itself: a constrained string, a number, an `Int`, a string or number enum, an array of such)
 * and takes more than one check: `function (x) { …checks… }` returns `undefined` for a valid
 * value, else the failure `<path suffix>\n<sentence>` (§5 texts, same order as inline) — so,
 * unlike {@link readShared}, it also fits types whose valid values are strings (enums). One unit
 * per distinct text, like object units. Returns `x`, or `undefined` when `t` is read inline
 * (a kind not in the list, a conversion, a single check).
 *
 * @param read The reader of one value ({@link readValue}), passed in to keep the module graph acyclic.
 */
export function checkShared(
  t: TypeModel,
  x: string,
  path: Path,
  c: Ctx,
  read: (t: TypeModel, x: string, path: Path, c: Ctx) => string,
): string | undefined {
  if (!CHECKABLE.has(t.kind) || c.scope.share === undefined || c.unitTop === true) return undefined;
  const scope = new Scope();
  scope.share = c.scope.share;
  const body = new Lines();
  const expr = read(t, "x", UNIT_ROOT, {
    out: body,
    scope,
    orNull: c.orNull,
    nullAsAbsent: c.nullAsAbsent,
    unitTop: true,
  });
  if (expr !== "x" || scope.constructs || body.lines.length < 2) return undefined;
  const name = c.scope.share.add(unitFunction("x", scope, body));
  const f = c.scope.fresh("f");
  c.out.line(`const ${f} = ${name}(${x});`);
  c.out.line(`if (${f} !== undefined) return ${unitFailure(path, f)};`);
  return x;
}

/**
 * Writes the object type `t` (the value of expression `x`) through its shared writer, which the
 * call adds to `share`; returns the call, an expression to use once.
 *
 * @param writeObject write.ts's inline object writer, passed in to keep the module graph acyclic.
 */
export function writeShared(
  t: ObjectModel,
  x: string,
  share: SharedUnits,
  writeObject: (t: ObjectModel, x: string, c: { out: Lines; scope: Scope }) => string,
): string {
  const scope = new Scope();
  scope.share = share;
  const body = new Lines();
  const expr = writeObject(t, "v", { out: body, scope });
  return `${share.add(unitFunction("v", scope, body, expr))}(${x})`;
}

/**
 * A whole tool method body as a shared unit (issue 12: one reader / writer per distinct text, so
 * tools with the same parameter list, or the same result kind, share one function): the body a
 * fresh `scope` (whose `share` is the tool's) generated, as `function (<params>) { <body> }`.
 * Returns the unit's name, or `undefined` when the body refers to a class constructor (only the
 * tool's module can import it, see the module comment), which the caller then inlines.
 *
 * @param params The method's parameter list, e.g. `"a, ctx"` (`read`) or `"value"` (`write`).
 */
export function shareMethod(params: string, scope: Scope, body: Lines): string | undefined {
  if (scope.constructs || scope.share === undefined) return undefined;
  return scope.share.add(unitFunction(params, scope, body));
}
