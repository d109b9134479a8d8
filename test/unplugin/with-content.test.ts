/**
 * Custom content beside a typed result (docs/runtime.md "Custom text beside a typed result"):
 * a tool returning `WithContent<T>` is listed with T's outputSchema (spec §6) and answers the
 * blocks it chose as `content` with `structuredContent` written from T (dates as ISO strings);
 * the official client validates structuredContent against outputSchema. A bare value where
 * `withContent(…)` was declared is `The tool failed.` (§7). Built by Vite with the plugin.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { buildAndConnect } from "./build-and-connect.ts";
import { cli, ROOT } from "../cli/helpers.ts";

const fixture = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/with-content");
let built: Awaited<ReturnType<typeof buildAndConnect>>;
let client: Client;

beforeAll(async () => {
  built = await buildAndConnect(fixture);
  client = built.client;
}, 120_000);

afterAll(async () => {
  await built?.close();
});

const HITS_SCHEMA =
  '{"type":"object","properties":{"query":{"type":"string"},"items":{"type":"array","items":{"type":"string"}}},"required":["query","items"]}';

it("lists T's outputSchema", async () => {
  const { tools } = await client.listTools();
  const schema = Object.fromEntries(tools.map((t) => [t.name, JSON.stringify(t.outputSchema)]));
  expect(schema.find).toBe(HITS_SCHEMA);
  expect(schema.pretty).toBe(
    '{"type":"object","properties":{"n":{"type":"number"},"at":{"type":"string","format":"date-time"}},"required":["n","at"]}',
  );
  expect(schema.maybe).toBe(HITS_SCHEMA);
});

it("answers the tool's own blocks as content and T's value as structuredContent", async () => {
  expect(await client.callTool({ name: "find", arguments: { query: "cat" } })).toEqual({
    content: [{ type: "text", text: "2 hits for cat:\ncat-1\ncat-2" }],
    structuredContent: { query: "cat", items: ["cat-1", "cat-2"] },
  });
  const at = "2026-01-02T00:00:00.000Z";
  expect(await client.callTool({ name: "pretty", arguments: { n: 3 } })).toEqual({
    content: [
      { type: "text", text: `{\n  "n": 3,\n  "at": "${at}"\n}` },
      { type: "text", text: "done" },
    ],
    structuredContent: { n: 3, at },
  });
  expect(await client.callTool({ name: "maybe", arguments: { found: true } })).toEqual({
    content: [{ type: "text", text: "one" }],
    structuredContent: { query: "q", items: [] },
  });
});

it("a bare value where withContent(…) was declared is The tool failed.", async () => {
  expect(await client.callTool({ name: "broken", arguments: {} })).toEqual({
    content: [{ type: "text", text: "The tool failed." }],
    isError: true,
  });
});

it("WithContent of a value that is not object-shaped is OMCG0009 at the return type", () => {
  const r = cli(["check", "bad.ts"], join(ROOT, "test/unplugin/fixtures/with-content-bad"));
  expect(r.code).toBe(1);
  expect(r.stdout).toBe(
    "bad.ts:5:26 - OMCG0009: The return type of tool 'count': WithContent<number> needs an object-shaped value (an object, a record or map, or a discriminated union), whose outputSchema it keeps; for other values return the content blocks or a CallToolResult.\n",
  );
});
