/**
 * End to end: Vite builds the playground memory server with the typed-mcp plugin; the test
 * starts the bundle over stdio and over Streamable HTTP and drives it with the official
 * `@modelcontextprotocol/client`. Listings are compared as raw wire JSON (key order included)
 * against a listing derived by hand from the spec (test/e2e/expected/playground-tools.json: what a
 * client that negotiated MCP Apps sees, spec §0 / §9). The main client of each scenario advertises
 * the MCP Apps extension; the gating test adds clients with and without it, on both eras.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "vite";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { childCommandLines } from "../helpers/processes.ts";
import { recordIncoming, type Raw } from "../helpers/wire.ts";

const here = dirname(fileURLToPath(import.meta.url));
const playground = resolve(here, "../../playground");
const expected = JSON.parse(await readFile(join(here, "expected/playground-tools.json"), "utf8")) as {
  tools: unknown[];
};
/** Resources, templates and prompts (spec §8), derived by hand from the spec. */
const expectedResources = JSON.parse(
  await readFile(join(here, "expected/playground-resources.json"), "utf8"),
) as Record<"resources" | "resourceTemplates" | "prompts", unknown[]>;

/** The capabilities of a client that negotiates MCP Apps (the extension's `mimeTypes` setting). */
const APPS = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
/** A client pinned to the stateless 2026-07-28 revision. */
const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;
type ClientOptions = { capabilities?: typeof APPS; versionNegotiation?: typeof MODERN.versionNegotiation };

/** What a client without the extension sees (spec §9): no `_meta.ui` (`_meta` is left out when nothing else is in it). */
const expectedPlainTools = (expected.tools as Record<string, unknown>[]).map((tool) => {
  const { _meta, ...rest } = tool as { _meta?: { ui?: unknown } };
  if (_meta === undefined) return tool;
  const { ui: _ui, ...otherMeta } = _meta;
  return Object.keys(otherMeta).length > 0 ? { ...rest, _meta: otherMeta } : rest;
});

let work: string;
let bundle: string;
let childrenAfterBuild: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-e2e-"));
  const outDir = join(work, "dist");
  await build({
    root: playground,
    configFile: join(playground, "vite.config.ts"),
    logLevel: "silent",
    build: { outDir },
  });
  bundle = join(outDir, "server.js");
  childrenAfterBuild = childCommandLines();
});

