/**
 * The OAuth resource server inside Cloudflare's workerd (the real binary from npm): the
 * plugin-built notes fixture's worker entry (issuer and audience from the Worker's bindings),
 * oidc-provider on 127.0.0.1 as the authorization server, and the official client with
 * client credentials — the same expectations as test/auth/node.test.ts (MCP "Authorization",
 * RFC 9728, RFC 6750 §3). The authorization server holds two keys and leaves `kid` out of its
 * access tokens (key rotation: test/auth/token-checks.test.ts), so every token here is verified by
 * trying the JWKS keys in turn.
 */
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { decodeProtectedHeader, generateKeyPair } from "jose";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { M2M, READER, type AuthorizationServer } from "./authorization-server.js";
import {
  RPC,
  accessTokenClaims,
  buildNotes,
  clientCredentialsToken,
  handSigned,
  post,
  startRotatingAuthorizationServer,
} from "./setup.js";
import { freePort, startServer, type Running } from "../runtimes/helpers.js";
import { AUTH_MODULE } from "../runtimes/build.js";

const here = dirname(fileURLToPath(import.meta.url));
const WORKERD = resolve(here, "../../node_modules/workerd/bin/workerd");

let as: AuthorizationServer;
let build: Awaited<ReturnType<typeof buildNotes>>;
let worker: Running;
let audience: string;
let keys: Awaited<ReturnType<typeof startRotatingAuthorizationServer>>["keys"];
/** Chooses the key oidc-provider signs the next access token with (its header leaves `kid` out). */
let signWith: (kid: "k1" | "k2") => void;

beforeAll(async () => {
  ({ as, keys, signWith } = await startRotatingAuthorizationServer());
  build = await buildNotes([["worker", "worker"]]);
  const port = await freePort();
  audience = `http://127.0.0.1:${port}/mcp`;
  // The Worker reaches the authorization server on loopback through an explicit outbound
  // network (workerd's default outbound allows public addresses only).
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .notes),
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const notes :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker/worker.js") ],
  compatibilityDate = "2025-09-01",
  bindings = [
    (name = "AUTH_ISSUER", text = ${JSON.stringify(as.issuer)}),
    (name = "AUTH_AUDIENCE", text = ${JSON.stringify(audience)}),
  ],
  globalOutbound = "loopback",
);
`;
  const file = join(build.dir, "auth.capnp");
  await writeFile(file, config);
  worker = await startServer(WORKERD, ["serve", file, "--control-fd=3"], {
    cwd: build.dir,
    controlFd: true,
    listening: /"socket":"http","port":(\d+)/,
    url: () => audience,
  });
});
afterAll(async () => {
  await worker?.stop();
  await as?.stop();
  await build?.remove();
});

it('bundles the resource server through typed-mcp/auth (docs/runtimes.md "Bundle size")', () => {
  const ids = Object.keys(build.built.worker!.modules).filter((id) => AUTH_MODULE.test(id));
  for (const part of [
    /\/typed-mcp\/dist\/auth\/oauth\.js$/,
    /\/typed-mcp\/dist\/auth\/verify\.js$/,
    /\/node_modules\/jose\//,
    /\/node_modules\/oauth4webapi\//,
  ]) {
    expect(
      ids.some((id) => part.test(id)),
      String(part),
    ).toBe(true);
  }
});

it("answers 401 with the Bearer challenge (no error code) and serves the RFC 9728 document", async () => {
  const response = await post(audience, RPC.callTool("whoami"));
  expect(response.status).toBe(401);
  const metadataUrl = audience.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
  // RFC 6750 §3.1: no error code for a request without a token.
  expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);
  expect(await (await fetch(metadataUrl)).json()).toEqual({
    resource: audience,
    authorization_servers: [as.issuer],
    scopes_supported: ["notes:read", "notes:write", "admin"],
  });
});

it("lets the official client discover, get a token by client credentials and call tools", async () => {
  const client = new Client({ name: "auth-workerd", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(audience), {
      authProvider: new ClientCredentialsProvider({ ...M2M, expectedIssuer: as.issuer }),
    }),
  );
  try {
    expect((await client.callTool({ name: "add_note", arguments: { text: "edge" } })).content).toEqual([
      { type: "text", text: "2 notes" },
    ]);
    expect((await client.callTool({ name: "whoami", arguments: {} })).structuredContent).toMatchObject({
      clientId: "m2m",
      subject: "m2m",
    });
  } finally {
    await client.close();
  }
});

it("refuses a missing scope with 403 and a foreign audience with 401", async () => {
  const reader = await clientCredentialsToken(as.issuer, READER, audience, "notes:read");
  const write = await post(audience, RPC.callTool("add_note", { text: "x" }), { authorization: `Bearer ${reader}` });
  expect(write.status).toBe(403);
  expect(write.headers.get("www-authenticate")).toContain(
    `error="insufficient_scope", error_description="The tool 'add_note' needs the scope notes:write"`,
  );
  const other = await clientCredentialsToken(as.issuer, M2M, "http://127.0.0.1:1/other", "notes:read");
  const foreign = await post(audience, RPC.callTool("list_notes"), { authorization: `Bearer ${other}` });
  expect(foreign.status).toBe(401);
  expect(foreign.headers.get("www-authenticate")).toContain(
    `error_description="The token was not issued for this resource"`,
  );
});

it("accepts tokens without kid signed by either of the issuer's two keys (RFC 9068; jose's candidate keys)", async () => {
  for (const kid of ["k1", "k2"] as const) {
    signWith(kid);
    const token = await clientCredentialsToken(as.issuer, M2M, audience, "notes:read");
    expect(decodeProtectedHeader(token), kid).toEqual({ alg: "RS256", typ: "at+jwt" });
    expect((await post(audience, RPC.callTool("list_notes"), { authorization: `Bearer ${token}` })).status, kid).toBe(
      200,
    );
  }
});

it("refuses typ JWT naming acceptTokenTypes, and a forged token without kid with 401, not 503", async () => {
  const claims = accessTokenClaims(as.issuer, audience);
  const typJwt = await handSigned(keys[0]!.privateKey, { typ: "JWT" }, claims);
  const refused = await post(audience, RPC.callTool("list_notes"), { authorization: `Bearer ${typJwt}` });
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual({
    error: "invalid_token",
    error_description:
      "The token's typ header is 'JWT', not at+jwt (RFC 9068 section 4); if the issuer sends that, accept it with oauth({ acceptTokenTypes: ['JWT'] })",
  });
  const forged = await handSigned((await generateKeyPair("RS256")).privateKey, { typ: "at+jwt" }, claims);
  const response = await post(audience, RPC.callTool("list_notes"), { authorization: `Bearer ${forged}` });
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({
    error: "invalid_token",
    error_description: "The token's signature is not valid",
  });
});
