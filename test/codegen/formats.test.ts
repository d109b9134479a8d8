/**
 * `isEmail` and `isUri` (packages/typed-mcp/src/codegen-support/formats.ts, spec §4 `format`,
 * docs/codegen.md "Formats"): hand-written scanners that must accept exactly what the regular
 * expressions they replaced accept (issue 26). Those regexes are kept here as the oracle of a
 * fast-check property over the fuzz corpus (test/fuzz/values.ts `EMAILS`, `URIS`, fast-check's
 * `emailAddress` and `webUrl`), their mutations (a code unit inserted, deleted or replaced from an
 * alphabet of the grammar's edge characters), and random strings: 0 disagreements.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isEmail, isUri, readUrl } from "../../packages/typed-mcp/dist/codegen-support/helpers.js";
import { EMAILS, URIS } from "../fuzz/values.ts";

/** The previous implementations: the oracles. */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9A-Fa-f]{2})*$/;
const oldEmail = (s: string) => s.length <= 254 && EMAIL.test(s);
const oldUri = (s: string) => URI.test(s);

/** Characters at the grammar's edges: separators, percent escapes, case, non-ASCII look-alikes, controls. */
const EDGE = [..."@.-+%:/?#[]_~!$&'()*,;= aZz09AfFgG\"\\<>^`{|}\u00e9\u017f\u212a\u0130\u0000\n\t\u2028\ud83d"];

/** A string with one to three code units inserted, deleted or replaced (from {@link EDGE} or any). */
function mutated(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const edit = fc.record({
    at: fc.nat(),
    op: fc.constantFrom("insert", "delete", "replace"),
    ch: fc.oneof(fc.constantFrom(...EDGE), fc.string({ minLength: 1, maxLength: 1, unit: "binary" })),
  });
  return fc.tuple(base, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([s, edits]) => {
    for (const { at, op, ch } of edits) {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      s =
        op === "insert"
          ? s.slice(0, i) + ch + s.slice(i)
          : s.slice(0, i) + (op === "replace" ? ch : "") + s.slice(i + 1);
    }
    return s;
  });
}

/** Label lengths around the 63-character limit, total lengths around 254. */
const longEmails = fc
  .tuple(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 200 }))
  .map(([a, b, local]) => `${"l".repeat(local)}@${"a".repeat(a)}.${"b".repeat(b)}`);

const emailCorpus = fc.oneof(
  fc.constantFrom(...EMAILS),
  fc.emailAddress(),
  mutated(fc.oneof(fc.constantFrom(...EMAILS), fc.emailAddress())),
  longEmails,
  mutated(longEmails),
  fc.string({ unit: fc.constantFrom(...EDGE, "a", "b", "1") }),
  fc.string({ unit: "binary" }),
);
const uriCorpus = fc.oneof(
  fc.constantFrom(...URIS),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  mutated(fc.oneof(fc.constantFrom(...URIS), fc.webUrl({ withQueryParameters: true, withFragments: true }))),
  fc.string({ unit: fc.constantFrom(...EDGE, "a", "b", "1") }),
  fc.string({ unit: "binary" }),
);

describe("format scanners vs the previous regexes (fast-check, 0 disagreements)", () => {
  it("isEmail accepts exactly what the e-mail regex accepted", () => {
    fc.assert(
      fc.property(emailCorpus, (s) => isEmail(s) === oldEmail(s)),
      { numRuns: 20_000, seed: 20261202 },
    );
  });

  it("isUri accepts exactly what the URI regex accepted; readUrl follows it", () => {
    fc.assert(
      fc.property(uriCorpus, (s) => isUri(s) === oldUri(s) && (readUrl(s) === undefined || oldUri(s))),
      { numRuns: 20_000, seed: 20261202 },
    );
  });
});

describe("format scanners: the grammar's edges (docs/codegen.md Formats)", () => {
  it("e-mail: dot-atom local part, two or more DNS labels of 1–63, at most 254 characters", () => {
    for (const ok of ["a@b.io", "A.B+c@X-1.example", "!#$%&'*+/=?^_`{|}~-@a.b", `a@${"x".repeat(63)}.io`])
      expect(isEmail(ok)).toBe(true);
    const at254 = `${"l".repeat(64)}@${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(61)}`;
    expect(at254.length).toBe(254);
    expect(isEmail(at254)).toBe(true);
    expect(isEmail(`l${at254}`)).toBe(false);
    for (const bad of [
      "",
      "a@b",
      "@a.b",
      "a@.b",
      "a@b.",
      "a.@b.io",
      ".a@b.io",
      "a..b@c.io",
      "a@-b.io",
      "a@b-.io",
      "a@b..io",
      `a@${"x".repeat(64)}.io`,
      "é@b.io",
      "a@b\u017f.io",
      "a@@b.io",
      "a b@c.io",
      '"a"@b.io',
      "a@[1.2.3.4]",
    ])
      expect(isEmail(bad)).toBe(false);
  });

  it("URI: ALPHA scheme, colon, RFC 3986 characters or %HH", () => {
    for (const ok of ["a:", "urn:x", "HTTP://A.B/%41", "h+t-t.p:/?#[]@!$&'()*+,;=~_.", "x:%aF"])
      expect(isUri(ok)).toBe(true);
    for (const bad of [
      "",
      ":",
      "1a:",
      "+a:",
      "a",
      "a/b:c",
      "a: b",
      "a:%",
      "a:%4",
      "a:%4g",
      "a:é",
      'a:"',
      "a:<",
      "a:^",
      "a:{",
      "a:\\",
    ])
      expect(isUri(bad)).toBe(false);
  });
});
