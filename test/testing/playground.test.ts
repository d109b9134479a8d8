// The playground's own tests, written with `typed-mcp/testing` (docs/testing.md): its tools called
// through the official client over the in-memory pair, typed from MemoryTools' methods. Built by
// the typed-mcp Vite plugin (vitest project "testing"). The graph lives in a fresh temp directory.
/// <reference path="../../playground/src/html.d.ts" />
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type TypedClient } from "typed-mcp/testing";
import { createServer } from "../../playground/src/server.ts";
import { MemoryTools } from "../../playground/src/memory.ts";
import { GraphStore } from "../../playground/src/store.ts";

let dir: string;
let client: TypedClient;
let store: GraphStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "typed-mcp-playground-testing-"));
  store = new GraphStore(join(dir, "memory.json"));
  client = await connect(createServer(store));
});
afterAll(async () => {
  await client.close();
  await rm(dir, { recursive: true, force: true });
});

describe("playground (memory server) through typed-mcp/testing", () => {
  it("creates entities and finds them; the result is what arrives on the wire", async () => {
    const tools = client.tools(new MemoryTools(store));
    const { created } = await tools.createEntities([
      { name: "Ada_Lovelace", entityType: "person", observations: ["wrote the first program"] },
      { name: "Analytical_Engine", entityType: "machine", observations: [] },
    ]);
    expect(created.map((e) => e.name)).toEqual(["Ada_Lovelace", "Analytical_Engine"]);
    await tools.createRelations([{ from: "Ada_Lovelace", to: "Analytical_Engine", relationType: "programmed" }]);
    const found = await tools.searchNodes("program");
    expect(found.entities.map((e) => e.name)).toEqual(["Ada_Lovelace"]);
    expect(await tools.deleteEntities(["Analytical_Engine"])).toBe("Entities deleted successfully");
    expect((await tools.readGraph()).relations).toEqual([]);
  });

  it("an argument error carries the §5 text (limit is an Int)", async () => {
    const tools = client.tools(new MemoryTools(store));
    await expect(tools.searchNodes("x", 2.5)).rejects.toMatchObject({
      name: "ToolCallError",
      text: "Argument 'limit' is not valid. Expected an integer.",
    });
    // @ts-expect-error entityNames is a string[]
    await expect(tools.deleteEntities("Ada_Lovelace")).rejects.toMatchObject({
      text: "Argument 'entityNames' is not valid. Expected an array, got a string.",
    });
  });
});
