/**
 * Hostile requests to the OAuth resource server (docs/auth.md "Threat model"), against the
 * plugin-built notes fixture on `serveHttp` and oidc-provider as the authorization server. Every
 * answer is the one RFC 6750 §3.1 / the MCP specification ("Authorization", "Security Best
 * Practices") asks for: 401 `invalid_token`, 400 `invalid_request`, 503 when the authorization
 * server cannot be reached (fail closed), 403 for a foreign Origin.
 */
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { SignJWT, UnsecuredJWT, decodeJwt, generateKeyPair } from "jose";
import { M2M, RESOURCE_SERVER, startAuthorizationServer, type AuthorizationServer } from "./authorization-server.js";
import {
  RPC,
  accessTokenClaims,
  buildNotes,
  clientCredentialsToken,
  handSigned,
  importNotes,
  post,
  rpcAnswer,
  serveNotes,
  signingKey,
  type NotesModule,
} from "./setup.js";
import { freePort } from "../runtimes/helpers.js";

let as: AuthorizationServer;
let notes: NotesModule;
let served: Awaited<ReturnType<typeof serveNotes>>;
let build: Awaited<ReturnType<typeof buildNotes>>;
const closing: (() => Promise<void>)[] = [];

beforeAll(async () => {
  as = await startAuthorizationServer();
  build = await buildNotes([
    ["node", "node"],
    ["stdio", "node"],
  ]);
  notes = await importNotes(build.built["node"]!);
  served = await serveNotes(notes, as.issuer);
});
afterAll(async () => {
  for (const close of closing) await close();
  await served?.close();
  await as?.stop();
  await build?.remove();
});

/** The `error` and `error_description` of a `WWW-Authenticate: Bearer` challenge (RFC 6750 §3). */
function challenge(response: Response): { error?: string; description?: string } {
  const header = response.headers.get("www-authenticate") ?? "";
  return { error: /error="([^"]*)"/.exec(header)?.[1], description: /error_description="([^"]*)"/.exec(header)?.[1] };
}

const token = () => clientCredentialsToken(as.issuer, M2M, served.audience, "notes:read notes:write");
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe("tokens in the wrong place or shape", () => {
  it("refuses a token in the query string, even a valid one (MCP: MUST NOT be in the URI; RFC 6750 §2.3)", async () => {
    const response = await post(`${served.url.href}?access_token=${await token()}`, RPC.callTool("list_notes"));
    expect(response.status).toBe(400);
    // RFC 6750 §3: the error answer carries the Bearer challenge (error="invalid_request", where the metadata is).
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="invalid_request"');
    expect(challenge).toContain(
      `resource_metadata="${new URL("/.well-known/oauth-protected-resource", served.url).origin}`,
    );
    expect(await response.json()).toEqual({
      error: "invalid_request",
      error_description: "Access tokens must be sent in the Authorization header, not the query string",
    });
  });

  it("refuses an oversized Authorization header with 431 before verifying anything", async () => {
    const response = await post(served.url, RPC.callTool("list_notes"), bearer("a".repeat(9000)));
    expect(response.status).toBe(431);
    expect(await response.json()).toEqual({
      error: "invalid_request",
      error_description: "The Authorization header is longer than 8192 bytes",
    });
  });

  it("refuses another scheme (no error code: RFC 6750 §3.1) and garbage (invalid_token)", async () => {
    for (const authorization of ["Basic bTJtOnNlY3JldA==", "Bearer not.a.jwt", "Bearer"]) {
      const response = await post(served.url, RPC.callTool("list_notes"), { authorization });
      expect(response.status, authorization).toBe(401);
      expect(challenge(response).error, authorization).toBe(
        authorization.startsWith("Basic") ? undefined : "invalid_token",
      );
    }
  });
});

