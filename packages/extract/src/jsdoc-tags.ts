/**
 * What a JSDoc tag name means to typed-mcp (docs/mapping.md §4 "Validation tags", "a typo is never
 * silently ignored"): a validation tag, a typo of one, a JSON Schema keyword typed-mcp does not
 * write, a near-miss of a structural tag (`@jsonName`, `@naming`, `@ignore`), or ordinary JSDoc.
 * Edit distance is `fastest-levenshtein`'s Levenshtein distance (a transposition such as
 * `@maxLenght` counts two edits), on lower-cased names.
 */
import { distance } from "fastest-levenshtein";
import type { SourceLocation } from "@typed-mcp/model";
import { tagLocation, type DocComment } from "./jsdoc.js";

/** The validation tags, exactly as written (spec §4 table). */
const VALIDATION_TAGS = ["minimum", "maximum", "minLength", "maxLength", "pattern", "format"] as const;

/** A validation tag name. */
type ValidationTag = (typeof VALIDATION_TAGS)[number];

/** The property tags typed-mcp reads besides the validation tags (spec §4 "Property names"). */
const STRUCTURAL_TAGS = ["jsonName", "naming", "ignore"] as const;

/** The sentence listing the validation tags, used in every fix. */
const TAG_LIST = "the tags are @minimum, @maximum, @minLength, @maxLength (also for arrays), @pattern, @format";

/** JSON Schema keywords (and common spellings of them) typed-mcp does not write, lower-cased, with the fix. */
const UNSUPPORTED: Record<string, string> = {
  min: "use @minimum",
  max: "use @maximum",
  minitems: "use @minLength (it writes minItems on arrays and sets)",
  maxitems: "use @maxLength (it writes maxItems on arrays and sets)",
  minlen: "use @minLength",
  maxlen: "use @maxLength",
  regex: "use @pattern",
  regexp: "use @pattern",
  exclusiveminimum: "typed-mcp does not write exclusiveMinimum; use @minimum with the smallest allowed value",
  exclusivemaximum: "typed-mcp does not write exclusiveMaximum; use @maximum with the largest allowed value",
  multipleof: "typed-mcp does not write multipleOf; check it in the function",
  uniqueitems: "typed-mcp does not write uniqueItems; declare a Set<T> instead",
  minproperties: "typed-mcp does not write minProperties; check it in the function",
  maxproperties: "typed-mcp does not write maxProperties; check it in the function",
};

/** What one tag name is to typed-mcp. */
export type TagClass =
  | { kind: "validation"; tag: ValidationTag }
  | { kind: "structural" }
  /** Within two edits of a tag typed-mcp reads, or a JSON Schema keyword it does not write: `message` names the fix. */
  | { kind: "mistake"; message: string }
  | { kind: "other" };

/** The closest of `names` within two edits of `lower` (case-insensitive), ties to the first. */
function nearest<T extends string>(lower: string, names: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestD = 3;
  for (const n of names) {
    const d = distance(lower, n.toLowerCase());
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best;
}

/**
 * Classifies a tag name as written (without `@`), spec §4: an exact validation or structural tag;
 * a name within two edits (case-insensitive) of a validation tag, a JSON Schema keyword typed-mcp
 * does not write, or a near-miss of `@jsonName` / `@naming` / `@ignore`, is a mistake whose
 * message names the tag it resembles or the fix; anything else is ordinary JSDoc. No standard
 * JSDoc or TSDoc tag (`@param`, `@name`, `@returns`, `@see`, `@remarks`, …) is within two edits of
 * these names (test/extract/tags.test.ts holds that).
 */
export function classifyTag(name: string): TagClass {
  const exact = VALIDATION_TAGS.find((v) => v === name);
  if (exact) return { kind: "validation", tag: exact };
  if ((STRUCTURAL_TAGS as readonly string[]).includes(name)) return { kind: "structural" };
  const lower = name.toLowerCase();
  const fix = UNSUPPORTED[lower];
  if (fix) return { kind: "mistake", message: `unknown validation tag @${name}; ${fix} (${TAG_LIST}).` };
  const validation = nearest(lower, VALIDATION_TAGS);
  if (validation) return { kind: "mistake", message: `unknown tag @${name}; write @${validation}.` };
  const structural = nearest(lower, STRUCTURAL_TAGS);
  if (structural) return { kind: "mistake", message: `unknown tag @${name}; write @${structural}.` };
  return { kind: "other" };
}

/**
 * The problems of a function's own doc comment (spec §4): a validation tag there applies to no
 * parameter (its place is the parameter's inline comment, `(/** @minimum 1 *\/ qty: Int)`), and
 * a mistaken tag name (typo, unwritten keyword) is reported as {@link classifyTag} says. Tags are
 * found anywhere in the comment, inside a `@param` text included; a `@default` / `@defaultValue`
 * there is a problem too (spec §3), located at the tag (`loc`, when the comment came with its
 * location). Returns the problems in tag order.
 */
export function functionDocProblems(doc: DocComment | undefined): { message: string; loc?: SourceLocation }[] {
  const out: { message: string; loc?: SourceLocation }[] = [];
  let param = "name"; // the parameter of the `@param` the tag follows, for the fix
  for (const tag of doc?.tags ?? []) {
    if (tag.name === "param") param = /^\s*(?:\{[^}]*\}\s*)?\[?([\w$]+)/.exec(tag.text)?.[1] ?? "name";
    if (isDefaultTag(tag.name)) {
      const message = `the doc comment: ${defaultTagMessage(tag.name, tag.text, undefined, param)}`;
      const loc = tagLocation(doc!, tag);
      out.push({ message, ...(loc && { loc }) });
      continue;
    }
    const c = classifyTag(tag.name);
    if (c.kind === "mistake") out.push({ message: `the doc comment: ${c.message}` });
    else if (c.kind === "validation")
      out.push({
        message: `the doc comment: @${tag.name} applies to no parameter here; put it in the parameter's inline comment, e.g. \`(/** @${tag.name} ${tag.text.trim().split(/\s+/)[0] || "…"} */ name: T)\`, or on a property.`,
      });
  }
  return out;
}

/** Whether a JSDoc tag name states a default (`@default`, `@defaultValue`; spec §3 refuses both on an input). */
export function isDefaultTag(name: string): boolean {
  return name === "default" || name === "defaultValue";
}

/**
 * The OMCG0007 text for a `@default`/`@defaultValue` tag on an input (spec §3), by where it is:
 * `path` is the parameter (`days`), a destructured property (`{…}.days`), a nested property
 * (`args.days`), or `undefined` for the function's own doc comment (`param`: the parameter of the
 * `@param` it follows there).
 */
export function defaultTagMessage(name: string, text: string, path: string | undefined, param = "name"): string {
  const value = text.trim().split(/\s+/)[0] || "…";
  const head = `@${name} is never a second way to state a default`;
  if (path === undefined)
    return `${head}; write the default in the signature, e.g. \`(${param}: T = ${value})\`, so what is listed is what the tool gets.`;
  const segments = path.split(".");
  const leaf = segments[segments.length - 1]!;
  if (segments.length === 1)
    return `${head}; write it in the signature, \`${leaf}: T = ${value}\`, so what is listed is what the tool gets.`;
  if (segments.length === 2 && segments[0] === "{…}")
    return `${head}; write it in the destructuring, \`({ ${leaf} = ${value} }: Args)\`, so what is listed is what the tool gets.`;
  return `${head}; a nested property carries no default (spec §4): describe it in the text and apply it in the function.`;
}
