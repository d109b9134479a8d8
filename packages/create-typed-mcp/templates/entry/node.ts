import { serveHttp } from "typed-mcp/node";
import { serveStdio } from "typed-mcp/stdio";
import { createServer } from "./server.js";
__STORE_IMPORT__

// `npm start` serves Streamable HTTP on http://127.0.0.1:$PORT/mcp (default 3000);
// `node dist/server.js --stdio` serves stdio instead: what a desktop MCP client launches (not `npm start`, whose banner would go to stdout).
const server = createServer(__STORE_OPTIONS__);
__STORE_READY__
if (process.argv.includes("--stdio")) {
  serveStdio(server);
} else {
  const http = await serveHttp(server, { hostname: "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
  console.error(`listening on ${http.url}`);
}
