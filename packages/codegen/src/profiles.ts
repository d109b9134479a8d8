/**
 * Client profiles (spec §11): a pure rewrite of a tool's default listing for one model-provider
 * family, applied at build time so every connection gets the same bytes. One small rule function
 * per §11 rule, in one table per profile; rules run on every schema node of `inputSchema`
 * (never `outputSchema`). A keyword a rule removes is "said in the description" in §11's fixed
 * sentence form; what a profile cannot express is an OMCW0003 warning (spec §10) naming the tool,
 * the JSON Pointer of the node inside `inputSchema` and the keyword. The rule tables with their
 * sources are in docs/profiles.md.
 *
 * @module
 */
import type { ToolListing } from "@typed-mcp/model";
import { count } from "./sentences.js";
import { ordered } from "./keyword-order.js";
import { pointer, walkSchema, type Schema, type SchemaVisitor } from "./schema-walk.js";

/** The `profile` build option (spec §11). */
export type Profile = "default" | "gemini" | "openai-strict" | "cursor";

/** Every profile name, in §11 table order. */
export const PROFILES: readonly Profile[] = ["default", "gemini", "openai-strict", "cursor"];

/** One OMCW0003 warning (spec §10): what `profile` could not express at `path` of `tool`'s `inputSchema`. */
export interface ProfileWarning {
  code: "OMCW0003";
  tool: string;
  /** JSON Pointer (RFC 6901) of the node inside `inputSchema`; `""` is the root. */
  path: string;
  keyword: string;
  message: string;
}

/** State of one rewrite: the profile, the tool and the warnings so far. */
interface Run {
  profile: Profile;
  tool: string;
  warnings: ProfileWarning[];
}

/** A rule: rewrites `s` (a copy, owned by the rule run) at `path`; `top` is true for a tool parameter. */
type Rule = (s: Schema, path: string, run: Run, sentences: DescriptionSentences, top: boolean) => void;

/** The keywords a profile can say in a description, in the order of their §11 sentences. */
const SENTENCE_ORDER = [
  "format",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "pattern",
  "contentEncoding",
  "enum",
  "default",
  "null",
] as const;
/**
 * The sentences a rule added to one node's description: each keyword it moved out of the node
 * (or, for `null`, said of it), with its §11 sentence; appended in {@link SENTENCE_ORDER}.
 */
type DescriptionSentences = Map<(typeof SENTENCE_ORDER)[number], string>;

/** The fixed sentence for a keyword moved into the description (spec §11). */
export function sentence(keyword: (typeof SENTENCE_ORDER)[number], value: unknown): string {
  switch (keyword) {
    case "format":
      return `Format: ${String(value)}.`;
    case "minLength":
      return `At least ${count(value as number, "character")}.`;
    case "maxLength":
      return `At most ${count(value as number, "character")}.`;
    case "minItems":
      return `At least ${count(value as number, "item")}.`;
    case "maxItems":
      return `At most ${count(value as number, "item")}.`;
    case "uniqueItems":
      return "Items are unique.";
    case "pattern":
      return `Pattern: ${String(value)}.`;
    case "contentEncoding":
      return "Base64.";
    case "enum":
      return `One of ${(value as unknown[]).map((v) => JSON.stringify(v)).join(", ")}.`;
    case "default":
      return `Default: ${JSON.stringify(value)}.`;
    case "null":
      return "May be null.";
  }
}

function warn(run: Run, path: string, keyword: string, what: string): void {
  run.warnings.push({
    code: "OMCW0003",
    tool: run.tool,
    path,
    keyword,
    message: `Tool '${run.tool}': the ${run.profile} profile ${what} (${keyword} at inputSchema${path === "" ? "" : " " + path}).`,
  });
}

/** Removes `keyword` from `s` and says it in the description. */
function move(s: Schema, keyword: (typeof SENTENCE_ORDER)[number], sentences: DescriptionSentences): void {
  sentences.set(keyword, sentence(keyword, s[keyword]));
  delete s[keyword];
}

/** Keywords that belong to one JSON type's member when a `type` array is split (spec §4a). */
const MEMBER_KEYWORDS: Record<string, string[]> = {
  string: ["format", "minLength", "maxLength", "pattern", "contentEncoding"],
  number: ["minimum", "maximum"],
  integer: ["minimum", "maximum"],
  array: ["items", "minItems", "maxItems", "uniqueItems"],
  object: ["properties", "required", "additionalProperties"],
};

