// completion/complete (MCP spec 2025-11-25 and 2026-07-28, server utilities / completion;
// docs/resources.md "Completion"). fixtures/app/completion.ts is built with the real plugin; the
// servers are driven with the official client over HTTP (server.fetch, both revisions) and stdio
// (a child process, both revisions). Expected values are the value sets of the fixture's types in
// their source order, filtered by prefix, at most 100 per result (spec: "maximum 100 items"),
// with `total` (all matches) and `hasMore`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { MODERN, buildApp, connect, connectStdio, rawRequest } from "./helpers.js";

/** `type Flavor = "vanilla" | "chocolate" | "cherry" | "coffee"` in source order (not alphabetical). */
const FLAVOR = ["vanilla", "chocolate", "cherry", "coffee"];
/** `enum Size { Small = "small", Medium = "medium", Large = "large", Huge = "huge" }`. */
const SIZE = ["small", "medium", "large", "huge"];
/** `type Code = "n119" | … | "n000"`: 120 values. */
const CODE = Array.from({ length: 120 }, (_, i) => `n${String(119 - i).padStart(3, "0")}`);
/** A parameter whose type has no finite value set (the SDK McpServer's shape for "no completer"). */
const NONE = { values: [], hasMore: false };

/** The result for a finite set: the values with the prefix in source order, ≤ 100, with total and hasMore. */
function finite(values: string[], prefix: string) {
  const matching = values.filter((v) => v.startsWith(prefix));
  return { values: matching.slice(0, 100), total: matching.length, hasMore: matching.length > 100 };
}

const prompt = (name: string) => ({ type: "ref/prompt" as const, name });
const template = (uri: string) => ({ type: "ref/resource" as const, uri });

/** [label, ref, argument name, typed value, expected completion]. */
const CASES: Array<
  [string, { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string }, string, string, object]
> = [
  ["string-literal union, empty prefix: every value", prompt("order"), "flavor", "", finite(FLAVOR, "")],
  [
    "string-literal union, prefix c: source order kept",
    prompt("order"),
    "flavor",
    "c",
    { values: ["chocolate", "cherry", "coffee"], total: 3, hasMore: false },
  ],
  ["prefix ch", prompt("order"), "flavor", "ch", { values: ["chocolate", "cherry"], total: 2, hasMore: false }],
  ["a prefix is case-sensitive", prompt("order"), "flavor", "C", { values: [], total: 0, hasMore: false }],
  ["a full value", prompt("order"), "flavor", "coffee", { values: ["coffee"], total: 1, hasMore: false }],
  ["string enum (with a default)", prompt("order"), "size", "", finite(SIZE, "")],
  ["boolean | null", prompt("order"), "gift", "t", { values: ["true"], total: 1, hasMore: false }],
  ["optional string: no set", prompt("order"), "note", "", NONE],
  ["Int: no set", prompt("order"), "scoops", "1", NONE],
  ["an argument that is not a parameter", prompt("order"), "nope", "", NONE],
  [
    "template variable (enum)",
    template("shop://scoops/{flavor}/{size}"),
    "size",
    "h",
    { values: ["huge"], total: 1, hasMore: false },
  ],
  [
    "template variable (union)",
    template("shop://scoops/{flavor}/{size}"),
    "flavor",
    "v",
    { values: ["vanilla"], total: 1, hasMore: false },
  ],
  [
    "120 values: the first 100, total 120, hasMore",
    template("shop://codes/{code}"),
    "code",
    "",
    { values: CODE.slice(0, 100), total: 120, hasMore: true },
  ],
  [
    "120 values, prefix n11",
    template("shop://codes/{code}"),
    "code",
    "n11",
    { values: CODE.slice(0, 10), total: 10, hasMore: false },
  ],
  ["quick-path prompt", prompt("greet"), "tone", "w", { values: ["warm", "whimsical"], total: 2, hasMore: false }],
  ["quick-path prompt, string argument", prompt("greet"), "name", "", NONE],
  [
    "quick-path template, boolean",
    template("shop://flags/{on}"),
    "on",
    "",
    { values: ["true", "false"], total: 2, hasMore: false },
  ],
  ["a fixed resource URI: nothing to complete", template("shop://menu"), "x", "", NONE],
];

let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  app = await buildApp(["completion", "subscribe", "stdio-main"]);
}, 120_000);
afterAll(() => app?.cleanup());

type Connect = () => Promise<{ client: Client; close(): Promise<void> }>;

const http =
  (options: Record<string, unknown>): Connect =>
  async () => {
    const client = await connect(app.modules.completion!.shopServer(), options);
    return { client, close: () => client.close() };
  };

const stdio =
  (options: Record<string, unknown>): Connect =>
  async () => {
    const client = await connectStdio(app.outDir, "shop", options);
    return { client, close: () => client.close() };
  };

describe.each<[string, Connect]>([
  ["HTTP 2025-11-25", http({})],
  ["HTTP 2026-07-28", http(MODERN)],
  ["stdio 2025-11-25", stdio({})],
  ["stdio 2026-07-28", stdio(MODERN)],
])("completion/complete over %s", (_label, open) => {
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ client, close } = await open());
  }, 30_000);
  afterAll(() => close?.());

  it("advertises the completions capability", () => {
    expect(client.getServerCapabilities()?.completions).toEqual({});
  });

  it.each(CASES)("%s", async (_name, ref, name, value, expected) => {
    const result = await client.complete({ ref, argument: { name, value } });
    expect(result.completion).toEqual(expected);
  });

  it("context.arguments does not change the values (the sets are static)", async () => {
    const result = await client.complete({
      ref: prompt("order"),
      argument: { name: "size", value: "l" },
      context: { arguments: { flavor: "vanilla" } },
    });
    expect(result.completion).toEqual({ values: ["large"], total: 1, hasMore: false });
  });

  it.each([
    ["an unknown prompt", prompt("nothing")],
    ["an unknown template", template("shop://nothing/{x}")],
    ["a concrete URI is not a template reference", template("shop://scoops/vanilla/small")],
  ])("%s is JSON-RPC -32602 (invalid params)", async (_name, ref) => {
    await expect(client.complete({ ref, argument: { name: "x", value: "" } })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("capability and descriptors", () => {
  it("a server with neither a prompt nor a template does not advertise completions and does not answer completion/complete", async () => {
    const server = app.modules.completion!.menuOnlyServer();
    const client = await connect(server);
    expect(client.getServerCapabilities()?.completions).toBeUndefined();
    await client.close();
    const { message } = await rawRequest(server, "completion/complete", {
      ref: template("shop://menu"),
      argument: { name: "x", value: "" },
    });
    expect(message.error?.code).toBe(-32601);
  });

  it("the generated descriptors carry the value sets of the finite types only", () => {
    const { Shop } = app.modules.completion!;
    const prompts = Shop[Symbol.for("typed-mcp.prompts")] as Array<{ listing: { name: string }; completions?: object }>;
    expect(prompts.find((p) => p.listing.name === "order")?.completions).toEqual({
      flavor: FLAVOR,
      size: SIZE,
      gift: ["true", "false"],
    });
    const resources = Shop[Symbol.for("typed-mcp.resources")] as Array<{
      listing: { uri?: string; uriTemplate?: string };
      completions?: object;
    }>;
    expect(resources.find((r) => r.listing.uriTemplate === "shop://codes/{code}")?.completions).toEqual({ code: CODE });
    expect(resources.find((r) => r.listing.uri === "shop://menu")?.completions).toBeUndefined();
  });
});
