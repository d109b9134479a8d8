/**
 * The typed-mcp port of the official everything server (examples/everything) against the
 * original (`@modelcontextprotocol/server-everything`, its published bin), side by side, with the
 * official client on protocol 2025-11-25 over stdio and over Streamable HTTP: the same tool,
 * resource, template and prompt names; the same input properties, types, required lists, enums,
 * descriptions and annotations; the same answers to the same calls, completions and
 * notifications — except the differences in differences.ts (each with its contract section or
 * documented limit). An unlisted difference fails, and so does a listed one that vanished.
 * Normalised before comparing: times and random UUIDs only (normalise.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPort, connect, type Session } from "./servers.ts";
import { answer } from "./normalise.ts";
import { describeParity, rawResult } from "./parity-suite.ts";

beforeAll(async () => {
  await buildPort();
}, 120_000);

describeParity("stdio");

describe("the port on 2026-07-28 over HTTP, against the contract alone", () => {
  let port: Session;
  beforeAll(async () => {
    port = await connect("port", "http", { modern: true });
  });
  afterAll(() => port?.close());

  it("lists tools as §1–§4 write them, byte for byte", async () => {
    await port.client.listTools();
    const tools = rawResult(port, "tools");
    expect(JSON.stringify(tools.find((t) => t.name === "echo"))).toBe(
      '{"name":"echo","description":"Echoes back the input string","inputSchema":{"type":"object","properties":{"message":{"type":"string","description":"Message to echo"}},"required":["message"],"additionalProperties":false},"annotations":{"title":"Echo Tool","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}',
    );
    expect(JSON.stringify(tools.find((t) => t.name === "get-structured-content")!.outputSchema)).toBe(
      '{"type":"object","properties":{"temperature":{"type":"number","description":"Temperature in celsius"},"conditions":{"type":"string","description":"Weather conditions description"},"humidity":{"type":"number","description":"Humidity percentage"}},"required":["temperature","conditions","humidity"]}',
    );
    expect(JSON.stringify(tools.find((t) => t.name === "get-resource-links")!.inputSchema)).toBe(
      '{"type":"object","properties":{"count":{"type":"number","description":"Number of resource links to return (1-10)","minimum":1,"maximum":10,"default":3}},"additionalProperties":false}',
    );
  });

  it("answers calls, prompts and completions as §5, §6 and §8 say", async () => {
    expect(
      await port.client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } }),
    ).toMatchObject({
      content: [{ type: "text", text: '{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}' }],
      structuredContent: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
    });
    expect(await port.client.callTool({ name: "get-resource-links", arguments: { count: 11 } })).toMatchObject({
      content: [{ type: "text", text: "Argument 'count' is not valid. Expected a number of at most 10." }],
      isError: true,
    });
    expect((await port.client.getPrompt({ name: "args-prompt", arguments: { city: "Oslo" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "What's weather in Oslo?" } },
    ]);
    const done = await port.client.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "name", value: "" },
      context: { arguments: { department: "Engineering" } },
    });
    expect(done.completion).toEqual({ values: ["Alice", "Bob", "Charlie"], total: 3, hasMore: false });
    const [answer1] = (await port.client.readResource({ uri: "demo://resource/dynamic/text/4" })).contents;
    expect(answer1).toMatchObject({ uri: "demo://resource/dynamic/text/4", mimeType: "text/plain" });
    expect((answer1 as { text: string }).text).toMatch(/^Resource 4: This is a plaintext resource created at /);
  });
});

describe("a 2025-11-25 client without client capabilities over stdio", () => {
  let port: Session;
  beforeAll(async () => {
    port = await connect("port", "stdio", { bare: true });
  });
  afterAll(() => port?.close());

  it("gets an isError naming the capability the tool needs (the original does not list the tool to it)", async () => {
    for (const [name, capability] of [
      ["get-roots-list", "roots"],
      ["trigger-sampling-request", "sampling"],
      ["trigger-elicitation-request", "elicitation"],
    ] as const) {
      expect(
        await port.client.callTool({ name, arguments: name === "trigger-sampling-request" ? { prompt: "x" } : {} }),
      ).toEqual({
        content: [
          {
            type: "text",
            text: `This tool needs the client capability '${capability}', which this client did not declare.`,
          },
        ],
        isError: true,
      });
    }
    for (const [name, capability] of [
      ["trigger-sampling-request-async", "sampling"],
      ["trigger-elicitation-request-async", "elicitation"],
    ] as const) {
      expect(
        await port.client.callTool({
          name,
          arguments: name === "trigger-sampling-request-async" ? { prompt: "x" } : {},
        }),
      ).toEqual({
        content: [
          {
            type: "text",
            text: `This tool needs the client capability '${capability}', which this client did not declare.`,
          },
        ],
        isError: true,
      });
    }
  });

  it('refuses simulate-research-query called without params.task: -32601 (MCP 2025-11-25 tool-level negotiation, taskSupport "required")', async () => {
    expect(
      await answer(() => port.client.callTool({ name: "simulate-research-query", arguments: { topic: "x" } })),
    ).toEqual({
      error: {
        code: -32601,
        message:
          'Tool simulate-research-query must be called as a task (execution.taskSupport "required"): send params.task.',
      },
    });
  });
});
