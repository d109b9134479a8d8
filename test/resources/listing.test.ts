/**
 * Spec §8 listings: key orders (resource `uri, name, title, description, mimeType`; template
 * `uriTemplate, …`; prompt `name, title, description, arguments`; argument `name, description,
 * required` with `required` always written), names and descriptions as §1, fixed URIs in
 * `resources/list` and templates in `resources/templates/list`, byte-identical for both
 * declaration paths; capabilities only when something is registered. Expected strings are
 * written by hand from the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, connect, rawArray, rawRequest } from "./helpers.ts";

let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  app = await buildApp(["classes", "quick"]);
});
afterAll(() => app?.cleanup());

const CATALOGUE =
  '{"uri":"library://catalogue","name":"catalogue","title":"Catalogue","description":"The whole catalogue as JSON.","mimeType":"application/json"}';
const BOOK = '{"uriTemplate":"library://books/{id}","name":"get_book","description":"A book by its id."}';
const COVER =
  '{"uriTemplate":"library://covers/{id}","name":"cover","description":"Raw cover bytes.","mimeType":"image/png"}';
const SUMMARISE =
  '{"name":"summarise_book","title":"Summarise","description":"Summarises a book.","arguments":[' +
  '{"name":"id","description":"The book.","required":true},' +
  '{"name":"style","description":"How to write it.","required":false},' +
  '{"name":"words","required":false}]}';

describe("generator path (@resource / @prompt)", () => {
  it("resources/list: fixed URIs only, key order uri, name, title, description, mimeType", async () => {
    const { body } = await rawRequest(app.modules.classes!.classServer(), "resources/list");
    const list = rawArray(body, "resources");
    expect(list.startsWith(`[${CATALOGUE},`)).toBe(true);
    expect(list).not.toContain("uriTemplate");
    // Names from method names (§1): no description, no mimeType when none is given.
    expect(list).toContain('{"uri":"forms://result","name":"full"}');
  });

  it("resources/templates/list: templates only, key order uriTemplate, name, title, description, mimeType", async () => {
    const { body } = await rawRequest(app.modules.classes!.classServer(), "resources/templates/list");
    const list = rawArray(body, "resourceTemplates");
    expect(list.startsWith(`[${BOOK},${COVER},`)).toBe(true);
    expect(list).toContain('{"uriTemplate":"typed://number/{n}","name":"num"}');
    expect(list).not.toContain('"uri":');
  });

  it("a template's descriptor carries its matcher (template: __tmcp.uriTemplate); a fixed URI's carries none (docs/codegen.md \"What a descriptor carries\")", () => {
    const stored = app.modules.classes!.Library[Symbol.for("typed-mcp.resources")] as Record<string, any>[];
    const byKey = new Map(stored.map((d) => [d.listing.uriTemplate ?? d.listing.uri, d]));
    expect([...byKey.keys()]).toEqual(["library://catalogue", "library://books/{id}", "library://covers/{id}"]);
    expect("template" in byKey.get("library://catalogue")!).toBe(false);
    for (const key of ["library://books/{id}", "library://covers/{id}"]) {
      const matcher = byKey.get(key)!.template(key);
      expect(matcher.match(key.replace("{id}", "42")), key).toEqual({ id: "42" });
    }
  });

  it("prompts/list: key order name, title, description, arguments; required always written; no arguments → none listed", async () => {
    const { body } = await rawRequest(app.modules.classes!.classServer(), "prompts/list");
    const list = rawArray(body, "prompts");
    expect(list).toBe(
      `[${SUMMARISE},` +
        '{"name":"conversation","arguments":[{"name":"topic","required":true},{"name":"late","required":false}]},' +
        '{"name":"whole"}]',
    );
  });
});

describe("names and descriptions follow §1", () => {
  it("@description wins over the main text, the option over both; explicit name; snake_case without Async", async () => {
    const { McpServer, Described } = app.modules.classes!;
    const server = new McpServer({ name: "d", version: "1" }).addResources(new Described());
    expect(rawArray((await rawRequest(server, "resources/list")).body, "resources")).toBe(
      "[" +
        '{"uri":"described://tag","name":"tagged","description":"From the tag."},' +
        '{"uri":"described://option","name":"optioned","description":"From the option."},' +
        '{"uri":"described://named","name":"custom-name"},' +
        '{"uri":"described://auto","name":"get_http_response"}' +
        "]",
    );
  });
});

describe("quick path (server.resource / server.prompt) lists byte-identical entries", () => {
  it("resources, templates and prompts", async () => {
    const quick = app.modules.quick!.quickServer();
    const resources = rawArray((await rawRequest(quick, "resources/list")).body, "resources");
    expect(resources).toBe(
      `[${CATALOGUE},{"uri":"inline://hello","name":"inline://hello","description":"Inline: named after its URI."}]`,
    );
    expect(rawArray((await rawRequest(quick, "resources/templates/list")).body, "resourceTemplates")).toBe(
      `[${BOOK},${COVER}]`,
    );
    expect(rawArray((await rawRequest(quick, "prompts/list")).body, "prompts")).toBe(`[${SUMMARISE}]`);
  });
});

describe("capabilities", () => {
  it("resources and prompts are advertised when registered", async () => {
    const client = await connect(app.modules.classes!.classServer());
    const caps = client.getServerCapabilities();
    // `subscribe` and `completions`: docs/resources.md, Subscriptions and Completion.
    expect(caps?.resources).toEqual({ subscribe: true });
    expect(caps?.prompts).toEqual({});
    expect(caps?.completions).toEqual({});
    await client.close();
  });

  it("a server with resources but no prompts advertises no prompts, and prompts/list is not found", async () => {
    const { McpServer } = app.modules.classes!;
    const { Typed } = app.modules.classes!;
    const server = new McpServer({ name: "r", version: "1" }).addResources(new Typed());
    const client = await connect(server);
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true });
    expect(client.getServerCapabilities()?.prompts).toBeUndefined();
    await client.close();
    const { message } = await rawRequest(server, "prompts/list");
    expect(message.error?.code).toBe(-32601);
  });

  it("the official client reads the listings", async () => {
    const client = await connect(app.modules.classes!.classServer());
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates[0]).toEqual(JSON.parse(BOOK));
    const prompts = await client.listPrompts();
    expect(prompts.prompts[0]).toEqual(JSON.parse(SUMMARISE));
    await client.close();
  });
});
