/**
 * The `email` and `uri` format checks of generated readers (spec §4 `format`, docs/codegen.md
 * "Formats"), re-exported to generated code by codegen-support/helpers.ts. Hand-written scanners
 * of exactly the grammar of the regular expressions they replace (issue 26: the two regexes were
 * 34 % of a string-heavy read): one pass over the string's code units against a 128-entry class
 * table, no allocation. test/codegen/formats.test.ts checks them against those regexes with
 * fast-check (0 disagreements is the contract).
 *
 * @packageDocumentation
 */

/** Class bits of an ASCII code unit. */
const ATEXT = 1; // RFC 5322 `atext`: letters, digits, ! # $ % & ' * + / = ? ^ _ ` { | } ~ -
const ALNUM = 2; // a letter or a digit (a DNS label's ends)
const URIC = 4; // an RFC 3986 unreserved or reserved character
const SCHEME = 8; // a letter, a digit, + - . (a scheme after its first letter)
const HEX = 16; // a hexadecimal digit
const LABEL = 32; // a letter, a digit or - (inside a DNS label)

/** The class bits of each ASCII code unit (0 for the rest). */
const CLASS = (() => {
  const t = new Uint8Array(128);
  const mark = (chars: string, bit: number) => {
    for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)]! |= bit;
  };
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const digits = "0123456789";
  mark(letters + digits, ATEXT | ALNUM | URIC | SCHEME);
  mark("!#$%&'*+/=?^_`{|}~-", ATEXT);
  mark("-._~!$&'()*+,;=:@/?#[]", URIC);
  mark("+-.", SCHEME);
  mark(digits + "ABCDEFabcdef", HEX);
  mark(letters + digits + "-", LABEL);
  return t;
})();

/** Whether code unit `c` has class `bit` (never for a non-ASCII one). */
const is = (c: number, bit: number): boolean => c < 128 && (CLASS[c]! & bit) !== 0;

/**
 * `format: "email"` (spec §4): an ASCII `dot-atom@hostname` address — the local part is RFC 5322
 * `atext` runs separated by single dots; the domain is two or more DNS labels (letters, digits,
 * inner hyphens, 1–63 characters each). Quoted local parts, IP literals and internationalised
 * addresses are refused. Total length at most 254 characters.
 */
export function isEmail(s: string): boolean {
  const n = s.length;
  if (n > 254) return false;
  let i = 0;
  // Local part: one or more atext runs joined by single dots, then "@".
  let run = 0;
  for (;;) {
    if (i === n) return false;
    const c = s.charCodeAt(i++);
    if (is(c, ATEXT)) run++;
    else if (run === 0 || (c !== 64 && c !== 46)) return false;
    else if (c === 64)
      break; // "@"
    else run = 0; // "."
  }
  // Domain: two or more labels joined by dots; each 1–63 of letters, digits, inner hyphens.
  let labels = 0;
  for (;;) {
    const start = i;
    if (i === n || !is(s.charCodeAt(i), ALNUM)) return false;
    while (i < n && is(s.charCodeAt(i), LABEL)) i++;
    if (i - start > 63 || s.charCodeAt(i - 1) === 45) return false;
    labels++;
    if (i === n) return labels >= 2;
    if (s.charCodeAt(i++) !== 46) return false;
  }
}

/**
 * `format: "uri"` (spec §4): an absolute RFC 3986 URI — a scheme (`ALPHA *( ALPHA / DIGIT / "+" /
 * "-" / "." )`), a colon, then only RFC 3986 characters (unreserved, reserved, `%HH`). No spaces,
 * no non-ASCII characters (that would be an IRI), no malformed percent escapes.
 */
export function isUri(s: string): boolean {
  const n = s.length;
  if (n === 0 || !is(s.charCodeAt(0), ALNUM) || s.charCodeAt(0) <= 57) return false; // ALPHA first
  let i = 1;
  while (i < n && is(s.charCodeAt(i), SCHEME)) i++;
  if (i === n || s.charCodeAt(i) !== 58) return false; // ":"
  for (i++; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      // "%" HEXDIG HEXDIG
      if (i + 2 >= n || !is(s.charCodeAt(i + 1), HEX) || !is(s.charCodeAt(i + 2), HEX)) return false;
      i += 2;
    } else if (!is(c, URIC)) return false;
  }
  return true;
}
