import { createServer } from "./server.js";

declare const Deno: {
  serve(options: { hostname: string; port: number; onListen(addr: { hostname: string; port: number }): void }, handler: (r: Request) => Promise<Response>): unknown;
  env: { get(name: string): string | undefined };
};

const server = createServer();
Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 3000),
    onListen: ({ hostname, port }) => console.error(`listening on http://${hostname}:${port}/mcp`),
  },
  server.fetch,
);