function jsonType(v: unknown): string {
  return v === null
    ? "null"
    : typeof v === "string"
      ? "string"
      : typeof v === "boolean"
        ? "boolean"
        : Number.isInteger(v)
          ? "integer"
          : "number";
}

/** A `type` array → `anyOf` of single-type members, each keeping its own keywords and enum values; `description`/`default` stay beside. */
function splitTypeArray(s: Schema): void {
  if (!Array.isArray(s.type)) return;
  const members = (s.type as string[]).map((t) => {
    const m: Schema = { type: t };
    for (const k of MEMBER_KEYWORDS[t] ?? []) if (s[k] !== undefined) m[k] = s[k];
    if (Array.isArray(s.enum) && t !== "null") {
      m.enum = (s.enum as unknown[]).filter((v) => jsonType(v) === t || (t === "number" && jsonType(v) === "integer"));
    }
    return ordered(m, "keep");
  });
  for (const k of Object.keys(s)) if (k !== "description" && k !== "default") delete s[k];
  s.anyOf = members;
}

/** Whether a schema node lists an object (alone or in a type array). */
export function isObjectNode(s: Schema): boolean {
  return s.type === "object" || (Array.isArray(s.type) && s.type.includes("object"));
}

function isNullable(s: Schema): boolean {
  if (Array.isArray(s.type)) return s.type.includes("null");
  if (s.type === "null") return true;
  return Array.isArray(s.anyOf) && (s.anyOf as Schema[]).some((m) => m.type === "null");
}

/** Makes `s` nullable the §2/§4a way: `"null"` last in `type`, `{"type":"null"}` last in `anyOf`, `null` last in `enum`. */
function makeNullable(s: Schema): void {
  if (Array.isArray(s.anyOf)) s.anyOf = [...(s.anyOf as unknown[]), { type: "null" }];
  else s.type = Array.isArray(s.type) ? [...(s.type as unknown[]), "null"] : [s.type, "null"];
  if (Array.isArray(s.enum)) s.enum = [...(s.enum as unknown[]), null];
}

// ---- gemini ---------------------------------------------------------------------------------

const gemini: Rule[] = [
  function typeArrayToAnyOf(s) {
    splitTypeArray(s);
  },
  function defaultBesideAnyOf(s, _p, _r, sentences) {
    if (s.anyOf !== undefined && s.default !== undefined) move(s, "default", sentences);
  },
  function formatOtherThanDateTime(s, _p, _r, sentences) {
    if (s.format !== undefined && s.format !== "date-time") move(s, "format", sentences);
  },
  function uniqueItems(s, _p, _r, sentences) {
    if (s.uniqueItems !== undefined) move(s, "uniqueItems", sentences);
  },
  function contentEncoding(s, _p, _r, sentences) {
    if (s.contentEncoding !== undefined) move(s, "contentEncoding", sentences);
  },
  function numericOrNullEnum(s, _p, _r, sentences) {
    if (!Array.isArray(s.enum)) return;
    const values = s.enum as unknown[];
    if (values.includes(null)) sentences.set("null", sentence("null", null));
    const kept = values.filter((v) => v !== null);
    if (kept.some((v) => typeof v === "number")) {
      sentences.set("enum", sentence("enum", kept));
      delete s.enum;
    } else if (kept.length !== values.length) s.enum = kept;
  },
  function recordOrMap(s, path, run) {
    if (s.additionalProperties === undefined) return;
    const schemaValued = s.additionalProperties !== false;
    delete s.additionalProperties;
    if (!schemaValued) return; // `false`: the reader refuses unknown keys; nothing is lost for the model.
    if (s.properties === undefined) warn(run, path, "additionalProperties", 'lists a record as {"type":"object"}');
    else warn(run, path, "additionalProperties", "dropped an index signature");
  },
  function emptyProperties(s, path, run) {
    if (isObjectNode(s) && s.properties !== undefined && Object.keys(s.properties as Schema).length === 0) {
      warn(run, path, "properties", "keeps an empty properties, which Gemini may refuse");
    }
  },
];

