/**
 * Runtime helpers generated code calls as `__tmcp.<name>` (packages/typed-mcp/src/codegen-support/helpers.ts).
 * Node's Buffer is used only as an oracle here; the helpers themselves use no Buffer.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../packages/typed-mcp/dist/codegen-support/helpers.js";

describe("base64", () => {
  it("encodes and decodes like RFC 4648 (Buffer as oracle), for every length 0..64 and random bytes", () => {
    let seed = 1;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 255;
    for (let n = 0; n <= 64; n++) {
      const bytes = new Uint8Array(n).map(rnd);
      const b64 = Buffer.from(bytes).toString("base64");
      expect(s.toBase64(bytes)).toBe(b64);
      expect(Array.from(s.readBase64(b64)!)).toEqual(Array.from(bytes));
    }
  });

  it("refuses non-canonical, unpadded, whitespace and URL-safe input", () => {
    for (const bad of [
      "Q",
      "QQ",
      "QQ=",
      "QR==",
      "QUJ=",
      "QUJD\r\n",
      "QU JD",
      "QUJ-",
      "QUJ_",
      "=QUJ",
      "Q===",
      5,
      null,
    ]) {
      expect(s.readBase64(bad), String(bad)).toBeUndefined();
    }
  });
});

describe("codePoints", () => {
  it("counts code points; a lone surrogate counts 1", () => {
    expect(s.codePoints("")).toBe(0);
    expect(s.codePoints("abc")).toBe(3);
    expect(s.codePoints("😀a😀")).toBe(3);
    expect(s.codePoints("\ud83d")).toBe(1);
    expect(s.codePoints("\ude00\ud83d")).toBe(2);
    expect(s.codePoints("👨‍👩‍👧")).toBe([..."👨‍👩‍👧"].length);
  });
});

describe("formats", () => {
  it("email", () => {
    for (const ok of ["a@b.co", "first.last+tag@sub.example.org", "x_y-z@a-b.io", "o'neil@x.ie"])
      expect(s.isEmail(ok), ok).toBe(true);
    for (const bad of [
      "a@b",
      "a.@b.co",
      ".a@b.co",
      "a@b..co",
      "a@.b.co",
      "a@b-.co",
      '"a b"@x.co',
      "a@[127.0.0.1]",
      "ü@x.co",
      "a@" + "x".repeat(250) + ".co",
    ]) {
      expect(s.isEmail(bad), bad).toBe(false);
    }
  });

  it("uri", () => {
    for (const ok of [
      "https://x.org",
      "mailto:a@b.co",
      "urn:a:b",
      "ftp://u:p@h:21/p?q#f",
      "x+y.z-w:%20",
      "ui://weather/view",
    ])
      expect(s.isUri(ok), ok).toBe(true);
    for (const bad of [
      "",
      "x",
      "1http://x",
      "/a",
      "http://x y",
      "http://x/%2",
      "http://ü.de",
      "http://x/<a>",
      "http://x/\\",
    ])
      expect(s.isUri(bad), bad).toBe(false);
  });

  it("readUrl needs an absolute URI that new URL accepts", () => {
    expect(s.readUrl("https://x.org/a")?.href).toBe("https://x.org/a");
    expect(s.readUrl("http://[::1")).toBeUndefined();
    expect(s.readUrl("a")).toBeUndefined();
  });
});

describe("date-time", () => {
  it("handles years below 100 and offsets across days", () => {
    expect(s.readDateTime("0099-12-31T23:00:00-01:00")?.toISOString()).toBe("0100-01-01T00:00:00.000Z");
    expect(s.readDateTime("2000-02-29T00:00:00Z")?.toISOString()).toBe("2000-02-29T00:00:00.000Z");
    expect(s.readDateTime("1900-02-29T00:00:00Z")).toBeUndefined();
    expect(s.readDateTime("2024-06-30T23:59:59.999999999Z")?.toISOString()).toBe("2024-06-30T23:59:59.999Z");
  });
});

describe("defineOwn and passthrough", () => {
  it("defineOwn makes __proto__ an own enumerable data property", () => {
    const o = s.defineOwn({}, "__proto__", 1);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(["__proto__"]);
    expect(JSON.stringify(o)).toBe('{"__proto__":1}');
  });

  it("passthrough distinguishes results, blocks and block arrays", () => {
    const r = { content: [] };
    expect(s.passthrough(r)).toBe(r);
    expect(s.passthrough({ type: "text", text: "x" })).toEqual({ content: [{ type: "text", text: "x" }] });
    expect(s.passthrough([])).toEqual({ content: [] });
  });
});
