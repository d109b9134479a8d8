/**
 * `readDateTime` (packages/typed-mcp/src/codegen-support/date-time.ts) against the contract's grammar (spec §4
 * `Date`, docs/codegen.md "Date-time": RFC 3339 §5.6 `date-time`, `T`/`Z` in either case, leap
 * second refused, fraction truncated to milliseconds), and against the previous regex + `Date`
 * implementation kept here as the oracle of a property test.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readDateTime } from "../../packages/typed-mcp/dist/codegen-support/helpers.js";

/** The previous implementation (an 11-group regex and three `Date`s): the oracle. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
function oracle(value: unknown): Date | undefined {
  if (typeof value !== "string") return undefined;
  const m = DATE_TIME.exec(value);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => +m[i]!) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const dim =
    month === 2
      ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
        ? 29
        : 28
      : [4, 6, 9, 11].includes(month)
        ? 30
        : 31;
  if (month < 1 || month > 12 || day < 1 || day > dim) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = m[7] === undefined ? 0 : +(m[7] + "00").slice(0, 3);
  let offset = 0;
  if (m[8] === undefined) {
    const oh = +m[10]!;
    const om = +m[11]!;
    if (oh > 23 || om > 59) return undefined;
    offset = (m[9] === "-" ? -1 : 1) * (oh * 60 + om) * 60000;
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return new Date(d.getTime() - offset);
}

const iso = (s: string) => readDateTime(s)?.toISOString();

describe("readDateTime: the RFC 3339 date-time grammar of spec §4", () => {
  it("accepts Z, z, t, offsets and fractions; the instant is the fields minus the offset", () => {
    expect(iso("1985-04-12T23:20:50.52Z")).toBe("1985-04-12T23:20:50.520Z"); // RFC 3339 §5.8
    expect(iso("1996-12-19T16:39:57-08:00")).toBe("1996-12-20T00:39:57.000Z"); // RFC 3339 §5.8
    expect(iso("1937-01-01T12:00:27.87+00:20")).toBe("1937-01-01T11:40:27.870Z"); // RFC 3339 §5.8
    expect(iso("2026-07-28t09:05:00z")).toBe("2026-07-28T09:05:00.000Z");
    expect(iso("2026-07-28T00:00:00+23:59")).toBe("2026-07-27T00:01:00.000Z");
    expect(iso("2026-07-28T23:59:59-23:59")).toBe("2026-07-29T23:58:59.000Z");
    expect(iso("2024-06-30T23:59:59.9Z")).toBe("2024-06-30T23:59:59.900Z");
    expect(iso("2024-06-30T23:59:59.999999999Z")).toBe("2024-06-30T23:59:59.999Z");
    expect(iso("0000-01-01T00:00:00Z")).toBe("0000-01-01T00:00:00.000Z");
    expect(iso("0099-12-31T23:00:00-01:00")).toBe("0100-01-01T00:00:00.000Z");
    expect(iso("9999-12-31T23:59:59.999Z")).toBe("9999-12-31T23:59:59.999Z");
  });

  it("checks the calendar: Feb 29 only in leap years (4/100/400), 30-day months", () => {
    expect(iso("2000-02-29T00:00:00Z")).toBe("2000-02-29T00:00:00.000Z");
    expect(iso("2024-02-29T00:00:00Z")).toBe("2024-02-29T00:00:00.000Z");
    for (const bad of [
      "1900-02-29T00:00:00Z",
      "2023-02-29T00:00:00Z",
      "2024-02-30T00:00:00Z",
      "2024-04-31T00:00:00Z",
      "2024-06-31T00:00:00Z",
      "2024-09-31T00:00:00Z",
      "2024-11-31T00:00:00Z",
    ]) {
      expect(readDateTime(bad), bad).toBeUndefined();
    }
    expect(iso("2024-12-31T00:00:00Z")).toBe("2024-12-31T00:00:00.000Z");
  });

  it("refuses leap seconds, out-of-range fields and everything outside the grammar", () => {
    for (const bad of [
      "2016-12-31T23:59:60Z", // leap second: refused by the contract
      "2024-00-01T00:00:00Z",
      "2024-13-01T00:00:00Z",
      "2024-01-00T00:00:00Z",
      "2024-01-32T00:00:00Z",
      "2024-01-01T24:00:00Z",
      "2024-01-01T00:60:00Z",
      "2024-01-01T00:00:00+24:00",
      "2024-01-01T00:00:00+00:60",
      "2024-01-01 00:00:00Z", // space instead of T
      "2024-01-01T00:00:00", // missing offset
      "2024-01-01T00:00:00.Z", // empty fraction
      "2024-01-01T00:00:00,5Z",
      "2024-01-01T00:00Z",
      "2024-01-01",
      "2024-01-01T00:00:00+0100",
      "2024-01-01T00:00:00+01",
      "2024-01-01T00:00:00Zx",
      "2024-01-01T00:00:00+01:00 ",
      " 2024-01-01T00:00:00Z",
      "+02024-01-01T00:00:00Z",
      "24-01-01T00:00:00Z",
      "2024-1-01T00:00:00Z",
      "２０２４-01-01T00:00:00Z", // non-ASCII digits
      "2024-01-01T00:00:00UTC",
      "Mon, 01 Jan 2024 00:00:00 GMT", // Date.parse accepts it; the contract does not
      "",
    ]) {
      expect(readDateTime(bad), bad).toBeUndefined();
    }
    for (const notString of [0, null, undefined, true, {}, [], new Date(0)])
      expect(readDateTime(notString)).toBeUndefined();
  });

  it("agrees with the previous regex implementation on generated well-formed and near-miss strings", () => {
    const two = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, "0"));
    // Mostly in range, sometimes one past a limit (the grammar's edges), rarely malformed.
    const field = (min: number, max: number) =>
      fc.oneof(
        { arbitrary: two(min, max), weight: 12 },
        { arbitrary: fc.constantFrom(String(max + 1).padStart(2, "0"), "00", "99"), weight: 1 },
        { arbitrary: fc.constantFrom("0a", "", "1", "123", "-1"), weight: 1 },
      );
    const frac = fc.oneof(fc.constant(""), fc.stringMatching(/^\.[0-9]{0,12}$/), fc.constantFrom(".", ".x", ",5"));
    const zone = fc.oneof(
      { arbitrary: fc.constantFrom("Z", "z"), weight: 3 },
      {
        arbitrary: fc
          .tuple(fc.constantFrom("+", "-"), field(0, 23), fc.constant(":"), field(0, 59))
          .map((p) => p.join("")),
        weight: 3,
      },
      { arbitrary: fc.constantFrom("", "+", "Zz", "GMT", "+0100", "~01:00"), weight: 1 },
    );
    const sep = fc.oneof(
      { arbitrary: fc.constantFrom("T", "t"), weight: 8 },
      { arbitrary: fc.constantFrom(" ", "TT", ""), weight: 1 },
    );
    const year = fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, "0")), weight: 12 },
      { arbitrary: fc.constantFrom("199", "20000", "-001"), weight: 1 },
    );
    const candidate = fc
      .tuple(
        year,
        fc.constant("-"),
        field(1, 12),
        fc.constantFrom("-", "-", "-", "/"),
        field(1, 31),
        sep,
        field(0, 23),
        fc.constant(":"),
        field(0, 59),
        fc.constantFrom(":", ":", ":", ""),
        field(0, 59),
        frac,
        zone,
      )
      .map((p) => p.join(""));
    fc.assert(
      fc.property(fc.oneof({ arbitrary: candidate, weight: 9 }, { arbitrary: fc.string(), weight: 1 }), (s) => {
        expect(readDateTime(s)?.getTime(), s).toBe(oracle(s)?.getTime());
      }),
      { numRuns: 20_000 },
    );
  });

  it("agrees with the oracle on every valid instant it generates (valid-path property)", () => {
    const instant = fc.date({
      min: new Date("0000-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59.999Z"),
      noInvalidDate: true,
    });
    const offset = fc.tuple(
      fc.constantFrom("+", "-"),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
    );
    fc.assert(
      fc.property(instant, offset, fc.stringMatching(/^[0-9]{0,6}$/), (d, [sign, oh, om], extra) => {
        const shifted = new Date(d.getTime() + (sign === "-" ? -1 : 1) * (oh * 60 + om) * 60000);
        if (shifted.getUTCFullYear() < 0 || shifted.getUTCFullYear() > 9999) return;
        const local = shifted.toISOString().slice(0, 23) + extra;
        const s = `${local}${sign}${String(oh).padStart(2, "0")}:${String(om).padStart(2, "0")}`;
        expect(readDateTime(s)?.getTime(), s).toBe(d.getTime());
        expect(readDateTime(s)?.getTime(), s).toBe(oracle(s)?.getTime());
      }),
      { numRuns: 5_000 },
    );
  });
});
