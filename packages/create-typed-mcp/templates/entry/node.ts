import { serveHttp } from "typed-mcp/node";
import { serveStdio } from "typed-mcp/stdio";
import { createServer } from "./server.js";

// `npm start` serves Streamable HTTP on http://127.0.0.1:$PORT/mcp (default 3000);
// `node dist/server.js --stdio` serves stdio instead: what a desktop MCP client launches (not `npm start`, whose banner would go to stdout).
const server = createServer();
if (process.argv.includes("--stdio")) {
  serveStdio(server);
} else {
  const http = await serveHttp(server, { hostname: "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
  console.error(`listening on ${http.url}`);
}
