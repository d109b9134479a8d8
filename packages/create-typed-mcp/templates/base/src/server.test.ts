// `npm test`: the server's tool, resource and prompt called through the MCP protocol with
// `typed-mcp/testing` (the official client, connected in memory). The calls are typed from the
// methods of Notes: a wrong argument type is a TypeScript error (`npm run typecheck`).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, type TypedClient } from "typed-mcp/testing";
import { createServer, Notes } from "./server.js";

describe("__NAME__", () => {
  let client: TypedClient;
  beforeEach(async () => {
    client = await connect(createServer());
  });
  afterEach(() => client.close());

  it("add_note returns the note; an empty text is refused with the ToolError's message", async () => {
    const notes = client.tools(new Notes());
    const note = await notes.addNote("Buy milk");
    expect(note.text).toBe("Buy milk");
    await expect(notes.addNote(" ")).rejects.toMatchObject({ text: "Write some text for the note." });
    // The reader checks what TypeScript cannot: the same text any MCP client gets.
    await expect(client.callTool({ name: "add_note", arguments: { text: 1 } })).resolves.toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Argument 'text' is not valid. Expected a string, got a number." }],
    });
  });

  it("notes://{id} reads one note", async () => {
    const result = await client.resources(new Notes()).note(1);
    expect(result.contents).toEqual([{ uri: "notes://1", mimeType: "text/plain", text: "Hello from __NAME__." }]);
  });

  it("summarise_notes asks for a summary of the given length", async () => {
    const result = await client.prompts(new Notes()).summariseNotes("long");
    expect(result.messages[0]?.content).toMatchObject({
      type: "text",
      text: expect.stringContaining("Write a long summary of these notes:"),
    });
  });
});
