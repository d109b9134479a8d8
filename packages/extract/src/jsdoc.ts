/**
 * Doc-comment parsing and normalisation (spec §4 "Doc comments").
 *
 * Works on the raw text of one `/** … *\/` comment — the backend decides which comment is
 * attached to a declaration (TypeScript's rule: a JSDoc comment counts only where it starts a
 * line, or directly before a parameter); this module only reads the text.
 */

/** One `@tag text` of a doc comment. `text` is raw (not yet normalised), without the tag name. */
interface DocTag {
  name: string;
  text: string;
}

/** A parsed doc comment: the main text (raw) and its tags in written order. */
export interface DocComment {
  main: string;
  tags: DocTag[];
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
      if (nl < 0) return "";
      i += nl;
      continue;
    }
    if (raw.startsWith("/*", i)) {
      const close = raw.indexOf("*/", i + 2);
      if (close < 0) return raw.slice(i);
      const after = close + 2;
      if (after >= end) return raw.startsWith("/**", i) && !raw.startsWith("/**/", i) ? raw.slice(i, after) : "";
      i = after;
      continue;
    }
    return raw.slice(i);
  }
  return "";
}

/**
 * Parses the raw text of one JSDoc comment (`/** … *\/`, delimiters included or not).
 * Tags start at an `@name` that begins a line or follows whitespace, outside `{…}` (so
 * `{@link X}` stays in the text). Never throws.
 */
export function parseDocComment(raw: string): DocComment {
  let body = docCommentText(raw).trim();
  if (body.startsWith("/**")) body = body.slice(3);
  if (body.endsWith("*/")) body = body.slice(0, -2);
  const lines = body.split(/\r\n|\r|\n/).map((line, i) => {
    const m = /^\s*\*(?!\/)\s?/.exec(line);
    return i === 0 && !m ? line : m ? line.slice(m[0].length) : line.replace(/^\s+/, "");
  });
  const text = lines.join("\n");
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
        current = { name: m[1]!, text: "" };
        tags.push(current);
        i += m[0].length - 1;
        continue;
      }
    }
    buf += c;
  }
  if (current) current.text = buf;
  else main = buf;
  return { main, tags };
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
