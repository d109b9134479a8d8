/**
 * The playground (docs/auth.md "Trying it"): built by Vite with the typed-mcp plugin (the bundle of
 * test/helpers/build-cache.ts, reused in the fast tier when its inputs are unchanged), served with
 * `--http` and `AUTH_ISSUER` set to scripts/oidc-provider.mjs's issuer, it is an OAuth resource
 * server whose audience is its own URL; the official client gets a token by client credentials
 * and calls its tools. (Without `AUTH_ISSUER` it stays open: test/e2e/playground.test.ts.)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { M2M, startAuthorizationServer, type AuthorizationServer } from "./authorization-server.js";
import { RPC, post } from "./setup.js";
import { freePort, startServer, type Running } from "../runtimes/helpers.js";
import { cachedServerBuild } from "../helpers/build-cache.ts";

let work: string;
let as: AuthorizationServer;
let running: Running;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "typed-mcp-auth-playground-"));
  const bundle = await cachedServerBuild("playground");
  as = await startAuthorizationServer();
  const port = await freePort();
  running = await startServer(process.execPath, [bundle, "--http"], {
    env: { PORT: String(port), AUTH_ISSUER: as.issuer, MEMORY_FILE_PATH: join(work, "memory.json") },
    listening: /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)[\s\S]*OAuth: bearer tokens/,
  });
});
afterAll(async () => {
  await running?.stop();
  await as?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

it("refuses requests without a token, naming its metadata (audience: its own URL)", async () => {
  const response = await post(running.url, RPC.callTool("graph_stats"));
  expect(response.status).toBe(401);
  const metadataUrl = running.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
  expect(response.headers.get("www-authenticate")).toContain(`resource_metadata="${metadataUrl}"`);
  expect(await (await fetch(metadataUrl)).json()).toEqual({
    resource: running.url,
    authorization_servers: [as.issuer],
  });
});

it("serves the official client once it has a token", async () => {
  const client = new Client({ name: "auth-playground", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(running.url), {
      authProvider: new ClientCredentialsProvider({ ...M2M, expectedIssuer: as.issuer }),
    }),
  );
  try {
    const stats = await client.callTool({ name: "graph_stats", arguments: {} });
    expect(stats.structuredContent).toEqual({ entities: 0, relations: 0, observations: 0 });
  } finally {
    await client.close();
  }
});
