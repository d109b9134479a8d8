/**
 * Doc-comment parsing and normalisation (spec §4 "Doc comments").
 *
 * Works on the raw text of one `/** … *\/` comment — the backend decides which comment is
 * attached to a declaration (TypeScript's rule: a JSDoc comment counts only where it starts a
 * line, or directly before a parameter); this module only reads the text.
 */

import type { SourceLocation } from "@typed-mcp/model";
import type { RawDoc } from "./backend/host.js";

/**
 * One `@tag text` of a doc comment. `text` is raw (not yet normalised), without the tag name;
 * `offset` is where its `@` is in the raw comment text ({@link tagLocation} makes it a location).
 */
interface DocTag {
  name: string;
  text: string;
  offset: number;
}

/** A parsed doc comment: the main text (raw) and its tags in written order; `raw` when it came with its location. */
export interface DocComment {
  main: string;
  tags: DocTag[];
  raw?: RawDoc;
}

/**
 * Where a tag's `@` is (1-based line and UTF-16 column, as TypeScript prints them), or
 * `undefined` when the comment came without its location (a plain string). Computed on demand:
 * only a problem with the tag needs it (spec §3, a `@default` on an input).
 */
export function tagLocation(doc: DocComment, tag: DocTag): SourceLocation | undefined {
  return doc.raw && locationIn(doc.raw.text, tag.offset, doc.raw.at);
}

/**
 * The text of the doc comment a backend handed over, without the trivia before it (spec §4
 * "Doc comments"). A backend gives the source from the JSDoc node's `pos` to its `end`;
 * TypeScript 7 starts that range at the owner's full start, so it may hold whitespace, line
 * comments (`// …`), block comments (`/* … *\/`, `/**\/`) and, with two JSDoc blocks, none of
 * the earlier one (TypeScript keeps each block as its own node; the caller takes the last).
 * Comments are skipped one by one until the one that ends the range; that one is returned when
 * it is a JSDoc comment (`/**` but not `/**\/`). Text that does not start with trivia or a
 * comment (already just the comment, or a bare body) is returned unchanged.
 */
export function docCommentText(raw: string): string {
  const [from, to] = docCommentRange(raw);
  return raw.slice(from, to);
}

/** {@link docCommentText} as `[start, end)` offsets into `raw` (`[0, 0]` when there is no JSDoc comment). */
function docCommentRange(raw: string): [number, number] {
  const end = raw.trimEnd().length;
  let i = 0;
  while (i < end) {
    const c = raw.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 0xfeff || c === 0xa0) {
      i++;
      continue;
    }
    if (raw.startsWith("//", i)) {
      const nl = raw.slice(i).search(/\r|\n/);
      if (nl < 0) return [0, 0];
      i += nl;
      continue;
    }
    if (raw.startsWith("/*", i)) {
      const close = raw.indexOf("*/", i + 2);
      if (close < 0) return [i, raw.length];
      const after = close + 2;
      if (after >= end) return raw.startsWith("/**", i) && !raw.startsWith("/**/", i) ? [i, after] : [0, 0];
      i = after;
      continue;
    }
    return [i, raw.length];
  }
  return [0, 0];
}

/** Line breaks as TypeScript counts them for line numbers (CR LF, CR, LF, U+2028, U+2029). */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;

/** The location of `offset` in a comment whose first character is at `at` (line and column 1-based, UTF-16). */
function locationIn(text: string, offset: number, at: SourceLocation): SourceLocation {
  let line = at.line;
  let lineStart = -1;
  for (const m of text.slice(0, offset).matchAll(LINE_BREAK)) {
    line++;
    lineStart = m.index + m[0].length;
  }
  return { file: at.file, line, column: lineStart < 0 ? at.column + offset : offset - lineStart + 1 };
}

/**
 * The body of a JSDoc comment with its delimiters and each line's leading ` * ` removed, lines
 * joined by `\n`, and for each of its characters the offset in `raw` it came from.
 */
function commentBody(raw: string): { text: string; from: number[] } {
  let [start, end] = docCommentRange(raw);
  while (start < end && /\s/.test(raw[start]!)) start++;
  while (end > start && /\s/.test(raw[end - 1]!)) end--;
  if (raw.startsWith("/**", start)) start += 3;
  if (end - start >= 2 && raw.startsWith("*/", end - 2)) end -= 2;
  let text = "";
  const from: number[] = [];
  let lineStart = start;
  let first = true;
  const addLine = (lineEnd: number, breakAt: number | undefined) => {
    const line = raw.slice(lineStart, lineEnd);
    const m = /^\s*\*(?!\/)\s?/.exec(line);
    const cut = first && !m ? 0 : m ? m[0].length : line.length - line.replace(/^\s+/, "").length;
    for (let k = cut; k < line.length; k++) from.push(lineStart + k);
    text += line.slice(cut);
    if (breakAt !== undefined) {
      text += "\n";
      from.push(breakAt);
    }
    first = false;
  };
  const breaks = /\r\n|\r|\n/g;
  breaks.lastIndex = start;
  for (let m = breaks.exec(raw); m && m.index < end; m = breaks.exec(raw)) {
    addLine(m.index, m.index);
    lineStart = m.index + m[0].length;
  }
  addLine(end, undefined);
  return { text, from };
}