// ---- openai-strict --------------------------------------------------------------------------

/** OpenAI Structured Outputs' supported string formats (platform.openai.com, "Supported schemas"). */
export const OPENAI_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

const openaiStrict: Rule[] = [
  function everyPropertyRequired(s, path, run) {
    if (s.properties === undefined) return;
    const props: Schema = { ...(s.properties as Schema) }; // a copy: the input listing is never modified
    s.properties = props;
    const required = new Set((s.required as string[] | undefined) ?? []);
    for (const name of Object.keys(props)) {
      if (required.has(name)) continue;
      const p = { ...(props[name] as Schema) };
      const at = `${path}/properties/${pointer(name)}`;
      if (isNullable(p))
        warn(run, at, "required", "lists an optional nullable property as required: null stays a value, not absent");
      else makeNullable(p);
      Object.defineProperty(props, name, {
        value: ordered(p, "keep"),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    s.required = Object.keys(props);
  },
  function additionalPropertiesFalse(s, path, run) {
    if (!isObjectNode(s) && s.properties === undefined) return;
    if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
      warn(run, path, "additionalProperties", "cannot express a record or map");
      return;
    }
    if (s.properties === undefined) s.properties = {};
    if (s.required === undefined) s.required = [];
    s.additionalProperties = false;
  },
  function movedKeywords(s, _p, _r, sentences) {
    if (s.format !== undefined && !OPENAI_FORMATS.has(s.format as string)) move(s, "format", sentences);
    for (const k of ["minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "pattern", "default"] as const) {
      if (s[k] !== undefined) move(s, k, sentences);
    }
  },
];

// ---- cursor ---------------------------------------------------------------------------------

const cursor: Rule[] = [
  function topLevelTypeArray(s, _p, _r, _s, top) {
    if (top) splitTypeArray(s);
  },
];

/** The rule table of each profile (spec §11). */
export const PROFILE_RULES: Record<Profile, readonly Rule[]> = {
  default: [],
  gemini,
  "openai-strict": openaiStrict,
  cursor,
};

/**
 * The rewrite of one node (a {@link SchemaVisitor}): a copy of the node, the profile's rules run
 * on it in table order, its subschemas rewritten, the sentences of the moved keywords appended to
 * its description, and its keys in §2 order.
 */
function rewriter(run: Run, rules: readonly Rule[]): SchemaVisitor {
  return (node, path, top, walk) => {
    const s: Schema = { ...node };
    const sentences: DescriptionSentences = new Map();
    for (const rule of rules) rule(s, path, run, sentences, top);
    Object.assign(s, walk(s));
    describe(s, sentences);
    return ordered(s, "keep");
  };
}

/** Appends the sentences of the keywords moved out of `s` to its description, in §11 order. */
function describe(s: Schema, sentences: DescriptionSentences): void {
  if (sentences.size > 0) {
    const text = SENTENCE_ORDER.filter((k) => sentences.has(k))
      .map((k) => sentences.get(k))
      .join(" ");
    s.description = typeof s.description === "string" && s.description !== "" ? `${s.description} ${text}` : text;
  }
}

/**
 * Rewrites one tool's default listing for `profile` (spec §11): `inputSchema` only, every other
 * key unchanged. Pure: `listing` is not modified; equal inputs give byte-identical output.
 *
 * @returns the rewritten listing and the OMCW0003 warnings (spec §10) in node order.
 * @throws RangeError for a schema nested deeper than 256 levels (never a generated listing).
 */
export function applyProfile(
  listing: ToolListing,
  profile: Profile,
): { listing: ToolListing; warnings: ProfileWarning[] } {
  if (!PROFILES.includes(profile))
    throw new TypeError(
      `Unknown profile ${JSON.stringify(profile)}: expected one of ${PROFILES.join(", ")} (spec §11).`,
    );
  const run: Run = { profile, tool: listing.name, warnings: [] };
  if (profile === "default") return { listing, warnings: [] };
  const inputSchema = walkSchema(
    listing.inputSchema,
    rewriter(run, PROFILE_RULES[profile]),
  ) as ToolListing["inputSchema"];
  return { listing: { ...listing, inputSchema }, warnings: run.warnings };
}
