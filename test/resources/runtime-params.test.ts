/**
 * A `RequestContext` or `AbortSignal` parameter may be optional (`ctx?: RequestContext`,
 * `signal: AbortSignal | undefined`) and may stand anywhere in the parameter list, in tools,
 * resources and prompts, on both paths (issue 11). Spec §3: such a parameter is never listed;
 * the runtime passes the request's context / its `signal` at that position, and the listed
 * parameters keep their own names and order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { buildApp, connect } from "./helpers.ts";

let app: Awaited<ReturnType<typeof buildApp>>;
let client: Client;
beforeAll(async () => {
  app = await buildApp(["runtime-params"], "params");
  client = await connect(app.modules["runtime-params"]!.paramsServer());
});
afterAll(async () => {
  await client?.close();
  await app?.cleanup();
});

const BOTH = "ctx:number signal:true";
const textOf = (r: { content?: unknown }) =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join("");

describe("runtime parameters anywhere (spec §3)", () => {
  it("lists only the value parameters, in order", async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
    expect(byName.first).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "Some text." } },
      required: ["text"],
      additionalProperties: false,
    });
    expect(byName.middle).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "number", default: 2 } },
      additionalProperties: false,
    });
    expect(byName.quick).toEqual({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
      additionalProperties: false,
    });
    const { prompts } = await client.listPrompts();
    expect(prompts.find((p) => p.name === "ask")?.arguments).toEqual([{ name: "topic", required: false }]);
    expect(prompts.find((p) => p.name === "quick_prompt")?.arguments).toEqual([{ name: "topic", required: true }]);
  });

  it("passes the context and signal at their positions in tools", async () => {
    expect(textOf(await client.callTool({ name: "first", arguments: { text: "hi" } }))).toBe(`hi ${BOTH}`);
    expect(textOf(await client.callTool({ name: "middle", arguments: { a: "x", b: 5 } }))).toBe(`x 5 ${BOTH}`);
    expect(textOf(await client.callTool({ name: "middle", arguments: {} }))).toBe(`- 2 ${BOTH}`);
    expect(textOf(await client.callTool({ name: "quick", arguments: { n: 7 } }))).toBe(`7 ${BOTH}`);
  });

  it("passes them in resources and prompts", async () => {
    const read = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    expect(await read("params://a1")).toBe(`a1 ${BOTH}`);
    expect(await read("params://quick/b2")).toBe(`b2 ${BOTH}`);
    const said = async (name: string, args: Record<string, string>) =>
      ((await client.getPrompt({ name, arguments: args })).messages[0]!.content as { text: string }).text;
    expect(await said("ask", { topic: "t" })).toBe(`t ${BOTH}`);
    expect(await said("ask", {})).toBe(`- ${BOTH}`);
    expect(await said("quick_prompt", { topic: "q" })).toBe(`q ${BOTH}`);
  });
});
