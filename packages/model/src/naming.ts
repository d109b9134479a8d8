/**
 * Naming rules (spec §1, §4): tool names from member names (snake_case), the `@naming camelCase`
 * rule, the tool-name check, and the OAuth scope-token check.
 *
 * @module
 */

/**
 * Converts a method name to a tool name (spec §1): drops a trailing `Async` when something
 * precedes it, then converts to snake_case.
 *
 * `getDocketAsync` → `get_docket`, `HTTPRequest` → `http_request`,
 * `getHTTPResponse` → `get_http_response`, `parseV2Data` → `parse_v2_data`.
 */
export function toolNameFromMember(member: string): string {
  const base = member.length > 5 && member.endsWith("Async") ? member.slice(0, -5) : member;
  return toSnakeCase(base);
}

/**
 * snake_case per spec §1: `_` before an upper-case letter that follows a lower-case letter or
 * digit, and before an upper-case letter that follows an upper-case letter and is followed by
 * a lower-case one; then lower-case everything. Existing `_` stay.
 */
export function toSnakeCase(name: string): string {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (isUpper(c) && i > 0) {
      const prev = name[i - 1]!;
      const next = name[i + 1];
      if (isLower(prev) || isDigit(prev) || (isUpper(prev) && next !== undefined && isLower(next))) {
        out += "_";
      }
    }
    out += c;
  }
  return out.toLowerCase();
}

/**
 * camelCase per .NET's `JsonNamingPolicy.CamelCase` (spec §4 `@naming camelCase`): the leading
 * run of upper-case letters is lower-cased, except that the last of a run longer than one is
 * kept when a lower-case letter follows it. `Name` → `name`, `URLValue` → `urlValue`,
 * `first_name` stays.
 */
export function toCamelCase(name: string): string {
  if (name.length === 0 || !isUpper(name[0]!)) return name;
  const chars = [...name];
  for (let i = 0; i < chars.length; i++) {
    if (i === 1 && !isUpper(chars[i]!)) break;
    const hasNext = i + 1 < chars.length;
    if (i > 0 && hasNext && !isUpper(chars[i + 1]!)) {
      // "URLValue": stop before the 'V' that starts the next word.
      if (chars[i + 1] === " ") chars[i] = chars[i]!.toLowerCase();
      break;
    }
    chars[i] = chars[i]!.toLowerCase();
  }
  return chars.join("");
}

/** The tool-name rule of spec §1 (MCP 2025-11-25): 1 to 128 of `A–Z a–z 0–9 _ - .`. */
export function isValidToolName(name: string): boolean {
  return /^[A-Za-z0-9_.-]{1,128}$/.test(name);
}

function isUpper(c: string): boolean {
  return c >= "A" && c <= "Z";
}
function isLower(c: string): boolean {
  return c >= "a" && c <= "z";
}
function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

/**
 * An OAuth scope token (RFC 6749 §3.3 `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`): the
 * `scopes` option of a tool, resource or prompt (read at build time) and the runtime's `auth`
 * scopes (docs/auth.md "Scopes") are checked against it.
 */
export const SCOPE_TOKEN: RegExp = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
