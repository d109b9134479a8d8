/**
 * The keyword order of spec §2: the only JSON Schema keywords a listing holds, in the only order
 * they are written, and {@link ordered}, which rebuilds a schema node in that order. Used by the
 * schema writers (schema.ts) and the profile rewrite (profiles.ts).
 *
 * @module
 */
import { CodegenError } from "./emit.js";

/** The only schema keywords written, in the only order they are written (spec §2). */
export const KEYWORD_ORDER = [
  "type",
  "format",
  "description",
  "anyOf",
  "enum",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "contentEncoding",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "properties",
  "required",
  "additionalProperties",
  "default",
] as const;

/** One §2 keyword. */
export type Keyword = (typeof KEYWORD_ORDER)[number];

/**
 * `s` rebuilt with its §2 keywords in §2 order (keys holding `undefined` left out). A key that is
 * not a §2 keyword is refused (`"refuse"`: the schema writers, for which it is an internal error)
 * or kept after the keywords, in its order (`"keep"`: the profile rewrite of a listing).
 *
 * @throws CodegenError for a key that is not a §2 keyword, with `"refuse"`.
 */
export function ordered(s: Partial<Record<Keyword, unknown>>, unknownKeys: "refuse"): Record<string, unknown>;
export function ordered(s: Record<string, unknown>, unknownKeys: "keep"): Record<string, unknown>;
export function ordered(s: Record<string, unknown>, unknownKeys: "refuse" | "keep"): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (unknownKeys === "refuse") {
    for (const k of Object.keys(s)) {
      if (!(KEYWORD_ORDER as readonly string[]).includes(k))
        throw new CodegenError(`Internal: keyword ${k} is not in spec §2.`);
    }
  }
  for (const k of KEYWORD_ORDER) if (s[k] !== undefined) out[k] = s[k];
  if (unknownKeys === "keep") for (const k of Object.keys(s)) if (!(k in out)) out[k] = s[k];
  return out;
}
