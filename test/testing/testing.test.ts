// `typed-mcp/testing` (issue 24, docs/testing.md): `connect(server, options?)` gives the official
// client over the SDK's linked in-memory transports, and typed calls go through the real protocol
// (listing, reader, writer, errors). This file is compiled by the typed-mcp Vite plugin (the vitest
// project "testing"), as a user's tests are. Expected values come from the spec (docs/mapping.md
// §3, §5, §6, §7), never from what the code printed.
import { afterEach, describe, expect, it } from "vitest";
import { ProtocolError } from "@modelcontextprotocol/client";
import { connect, ToolCallError, type TypedClient } from "typed-mcp/testing";
import { createServer, Library, Weather } from "./tools.ts";

let open: TypedClient[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});
async function client(options?: Parameters<typeof connect>[1]) {
  const { server, add, stamp, shelf, haiku } = createServer();
  const c = await connect(server, options);
  open.push(c);
  return { c, add, stamp, shelf, haiku, weather: c.tools(new Weather()) };
}

describe("connect", () => {
  it("refuses what is not an McpServer, naming what it got (not the SDK's internal TypeError)", async () => {
    const expected = (got: string) =>
      `typed-mcp/testing: connect(server) takes the McpServer under test (new McpServer({ name, version }) with its tools added), got ${got}.`;
    for (const [value, got] of [
      [undefined, "undefined"],
      [null, "null"],
      [{}, "an object"],
      [new Weather(), "an instance of Weather"],
      ["weather", "a string"],
    ] as const)
      await expect(connect(value as never)).rejects.toThrow(new TypeError(expected(got)));
  });
  it("is the official client: the listing is the plugin's (§1, §3)", async () => {
    const { c } = await client();
    const { tools } = await c.listTools();
    const forecast = tools.find((t) => t.name === "get_forecast")!;
    expect(JSON.stringify(forecast.inputSchema)).toBe(
      '{"type":"object","properties":{"city":{"type":"string","description":"The city, e.g. `Oslo`."},"days":{"type":"integer","description":"How many days ahead.","default":3}},"required":["city"],"additionalProperties":false}',
    );
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["add", "ask_name", "broken", "context", "count", "get_forecast", "greet", "report", "stamp", "whoami"].sort(),
    );
    expect((await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      "books://{genre}/{id}",
      "shelf://{row}/{slot}",
    ]);
  });

  it.each(["2025-06-18", "2025-11-25", "2026-07-28"])("pins the revision %s", async (version) => {
    const { c, add } = await client({ protocolVersion: version });
    expect(c.getNegotiatedProtocolVersion()).toBe(version);
    expect(await c.call(add, 2, 3)).toBe(5);
  });
});

