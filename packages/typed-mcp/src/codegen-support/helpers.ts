/**
 * Folder `codegen-support/`: what generated code calls at run time through `typed-mcp/internal`
 * (../internal.ts) — the helpers (this file), argument errors, base64, date-time, and the resource
 * and prompt descriptor contract.
 *
 * Small helpers that generated readers and writers call through `typed-mcp/internal`
 * (owned by `@typed-mcp/codegen`: it decides what generated code needs).
 *
 * Generated code refers to them as `__tmcp.<name>`. Everything here is plain ES2022 with no
 * `eval`, no `new Function` and no Node-only API (no `Buffer`), so it runs on Cloudflare
 * Workers and other edge runtimes. The rules each helper enforces are written down in
 * `docs/codegen.md`.
 *
 * @packageDocumentation
 */

import { isUri } from "./formats.js";

export { readBase64, toBase64 } from "./base64.js";
export { readDateTime } from "./date-time.js";
export { isEmail, isUri } from "./formats.js";

/**
 * Number of Unicode code points in `s` (JSON Schema's string length, spec §4 "Lengths count
 * Unicode code points"). A surrogate pair counts 1; a lone surrogate counts 1.
 */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Reads a `URL` (spec §4): the string must be an absolute URI by {@link isUri} and `new URL(s)`
 * (no base) must accept it. Returns `undefined` otherwise (including non-strings).
 */
export function readUrl(value: unknown): URL | undefined {
  if (typeof value !== "string" || !isUri(value)) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * A described use of a shared object schema in a listing (docs/architecture.md "Shared types",
 * issue 26): `{ type, description, …the other keywords of base }`, in that key order — the object
 * the listing would hold written out (`{"type":"object","description":…,"properties":base.properties,…}`),
 * built once when the module loads. `base` is a schema constant of generated code; never modified.
 */
export function described(base: Record<string, unknown>, description: string): Record<string, unknown> {
  const out: Record<string, unknown> = { type: base.type, description };
  for (const k of Object.keys(base)) if (k !== "type") out[k] = base[k];
  return out;
}

/**
 * Sets `obj[key] = value` as an own, enumerable, writable data property even when `key` is
 * `__proto__` (spec §5: such keys never reach a prototype). Returns `obj`.
 */
export function defineOwn<T extends object>(obj: T, key: string, value: unknown): T {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  return obj;
}

/**
 * Writes a passed-through result (spec §6): an array of content blocks → `{ content: blocks }`;
 * a single content block (an object with a string `type`) → `{ content: [block] }`; anything
 * else is taken to be a `CallToolResult` and returned as is.
 */
export function passthrough(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { content: value };
  if (typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string") {
    return { content: [value] };
  }
  return value as Record<string, unknown>;
}

/**
 * Argument errors of spec §5 (argument-errors.ts, one rule for build time and run time):
 * `pathKey(key, first)` is one safe path step (`.name` or `["…"]`), `invalid(path, sentence)` the
 * whole `Argument '<path>' is not valid. <sentence>` text (paths cut at 200 UTF-16 code units),
 * `invalidFrom(path, failure)` the same text from a shared reader's `<suffix>\n<sentence>`
 * failure (docs/architecture.md "Shared types"), `got(value)` the JSON type a value has
 * (`a number`, `null`), never the value.
 *
 * `args(a)` is the reader's start (absent `arguments` → `{}`, a non-object → the whole §5 error
 * string), `unknownArg(key)` the §5 error of an unknown top-level argument (both keep a tool
 * reader's fixed text out of every tool).
 */
export { pathKey, invalid, invalidFrom, got, args, unknownArg } from "./argument-errors.js";

/**
 * Unwraps a `WithContent<T>` result (docs/runtime.md "Custom text beside a typed result"):
 * `{ value, content }`, the content blocks copied.
 *
 * @throws TypeError for a value not made by `withContent` (the tool then answers `The tool failed.`, spec §7).
 */
export { unwrapWithContent as withContent } from "../with-content.js";
