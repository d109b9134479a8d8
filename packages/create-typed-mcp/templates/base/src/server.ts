import { McpServer, prompt, resource, tool, ToolError, type Int, type McpServerOptions, type RequestContext } from "typed-mcp";

interface Note {
  id: Int;
  /** The note's text. */
  text: string;
}

const notes: Note[] = [{ id: 1, text: "Hello from __NAME__." }];

/** The notes: one tool, one resource template and one prompt (src/server.test.ts calls each). */
export class Notes {
  /**
   * Adds a note and returns it.
   * @param text The note's text, e.g. `Buy milk`.
   */
  @tool()
  async addNote(text: string, ctx?: RequestContext): Promise<Note> {
    if (text.trim() === "") throw new ToolError("Write some text for the note.");
    const note = { id: notes.length + 1, text };
    notes.push(note);
    await ctx?.log("info", `added note ${note.id}`);
    return note;
  }

  /**
   * One note as plain text.
   * @param id The note's number.
   */
  @resource({ uri: "notes://{id}", mimeType: "text/plain" })
  note(id: Int): string {
    const found = notes.find((n) => n.id === id);
    if (!found) throw new ToolError(`No note ${id}.`);
    return found.text;
  }

  /**
   * Asks the model to summarise every note.
   * @param style How long the summary should be.
   */
  @prompt()
  summariseNotes(style: "short" | "long" = "short"): string {
    return `Write a ${style} summary of these notes:\n${notes.map((n) => `- ${n.text}`).join("\n")}`;
  }
}

/** The MCP server, shared by every entry (src/main.ts; in a Next.js app, src/app/api/mcp/route.ts); `options` add to its name and version (e.g. `store`). */
export function createServer(options: Partial<McpServerOptions> = {}): McpServer {
  const server = new McpServer({ name: "__NAME__", version: "0.1.0", ...options });
  server.add(new Notes());
  return server;
}