describe("typed calls", () => {
  it("quick path: positional arguments, a default left out, the JSON result parsed (§6)", async () => {
    const { c, add } = await client();
    expect(add.name).toBe("add");
    expect(await c.call(add, 2, 3)).toBe(5);
    expect(await c.call(add, 41)).toBe(42);
  });

  it("arguments are written as JSON (Date → RFC 3339, Set → array); the object result is structuredContent", async () => {
    const { c, stamp } = await client();
    const at = new Date(Date.UTC(2026, 4, 6, 7, 8, 9));
    expect(await c.call(stamp, at, new Set(["a", "b", "c"]))).toEqual({ iso: "2026-05-06T07:08:09.000Z", n: 3 });
  });

  it("class tools by method name: the result as it arrives on the wire (Date → string, Set → array)", async () => {
    const { weather } = await client();
    const forecast = await weather.getForecast("Oslo", 2);
    expect(forecast).toEqual({
      temperature: 22,
      summary: "sunny in Oslo",
      at: "2026-01-02T00:00:00.000Z",
      tags: ["dry", "warm"],
    });
    const at: string = forecast.at;
    expect(typeof at).toBe("string");
    expect((await weather.getForecast("Oslo")).temperature).toBe(23);
  });

  it("RequestContext is left out of the arguments; a destructured parameter takes one object", async () => {
    const { weather } = await client();
    expect(await weather.count(["a", "b"])).toBe(2);
    expect(await weather.greet({ name: "Ada" })).toBe("Hi Ada");
    expect(await weather.greet({ name: "Ada", polite: true })).toBe("Good day, Ada.");
  });

  it("an argument error rejects with a ToolCallError carrying the §5 text", async () => {
    const { weather } = await client();
    // 1.5 is a number but not an Int: TypeScript cannot see it, the reader does.
    const error = await weather.getForecast("Oslo", 1.5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).text).toBe("Argument 'days' is not valid. Expected an integer.");
    expect((error as ToolCallError).tool).toBe("get_forecast");
    expect((error as ToolCallError).result.isError).toBe(true);
  });

  it("a ToolError rejects with its message; any other exception with `The tool failed.` (§7)", async () => {
    const { weather } = await client();
    await expect(weather.getForecast("")).rejects.toMatchObject({ name: "ToolCallError", text: "Name a city." });
    await expect(weather.broken()).rejects.toMatchObject({ text: "The tool failed." });
  });

  it("a method that is not a tool rejects naming it; an unknown tool is the JSON-RPC error -32602", async () => {
    const { c, weather } = await client();
    await expect(weather.helper()).rejects.toThrow("typed-mcp/testing: Weather.helper is not a typed-mcp tool.");
    const error = await c.callTool({ name: "nope", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
  });

  it("an argument that contains itself is a TypeError naming the cycle (JSON cannot carry it), nothing sent", async () => {
    const { weather } = await client();
    const tags: unknown[] = ["a"];
    tags.push(tags);
    await expect(weather.count(tags as string[])).rejects.toThrow(
      new TypeError("typed-mcp/testing: an argument contains itself (a cycle); JSON cannot carry it."),
    );
  });

  it("more arguments than the tool lists is a TypeError, nothing sent", async () => {
    const { c, add } = await client();
    // @ts-expect-error add takes (a: number, b?: number)
    await expect(c.call(add, 1, 2, 3)).rejects.toThrow("typed-mcp/testing: tool add takes 2 argument(s), got 3.");
  });

  it("on 2025-03-26 (no structuredContent) an object result is read from its text block", async () => {
    const { c, weather } = await client({ protocolVersion: "2025-03-26" });
    expect(c.getNegotiatedProtocolVersion()).toBe("2025-03-26");
    const raw = await c.callTool({ name: "get_forecast", arguments: { city: "Oslo" } });
    expect(raw.structuredContent).toBeUndefined();
    expect((await weather.getForecast("Oslo")).summary).toBe("sunny in Oslo");
  });

  it("a task tool (taskSupport required) runs as a task: tools/call with task, then tasks/result", async () => {
    const { weather } = await client({ protocolVersion: "2025-11-25" });
    expect(await weather.report(4)).toBe("4 pages");
  });
});

describe("typed reads of resources and prompts (§8)", () => {
  it("a template is expanded with the arguments in parameter order; a fixed URI read as is", async () => {
    const { c } = await client();
    const library = c.resources(new Library());
    expect(await library.book(42, "poetry")).toEqual({
      contents: [{ uri: "books://poetry/42", mimeType: "text/plain", text: "poetry #42" }],
    });
    expect((await library.catalogue()).contents).toEqual([
      { uri: "books://catalogue", mimeType: "text/plain", text: "2 genres" },
    ]);
  });

  it("a variable that does not parse is the -32602 error with the §5 text", async () => {
    const { c } = await client();
    const error = await c
      .resources(new Library())
      // @ts-expect-error "x" is not an Int: the type test; the wire answer below is the server's
      .book("x", "poetry")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as ProtocolError).message).toContain("Argument 'id' is not valid. Expected an integer.");
  });

  it("quick-path handles: client.read expands the template by parameter order, client.prompt names the arguments", async () => {
    const { c, shelf, haiku } = await client();
    expect(shelf.uri).toBe("shelf://{row}/{slot}");
    expect((await c.read(shelf, 7, "B")).contents).toEqual([
      { uri: "shelf://B/7", mimeType: "text/plain", text: "row B, slot 7" },
    ]);
    expect(haiku.name).toBe("haiku");
    expect((await c.prompt(haiku, "rain")).messages).toEqual([
      { role: "user", content: { type: "text", text: "Write 3 lines about rain." } },
    ]);
    // @ts-expect-error slot is an Int, not a string
    await c.read(shelf, "7", "B").catch(() => undefined);
    // @ts-expect-error topic is required
    await c.prompt(haiku).catch(() => undefined);
    // @ts-expect-error haiku takes (topic, lines?)
    await expect(c.prompt(haiku, "rain", 3, 4)).rejects.toThrow(
      "typed-mcp/testing: prompt haiku takes 2 argument(s), got 3.",
    );
  });

  it("a prompt's arguments go under their listed names, as strings", async () => {
    const { c } = await client();
    const result = await c.prompts(new Library()).review("Dune", 5);
    expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "Review Dune (5 stars)" } }]);
    expect((await c.prompts(new Library()).review("Dune")).messages[0]!.content).toEqual({
      type: "text",
      text: "Review Dune (3 stars)",
    });
  });
});

