/**
 * Listings and call results shaped for the negotiated protocol revision (spec §6 last
 * paragraph, §0 the five revisions): a server built by the plugin in a real Vite build, driven
 * by the real `@modelcontextprotocol/client` pinned to each revision, over stdio and over
 * Streamable HTTP. The raw wire messages (recorded under the client's own parsing, key order
 * included) must equal listings derived by hand from the spec:
 *
 * - 2024-11-05: no `outputSchema`, no `structuredContent`, no `annotations`;
 * - 2025-03-26: no `outputSchema`, no `structuredContent`;
 * - 2025-06-18, 2025-11-25, 2026-07-28: everything.
 *
 * Pinning: the 2025-era handshake (`initialize`) offers the first entry of the client's
 * `supportedProtocolVersions` and refuses any other answer, so `[revision]` pins it; the
 * 2026-07-28 era is only reached through `server/discover`, pinned with
 * `versionNegotiation: { mode: { pin: "2026-07-28" } }` (the client's documented options).
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { buildWithPlugin, type PluginBuild } from "../helpers/vite-build.ts";
import { recordIncoming, type Raw } from "../helpers/wire.js";

const FIXTURE = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/app");

// ---- expectations, written from the spec (§1 key order, §2 keywords, §3, §4, §6) ----------------

const PLACE_ORDER_INPUT =
  '"inputSchema":{"type":"object","properties":{' +
  '"items":{"type":"array","description":"The lines to order.","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer"}},"required":["sku","qty"]}},' +
  '"rush":{"type":"boolean","default":false}},"required":["items"],"additionalProperties":false}';
const PLACE_ORDER_OUTPUT =
  '"outputSchema":{"type":"object","properties":{"id":{"type":"string"},"total":{"type":"number"}},"required":["id","total"]}';
const PLACE_ORDER_ANNOTATIONS = '"annotations":{"title":"Place order","idempotentHint":true}';
const STOCK_INPUT = '"inputSchema":{"type":"object","properties":{},"additionalProperties":false}';
const STOCK_OUTPUT = '"outputSchema":{"type":"object","additionalProperties":{"type":"number"}}';
const ADD_INPUT =
  '"inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}';
const ADD_ANNOTATIONS = '"annotations":{"readOnlyHint":true}';
const ECHO =
  '{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}}';

/** The whole `tools` array a client on `revision` must receive. */
function expectedTools(revision: string): string {
  const output = revision >= "2025-06-18";
  const annotations = revision >= "2025-03-26";
  const join = (...parts: (string | false)[]) => `{${parts.filter(Boolean).join(",")}}`;
  return (
    "[" +
    [
      join(
        '"name":"place_order"',
        '"description":"Places an order."',
        PLACE_ORDER_INPUT,
        output && PLACE_ORDER_OUTPUT,
        annotations && PLACE_ORDER_ANNOTATIONS,
      ),
      join('"name":"stock"', '"description":"Stock per SKU."', STOCK_INPUT, output && STOCK_OUTPUT),
      join('"name":"add"', '"description":"Adds two numbers."', ADD_INPUT, annotations && ADD_ANNOTATIONS),
      ECHO,
    ].join(",") +
    "]"
  );
}

const RECEIPT_TEXT = '{"content":[{"type":"text","text":"{\\"id\\":\\"ord-1\\",\\"total\\":2.5}"}]';
const STOCK_TEXT = '{"content":[{"type":"text","text":"{\\"a\\":3}"}]';

/** The `tools/call` results (content, structuredContent, isError) a client on `revision` must receive. */
function expectedCalls(revision: string): { placeOrder: string; stock: string; add: string } {
  const structured = revision >= "2025-06-18";
  return {
    placeOrder: structured ? `${RECEIPT_TEXT},"structuredContent":{"id":"ord-1","total":2.5}}` : `${RECEIPT_TEXT}}`,
    stock: structured ? `${STOCK_TEXT},"structuredContent":{"a":3}}` : `${STOCK_TEXT}}`,
    add: '{"content":[{"type":"text","text":"3"}]}',
  };
}

const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

/** Client options that pin `revision` (see the file comment). */
function pinned(revision: string): Record<string, unknown> {
  return revision >= "2026"
    ? { versionNegotiation: { mode: { pin: revision } } }
    : { supportedProtocolVersions: [revision] };
}

// ---- the build ------------------------------------------------------------------------------

let built: PluginBuild | undefined;
let http: { url: URL; close(): Promise<void> };

beforeAll(async () => {
  built = await buildWithPlugin(FIXTURE, ["stdio", "http"], "typed-mcp-revisions-");
  const mod = await built.load("http");
  http = await mod.start();
});

afterAll(async () => {
  await http?.close();
  await built?.remove();
});

/** The first recorded response whose result satisfies `predicate` (throws, listing what came, when none does). */
function resultOf(raw: Raw[], predicate: (r: Record<string, unknown>) => boolean): Record<string, unknown> {
  const found = raw.find((m) => m.result && predicate(m.result));
  if (!found) throw new Error(`no such response among ${JSON.stringify(raw)}`);
  return found.result!;
}

/** Only the parts of a call result the spec shapes: `content`, `structuredContent`, `isError`, in wire order. */
function callPart(result: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(result).filter(([k]) => k === "content" || k === "structuredContent" || k === "isError"),
    ),
  );
}

const transports = {
  stdio: () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [built!.file("stdio")],
      env: process.env as Record<string, string>,
      stderr: "pipe",
    }),
  http: () => new StreamableHTTPClientTransport(http.url),
};

for (const [kind, makeTransport] of Object.entries(transports)) {
  describe(`over ${kind}`, () => {
    for (const revision of REVISIONS) {
      it(`${revision}: the negotiated revision's listing and call results`, async () => {
        const transport = makeTransport();
        const raw = recordIncoming(transport);
        const client = new Client({ name: "revisions-client", version: "0.0.1" }, pinned(revision));
        await client.connect(transport);
        try {
          expect(client.getNegotiatedProtocolVersion()).toBe(revision);
          if (revision < "2026") {
            // The 2025-era handshake on the wire: the server answered `initialize` with this revision.
            expect(resultOf(raw, (r) => "serverInfo" in r).protocolVersion).toBe(revision);
          }
          await client.listTools();
          const listed = resultOf(raw, (r) => Array.isArray(r.tools));
          expect(JSON.stringify(listed.tools)).toBe(expectedTools(revision));

          const calls = expectedCalls(revision);
          const placed = await client.callTool({ name: "place_order", arguments: { items: [{ sku: "a", qty: 1 }] } });
          expect("structuredContent" in placed).toBe(revision >= "2025-06-18");
          expect(callPart(resultOf(raw, (r) => JSON.stringify(r.content ?? "").includes("ord-1")))).toBe(
            calls.placeOrder,
          );
          await client.callTool({ name: "stock", arguments: {} });
          expect(callPart(resultOf(raw, (r) => JSON.stringify(r.content ?? "").includes('\\"a\\":3')))).toBe(
            calls.stock,
          );
          await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
          expect(
            callPart(resultOf(raw, (r) => JSON.stringify(r.content ?? "") === '[{"type":"text","text":"3"}]')),
          ).toBe(calls.add);
        } finally {
          await client.close();
        }
      });
    }
  });
}
