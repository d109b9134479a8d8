/**
 * The oracle of the differential test: ajv (JSON Schema 2020-12) compiled against the tool's
 * listed `inputSchema`, with the formats and the content encoding bound to typed-mcp's OWN
 * predicates from the built `typed-mcp/internal` (ajv-formats is laxer than the contract):
 *
 * - `format: "email"` → `isEmail`, `format: "uri"` → `isUri` (spec §4 validation tags; docs/codegen.md "Formats"),
 * - `format: "date-time"` → `readDateTime(s) !== undefined` (spec §4 `Date`; the contract refuses
 *   the leap second `:60` that RFC 3339 allows, since a `Date` cannot hold it),
 * - `contentEncoding: "base64"` → `readBase64(s) !== undefined` (ajv treats it as an annotation
 *   by default; the contract refuses non-canonical base64).
 *
 * ajv runs with `ownProperties: true`: JSON has no prototype, so a property named `constructor`
 * or `toString` must be an own property to count (spec §5 "can never reach a prototype").
 *
 * The contract's DELIBERATE departures from the listed schema are written into the oracle's
 * copy of the schema (guided by the tool's model), each one also pinned case by case in
 * found.test.ts ("departures"):
 *
 * 1. `Set<T>`: `uniqueItems` is listed but duplicates are dropped, not refused (spec §4 table,
 *    `Set` row; §4 "The reader enforces every constraint it lists, except `uniqueItems` on a
 *    `Set`"). The oracle's copy has no `uniqueItems`.
 * 2. `bigint`: listed as `integer`, but only safe integers are read (spec §4 `Int`/`bigint` row;
 *    docs/codegen.md "Per type"). The oracle adds `x-safeInteger`.
 * 3. `URL`: listed as `format: "uri"`, but the reader also needs `new URL(s)` to succeed
 *    (spec §4 `URL` row "from an absolute URI"; docs/codegen.md "Per type"). The oracle uses
 *    `format: "x-url"` bound to `readUrl`.
 *
 * Two workarounds for ajv itself (not departures; found by this test, pinned in found.test.ts):
 * ajv 8 silently skips a `properties` entry named `__proto__` (its generated code never checks
 * it), and treats `required: [""]` as always satisfied. The contract lists and reads both
 * (docs/codegen.md "Wire names are written as own properties"). The oracle therefore renames
 * these keys ({@link RENAMED_KEYS}) — in the data, and in `properties`, `required` and
 * `propertyNames` of its schema copy — before ajv sees them.
 *
 * 4. Object with an index signature and a renamed property: a key equal to the property's
 *    TypeScript key is refused (docs/codegen.md "Per type", object + index signature row). The
 *    oracle adds `propertyNames: { not: { enum: [those keys] } }`.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ObjectModel, ToolModel, TypeModel } from "../../packages/model/src/index.ts";
import { listed } from "./values.ts";

const root = resolve(fileURLToPath(import.meta.url), "../../..");

/** The runtime's own predicates (the built `typed-mcp/internal`, as generated code imports it). */
const internal = (await import(pathToFileURL(join(root, "packages/typed-mcp/dist/internal.js")).href)) as {
  isEmail(s: string): boolean;
  isUri(s: string): boolean;
  readDateTime(x: unknown): Date | undefined;
  readUrl(x: unknown): URL | undefined;
  readBase64(x: unknown): Uint8Array | undefined;
};

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, ownProperties: true, allErrors: false, validateFormats: true });
  ajv.addFormat("email", { type: "string", validate: (s: string) => internal.isEmail(s) });
  ajv.addFormat("uri", { type: "string", validate: (s: string) => internal.isUri(s) });
  ajv.addFormat("date-time", { type: "string", validate: (s: string) => internal.readDateTime(s) !== undefined });
  ajv.addFormat("x-url", { type: "string", validate: (s: string) => internal.readUrl(s) !== undefined });
  ajv.removeKeyword("contentEncoding");
  ajv.addKeyword({
    keyword: "contentEncoding",
    type: "string",
    schemaType: "string",
    validate: (enc: string, data: string) => enc !== "base64" || internal.readBase64(data) !== undefined,
  });
  ajv.addKeyword({
    keyword: "x-safeInteger",
    type: "number",
    validate: (_: unknown, data: number) => Number.isSafeInteger(data),
  });
  return ajv;
}

let shared: Ajv2020 | undefined;

type Schema = Record<string, unknown>;