/**
 * Parses the raw text of one JSDoc comment (`/** … *\/`, delimiters included or not).
 * Tags start at an `@name` that begins a line or follows whitespace, outside `{…}` (so
 * `{@link X}` stays in the text). Never throws.
 */
export function parseDocComment(raw: string | RawDoc): DocComment {
  const { text, from } = commentBody(typeof raw === "string" ? raw : raw.text);
  const tags: DocTag[] = [];
  let main = "";
  let current: DocTag | undefined;
  let depth = 0;
  let buf = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    if (c === "@" && depth === 0 && (i === 0 || /\s/.test(text[i - 1]!))) {
      const m = /^@([A-Za-z][\w-]*)/.exec(text.slice(i));
      if (m) {
        if (current) current.text = buf;
        else main = buf;
        buf = "";
        current = { name: m[1]!, text: "", offset: from[i]! };
        tags.push(current);
        i += m[0].length - 1;
        continue;
      }
    }
    buf += c;
  }
  if (current) current.text = buf;
  else main = buf;
  return typeof raw === "string" ? { main, tags } : { main, tags, raw };
}

/**
 * Normalises doc text (spec §4): `{@link X}`, `{@linkcode X}`, `{@linkplain X}` → `X`;
 * `{@link X text}` and `{@link X | text}` → `text`; then all whitespace (line breaks included)
 * collapses to single spaces and the result is trimmed. Other characters (Markdown) are kept.
 */
export function normalizeDocText(text: string): string {
  const linked = text.replace(/\{@link(?:code|plain)?\s+([^}]*)\}/g, (_m, inner: string) => {
    const s = inner.trim();
    const bar = s.indexOf("|");
    if (bar >= 0) {
      const label = s.slice(bar + 1).trim();
      return label || s.slice(0, bar).trim();
    }
    const sp = s.search(/\s/);
    if (sp >= 0) return s.slice(sp + 1).trim();
    return s;
  });
  return linked.replace(/\s+/g, " ").trim();
}

/** The normalised main text, or `undefined` when empty. */
export function docMainText(doc: DocComment | undefined): string | undefined {
  if (!doc) return undefined;
  const t = normalizeDocText(doc.main);
  return t === "" ? undefined : t;
}

/** The normalised text of the first tag called `name`, or `undefined` (absent or empty). */
export function docTagText(doc: DocComment | undefined, name: string): string | undefined {
  const tag = doc?.tags.find((t) => t.name === name);
  if (!tag) return undefined;
  const t = normalizeDocText(tag.text);
  return t === "" ? undefined : t;
}

/** Whether the comment has a tag called `name`. */
export function hasDocTag(doc: DocComment | undefined, name: string): boolean {
  return !!doc?.tags.some((t) => t.name === name);
}

/**
 * The description of parameter `param` from `@param` tags (spec §3): accepts
 * `@param name text`, `@param {Type} name text`, `@param [name] text`, `@param [name=x] text`;
 * a leading `- ` of the text is dropped; the text is normalised. `undefined` when absent/empty.
 */
export function docParamText(doc: DocComment | undefined, param: string): string | undefined {
  if (!doc) return undefined;
  for (const tag of doc.tags) {
    if (tag.name !== "param" && tag.name !== "arg" && tag.name !== "argument") continue;
    let t = tag.text.replace(/^\s+/, "");
    if (t.startsWith("{")) {
      let depth = 0;
      let i = 0;
      for (; i < t.length; i++) {
        if (t[i] === "{") depth++;
        else if (t[i] === "}" && --depth === 0) break;
      }
      t = t.slice(i + 1).replace(/^\s+/, "");
    }
    const m = /^(\[[^\]]*\]|[^\s]+)/.exec(t);
    if (!m) continue;
    let name = m[1]!;
    if (name.startsWith("[")) name = name.slice(1, -1).split("=")[0]!.trim();
    if (name !== param) continue;
    let rest = t.slice(m[0].length).replace(/^\s+/, "");
    if (rest.startsWith("- ")) rest = rest.slice(2);
    else if (rest === "-") rest = "";
    const n = normalizeDocText(rest);
    return n === "" ? undefined : n;
  }
  return undefined;
}
