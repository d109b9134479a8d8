// The tools test/testing/*.test.ts call through `typed-mcp/testing` (docs/testing.md): compiled by the
// typed-mcp Vite plugin of the vitest project "testing" (vitest.config.ts), as a user's tests are.
import { McpServer, prompt, resource, tool, ToolError, type Int, type RequestContext } from "typed-mcp";

/** A forecast. */
export interface Forecast {
  /** Temperature in °C. */
  temperature: number;
  summary: string;
  /** When it was made. */
  at: Date;
  tags: Set<string>;
}

export class Weather {
  /**
   * Gets the forecast for a city.
   * @param city The city, e.g. `Oslo`.
   * @param days How many days ahead.
   */
  @tool({ readOnly: true })
  async getForecast(city: string, days: Int = 3): Promise<Forecast> {
    if (city === "") throw new ToolError("Name a city.");
    return {
      temperature: 20 + days,
      summary: `sunny in ${city}`,
      at: new Date(Date.UTC(2026, 0, 2)),
      tags: new Set(["dry", "warm"]),
    };
  }

  /** Counts the items; the context is filled in by the runtime. */
  @tool()
  count(items: string[], ctx: RequestContext): number {
    return ctx.signal.aborted ? -1 : items.length;
  }

  /** Greets, from one destructured parameter. */
  @tool()
  greet({ name, polite = false }: { name: string; polite?: boolean }): string {
    return polite ? `Good day, ${name}.` : `Hi ${name}`;
  }

  /** Asks the client for a name (elicitation). */
  @tool()
  async askName(ctx: RequestContext): Promise<string> {
    const answer = await ctx.elicit({
      mode: "form",
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return answer.action === "accept" ? `Hello, ${String(answer.content?.name)}` : `no name (${answer.action})`;
  }

  /** The client's roots and one sampled word. */
  @tool()
  async context(ctx: RequestContext): Promise<string[]> {
    const { roots } = await ctx.listRoots();
    const sampled = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: "One word?" } }],
      maxTokens: 5,
    });
    const content = sampled.content as { type: string; text?: string };
    return [...roots.map((r) => r.uri), content.text ?? ""];
  }

  /** Who the caller is, from the verified token. */
  @tool()
  whoami(ctx: RequestContext): { clientId: string; scopes: string[] } {
    if (ctx.authInfo === undefined) throw new ToolError("Not signed in.");
    return { clientId: ctx.authInfo.clientId, scopes: ctx.authInfo.scopes };
  }

  /** A long job that only runs as an MCP task. */
  @tool({ task: "required" })
  async report(pages: Int): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 10));
    return `${pages} pages`;
  }

  /** Fails unexpectedly. */
  @tool()
  broken(): void {
    throw new Error("secret detail");
  }

  /** Not a tool: a plain method. */
  helper(): number {
    return 1;
  }
}

export class Library {
  /** One book of a genre. */
  @resource("books://{genre}/{id}")
  book(id: Int, genre: "fiction" | "poetry"): string {
    return `${genre} #${id}`;
  }

  /** The catalogue. */
  @resource("books://catalogue")
  catalogue(): string {
    return "2 genres";
  }

  /** Asks for a review. */
  @prompt()
  review(title: string, stars: Int = 3): string {
    return `Review ${title} (${stars} stars)`;
  }
}

/** The server under test, with one quick-path tool, whose handle is returned too. */
export function createServer() {
  const server = new McpServer({ name: "testing-fixture", version: "1.0.0" });
  server.addTools(new Weather());
  server.add(new Library());
  const add = server.tool("add", (a: number, b: number = 1) => a + b);
  const stamp = server.tool("stamp", (when: Date, labels: Set<string>) => ({
    iso: when.toISOString(),
    n: labels.size,
  }));
  const shelf = server.resource("shelf://{row}/{slot}", (slot: Int, row: string) => `row ${row}, slot ${slot}`);
  const haiku = server.prompt("haiku", (topic: string, lines: Int = 3) => `Write ${lines} lines about ${topic}.`);
  return { server, add, stamp, shelf, haiku };
}
