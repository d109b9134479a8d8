/**
 * Builds one fixture module with Vite and the plugin (real TypeScript checker, no cache) and
 * connects the official client to its default-exported server over `server.fetch` — shared by
 * the tests of test/unplugin that drive a built server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "vite";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import typedMcp from "../../packages/unplugin/dist/vite.js";

/** A connected client; `close()` closes it and removes the build. */
export async function buildAndConnect(
  fixture: string,
  entry = "tools.ts",
): Promise<{ client: Client; close(): Promise<void> }> {
  const out = await mkdtemp(join(tmpdir(), "typed-mcp-built-"));
  await build({
    root: fixture,
    configFile: false,
    logLevel: "silent",
    plugins: [typedMcp({ cache: false })],
    ssr: { noExternal: true },
    build: {
      ssr: join(fixture, entry),
      outDir: out,
      target: "node20",
      rollupOptions: { output: { entryFileNames: "tools.js" } },
    },
  });
  const server = (await import(pathToFileURL(join(out, "tools.js")).href)).default as {
    fetch(r: Request): Promise<Response>;
  };
  const client = new Client({ name: "vitest-client", version: "0.0.1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
      fetch: async (input, init) => server.fetch(new Request(input, init)),
    }),
  );
  return {
    client,
    async close() {
      await client.close();
      await rm(out, { recursive: true, force: true });
    },
  };
}