it("closes the TypeScript sidecar when the Vite build ends", () => {
  expect(childrenAfterBuild).toEqual([]);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

function text(result: { content?: unknown }): string {
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe("text");
  return content[0]!.text;
}

const alice = { name: "Alice", entityType: "person", observations: ["Likes tea"] };
const acme = { name: "Acme", entityType: "organization", observations: [] as string[] };
const worksAt = { from: "Alice", to: "Acme", relationType: "works_at" };

type Connect = (
  dataFile: string,
  options: ClientOptions,
) => Promise<{ client: Client; raw: Raw[]; close: () => Promise<void> }>;

/** The whole scenario, run once per transport. */
function scenario(connect: Connect) {
  let client: Client;
  let raw: Raw[];
  let close: () => Promise<void>;
  let dataFile: string;

  beforeAll(async () => {
    dataFile = join(await mkdtemp(join(work, "data-")), "graph", "memory.json");
    ({ client, raw, close } = await connect(dataFile, { capabilities: APPS }));
  });
  afterAll(async () => {
    await close?.();
  });

  it("lists exactly the hand-derived listing, byte for byte", async () => {
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual((expected.tools as { name: string }[]).map((t) => t.name));
    const wire = raw.find((m) => m.result && Array.isArray(m.result.tools));
    expect(wire).toBeDefined();
    expect(JSON.stringify(wire!.result!.tools)).toBe(JSON.stringify(expected.tools));
  });

  it("creates entities and relations, answering with structured content and the same JSON as text", async () => {
    const r1 = await client.callTool({ name: "create_entities", arguments: { entities: [alice, acme] } });
    expect(r1.isError).toBeFalsy();
    expect(r1.structuredContent).toEqual({ created: [alice, acme] });
    expect(text(r1)).toBe(JSON.stringify({ created: [alice, acme] }));

    const r2 = await client.callTool({ name: "create_relations", arguments: { relations: [worksAt] } });
    expect(r2.structuredContent).toEqual({ created: [worksAt] });

    const r3 = await client.callTool({
      name: "add_observations",
      arguments: { observations: [{ entityName: "Acme", contents: ["Makes anvils"] }] },
    });
    expect(r3.structuredContent).toEqual({ results: [{ entityName: "Acme", addedObservations: ["Makes anvils"] }] });

    const stored = JSON.parse(await readFile(dataFile, "utf8"));
    expect(stored).toEqual({
      entities: [alice, { ...acme, observations: ["Makes anvils"] }],
      relations: [worksAt],
    });
  });

  it("reads, searches and opens the graph", async () => {
    const graph = {
      entities: [alice, { ...acme, observations: ["Makes anvils"] }],
      relations: [worksAt],
    };
    const read = await client.callTool({ name: "read_graph", arguments: {} });
    expect(read.structuredContent).toEqual(graph);
    expect(text(read)).toBe(JSON.stringify(graph));

    const search = await client.callTool({ name: "search_nodes", arguments: { query: "ANVIL" } });
    expect(search.structuredContent).toEqual({ entities: [graph.entities[1]], relations: [] });

    const limited = await client.callTool({ name: "search_nodes", arguments: { query: "a", limit: 1 } });
    expect((limited.structuredContent as { entities: unknown[] }).entities).toEqual([alice]);

    const open = await client.callTool({ name: "open_nodes", arguments: { names: ["Alice", "Acme"] } });
    expect(open.structuredContent).toEqual(graph);

    const stats = await client.callTool({ name: "graph_stats" });
    expect(stats.structuredContent).toEqual({ entities: 2, relations: 1, observations: 2 });
  });

  it("lists the resources, the template and the prompt exactly as derived from the spec (§8)", async () => {
    await client.listResources();
    await client.listResourceTemplates();
    await client.listPrompts();
    for (const key of ["resources", "resourceTemplates", "prompts"] as const) {
      const wire = raw.find((m) => m.result && Array.isArray(m.result[key]));
      expect(JSON.stringify(wire?.result?.[key]), key).toBe(JSON.stringify(expectedResources[key]));
    }
  });

  it("reads the graph and one entity as resources, and gets the summary prompt", async () => {
    const graph = { entities: [alice, { ...acme, observations: ["Makes anvils"] }], relations: [worksAt] };
    expect(await client.readResource({ uri: "memory://graph" })).toEqual({
      contents: [{ uri: "memory://graph", mimeType: "application/json", text: JSON.stringify(graph) }],
    });
    expect(await client.readResource({ uri: "memory://entities/Alice" })).toEqual({
      contents: [
        {
          uri: "memory://entities/Alice",
          mimeType: "application/json",
          text: JSON.stringify({ entity: alice, relations: [worksAt] }),
        },
      ],
    });
    const nobody = await client.readResource({ uri: "memory://entities/No%20One" });
    expect(nobody.contents).toEqual([
      { uri: "memory://entities/No%20One", mimeType: "application/json", text: '{"entity":null,"relations":[]}' },
    ]);
    await expect(client.readResource({ uri: "memory://nothing" })).rejects.toMatchObject({
      data: { uri: "memory://nothing" },
    });
    // The client negotiated 2025-11-25: resource-not-found is -32002 on the wire (spec §8).
    const notFound = raw.find(
      (m) => (m.error as { data?: { uri?: string } } | undefined)?.data?.uri === "memory://nothing",
    );
    expect((notFound?.error as { code: number } | undefined)?.code).toBe(-32002);

    const summary = await client.getPrompt({
      name: "summarise_entity",
      arguments: { name: "Acme", style: "detailed" },
    });
    expect(summary).toEqual({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: "Write a detailed summary of what is known about Acme (organization).\n\nObservations:\n- Makes anvils\n\nRelations:\n- Alice works_at Acme",
          },
        },
      ],
    });
    await expect(
      client.getPrompt({ name: "summarise_entity", arguments: { name: "Acme", style: "long" } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("deletes observations, relations and entities, answering with plain text", async () => {
    const d1 = await client.callTool({
      name: "delete_observations",
      arguments: { deletions: [{ entityName: "Alice", observations: ["Likes tea"] }] },
    });
    expect(d1.structuredContent).toBeUndefined();
    expect(text(d1)).toBe("Observations deleted successfully");

    const d2 = await client.callTool({ name: "delete_relations", arguments: { relations: [worksAt] } });
    expect(text(d2)).toBe("Relations deleted successfully");

    const d3 = await client.callTool({ name: "delete_entities", arguments: { entityNames: ["Acme"] } });
    expect(text(d3)).toBe("Entities deleted successfully");

    const stored = JSON.parse(await readFile(dataFile, "utf8"));
    expect(stored).toEqual({ entities: [{ ...alice, observations: [] }], relations: [] });
  });

  it("answers invalid arguments with the exact error text naming the argument", async () => {
    // The §5 text: the seed's sentence, then the §5 table's second sentence.
    const cases: [string, Record<string, unknown> | undefined, string, string][] = [
      [
        "create_entities",
        { entities: [alice, { name: "B", entityType: "x" }] },
        "entities[1].observations",
        "It is required.",
      ],
      [
        "create_entities",
        { entities: [{ ...alice, name: 7 }] },
        "entities[0].name",
        "Expected a string, got a number.",
      ],
      [
        "create_relations",
        { relations: [{ from: "a", to: null, relationType: "r" }] },
        "relations[0].to",
        "Expected a string, got null.",
      ],
      [
        "add_observations",
        { observations: [{ entityName: "Alice", contents: ["ok", 3] }] },
        "observations[0].contents[1]",
        "Expected a string, got a number.",
      ],
      ["delete_entities", {}, "entityNames", "It is required."],
      ["delete_observations", { deletions: "Alice" }, "deletions", "Expected an array, got a string."],
      ["delete_relations", { relations: [worksAt], extra: true }, "extra", "It is not a parameter of this tool."],
      ["read_graph", { unexpected: 1 }, "unexpected", "It is not a parameter of this tool."],
      ["search_nodes", { query: "a", limit: 1.5 }, "limit", "Expected an integer."],
      ["search_nodes", { query: "a", limit: "3" }, "limit", "Expected an integer, got a string."],
      ["open_nodes", undefined, "names", "It is required."],
      ["graph_stats", { x: 1 }, "x", "It is not a parameter of this tool."],
    ];
    for (const [name, args, path, second] of cases) {
      const result = await client.callTool({ name, arguments: args });
      expect(result, `${name} ${JSON.stringify(args)}`).toEqual({
        content: [{ type: "text", text: `Argument '${path}' is not valid. ${second}` }],
        isError: true,
      });
    }
  });

  it("answers a ToolError with its message", async () => {
    const result = await client.callTool({
      name: "add_observations",
      arguments: { observations: [{ entityName: "Nobody", contents: ["x"] }] },
    });
    expect(result).toEqual({ content: [{ type: "text", text: "Entity with name Nobody not found" }], isError: true });
  });

  it("answers an unexpected exception with 'The tool failed.' and sends nothing internal", async () => {
    await writeFile(dataFile, "{ this is not json", "utf8");
    const before = raw.length;
    const result = await client.callTool({ name: "read_graph", arguments: {} });
    expect(result).toEqual({ content: [{ type: "text", text: "The tool failed." }], isError: true });
    const wire = JSON.stringify(raw.slice(before));
    expect(wire).not.toMatch(/JSON|SyntaxError|memory\.json|at /);
  });

  it("answers an unknown tool with JSON-RPC error -32602", async () => {
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it("MCP Apps gating (spec §9): with the extension read_graph has _meta.ui; without it, an ordinary tool — on both eras", async () => {
    expect(client.getServerCapabilities()?.extensions).toEqual({ "io.modelcontextprotocol/ui": {} });
    const variants: [string, ClientOptions, unknown[]][] = [
      ["2025-11-25 with the extension", { capabilities: APPS }, expected.tools],
      ["2025-11-25 without", {}, expectedPlainTools],
      ["2026-07-28 with the extension", { ...MODERN, capabilities: APPS }, expected.tools],
      ["2026-07-28 without", { ...MODERN }, expectedPlainTools],
    ];
    for (const [label, options, tools] of variants) {
      const other = await connect(dataFile, options);
      try {
        expect(other.client.getNegotiatedProtocolVersion(), label).toBe(label.slice(0, 10));
        await other.client.listTools();
        const wire = other.raw.find((m) => m.result && Array.isArray(m.result.tools));
        expect(JSON.stringify(wire?.result?.tools), label).toBe(JSON.stringify(tools));
        // The UI resource is an ordinary resource: listed to every client (docs/apps.md).
        await other.client.listResources();
        const resources = other.raw.find((m) => m.result && Array.isArray(m.result.resources));
        expect(JSON.stringify(resources?.result?.resources), label).toBe(JSON.stringify(expectedResources.resources));
      } finally {
        await other.close();
      }
    }
  });

  it("reads the MCP Apps view ui://memory/graph: one self-contained HTML document (spec §9)", async () => {
    const read = await client.readResource({ uri: "ui://memory/graph" });
    expect(read.contents).toHaveLength(1);
    const [view] = read.contents as { uri: string; mimeType: string; text: string; _meta?: unknown }[];
    expect(view!.uri).toBe("ui://memory/graph");
    expect(view!.mimeType).toBe("text/html;profile=mcp-app");
    expect(view!._meta).toEqual({ ui: { prefersBorder: true } });
    expect(view!.text).toMatch(/^<!doctype html>/i);
    expect(view!.text).toContain("ui/notifications/tool-result");
    // No network: nothing loaded from elsewhere (the MCP Apps default CSP would block it).
    expect(view!.text).not.toMatch(/<script[^>]*\bsrc=|<link[^>]*\bhref=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
  });
}

describe("playground over stdio", () => {
  scenario(async (dataFile, options) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bundle],
      env: { PATH: process.env.PATH ?? "", MEMORY_FILE_PATH: dataFile },
      stderr: "pipe",
    });
    const raw = recordIncoming(transport);
    const client = new Client({ name: "e2e-stdio", version: "1.0.0" }, options);
    await client.connect(transport);
    return { client, raw, close: () => client.close() };
  });
});

describe("playground over HTTP", () => {
  let child: ChildProcess | undefined;
  let url: string | undefined;
  afterAll(() => {
    child?.kill();
  });
  scenario(async (dataFile, options) => {
    url ??= await start(dataFile);
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const raw = recordIncoming(transport);
    const client = new Client({ name: "e2e-http", version: "1.0.0" }, options);
    await client.connect(transport);
    return { client, raw, close: () => client.close() };
  });

  /** Starts the bundle over HTTP on a free port; resolves to its /mcp URL. */
  async function start(dataFile: string): Promise<string> {
    child = spawn(process.execPath, [bundle, "--http"], {
      env: { PATH: process.env.PATH ?? "", MEMORY_FILE_PATH: dataFile, PORT: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    const url = await new Promise<string>((resolveUrl, reject) => {
      let err = "";
      child!.stderr!.setEncoding("utf8");
      child!.stderr!.on("data", (chunk: string) => {
        err += chunk;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
        if (m) resolveUrl(m[1]!);
      });
      child!.once("exit", (code) => reject(new Error(`server exited (${code}): ${err}`)));
      setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000).unref();
    });
    return url;
  }
});