describe("client capabilities and authInfo", () => {
  it("ctx.elicit is answered by the elicit handler (2025-11-25: a server→client request)", async () => {
    const seen: string[] = [];
    const { weather } = await client({
      protocolVersion: "2025-11-25",
      elicit: (params) => {
        seen.push(params.message);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    expect(await weather.askName()).toBe("Hello, Ada");
    expect(seen).toEqual(["Your name?"]);
  });

  it("ctx.elicit on 2026-07-28: the input_required round, fulfilled by the same handler", async () => {
    const { weather } = await client({ protocolVersion: "2026-07-28", elicit: () => ({ action: "decline" }) });
    expect(await weather.askName()).toBe("no name (decline)");
  });

  it.each(["2025-11-25", "2026-07-28"])(
    "ctx.listRoots and ctx.sample are answered by roots and sample (%s)",
    async (version) => {
      const { weather } = await client({
        protocolVersion: version,
        roots: [{ uri: "file:///work" }],
        sample: (params) => ({
          role: "assistant",
          model: "test-model",
          content: { type: "text", text: `yes to ${(params.messages[0]!.content as { text: string }).text}` },
        }),
      });
      expect(await weather.context()).toEqual(["file:///work", "yes to One word?"]);
    },
  );

  it("authInfo reaches the tool as RequestContext.authInfo; without it the tool refuses", async () => {
    const authInfo = { token: "t", clientId: "client-7", scopes: ["notes:read"] };
    const { weather } = await client({ authInfo });
    expect(await weather.whoami()).toEqual({ clientId: "client-7", scopes: ["notes:read"] });
    const anonymous = await client();
    await expect(anonymous.weather.whoami()).rejects.toMatchObject({ text: "Not signed in." });
  });
});

// Type tests (`pnpm typecheck`): each line below is a TypeScript error, so the expectation fails the
// check when the typing gets looser. Never run.
async function typeErrors(c: TypedClient, add: ReturnType<typeof createServer>["add"]) {
  const weather = c.tools(new Weather());
  // @ts-expect-error a string where the parameter is a number
  await c.call(add, "2", 3);
  // @ts-expect-error city is required
  await weather.getForecast();
  // @ts-expect-error the RequestContext is not an argument
  await weather.count(["a"], {});
  // @ts-expect-error the destructured parameter's property has the wrong type
  await weather.greet({ name: 1 });
  // @ts-expect-error `at` arrives as a string, not a Date
  const at: Date = (await weather.getForecast("Oslo")).at;
  // @ts-expect-error the result of add is a number
  const sum: string = await c.call(add, 1);
  return [at, sum];
}
void typeErrors;
