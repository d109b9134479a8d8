/**
 * RFC 7662 introspection answers are reused (docs/auth.md "Introspection cache"): until the
 * token's `exp`, at most `introspectionCacheMaxAgeSeconds` (default 60) and at most
 * `introspectionCacheMaxEntries` of them (default 10,000), so a token revoked at the
 * authorization server (RFC 7009) is refused at the next refresh. oidc-provider issues opaque
 * tokens, introspects and revokes them; the resource server's `fetch` option passes every request
 * on to it and counts the introspection requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthOptions } from "typed-mcp";
import { M2M, RESOURCE_SERVER, startAuthorizationServer, type AuthorizationServer } from "./authorization-server.js";
import {
  RPC,
  buildNotes,
  clientCredentialsToken,
  importNotes,
  post,
  revokeToken,
  serveNotes,
  type NotesModule,
} from "./setup.js";

let as: AuthorizationServer;
let notes: NotesModule;
let build: Awaited<ReturnType<typeof buildNotes>>;
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  as = await startAuthorizationServer({ format: "opaque" });
  build = await buildNotes([["node", "node"]]);
  notes = await importNotes(build.built["node"]!);
});
afterAll(async () => {
  for (const close of closing) await close();
  await as?.stop();
  await build?.remove();
});

/** A resource server introspecting at `issuer` with `extra`, and the number of introspection requests it has sent. */
async function introspecting(issuer: string, extra: Partial<AuthOptions> = {}) {
  const counter = { introspections: 0 };
  const counting: typeof fetch = (input, init) => {
    if (String(input).endsWith("/token/introspection")) counter.introspections++;
    return fetch(input, init);
  };
  const served = await serveNotes(notes, issuer, { introspection: RESOURCE_SERVER, fetch: counting, ...extra });
  closing.push(() => served.close());
  const call = async (token: string) => {
    const response = await post(served.url, RPC.callTool("list_notes"), { authorization: `Bearer ${token}` });
    return { status: response.status, body: response.status === 200 ? undefined : await response.json() };
  };
  return { served, counter, call };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("introspection cache", () => {
  it("asks the endpoint once per token while the answer is fresh", async () => {
    const rs = await introspecting(as.issuer);
    const [a, b] = [
      await clientCredentialsToken(as.issuer, M2M, rs.served.audience, "notes:read"),
      await clientCredentialsToken(as.issuer, M2M, rs.served.audience, "notes:read"),
    ];
    for (let i = 0; i < 5; i++) expect((await rs.call(a)).status).toBe(200);
    expect(rs.counter.introspections).toBe(1);
    expect((await rs.call(b)).status).toBe(200);
    expect(rs.counter.introspections).toBe(2);
    // An unknown token is asked about every time (inactive answers are not kept).
    for (let i = 0; i < 2; i++)
      expect((await rs.call("y".repeat(43))).body).toEqual({
        error: "invalid_token",
        error_description: "The token is not active",
      });
    expect(rs.counter.introspections).toBe(4);
  });

  it("refuses a revoked token once the answer is older than introspectionCacheMaxAgeSeconds (the revocation window)", async () => {
    const rs = await introspecting(as.issuer, { introspectionCacheMaxAgeSeconds: 1 });
    const token = await clientCredentialsToken(as.issuer, M2M, rs.served.audience, "notes:read");
    expect((await rs.call(token)).status).toBe(200);
    const asked = Date.now();
    await revokeToken(as.issuer, M2M, token);
    // Within the window the cached answer still stands (that is the documented window) ...
    if (Date.now() - asked < 900) expect((await rs.call(token)).status).toBe(200);
    await sleep(Math.max(0, asked + 1100 - Date.now()));
    // ... and after it the endpoint is asked again and says the token is revoked.
    expect(await rs.call(token)).toEqual({
      status: 401,
      body: { error: "invalid_token", error_description: "The token is not active" },
    });
  });

  it("with introspectionCacheMaxAgeSeconds 0 asks every time: a revoked token is refused at once", async () => {
    const rs = await introspecting(as.issuer, { introspectionCacheMaxAgeSeconds: 0 });
    const token = await clientCredentialsToken(as.issuer, M2M, rs.served.audience, "notes:read");
    for (let i = 0; i < 3; i++) expect((await rs.call(token)).status).toBe(200);
    expect(rs.counter.introspections).toBe(3);
    await revokeToken(as.issuer, M2M, token);
    expect((await rs.call(token)).status).toBe(401);
  });

  it("keeps at most introspectionCacheMaxEntries answers, evicting the oldest", async () => {
    const rs = await introspecting(as.issuer, { introspectionCacheMaxEntries: 2 });
    const [a, b, c] = await Promise.all(
      [1, 2, 3].map(() => clientCredentialsToken(as.issuer, M2M, rs.served.audience, "notes:read")),
    );
    const asked = async (token: string) => {
      const before = rs.counter.introspections;
      expect((await rs.call(token)).status).toBe(200);
      return rs.counter.introspections - before;
    };
    expect([await asked(a!), await asked(b!), await asked(c!)]).toEqual([1, 1, 1]); // a is evicted by c
    expect([await asked(b!), await asked(c!)]).toEqual([0, 0]);
    expect(await asked(a!)).toBe(1); // asked again; b, now the oldest, is evicted
    expect([await asked(c!), await asked(a!), await asked(b!)]).toEqual([0, 0, 1]);
  });

  it("keeps no answer past the token's exp", async () => {
    const shortLived = await startAuthorizationServer({ format: "opaque", accessTokenTTL: 2 });
    closing.push(() => shortLived.stop());
    const rs = await introspecting(shortLived.issuer, { introspectionCacheMaxAgeSeconds: 600 });
    const token = await clientCredentialsToken(shortLived.issuer, M2M, rs.served.audience, "notes:read");
    expect((await rs.call(token)).status).toBe(200);
    await sleep(3100);
    expect((await rs.call(token)).status).toBe(401);
    expect(rs.counter.introspections).toBe(2);
  });
});
