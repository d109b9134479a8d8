import { createServer } from "./server.js";

declare const Bun: {
  serve(options: { hostname: string; port: number; fetch: (r: Request) => Promise<Response> }): { url: URL };
  env: Record<string, string | undefined>;
};

const server = createServer();
const http = Bun.serve({ hostname: "127.0.0.1", port: Number(Bun.env.PORT ?? 3000), fetch: server.fetch });
console.error(`listening on ${new URL("/mcp", http.url)}`);
