import { describe, expect, it } from "vitest";
import { cli } from "./helpers.js";

// Expected listings derived by hand from shared/spec/mapping.md (§1 names, descriptions,
// annotations, key order; §2 keyword order; §3 parameters; §4 types; §6 outputSchema; §9 _meta.ui),
// for a client on the newest revision that negotiated MCP Apps (nothing is shaped away).

const getForecast = {
  name: "get_forecast", // getForecastAsync: trailing Async dropped, snake_case (§1)
  description: "Gets the forecast for a city.", // JSDoc main text (§1)
  inputSchema: {
    type: "object",
    properties: {
      city: { type: "string", description: "The city, e.g. `Oslo`." },
      days: { type: "integer", description: "How many days ahead.", default: 3 }, // "- " dropped (§3)
      unit: { type: "string", enum: ["c", "f"], default: "c" }, // enum member default → wire value (§3)
    }, // ctx: RequestContext is never listed (§3)
    required: ["city"],
    additionalProperties: false,
  },
  outputSchema: {
    // Promise<Forecast> unwrapped; object root without additionalProperties (§4, §6)
    type: "object",
    properties: {
      temperature: { type: "number", description: "Temperature in °C." },
      summary: { type: "string" },
    },
    required: ["temperature", "summary"],
  },
  annotations: { title: "Forecast", readOnlyHint: true }, // §1 order: title, readOnlyHint, …
};

const showRadar = {
  name: "show_radar",
  description: "Shows the radar.",
  inputSchema: {
    type: "object",
    properties: { region: { type: ["string", "null"] } }, // nullable without default stays required (§3)
    required: ["region"],
    additionalProperties: false,
  }, // string result: no outputSchema (§6)
  _meta: { ui: { resourceUri: "ui://weather/radar", visibility: ["app"] } }, // §9
};

const ping = {
  name: "ping",
  description: "Answers pong.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false }, // AbortSignal not listed; required left out when empty (§3)
  annotations: { idempotentHint: true, openWorldHint: false },
};

const countTags = {
  name: "count_tags",
  inputSchema: {
    type: "object",
    properties: {
      tags: { type: "array", items: { type: "string" }, minItems: 1, uniqueItems: true }, // Set + @minLength → minItems (§4)
      note: { type: "string" }, // optional
    },
    required: ["tags"],
    additionalProperties: false,
  }, // number result: no outputSchema (§6)
};

const secondTool = {
  name: "second.tool",
  description: "Returns nothing.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
};

function expected(
  tools: object[],
  resources: object[] = [],
  resourceTemplates: object[] = [],
  prompts: object[] = [],
): string {
  return JSON.stringify({ tools, resources, resourceTemplates, prompts }, null, 2) + "\n";
}

// list/library.ts, by spec §8 (key orders: resource uri, name, title, description, mimeType;
// template uriTemplate, …; prompt name, title, description, arguments; argument name,
// description, required — required always written; names and descriptions as §1).
const catalogue = {
  uri: "library://catalogue",
  name: "catalogue",
  title: "Catalogue",
  description: "The whole catalogue.",
  mimeType: "application/json",
};
const hello = { uri: "inline://hello", name: "hello", description: "Says hello." }; // JSDoc of the call's statement
const getBook = { uriTemplate: "library://books/{id}", name: "get_book", description: "A book by its id." }; // getBookAsync
const greeting = { uriTemplate: "inline://{name}/greeting", name: "greeting", mimeType: "text/markdown" };
const summarise = {
  name: "summarise_book",
  title: "Summarise",
  description: "Summarises a book.",
  arguments: [
    { name: "id", description: "The book.", required: true },
    { name: "style", description: "How to write it.", required: false }, // has a default
    { name: "words", required: false }, // optional
  ],
};
const ask = {
  name: "ask",
  description: "Asks.",
  arguments: [
    { name: "question", required: true },
    { name: "late", required: false }, // nullable: not required for prompts (unlike tools)
  ],
};

describe("typed-mcp list (spec §0)", () => {
  it("prints the listing of every tool, in source order, exactly as tools/list", () => {
    const r = cli(["list", "list/weather.ts"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected([getForecast, showRadar, ping, countTags]));
  });

  it("prints resources (fixed URIs), resource templates and prompts as resources/list, resources/templates/list and prompts/list", () => {
    const r = cli(["list", "list/library.ts"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected([], [catalogue, hello], [getBook, greeting], [summarise, ask]));
  });

  it("lists every kind of every file, files in the order given", () => {
    const r = cli(["list", "list/second.ts", "list/library.ts", "list/weather.ts"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      expected(
        [secondTool, getForecast, showRadar, ping, countTags],
        [catalogue, hello],
        [getBook, greeting],
        [summarise, ask],
      ),
    );
  });

  it("lists files in the order given", () => {
    const a = cli(["list", "list/weather.ts", "list/second.ts"]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(expected([getForecast, showRadar, ping, countTags, secondTool]));
    const b = cli(["list", "list/second.ts", "list/weather.ts"]);
    expect(b.code).toBe(0);
    expect(b.stdout).toBe(expected([secondTool, getForecast, showRadar, ping, countTags]));
  });

  it("is deterministic: the same source gives byte-identical output", () => {
    const a = cli(["list", "list/weather.ts"]);
    const b = cli(["list", "list/weather.ts", "list/weather.ts"]); // a file given twice is listed once
    expect(b.stdout).toBe(a.stdout);
  });

  it("--project selects the tsconfig (relative to the working directory)", () => {
    const r = cli(["list", "--project", "list/tsconfig.json", "list/second.ts"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected([secondTool]));
  });

  it("a file with a diagnostic: nothing on stdout, the diagnostic on stderr, exit 1", () => {
    const r = cli(["list", "list/second.ts", "diag/d0002.ts"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^diag\/d0002\.ts:5:17 - OMCG0002: /m);
  });

  it("a file without tools lists nothing", () => {
    const r = cli(["list", "typed-mcp-free.ts"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected([]));
  });
});