describe("tokens that are not for this resource or not from this issuer", () => {
  it("refuses a token issued for another resource (RFC 8707 audience)", async () => {
    const other = await clientCredentialsToken(as.issuer, M2M, "http://127.0.0.1:1/other", "notes:read");
    const response = await post(served.url, RPC.callTool("list_notes"), bearer(other));
    expect(response.status).toBe(401);
    expect(challenge(response)).toEqual({
      error: "invalid_token",
      description: "The token was not issued for this resource",
    });
  });

  it("refuses a forged token: right claims, signed by another key (with the issuer's kid and with its own)", async () => {
    const jwks = (await (await fetch(`${as.issuer}/jwks`)).json()) as { keys: { kid: string }[] };
    const { privateKey } = await generateKeyPair("RS256");
    const claims = accessTokenClaims(as.issuer, served.audience, { sub: "m2m", scope: "notes:read notes:write" });
    for (const kid of [jwks.keys[0]!.kid, "attacker"]) {
      const forged = await handSigned(privateKey, { kid, typ: "at+jwt" }, claims);
      const response = await post(served.url, RPC.callTool("list_notes"), bearer(forged));
      expect(response.status, kid).toBe(401);
      expect(challenge(response).description, kid).toBe(
        kid === "attacker"
          ? "The token is not signed by a key of the authorization server"
          : "The token's signature is not valid",
      );
    }
  });

  it("refuses alg none and HS256 keyed with the issuer's public key (algorithm confusion)", async () => {
    const claims = accessTokenClaims(as.issuer, served.audience, { sub: "m2m" });
    const none = new UnsecuredJWT(claims).encode();
    const publicJwk = JSON.stringify(((await (await fetch(`${as.issuer}/jwks`)).json()) as { keys: object[] }).keys[0]);
    const hs = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(publicJwk));
    for (const [label, jwt] of [
      ["none", none],
      ["HS256", hs],
    ] as const) {
      const response = await post(served.url, RPC.callTool("list_notes"), bearer(jwt));
      expect(response.status, label).toBe(401);
      expect(challenge(response), label).toEqual({
        error: "invalid_token",
        description: "The token's signature algorithm is not accepted",
      });
    }
  });
});

describe("expiry", () => {
  it("refuses a replay of a token after it expired (exp, RFC 7519 §4.1.4)", async () => {
    // 2 s of life (at least one whole second after the token is issued, `exp` being whole seconds),
    // so the first call is inside it on a loaded machine; the replay waits for the token's own `exp`
    // (a whole second past it) rather than a guessed delay.
    const shortLived = await startAuthorizationServer({ accessTokenTTL: 2 });
    closing.push(() => shortLived.stop());
    const server = await serveNotes(notes, shortLived.issuer);
    closing.push(() => server.close());
    const t = await clientCredentialsToken(shortLived.issuer, M2M, server.audience, "notes:read");
    expect((await post(server.url, RPC.callTool("list_notes"), bearer(t))).status).toBe(200);
    const exp = decodeJwt(t).exp!;
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 + 1100 - Date.now())));
    const replay = await post(server.url, RPC.callTool("list_notes"), bearer(t));
    expect(replay.status).toBe(401);
    expect(challenge(replay)).toEqual({ error: "invalid_token", description: "Token has expired" });
  });
});

describe("claims of a token signed with the issuer's own key", () => {
  it("refuses nbf beyond the clock tolerance and another iss; accepts nbf within it (RFC 7519 §4.1)", async () => {
    const { jwk, privateKey } = await signingKey("own");
    const issuerServer = await startAuthorizationServer({ jwks: { keys: [jwk] } });
    closing.push(() => issuerServer.stop());
    const server = await serveNotes(notes, issuerServer.issuer);
    closing.push(() => server.close());
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: { iss: string; nbf?: number }) =>
      handSigned(
        privateKey,
        { kid: "own", typ: "at+jwt" },
        accessTokenClaims(claims.iss, server.audience, { sub: "m2m", ...claims }),
      );
    const cases = [
      [{ iss: issuerServer.issuer, nbf: now + 120 }, 401, "The token is not valid yet"],
      [{ iss: "http://127.0.0.1:1" }, 401, "The token was issued by another authorization server"],
      [{ iss: issuerServer.issuer, nbf: now + 10 }, 200, undefined],
    ] as const;
    for (const [claims, status, description] of cases) {
      const response = await post(server.url, RPC.callTool("list_notes"), bearer(await sign(claims)));
      expect(response.status, JSON.stringify(claims)).toBe(status);
      if (description !== undefined)
        expect(challenge(response), JSON.stringify(claims)).toEqual({ error: "invalid_token", description });
    }
  });
});

describe("the authorization server is down (fail closed, never hang)", () => {
  it("answers 503 temporarily_unavailable when nothing listens at the issuer", async () => {
    const port = await freePort();
    const server = await serveNotes(notes, `http://127.0.0.1:${port}`);
    closing.push(() => server.close());
    const response = await post(server.url, RPC.callTool("list_notes"), bearer("eyJhbGciOiJSUzI1NiJ9.e30.c2ln"));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("30");
    expect(await response.json()).toEqual({
      error: "temporarily_unavailable",
      error_description: "The authorization server cannot be reached; try again later",
    });
  });

  it("answers 503 after auth.timeoutMs when the issuer accepts connections and never answers", async () => {
    const sockets: import("node:net").Socket[] = [];
    const blackHole: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((r) => blackHole.listen(0, "127.0.0.1", () => r()));
    closing.push(
      () =>
        new Promise((r) => {
          for (const s of sockets) s.destroy();
          blackHole.close(() => r());
        }),
    );
    const issuer = `http://127.0.0.1:${(blackHole.address() as { port: number }).port}`;
    const server = await serveNotes(notes, issuer, { timeoutMs: 300 });
    closing.push(() => server.close());
    const response = await post(server.url, RPC.callTool("list_notes"), bearer("eyJhbGciOiJSUzI1NiJ9.e30.c2ln"));
    expect(response.status).toBe(503);
  });
});

