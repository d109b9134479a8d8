/**
 * The RFC 3339 `date-time` reader of generated readers and resource-template parameters
 * (spec §4 `Date`, docs/codegen.md "Date-time"), re-exported to generated code by
 * codegen-support/helpers.ts. A hand-rolled scanner: one pass over the string's code units, no regular
 * expression and no intermediate `Date` — the only allocation is the returned `Date`.
 *
 * @packageDocumentation
 */

/** Milliseconds in a day. */
const DAY_MS = 86_400_000;

/** The value of the ASCII digits `s[at..at+n)`, or -1 when one of them is not `0`–`9`. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** Days in `month` (1–12) of the proleptic Gregorian `year` (leap years by the 4/100/400 rule). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days from 1970-01-01 to the proleptic Gregorian date `year-month-day` (negative before 1970;
 * H. Hinnant's `days_from_civil` algorithm, exact for years 0000–9999).
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * Reads an RFC 3339 `date-time` (spec §4 `Date`; RFC 3339 §5.6 `date-time`):
 * `YYYY-MM-DD(T|t)HH:MM:SS[.fraction](Z|z|±HH:MM)` with ASCII digits, a fraction of one or more
 * digits. The calendar is checked: month 01–12, a day that exists in that month (Feb 29 in leap
 * years only), hour ≤ 23, minute ≤ 59, second ≤ 59, offset hour ≤ 23, offset minute ≤ 59. A leap
 * second (`:60`) is refused (a `Date` cannot hold it). Digits of the fraction beyond
 * milliseconds are truncated. The instant is computed from the fields minus the offset (never
 * `Date.parse`), so years 0000–0099 are exact.
 *
 * @param value - the argument value (any JSON value).
 * @returns the instant as a new `Date`, or `undefined` for anything else (including non-strings);
 * never throws.
 */
export function readDateTime(value: unknown): Date | undefined {
  if (typeof value !== "string") return undefined;
  const s = value;
  const n = s.length;
  // Fixed part: "YYYY-MM-DDTHH:MM:SS" is 19 code units, then at least "Z".
  if (n < 20) return undefined;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58)
    return undefined;
  const t = s.charCodeAt(10);
  if (t !== 84 && t !== 116) return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    // ".fraction": one or more digits; the first three are milliseconds.
    const start = ++i;
    while (i < n) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      if (i - start < 3) ms += d * (i === start ? 100 : i === start + 1 ? 10 : 1);
      i++;
    }
    if (i === start) return undefined;
  }
  let offsetMin = 0;
  const z = s.charCodeAt(i);
  if (z === 90 || z === 122) {
    if (i + 1 !== n) return undefined;
  } else if (z === 43 || z === 45) {
    if (i + 6 !== n || s.charCodeAt(i + 3) !== 58) return undefined;
    const oh = digits(s, i + 1, 2);
    const om = digits(s, i + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return undefined;
    offsetMin = (z === 45 ? -1 : 1) * (oh * 60 + om);
  } else {
    return undefined;
  }
  const local = daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute - offsetMin) * 60 + second) * 1000 + ms;
  return new Date(local);
}