/** The oracle's copy of a type's schema, with the departures (file comment) written in. */
function departures(t: TypeModel, s: Schema): Schema {
  const out: Schema = { ...s };
  switch (t.kind) {
    case "integer":
      if (t.bigint) out["x-safeInteger"] = true; // departure 2
      break;
    case "url":
      out.format = "x-url"; // departure 3
      break;
    case "array":
      if (t.set) delete out.uniqueItems; // departure 1
      out.items = departures(t.items, s.items as Schema);
      break;
    case "record":
      out.additionalProperties = departures(t.values, s.additionalProperties as Schema);
      break;
    case "object":
      objectDepartures(t, s, out);
      break;
    case "nullable":
      return departures(t.inner, s);
    case "tuple":
      out.items = departures(t.items, s.items as Schema);
      break;
    case "union":
      // §4a: a type array has bare members (a `bigint` member's x-safeInteger applies to numbers only).
      if (Array.isArray(s.anyOf)) out.anyOf = unionDepartures(t, s.anyOf as Schema[]);
      else if (t.members.some((m) => m.kind === "integer" && m.bigint)) out["x-safeInteger"] = true;
      break;
    default:
      break;
  }
  return out;
}

/**
 * The departures of a union's `anyOf` members: a discriminated member (`Shape | Shape[]`) is
 * listed as its objects, flat, so it takes one `anyOf` entry per object; a trailing
 * `{"type":"null"}` is kept.
 */
function unionDepartures(t: Extract<TypeModel, { kind: "union" }>, anyOf: Schema[]): Schema[] {
  const out: Schema[] = [];
  let i = 0;
  for (const m of t.members) {
    if (m.kind === "union" && t.discriminator === undefined)
      for (const o of m.members) out.push(departures(o, anyOf[i++]!));
    else out.push(departures(m, anyOf[i++]!));
  }
  return [...out, ...anyOf.slice(i)];
}

function objectDepartures(t: ObjectModel, s: Schema, out: Schema): void {
  const props = { ...(s.properties as Record<string, Schema>) };
  for (const p of t.properties) if (props[p.name] !== undefined) props[p.name] = departures(p.type, props[p.name]!);
  out.properties = props;
  if (t.additionalProperties !== undefined) {
    out.additionalProperties = departures(t.additionalProperties, s.additionalProperties as Schema);
    const clash = t.properties
      .filter((p) => p.key !== p.name && !t.properties.some((q) => q.name === p.key))
      .map((p) => p.key);
    if (clash.length > 0) out.propertyNames = { not: { enum: clash } }; // departure 4
  }
}

/** The oracle's schema for a tool: its listed `inputSchema` with the departures written in. */
function oracleSchema(tool: ToolModel, inputSchema: Schema): Schema {
  const props = { ...(inputSchema.properties as Record<string, Schema>) };
  for (const p of listed(tool.params)) props[p.name] = departures(p.type, props[p.name]!);
  return { ...inputSchema, properties: props };
}

/**
 * Keys ajv mishandles, and what the oracle calls them instead: ajv ignores `properties.__proto__`,
 * and takes `required: [""]` as always satisfied (its generated `(missing = "")` is falsy).
 */
const RENAMED_KEYS: Record<string, string> = { __proto__: "\u0000proto\u0000", "": "\u0000empty\u0000" };
Object.setPrototypeOf(RENAMED_KEYS, null);
Object.defineProperty(RENAMED_KEYS, "__proto__", { value: "\u0000proto\u0000", enumerable: true });

const rename = (k: string) => (Object.hasOwn(RENAMED_KEYS, k) ? RENAMED_KEYS[k]! : k);

/** A deep copy of JSON data (or of a schema) with the keys of {@link RENAMED_KEYS} renamed. */
function renameKeys(x: unknown, inSchema = false): unknown {
  if (Array.isArray(x)) return x.map((e) => renameKeys(e, inSchema));
  if (x === null || typeof x !== "object") return x;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(x)) {
    let v = (x as Record<string, unknown>)[k];
    // In a schema, `required` and `propertyNames.not.enum` hold key names.
    if (inSchema && k === "required") v = (v as string[]).map(rename);
    else if (inSchema && k === "propertyNames")
      v = { not: { enum: (v as { not: { enum: string[] } }).not.enum.map(rename) } };
    else v = renameKeys(v, inSchema);
    Object.defineProperty(out, rename(k), { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Compiles the oracle for a tool (one shared ajv instance): data → renameKeys → ajv. */
export function compileOracle(
  tool: ToolModel,
  inputSchema: Schema,
): (data: unknown) => { ok: boolean; errors: unknown } {
  shared ??= createAjv();
  const v = shared.compile(renameKeys(oracleSchema(tool, inputSchema), true) as Schema);
  return (data) => ({ ok: v(renameKeys(data)) as boolean, errors: v.errors });
}

/** ajv on the listed schema as is (only the format bindings): used by found.test.ts to show each departure. */
export function compilePlain(inputSchema: Schema): ValidateFunction {
  shared ??= createAjv();
  return shared.compile(inputSchema);
}