describe("key rotation", () => {
  it("accepts tokens signed by a new key once the JWKS is fetched again, and refuses the retired key's", async () => {
    const [k1, k2] = [(await signingKey("k1")).jwk, (await signingKey("k2")).jwk];
    const first = await startAuthorizationServer({ jwks: { keys: [k1] } });
    // The JWKS is cached for 0.3 s (a fraction of a second is allowed), so the wait below outlives it.
    const server = await serveNotes(notes, first.issuer, { jwksCacheMaxAgeSeconds: 0.3 });
    closing.push(() => server.close());
    const old = await clientCredentialsToken(first.issuer, M2M, server.audience, "notes:read");
    expect((await post(server.url, RPC.callTool("list_notes"), bearer(old))).status).toBe(200);
    // The authorization server rotates: same issuer, only the new key.
    await first.stop();
    const second = await startAuthorizationServer({ port: first.port, jwks: { keys: [k2] } });
    closing.push(() => second.stop());
    await new Promise((r) => setTimeout(r, 400));
    const fresh = await clientCredentialsToken(second.issuer, M2M, server.audience, "notes:read");
    expect((await post(server.url, RPC.callTool("list_notes"), bearer(fresh))).status).toBe(200);
    const retired = await post(server.url, RPC.callTool("list_notes"), bearer(old));
    expect(retired.status).toBe(401);
    expect(challenge(retired).description).toBe("The token is not signed by a key of the authorization server");
  });
});

describe("introspection (RFC 7662)", () => {
  it("verifies opaque tokens at the introspection endpoint and refuses unknown ones", async () => {
    const opaque = await startAuthorizationServer({ format: "opaque" });
    closing.push(() => opaque.stop());
    const server = await serveNotes(notes, opaque.issuer, { introspection: RESOURCE_SERVER });
    closing.push(() => server.close());
    const t = await clientCredentialsToken(opaque.issuer, M2M, server.audience, "notes:read");
    expect(t.split(".")).toHaveLength(1); // not a JWT
    const answer = await rpcAnswer(await post(server.url, RPC.callTool("whoami"), bearer(t)));
    expect(answer.result?.["structuredContent"]).toMatchObject({ clientId: "m2m", scopes: ["notes:read"] });
    const unknown = await post(server.url, RPC.callTool("whoami"), bearer("x".repeat(43)));
    expect(unknown.status).toBe(401);
    expect(challenge(unknown)).toEqual({ error: "invalid_token", description: "The token is not active" });
  });
});

describe("what the gate leaves in place", () => {
  it("still refuses a foreign Origin (DNS rebinding protection) with a valid token", async () => {
    const response = await post(served.url, RPC.callTool("list_notes"), {
      ...bearer(await token()),
      origin: "http://evil.example",
    });
    expect(response.status).toBe(403);
  });

  it("ignores an authInfo-looking header: the identity is the verified token's", async () => {
    const answer = await rpcAnswer(
      await post(served.url, RPC.callTool("whoami"), {
        ...bearer(await token()),
        "x-auth-info": '{"clientId":"admin"}',
        "x-client-id": "admin",
      }),
    );
    expect(answer.result?.["structuredContent"]).toMatchObject({ clientId: "m2m", subject: "m2m" });
  });

  it("leaves stdio alone: no token is asked for (MCP: stdio takes credentials from the environment)", async () => {
    const client = new Client({ name: "auth-stdio", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [build.built["stdio"]!.file], stderr: "pipe" }),
    );
    try {
      const result = await client.callTool({ name: "add_note", arguments: { text: "offline" } });
      expect(result.content).toEqual([{ type: "text", text: "2 notes" }]);
    } finally {
      await client.close();
    }
  });
});

describe("request bodies behind the gate", () => {
  it('an endless body from a valid caller is 413 once past maxRequestBodySize (docs/security.md "Limits"), not read to its end', async () => {
    // server.fetch itself (as on Workers or Deno): the gate reads the body for the scope check, within the limit.
    const server = notes.createServer({ issuer: as.issuer, audience: served.audience });
    const limit = server.maxRequestBodySize;
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 65_536;
        controller.enqueue(new Uint8Array(65_536).fill(0x20));
      },
    });
    const request = new Request(served.audience, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        ...bearer(await token()),
      },
      body: endless,
      duplex: "half",
    } as RequestInit);
    const response = await server.fetch(request);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: `Payload Too Large: Request body must not exceed ${limit} bytes` },
    });
    expect(pulled).toBeLessThan(limit + 16 * 65_536);
  });
});
