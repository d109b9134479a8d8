/**
 * The official MCP "everything" reference server (`@modelcontextprotocol/server-everything`,
 * pinned in package.json) as plain typed-mcp classes. `node dist/server.js` serves stdio;
 * `node dist/server.js --http [--port N]` (or `PORT`) serves Streamable HTTP on
 * `http://127.0.0.1:<port>/mcp` (default 3001, the original's; 0 picks a free port).
 * `--store redis://HOST:PORT` (or `STORE_URL`) shares tasks, subscriptions' updates, list changes
 * and cancellation with every other instance on that Redis (docs/scaling.md): run several behind
 * a balancer. What differs from the original, and why, is in README.md.
 */
import { parseArgs } from "node:util";
import { McpServer, type StateStore } from "typed-mcp";
import { serveHttp } from "typed-mcp/node";
import { serveStdio } from "typed-mcp/stdio";
import { ClientTools } from "./client-tools.js";
import { GzipTool } from "./gzip.js";
import { Prompts, positiveInteger } from "./prompts.js";
import { DynamicResources, INSTRUCTIONS, SessionResources, StaticDocuments } from "./resources.js";
import { TaskTools } from "./task-tools.js";
import { Toggles } from "./toggles.js";
import { BasicTools } from "./tools.js";

/**
 * Builds the server: every tool (the task tools with the original's `pollInterval`, 1000 ms), resource, template and prompt of the original, and its completions.
 * @param store A store shared with other instances (docs/scaling.md); default none.
 */
export function createServer(store?: StateStore): McpServer {
  const server = new McpServer({
    name: "mcp-servers/everything",
    title: "Everything Reference Server",
    version: "2.0.0",
    instructions: INSTRUCTIONS,
    dynamic: true,
    tasks: { pollIntervalMs: 1000 },
    ...(store !== undefined && { store }),
  });
  const sessions = new SessionResources();
  server
    .addTools(new BasicTools())
    .addTools(new ClientTools())
    .addTools(new GzipTool(sessions))
    .addTools(new Toggles(server))
    .addTools(new TaskTools());
  server.add(new DynamicResources()).add(new StaticDocuments()).add(sessions).add(new Prompts());
  // The prompts' hooks are their @complete methods (prompts.ts); the templates' are registered here.
  server.complete(
    { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
    "resourceId",
    positiveInteger,
  );
  server.complete(
    { type: "ref/resource", uri: "demo://resource/dynamic/blob/{resourceId}" },
    "resourceId",
    positiveInteger,
  );
  return server;
}

/** The store named by `--store` / `STORE_URL` (only `redis://` and `rediss://`), connected; exits with a message for another scheme. */
async function connectStore(url: string): Promise<StateStore> {
  if (!/^rediss?:\/\//.test(url)) {
    console.error(`--store: expected a redis://HOST:PORT or rediss:// URL, got ${JSON.stringify(url)}`);
    process.exit(2);
  }
  const { connectRedisStore } = await import("typed-mcp/redis");
  return connectRedisStore({ url, onError: () => {} });
}

const { values } = parseArgs({
  options: { http: { type: "boolean", default: false }, port: { type: "string" }, store: { type: "string" } },
  strict: true,
});
const storeUrl = values.store ?? process.env.STORE_URL;
const server = createServer(storeUrl === undefined ? undefined : await connectStore(storeUrl));
await server.storeReady();
if (values.http) {
  const port = Number(values.port ?? process.env.PORT ?? 3001);
  const { url } = await serveHttp(server, { port, hostname: "127.0.0.1" });
  console.error(`MCP Streamable HTTP Server listening on ${url}${storeUrl === undefined ? "" : " (shared store)"}`);
} else {
  serveStdio(server);
}
