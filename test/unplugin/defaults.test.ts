/**
 * Defaults (spec §1, §3) end to end: the fixture is built by Vite with the plugin (real
 * TypeScript checker), its server is driven by the official client over `server.fetch`. Folded
 * defaults — templates with constant substitutions, `+`, `const` references, arrays of constants
 * (nested, `as const`, string-enum members) — are listed as `default`, an array with `null` in it
 * is not; and each call without the argument hands the tool a fresh array (the tool pushes to it).
 * Expected listings are derived by hand from §3's examples.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { buildAndConnect } from "./build-and-connect.ts";

const fixture = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/defaults");
let built: Awaited<ReturnType<typeof buildAndConnect>>;
let client: Client;

beforeAll(async () => {
  built = await buildAndConnect(fixture);
  client = built.client;
}, 120_000);

afterAll(async () => {
  await built?.close();
});

const text = (r: unknown) => ((r as { content: { text: string }[] }).content[0] as { text: string }).text;

it("lists folded defaults and arrays of constants as default; null in an array writes nothing", async () => {
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, JSON.stringify(t.inputSchema)]));
  expect(byName.folded).toBe(
    '{"type":"object","properties":{' +
      '"label":{"type":"string","default":"v2"},' + // `${BASE}${N}`
      '"sum":{"type":"number","default":3},' + // N + 1
      '"joined":{"type":"string","default":"v-2"},' + // BASE + "-" + N
      '"tags":{"type":"array","items":{"type":"string"},"default":[]},' +
      '"named":{"type":"array","items":{"type":"string"},"default":["a","b"]},' +
      '"referenced":{"type":"array","items":{"type":"string"},"default":["a","b"]},' + // const … as const
      '"grid":{"type":"array","items":{"type":"array","items":{"type":"number"}},"default":[[1,2],[3,4]]},' +
      '"levels":{"type":"array","items":{"type":"string","enum":["low","high"]},"default":["high"]},' +
      // numeric enum members (auto-numbered too) are written by name (§4)
      '"ranks":{"type":"array","items":{"type":"string","enum":["First","Second","Tenth","Eleventh"]},"default":["Second","Eleventh"]},' +
      '"withNull":{"type":"array","items":{"type":["string","null"]}}' +
      '},"additionalProperties":false}',
  );
  expect(byName.folded_args).toBe(
    '{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"},"default":[]},' +
      '"label":{"type":"string","default":"v!"}},"additionalProperties":false}',
  );
});

it("hands the tool a fresh copy of an array default on every call", async () => {
  for (let round = 0; round < 2; round++) {
    const r = JSON.parse(text(await client.callTool({ name: "folded", arguments: {} })));
    expect(r.tags).toEqual(["x"]);
    expect(r.named).toEqual(["a", "b"]);
    expect(r.ranks).toEqual([1, 11]); // the tool gets the enum's numbers
    expect(r.grid).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(JSON.parse(text(await client.callTool({ name: "folded_args", arguments: {} })))).toEqual({
      tags: ["y"],
      label: "v!",
    });
  }
  // An argument given is used as sent.
  const given = JSON.parse(text(await client.callTool({ name: "folded", arguments: { tags: ["q"] } })));
  expect(given.tags).toEqual(["q", "x"]);
});
