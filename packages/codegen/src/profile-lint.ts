/**
 * The offline provider lint (spec §11, `typed-mcp check --lint NAME`): every node of a tool's
 * `inputSchema` that a provider family rejects, by the rules of §11. It is also the check the
 * profile tests run after each rewrite (docs/profiles.md lists each rule's source report).
 *
 * @module
 */
import type { ToolListing } from "@typed-mcp/model";
import { isObjectNode as isObject, OPENAI_FORMATS, OPENAI_MOVED, type Profile } from "./profiles.js";
import { walkSchema, type Schema } from "./schema-walk.js";

/** A provider family a listing can be linted for: a non-`default` profile name. */
export type LintFamily = Exclude<Profile, "default">;

/** One node a provider family rejects. */
export interface LintFinding {
  tool: string;
  /** JSON Pointer (RFC 6901) inside `inputSchema`. */
  path: string;
  keyword: string;
  /** What the family rejects, e.g. `Gemini refuses a type array`. */
  rule: string;
}

type Check = (s: Schema, top: boolean) => [keyword: string, rule: string][];

const GEMINI_FORMATS = new Set(["date-time"]);

/** The §11 rules of each family, as checks on one node. */
const CHECKS: Record<LintFamily, Check> = {
  gemini(s) {
    const out: [string, string][] = [];
    if (Array.isArray(s.type)) out.push(["type", "Gemini refuses a type array"]);
    if (s.type === "null") out.push(["type", 'Gemini refuses {"type":"null"} (nullable: true says it)']);
    if (s.anyOf !== undefined) {
      for (const k of Object.keys(s))
        if (k !== "anyOf" && k !== "description" && k !== "nullable")
          out.push([k, "Gemini refuses keywords beside anyOf"]);
    }
    if (s.additionalProperties !== undefined) out.push(["additionalProperties", "Gemini refuses additionalProperties"]);
    if (s.format !== undefined && !GEMINI_FORMATS.has(s.format as string))
      out.push(["format", `Gemini refuses format ${String(s.format)}`]);
    if (s.uniqueItems !== undefined) out.push(["uniqueItems", "Gemini refuses uniqueItems"]);
    if (s.contentEncoding !== undefined) out.push(["contentEncoding", "Gemini refuses contentEncoding"]);
    if (Array.isArray(s.enum) && s.enum.some((v) => typeof v === "number"))
      out.push(["enum", "Gemini refuses a numeric enum"]);
    if (Array.isArray(s.enum) && s.enum.includes(null)) out.push(["enum", "Gemini refuses null in enum"]);
    if (isObject(s) && s.properties === undefined)
      out.push(["properties", "Gemini refuses an object without properties"]);
    if (s.properties !== undefined && Object.keys(s.properties as Schema).length === 0)
      out.push(["properties", "Gemini refuses empty properties"]);
    return out;
  },
  "openai-strict"(s) {
    const out: [string, string][] = [];
    if (isObject(s)) {
      if (s.additionalProperties !== false)
        out.push(["additionalProperties", "OpenAI strict mode needs additionalProperties: false on every object"]);
      const props = Object.keys((s.properties as Schema | undefined) ?? {});
      const required = new Set((s.required as string[] | undefined) ?? []);
      for (const p of props)
        if (!required.has(p)) out.push(["required", `OpenAI strict mode needs every property required (${p})`]);
      if (s.properties === undefined) out.push(["properties", "OpenAI strict mode needs properties on every object"]);
    }
    for (const k of OPENAI_MOVED) if (s[k] !== undefined) out.push([k, `OpenAI strict mode refuses ${k}`]);
    if (s.format !== undefined && !OPENAI_FORMATS.has(s.format as string))
      out.push(["format", `OpenAI strict mode refuses format ${String(s.format)}`]);
    return out;
  },
  cursor(s, top) {
    return top && Array.isArray(s.type) ? [["type", "Cursor refuses a type array on a top-level parameter"]] : [];
  },
};

/**
 * Every node of `listing.inputSchema` that `family` rejects (spec §11), in document order.
 *
 * @throws RangeError for a schema nested deeper than 256 levels.
 */
export function lintListing(listing: ToolListing, family: LintFamily): LintFinding[] {
  const found: LintFinding[] = [];
  const check = CHECKS[family];
  walkSchema(listing.inputSchema, (s, path, top, walk) => {
    for (const [keyword, rule] of check(s, top)) found.push({ tool: listing.name, path, keyword, rule });
    walk(s);
    return s;
  });
  return found;
}
