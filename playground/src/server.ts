/**
 * The playground MCP server: a knowledge-graph memory server built with typed-mcp.
 *
 *   node dist/server.js           serve over stdio
 *   node dist/server.js --http    serve Streamable HTTP on 127.0.0.1:$PORT (default 3000), path /mcp
 *
 * The graph is kept in $MEMORY_FILE_PATH (default: memory.json in the working directory).
 * With $AUTH_ISSUER set (an OAuth authorization server's issuer URL, e.g. the one
 * `npm run auth-server` starts), HTTP requests need a bearer token issued for this server's own
 * URL (docs/auth.md); without it the server is open. stdio is never affected.
 * With $OTEL_EXPORTER_OTLP_ENDPOINT set, traces and metrics (typed-mcp/otel) are exported over
 * OTLP/HTTP, configured by the standard OTEL_* variables (telemetry.ts); without it, nothing.
 * With $STORE_URL set (`redis://HOST:PORT`), several instances share one Redis (docs/scaling.md):
 * run them behind a balancer. The graph file itself is not shared: give them one $MEMORY_FILE_PATH.
 */
import { McpServer, type AuthOptions, type StateStore } from "typed-mcp";
import { oauth } from "typed-mcp/auth";
import { serveStdio } from "typed-mcp/stdio";
import { serveHttp } from "typed-mcp/node";
import { instrument } from "typed-mcp/otel";
import { startTelemetry } from "./telemetry.js";
import { MemoryTools } from "./memory.js";
import { GraphResources } from "./resources.js";
import { GraphStore } from "./store.js";
// The MCP Apps view of read_graph: one self-contained HTML file, bundled as a string by Vite.
import graphViewHtml from "./graph-view.html?raw";

/** Counts of what the graph holds. */
interface GraphStats {
  /** How many entities there are. */
  entities: number;
  /** How many relations there are. */
  relations: number;
  /** How many observations there are, over all entities. */
  observations: number;
}

/** The memory server; `auth` makes it an OAuth resource server (docs/auth.md); `shared` a store shared with other instances (docs/scaling.md). */
export function createServer(store = new GraphStore(), auth?: AuthOptions, shared?: StateStore): McpServer {
  const server = new McpServer({
    name: "typed-mcp-memory",
    version: "0.1.0",
    ...(auth && { auth: oauth(auth) }),
    ...(shared && { store: shared }),
  });
  server.addTools(new MemoryTools(store));
  server.add(new GraphResources(store));
  // MCP Apps (spec §9): hosts that negotiated the extension render read_graph's result with this view.
  server.addUiResource("ui://memory/graph", graphViewHtml, {
    name: "graph_view",
    title: "Knowledge graph view",
    description: "Draws the knowledge graph: entities as boxes with their observations, relations as labelled arrows.",
    _meta: { ui: { prefersBorder: true } },
  });

  /** Count the entities, relations and observations in the knowledge graph. */
  const graphStats = async (): Promise<GraphStats> => {
    const graph = await store.read();
    return {
      entities: graph.entities.length,
      relations: graph.relations.length,
      observations: graph.entities.reduce((n, e) => n + e.observations.length, 0),
    };
  };
  server.tool("graph_stats", { title: "Graph statistics", readOnly: true }, graphStats);
  return server;
}

const http = process.argv.includes("--http");
const port = Number(process.env.PORT ?? 3000);
const issuer = process.env.AUTH_ISSUER;
// The audience is the server's own URL (RFC 8707 resource identifier).
const auth = http && issuer ? { issuer, audience: `http://127.0.0.1:${port}/mcp` } : undefined;
const storeUrl = process.env.STORE_URL;
// Only a server given STORE_URL loads the Redis client (typed-mcp/redis is its own entry).
const shared = storeUrl ? await import("typed-mcp/redis").then((r) => r.connectRedisStore(storeUrl)) : undefined;
const server = createServer(new GraphStore(), auth, shared);
const stopTelemetry = startTelemetry();
if (stopTelemetry !== undefined) {
  instrument(server);
  // Flush what is batched before the process ends: on a signal, and when stdio's input ended.
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => void stopTelemetry().finally(() => process.exit(0)));
  process.once("beforeExit", () => void stopTelemetry());
}
await server.storeReady();
if (http) {
  const { url } = await serveHttp(server, { port, hostname: "127.0.0.1" });
  console.error(`typed-mcp memory server listening on ${url}`);
  if (auth) console.error(`OAuth: bearer tokens from ${auth.issuer} for ${auth.audience} are required.`);
  console.error(`Connect an MCP client to it with the Streamable HTTP transport, e.g.`);
  console.error(`  claude mcp add --transport http memory ${url}`);
  console.error(`  npx @modelcontextprotocol/inspector   (transport: Streamable HTTP, URL: ${url})`);
  console.error(`Graph file: ${new GraphStore().path}. Stop with Ctrl+C.`);
} else {
  serveStdio(server);
}
