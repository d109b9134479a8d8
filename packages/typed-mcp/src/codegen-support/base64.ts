/**
 * The one base64 implementation of typed-mcp (RFC 4648): standard base64 for generated readers
 * and writers (spec §4 / §6 `Uint8Array`, re-exported to generated code by codegen-support/helpers.ts)
 * and its URL-safe, unpadded form for session ids (session.ts). Plain ES2022: no `Buffer`, no
 * `atob`/`btoa`, so it behaves the same on Node, Deno, Bun, workerd and in browsers.
 *
 * @module
 */

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_INDEX = /* @__PURE__ */ (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[B64.charCodeAt(i)] = i;
  return t;
})();

function b64(c: number): number {
  return c < 128 ? B64_INDEX[c]! : -1;
}

/**
 * Decodes standard base64 (RFC 4648 §4, spec §4 `Uint8Array`), strictly: the alphabet
 * `A–Z a–z 0–9 + /`, length a multiple of 4, `=` padding only at the end (0–2 of them), no
 * whitespace, and unused bits of the last group zero (the canonical encoding). Returns
 * `undefined` otherwise (including non-strings). Uses no `Buffer`/`atob`.
 */
export function readBase64(value: unknown): Uint8Array | undefined {
  if (typeof value !== "string") return undefined;
  const len = value.length;
  if (len % 4 !== 0) return undefined;
  let pad = 0;
  if (len > 0 && value.charCodeAt(len - 1) === 61) pad = value.charCodeAt(len - 2) === 61 ? 2 : 1;
  const out = new Uint8Array((len / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < len; i += 4) {
    const last = i + 4 === len;
    const a = b64(value.charCodeAt(i));
    const b = b64(value.charCodeAt(i + 1));
    const c = last && pad === 2 ? 0 : b64(value.charCodeAt(i + 2));
    const d = last && pad >= 1 ? 0 : b64(value.charCodeAt(i + 3));
    if ((a | b | c | d) < 0) return undefined;
    out[o++] = (a << 2) | (b >> 4);
    if (last && pad === 2) {
      if ((b & 0x0f) !== 0) return undefined;
      break;
    }
    out[o++] = ((b & 0x0f) << 4) | (c >> 2);
    if (last && pad === 1) {
      if ((c & 0x03) !== 0) return undefined;
      break;
    }
    out[o++] = ((c & 0x03) << 6) | d;
  }
  return out;
}

/** Encodes bytes as standard, padded base64 (spec §6 `Uint8Array` → base64). Uses no `Buffer`/`btoa`. */
export function toBase64(bytes: Uint8Array): string {
  let s = "";
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    s += B64[v >> 18]! + B64[(v >> 12) & 63]! + B64[(v >> 6) & 63]! + B64[v & 63]!;
  }
  if (i + 1 === n) {
    const v = bytes[i]! << 16;
    s += B64[v >> 18]! + B64[(v >> 12) & 63]! + "==";
  } else if (i + 2 === n) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    s += B64[v >> 18]! + B64[(v >> 12) & 63]! + B64[(v >> 6) & 63]! + "=";
  }
  return s;
}

/**
 * Encodes bytes as base64url (RFC 4648 §5: `-` and `_` for `+` and `/`) without `=` padding, as
 * used in `Mcp-Session-Id` values (session.ts): visible ASCII `A–Z a–z 0–9 - _` only.
 */
export function toBase64url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Decodes unpadded base64url (RFC 4648 §5) as made by {@link toBase64url}, strictly (the
 * canonical encoding, as {@link readBase64}). Returns `undefined` for anything else.
 */
export function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  return readBase64(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
}
