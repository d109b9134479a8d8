/**
 * Spec §0/§8 registration: without the plugin `@resource`, `@prompt`, `server.resource` and
 * `server.prompt` throw with the "add the plugin" message; `addResources`/`addPrompts` on
 * something with nothing compiled throw; duplicate URIs and prompt names throw naming both;
 * `server.add(x)` registers nothing when one part fails.
 */
import { describe, expect, it } from "vitest";
import { McpServer, prompt, resource } from "../../packages/typed-mcp/dist/index.js";
import { rawRequest } from "./helpers.ts";
import { defineResources, definePrompts, generated, uriTemplate } from "../../packages/typed-mcp/dist/internal.js";

const HINT = /@typed-mcp\/unplugin\/vite/;

describe("without the plugin", () => {
  it("@resource and @prompt throw at class definition, naming the call", () => {
    expect(() => resource("notes://{id}")).toThrow(/@resource\("notes:\/\/\{id\}"\)/);
    expect(() => resource({ uri: "notes://all" })).toThrow(HINT);
    expect(() => prompt()).toThrow(/@prompt\(\)/);
    expect(() => prompt("ask")).toThrow(/@prompt\("ask"\)/);
    expect(() => prompt({ name: "ask" })).toThrow(HINT);
  });

  it("server.resource and server.prompt throw at registration", () => {
    const server = new McpServer({ name: "s", version: "1" });
    expect(() => server.resource("notes://all", () => "x")).toThrow(/server\.resource\("notes:\/\/all", …\)/);
    expect(() => server.resource("notes://all", {}, () => "x")).toThrow(HINT);
    expect(() => server.prompt("ask", () => "x")).toThrow(/server\.prompt\("ask", …\)/);
  });

  it("addResources / addPrompts / add on an object with nothing compiled throw with the hint", () => {
    const server = new McpServer({ name: "s", version: "1" });
    class Plain {
      read(): string {
        return "";
      }
    }
    expect(() => server.addResources(new Plain())).toThrow(HINT);
    expect(() => server.addPrompts(new Plain())).toThrow(HINT);
    expect(() => server.add(new Plain())).toThrow(HINT);
  });
});

/** A hand-written descriptor as the plugin generates it for `notes://all` (spec §8). */
const notesAll = (member?: string) => ({
  listing: { uri: "notes://all", name: "all" },
  read: () => [],
  write: (value: unknown, uri: string) => ({ contents: [{ uri, mimeType: "text/plain", text: value as string }] }),
  ...(member !== undefined && { member, static: false }),
});
const askPrompt = (member?: string) => ({
  listing: { name: "ask" },
  read: () => [],
  write: (value: unknown) => ({ messages: [{ role: "user", content: { type: "text", text: value as string } }] }),
  ...(member !== undefined && { member, static: false }),
});

describe("duplicates", () => {
  class Notes {
    static {
      defineResources(this, [notesAll("all") as never]);
      definePrompts(this, [askPrompt("ask") as never]);
    }
    all(): string {
      return "all";
    }
    ask(): string {
      return "?";
    }
  }

  it("a template whose descriptor carries no matcher (an older plugin's) throws at registration, naming it; registers nothing", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const book = {
      listing: { uriTemplate: "books://{id}", name: "book" },
      read: (vars: Record<string, string>) => [vars.id],
      write: (v: unknown, uri: string) => ({ contents: [{ uri, text: String(v) }] }),
    };
    const message = (origin: string) =>
      `typed-mcp: resource template "books://{id}" (${origin}) is a URI template, but its generated descriptor carries no template matcher (\`template\`): it was built by an older typed-mcp plugin. Rebuild it with the plugin of this typed-mcp version.`;
    // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
    expect(() => server.resource("books://{id}", (id: string) => id, generated(book as never))).toThrow(
      message('server.resource("books://{id}")'),
    );
    class Shelf {
      static {
        defineResources(this, [notesAll("all") as never, { ...book, member: "book" } as never]);
      }
      book(id: string) {
        return id;
      }
      all(): string {
        return "all";
      }
    }
    expect(() => server.addResources(new Shelf())).toThrow(message("Shelf.book"));
    // With the matcher it carries, the same descriptor registers and matches.
    server.resource(
      "books://{id}",
      // @ts-expect-error as above
      (id: string) => `book ${id}`,
      generated({ ...book, template: uriTemplate } as never),
    );
    const read = await rawRequest(server, "resources/read", { uri: "books://7" });
    expect(read.message.result).toEqual({ contents: [{ uri: "books://7", text: "book 7" }] });
    // The failed addResources registered nothing (its fixed URI is not listed).
    expect((await rawRequest(server, "resources/list")).message.result).toEqual({ resources: [] });
  });

  it("two resources with one URI throw, naming both registrations", () => {
    const server = new McpServer({ name: "s", version: "1" }).addResources(new Notes());
    // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
    expect(() => server.resource("notes://all", () => "x", generated(notesAll() as never))).toThrow(
      /two resources have the URI "notes:\/\/all" on this server: Notes\.all and server\.resource\("notes:\/\/all"\)/,
    );
  });

  it("two prompts with one name throw, naming both registrations", () => {
    const server = new McpServer({ name: "s", version: "1" }).addPrompts(new Notes());
    // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
    expect(() => server.prompt("ask", () => "x", generated(askPrompt() as never))).toThrow(
      /two prompts are named "ask" on this server: Notes\.ask and server\.prompt\("ask"\)/,
    );
  });

  it("server.add registers nothing when a part is a duplicate", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.prompt(
      "ask",
      // @ts-expect-error the descriptor the build plugin appends (generated code) is not in the public signature
      () => "x",
      generated(askPrompt() as never) as never,
    );
    expect(() => server.add(new Notes())).toThrow(/two prompts are named "ask"/);
    // The resource of Notes was not registered either: the same add() succeeds on a fresh prompt-free server only.
    expect(() => server.addResources(new Notes())).not.toThrow();
  });
});
