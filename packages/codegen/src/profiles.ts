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
import type { ToolListing, ToolModel, ValueParam } from "@typed-mcp/model";
import { count } from "./sentences.js";
import { ordered } from "./keyword-order.js";
import { toolListing } from "./schema.js";
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
  /** Names of the tool's properties (parameters) whose default is `null` (spec §3: not listed). */
  nullDefaults: ReadonlySet<string>;
}

/** A rule: rewrites `s` (a copy, owned by the rule run) at `path`; `top` is true for a tool parameter. */
type Rule = (s: Schema, path: string, run: Run, sentences: DescriptionSentences, top: boolean) => void;

/** The keywords a profile can say in a description, in the order of their §11 sentences (not §2's). */
const SENTENCE_ORDER = [
  "format",
  "minimum",
  "maximum",
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
    case "minimum":
      return `At least ${JSON.stringify(value)}.`;
    case "maximum":
      return `At most ${JSON.stringify(value)}.`;
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

/**
 * A `type` array → `anyOf` of single-type members, each keeping its own keywords and enum
 * values; `description`/`default` stay beside. `"null"` is a last `{"type":"null"}` member with
 * `null: "member"` (cursor), and left out with `null: "drop"` (gemini, which says it with `nullable`).
 */
function splitTypeArray(s: Schema, nulls: "member" | "drop"): void {
  if (!Array.isArray(s.type)) return;
  const types = (s.type as string[]).filter((t) => nulls === "member" || t !== "null");
  const members = types.map((t) => {
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

/** Keywords gemini keeps **and** says (spec §11: converters on this path drop them silently). */
const GEMINI_KEPT_AND_SAID = [
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "default",
] as const;

const gemini: Rule[] = [
  function nullableSingleType(s) {
    // `"type":[T,"null"]` → `"type":T` + `"nullable":true`; null leaves the enum first.
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type];
    const nullInEnum = Array.isArray(s.enum) && (s.enum as unknown[]).includes(null);
    const nonNull = types.filter((t) => t !== "null");
    if (nonNull.length !== 1 || typeof nonNull[0] !== "string" || (types.length === 1 && !nullInEnum)) return;
    s.type = nonNull[0];
    s.nullable = true;
    if (nullInEnum) s.enum = (s.enum as unknown[]).filter((v) => v !== null);
  },
  function typeArrayToAnyOf(s, _p, _r, sentences) {
    if (!Array.isArray(s.type)) return;
    const hadNull = (s.type as string[]).includes("null");
    splitTypeArray(s, "drop");
    if (hadNull) {
      s.nullable = true;
      sentences.set("null", sentence("null", null));
    }
  },
  function nullMemberOfAnyOf(s, _p, _r, sentences) {
    if (!Array.isArray(s.anyOf) || !(s.anyOf as Schema[]).some((m) => m.type === "null")) return;
    s.anyOf = (s.anyOf as Schema[]).filter((m) => m.type !== "null");
    s.nullable = true;
    sentences.set("null", sentence("null", null));
  },
  function besideAnyOf(s, _p, _r, sentences) {
    if (s.anyOf === undefined) return;
    if (s.default !== undefined) move(s, "default", sentences);
    for (const k of Object.keys(s)) if (k !== "anyOf" && k !== "description" && k !== "nullable") delete s[k];
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
  function numericEnum(s, _p, _r, sentences) {
    if (Array.isArray(s.enum) && (s.enum as unknown[]).some((v) => typeof v === "number")) move(s, "enum", sentences);
  },
  function keptAndSaid(s, _p, _r, sentences) {
    for (const k of GEMINI_KEPT_AND_SAID) if (s[k] !== undefined) sentences.set(k, sentence(k, s[k]));
  },
  function recordOrMap(s, path, run) {
    if (s.additionalProperties === undefined) return;
    const schemaValued = s.additionalProperties !== false;
    delete s.additionalProperties;
    if (!schemaValued) return; // `false`: the reader's "It is not a parameter of this tool." tells the model.
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

/**
 * Keywords openai-strict moves into the description (spec §11; `contentEncoding`: `openai`'s
 * `toStrictJsonSchema` refuses it) — the same keywords the `openai-strict` lint reports
 * (profile-lint.ts), in the order the lint reports them (the description's sentences keep §11's
 * order whatever this one).
 */
export const OPENAI_MOVED = [
  "default",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "pattern",
  "contentEncoding",
] as const;

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
      if (isNullable(p)) {
        // A nullable optional property defaulting to `null`: null as a value is what absent means.
        if (!(path === "" && run.nullDefaults.has(name)))
          warn(run, at, "required", "lists an optional nullable property as required: null stays a value, not absent");
      } else makeNullable(p);
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
    for (const k of OPENAI_MOVED) {
      if (s[k] !== undefined) move(s, k, sentences);
    }
  },
];

// ---- cursor ---------------------------------------------------------------------------------

const cursor: Rule[] = [
  function topLevelTypeArray(s, _p, _r, _s, top) {
    if (top) splitTypeArray(s, "member");
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
    return withNullable(ordered(s, "keep"));
  };
}

/** `s` with `nullable` (gemini, spec §11) moved right after `type`, or right after `anyOf` where `s` has no `type`. */
function withNullable(s: Schema): Schema {
  if (s.nullable === undefined) return s;
  const after = s.type !== undefined ? "type" : "anyOf";
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "nullable") continue;
    out[k] = v;
    if (k === after) out.nullable = s.nullable;
  }
  return out;
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
 * key unchanged. `nullDefaults` names the top-level properties whose default is `null` (not
 * listed, spec §3; {@link profiledListing} takes them from the model). Pure: `listing` is not modified; equal inputs give byte-identical output.
 *
 * @returns the rewritten listing and the OMCW0003 warnings (spec §10) in node order.
 * @throws RangeError for a schema nested deeper than 256 levels (never a generated listing).
 */
export function applyProfile(
  listing: ToolListing,
  profile: Profile,
  nullDefaults: ReadonlySet<string> = new Set(),
): { listing: ToolListing; warnings: ProfileWarning[] } {
  if (!PROFILES.includes(profile))
    throw new TypeError(
      `Unknown profile ${JSON.stringify(profile)}: expected one of ${PROFILES.join(", ")} (spec §11).`,
    );
  const run: Run = { profile, tool: listing.name, warnings: [], nullDefaults };
  if (profile === "default") return { listing, warnings: [] };
  const inputSchema = walkSchema(
    listing.inputSchema,
    rewriter(run, PROFILE_RULES[profile]),
  ) as ToolListing["inputSchema"];
  return { listing: { ...listing, inputSchema }, warnings: run.warnings };
}

/**
 * The OMCW0003 warnings of `tool` built with `profile` (spec §11): those of {@link
 * profiledListing}; the `default` profile rewrites nothing, so its tools warn of nothing and no
 * listing is built for them.
 *
 * @throws as {@link profiledListing} does.
 */
export function profileWarnings(tool: ToolModel, profile: Profile): ProfileWarning[] {
  return profile === "default" ? [] : profiledListing(tool, profile).warnings;
}

/**
 * {@link applyProfile} of a tool's default listing (`toolListing(tool)`), with the properties whose
 * default is `null` taken from the model: the one listing every host builds (spec §11).
 *
 * @throws as `toolListing` and {@link applyProfile} do.
 */
export function profiledListing(
  tool: ToolModel,
  profile: Profile,
): { listing: ToolListing; warnings: ProfileWarning[] } {
  const values: ValueParam[] = tool.params.flatMap((p) =>
    p.role === "value" ? [p] : p.role === "destructured" ? p.properties : [],
  );
  return applyProfile(toolListing(tool), profile, new Set(values.filter((v) => v.nullDefault).map((v) => v.name)));
}
