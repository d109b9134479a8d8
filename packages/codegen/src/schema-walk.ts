/**
 * The walk over the nodes of a listing's JSON Schema (spec §11): the profile rewrite
 * (profiles.ts) and the provider lint (profile-lint.ts) visit the same subschemas in the same
 * order, with the same JSON Pointers and the same depth limit.
 *
 * @module
 */

/** One schema node (a JSON object). */
export type Schema = Record<string, unknown>;

/** Maximum schema depth walked; a generated listing is finite, so this only guards a hand-made one. */
const MAX_DEPTH = 256;

/** RFC 6901 escaping of one reference token. */
export function pointer(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The subschemas of one node after {@link walkSchema} visited them: each keyword that holds some, with the visits' results. */
type WalkedSubschemas = Partial<Record<"anyOf" | "items" | "additionalProperties" | "properties", unknown>>;

/**
 * Visits one node: `s` is the node, `path` its JSON Pointer inside `inputSchema` (`""` is the
 * root), `top` whether it is a tool parameter (a property of the root). `walk(owner)` visits the
 * subschemas of `owner` (the node or the visitor's copy of it) and returns their results; the
 * visitor returns the node's result.
 */
export type SchemaVisitor = (
  s: Schema,
  path: string,
  top: boolean,
  walk: (owner: Schema) => WalkedSubschemas,
) => unknown;

/**
 * Walks the schema `node` depth first: `visit` is called for every object node — the members of
 * `anyOf`, `items`, a schema-valued `additionalProperties`, then each of `properties` — and a
 * value that is not an object (`true`, an array, `null`) is its own result.
 *
 * @throws RangeError for a schema nested deeper than {@link MAX_DEPTH} levels.
 */
export function walkSchema(node: unknown, visit: SchemaVisitor, path = "", top = false, depth = 0): unknown {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
  if (depth > MAX_DEPTH) throw new RangeError(`Schema nesting deeper than ${MAX_DEPTH} at inputSchema ${path}.`);
  return visit(node as Schema, path, top, (s) => subschemas(s, visit, path, depth));
}

function subschemas(s: Schema, visit: SchemaVisitor, path: string, depth: number): WalkedSubschemas {
  const out: WalkedSubschemas = {};
  const walk = (child: unknown, at: string, top: boolean) => walkSchema(child, visit, at, top, depth + 1);
  if (Array.isArray(s.anyOf)) out.anyOf = s.anyOf.map((m, i) => walk(m, `${path}/anyOf/${i}`, false));
  if (s.items !== undefined) out.items = walk(s.items, `${path}/items`, false);
  if (typeof s.additionalProperties === "object")
    out.additionalProperties = walk(s.additionalProperties, `${path}/additionalProperties`, false);
  if (typeof s.properties === "object" && s.properties !== null) {
    const props: Schema = {};
    for (const [k, v] of Object.entries(s.properties as Schema)) {
      const value = walk(v, `${path}/properties/${pointer(k)}`, depth === 0);
      // An own data property, even for a parameter named `__proto__`.
      Object.defineProperty(props, k, { value, writable: true, enumerable: true, configurable: true });
    }
    out.properties = props;
  }
  return out;
}
