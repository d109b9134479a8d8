import { expect } from "vitest";
/**
 * The calls made against the fixture server (test/bundlers/fixtures/server) by every bundler
 * build (bundlers.test.ts) and every Babel build (test/babel), with the answers the spec gives
 * for them (§5 reading, §6 writing, §7 errors): one list, so that every build is held to the same.
 */
/** The §5 argument error: the seed's sentence, then the §5 table's second sentence. */
const invalid = (path: string, second: string) => ({
  content: [{ type: "text", text: `Argument '${path}' is not valid. ${second}` }],
  isError: true,
});

/** An object-shaped result (spec §6): the JSON text and the same value as structuredContent. */
const structured = (value: Record<string, unknown>) => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
});

const oslo = { lat: 59.91, lon: 10.75, label: "Oslo" };

export const calls: { name: string; args?: Record<string, unknown>; answer: Record<string, unknown> }[] = [
  {
    name: "read_temperature",
    args: { place: oslo, note: null },
    answer: {
      content: [{ type: "text", text: JSON.stringify({ place: oslo, temperature: 20, unit: "celsius", note: null }) }],
      structuredContent: { place: oslo, temperature: 20, unit: "celsius", note: null },
    },
  },
  {
    // Unknown nested properties are dropped; the writer writes listed properties in listed order.
    name: "read_temperature",
    args: { unit: "fahrenheit", note: "warm", place: { label: "Rome", lon: 12.5, lat: 41.9, alt: 21 } },
    answer: {
      content: [
        {
          type: "text",
          text: '{"place":{"lat":41.9,"lon":12.5,"label":"Rome"},"temperature":68,"unit":"fahrenheit","note":"warm"}',
        },
      ],
      structuredContent: {
        place: { lat: 41.9, lon: 12.5, label: "Rome" },
        temperature: 68,
        unit: "fahrenheit",
        note: "warm",
      },
    },
  },
  { name: "countdown", args: { from: 5, step: 2 }, answer: { content: [{ type: "text", text: "5 3 1" }] } },
  { name: "countdown", args: { from: 3 }, answer: { content: [{ type: "text", text: "3 2 1 0" }] } },
  { name: "repeat", args: { word: "ab" }, answer: { content: [{ type: "text", text: "ab ab" }] } },
  {
    name: "repeat",
    args: { word: "ab", times: 3, style: "upper" },
    answer: { content: [{ type: "text", text: "AB AB AB" }] },
  },
  {
    name: "read_temperature",
    args: { place: { lat: "59", lon: 10 }, note: null },
    answer: invalid("place.lat", "Expected a number, got a string."),
  },
  { name: "read_temperature", args: { place: oslo }, answer: invalid("note", "It is required.") },
  {
    name: "read_temperature",
    args: { place: oslo, note: null, unit: "kelvin" },
    answer: invalid("unit", 'Expected one of "celsius", "fahrenheit".'),
  },
  { name: "countdown", args: { from: 1.5 }, answer: invalid("from", "Expected an integer.") },
  { name: "countdown", args: { from: "3" }, answer: invalid("from", "Expected an integer, got a string.") },
  {
    name: "repeat",
    args: { word: "a", style: "UPPER" },
    answer: invalid("style", 'Expected one of "upper", "lower".'),
  },
  { name: "repeat", args: { word: "a", extra: 1 }, answer: invalid("extra", "It is not a parameter of this tool.") },
  { name: "explode", answer: invalid("reason", "It is required.") },
  {
    name: "countdown",
    args: { from: 3, step: 0 },
    answer: { content: [{ type: "text", text: "The step must be positive, not 0." }], isError: true },
  },
  {
    name: "explode",
    args: { reason: "boom" },
    answer: { content: [{ type: "text", text: "The tool failed." }], isError: true },
  },
  // §4a: a discriminated union parameter, an `Int | "all"` with a default, a tuple, a union result (the writer dispatches on `ok`).
  {
    name: "measure",
    args: { shape: { kind: "circle", r: 1 }, digits: 2 },
    answer: structured({ ok: true, area: 3.14 }),
  },
  {
    name: "measure",
    args: { shape: { kind: "rect", w: 2, h: 3, d: 9 }, scale: [2, 1] },
    answer: structured({ ok: true, area: 12 }),
  },
  {
    name: "measure",
    args: { shape: { kind: "rect", w: 0, h: 1 } },
    answer: structured({ ok: false, reason: "empty" }),
  },
  {
    name: "measure",
    args: { shape: { kind: "oval", r: 1 } },
    answer: invalid("shape.kind", 'Expected one of "circle", "rect".'),
  },
  { name: "measure", args: { shape: { r: 1 } }, answer: invalid("shape.kind", 'Expected one of "circle", "rect".') },
  { name: "measure", args: { shape: { kind: "rect", w: 1 } }, answer: invalid("shape.h", "It is required.") },
  {
    name: "measure",
    args: { shape: { kind: "circle", r: 1 }, scale: [1] },
    answer: invalid("scale", "Expected an array of exactly 2 items."),
  },
  {
    name: "measure",
    args: { shape: { kind: "circle", r: 1 }, digits: "some" },
    answer: invalid("digits", 'Expected one of "all".'),
  },
  {
    name: "measure",
    args: { shape: { kind: "circle", r: 1 }, digits: true },
    answer: invalid("digits", "Expected an integer or a string, got a boolean."),
  },
];

/**
 * Calls the fixture's `explode` tool (it throws a plain Error; the fixture's `onToolError` prints
 * the stack to stderr between `TOOL-ERROR explode` and `END-TOOL-ERROR`) and returns the location
 * (`file:line:column`) of the top stack frame, as the source-mapped stack names it. The tool's
 * answer must be `The tool failed.` (spec §7).
 */
export async function explodeFrame(
  client: { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> },
  stderr: () => string,
): Promise<string> {
  const result = await client.callTool({ name: "explode", arguments: { reason: "trace" } });
  expect(result).toEqual({ content: [{ type: "text", text: "The tool failed." }], isError: true });
  const pattern = /TOOL-ERROR explode\nError: exploded: trace\n([\s\S]*?)\nEND-TOOL-ERROR/;
  const until = Date.now() + 5000;
  while (!pattern.test(stderr()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  const report = pattern.exec(stderr());
  expect(report, stderr()).not.toBeNull();
  const top = report![1]!.split("\n")[0];
  // The frame's function name comes from V8 and the bundler's renaming, not from typed-mcp.
  const frame = /^    at (?:WeatherTools\.)?explode \((.*)\)$/.exec(top ?? "");
  expect(frame, top).not.toBeNull();
  return frame![1]!;
}
