/**
 * The text of an argument error (spec §5): `Argument '<path>' is not valid. <second sentence>`,
 * with safe paths, and the one cut of echoed client text. Generated code calls these through
 * `typed-mcp/internal` under the names here (`__tmcp.pathKey`, `__tmcp.invalid`, …; model
 * `RUNTIME_HELPERS`); code generation imports `pathKey` from `typed-mcp/internal/argument-errors`
 * (this module alone: it imports nothing, so a build never loads the runtime's SDK, zod and jose)
 * for the static path steps it writes at build time, so both sides quote and cut paths by one rule.
 *
 * @module
 */

/** A wire name written bare in a path (spec §5 safe paths); anything else is bracket-quoted. */
const SAFE_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** The longest path written, in UTF-16 code units (spec §5); a longer one is cut and ends in `…`. */
export const MAX_PATH_LENGTH = 200;

/**
 * One step of an argument path for the property or key `name` (spec §5 safe paths): `.name` (or
 * `name` when `first`) when it matches `[A-Za-z_$][A-Za-z0-9_$-]*`, else `["…"]`, a JSON string
 * with `'` and every character outside U+0020–U+007E written `\uXXXX` (lower-case hex), so that
 * no key can change the sentence around it: `tags["a b"]`, `["x\u0027 y"]`.
 *
 * @param name The wire name (any string, also empty or with lone surrogates).
 * @param first Whether the step starts the path (a top-level parameter or argument).
 */
export function pathKey(name: string, first: boolean): string {
  if (SAFE_NAME.test(name)) return first ? name : "." + name;
  let out = '["';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c < 0x20 || c > 0x7e || c === 0x27) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += name[i];
  }
  return out + '"]';
}

/**
 * The whole argument error of spec §5: `Argument '<path>' is not valid. <sentence>`. A path
 * longer than {@link MAX_PATH_LENGTH} UTF-16 code units keeps its first 200 (199 when the 200th
 * would be the high half of a surrogate pair) and ends in `…`.
 *
 * @param path The path, already made of {@link pathKey}s.
 * @param sentence The second sentence (spec §5 table, docs/unions.md "Error sentences").
 */
export function invalid(path: string, sentence: string): string {
  return `Argument '${cutEchoed(path)}' is not valid. ${sentence}`;
}

/**
 * Client text echoed in an error message (a §5 argument path, a `taskId`, a `cursor`), cut by the
 * one rule of spec §5: text longer than {@link MAX_PATH_LENGTH} UTF-16 code units keeps its first
 * 200 (199 when the 200th would be the high half of a surrogate pair) and ends in `…`; shorter
 * text is returned as is.
 *
 * @param text Any string (also with lone surrogates).
 */
export function cutEchoed(text: string): string {
  if (text.length <= MAX_PATH_LENGTH) return text;
  let n = MAX_PATH_LENGTH;
  const c = text.charCodeAt(n - 1);
  if (c >= 0xd800 && c <= 0xdbff) n--;
  return text.slice(0, n) + "…";
}

/**
 * The whole argument error of spec §5 for a failure a shared reader returned (docs/architecture.md
 * "Shared types"): `failure` is `<path suffix>\n<sentence>` (a safe path never holds a line feed),
 * `path` the caller's own path of the value; the same text as {@link invalid} of the whole
 * path, cut by the same rule.
 *
 * @param path The caller's path of the value the shared reader read, e.g. `items[2]`.
 * @param failure The shared reader's failure, e.g. `.qty\nExpected an integer of at least 1.`.
 */
export function invalidFrom(path: string, failure: string): string {
  const i = failure.indexOf("\n");
  return invalid(path + failure.slice(0, i), failure.slice(i + 1));
}

/**
 * The JSON type of a value read from JSON, with its article, as the second sentence of spec §5
 * names what it got: `a string`, `a number`, `a boolean`, `an array`, `an object`, `null`.
 * Never the value itself.
 */
export function got(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return "a value that is not JSON";
  }
}

/**
 * The `arguments` of a `tools/call` as the generated reader starts from (spec §5): absent
 * (`undefined`) → a new `{}`; a JSON object → itself; anything else (an array, `null`, a
 * scalar) → the whole argument error `Argument 'arguments' is not valid. Expected an object, got
 * <JSON type>.` — a string, which the reader returns as its failure.
 */
export function args(a: unknown): Record<string, unknown> | string {
  if (a === undefined) return {};
  if (typeof a !== "object" || a === null || Array.isArray(a))
    return invalid("arguments", `Expected an object, got ${got(a)}.`);
  return a as Record<string, unknown>;
}

/**
 * The argument error of spec §5 for an unknown top-level argument `key` (reported after every
 * listed parameter passed): `Argument '<key as a safe path step>' is not valid. It is not a
 * parameter of this tool.`
 */
export function unknownArg(key: string): string {
  return invalid(pathKey(key, true), "It is not a parameter of this tool.");
}
