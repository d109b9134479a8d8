/**
 * The access-token checks of RFC 9068 and RFC 8725 (docs/auth.md "What is verified where"), on
 * `serveHttp` and on `server.fetch` itself (as on Deno, Bun or Workers), with oidc-provider as the
 * authorization server for the valid paths — key rotation included: two keys in its JWKS, tokens
 * without `kid` signed by either — and hand-signed tokens (jose) for the malformed ones.
 *
 * Expected values: RFC 9068 §2.1/§4 (`typ` `at+jwt`, compared as a media type per RFC 7515
 * §4.1.9), §2.2 (`sub` and `client_id` required), RFC 7519 §4.1.6 (`iat`), jose's documented
 * handling of several candidate keys, docs/auth.md (503 with `Retry-After: 30` when the JWKS
 * cannot be used), RFC 6750 §3.1 (no `error` without a token).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeProtectedHeader, generateKeyPair } from "jose";
import type { AuthOptions } from "typed-mcp";
import { M2M, startAuthorizationServer, type AuthorizationServer } from "./authorization-server.js";
import { rpcRequest } from "../helpers/raw-http.ts";
import {
  RPC,
  accessTokenClaims,
  buildNotes,
  clientCredentialsToken,
  handSigned,
  importNotes,
  post,
  serveNotes,
  startRotatingAuthorizationServer,
  type NotesModule,
} from "./setup.js";

let as: AuthorizationServer;
let notes: NotesModule;
let build: Awaited<ReturnType<typeof buildNotes>>;
let keys: Awaited<ReturnType<typeof startRotatingAuthorizationServer>>["keys"];
/** Chooses the key oidc-provider signs the next access token with (its header leaves `kid` out). */
let signWith: (kid: "k1" | "k2") => void;
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  ({ as, keys, signWith } = await startRotatingAuthorizationServer());
  build = await buildNotes([["node", "node"]]);
  notes = await importNotes(build.built["node"]!);
});
afterAll(async () => {
  for (const close of closing) await close();
  await as?.stop();
  await build?.remove();
});

/** A resource server under test: its audience, and one `tools/call list_notes` with `headers`. */
interface Gate {
  audience: string;
  call(headers?: Record<string, string>): Promise<Response>;
}

/** The notes server with `auth: oauth({ issuer, audience, ...extra })`, served by `serveHttp` or called through `server.fetch`. */
async function open(
  target: "serveHttp" | "server.fetch",
  issuer: string,
  extra: Partial<AuthOptions> = {},
): Promise<Gate> {
  if (target === "serveHttp") {
    const served = await serveNotes(notes, issuer, extra);
    closing.push(() => served.close());
    return { audience: served.audience, call: (headers) => post(served.url, RPC.callTool("list_notes"), headers) };
  }
  const audience = "https://mcp.example.com/mcp";
  const server = notes.createServer({ issuer, audience, ...extra });
  const call = (headers: Record<string, string> = {}) =>
    server.fetch(rpcRequest(RPC.callTool("list_notes"), { url: audience, headers }));
  return { audience, call };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Asserts a 401 `invalid_token` whose body and challenge carry `description` (RFC 6750 §3). */
async function expectInvalid(response: Response, description: string, label = description): Promise<void> {
  expect(response.status, label).toBe(401);
  expect(await response.json(), label).toEqual({ error: "invalid_token", error_description: description });
  expect(response.headers.get("www-authenticate"), label).toContain(
    `error="invalid_token", error_description="${description}"`,
  );
}

/** An issuer whose metadata is good and whose `jwks_uri` answers `status` with `body` (a real HTTP server on 127.0.0.1). */
async function brokenJwksIssuer(status: number, body: string, type: string): Promise<string> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url === "/.well-known/oauth-authorization-server") {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    } else if (request.url === "/jwks") {
      response.writeHead(status, { "content-type": type }).end(body);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  closing.push(() => new Promise((r) => server.close(r)));
  return issuer;
}

describe.each(["serveHttp", "server.fetch"] as const)("%s", (target) => {
  let gate: Gate;
  beforeAll(async () => {
    gate = await open(target, as.issuer);
  });

  describe("key selection without kid (two RSA keys in the JWKS, as during key rotation)", () => {
    it("accepts oidc-provider's tokens without kid signed by either key", async () => {
      for (const kid of ["k1", "k2"] as const) {
        signWith(kid);
        const token = await clientCredentialsToken(as.issuer, M2M, gate.audience, "notes:read");
        expect(decodeProtectedHeader(token), kid).toEqual({ alg: "RS256", typ: "at+jwt" });
        expect((await gate.call(bearer(token))).status, kid).toBe(200);
      }
    });

    it("refuses a forged token without kid with 401 (its signature checks with no key), not 503", async () => {
      const { privateKey } = await generateKeyPair("RS256");
      const forged = await handSigned(privateKey, { typ: "at+jwt" }, accessTokenClaims(as.issuer, gate.audience));
      await expectInvalid(await gate.call(bearer(forged)), "The token's signature is not valid");
    });
  });

  describe("typ (RFC 9068 §4, RFC 8725 §3.11)", () => {
    it("accepts at+jwt in every spelling of the media type (RFC 7515 §4.1.9)", async () => {
      for (const typ of ["at+jwt", "application/at+jwt", "AT+JWT", "Application/At+Jwt"]) {
        const token = await handSigned(
          keys[0]!.privateKey,
          { typ, kid: "k1" },
          accessTokenClaims(as.issuer, gate.audience),
        );
        expect((await gate.call(bearer(token))).status, typ).toBe(200);
      }
    });

    it("refuses typ JWT, another type and no typ, naming the option that accepts the issuer's value", async () => {
      const cases = [
        [
          { typ: "JWT" },
          "The token's typ header is 'JWT', not at+jwt (RFC 9068 section 4); if the issuer sends that, accept it with oauth({ acceptTokenTypes: ['JWT'] })",
        ],
        [
          { typ: "application/id_token+jwt" },
          "The token's typ header is 'application/id_token+jwt', not at+jwt (RFC 9068 section 4); if the issuer sends that, accept it with oauth({ acceptTokenTypes: ['application/id_token+jwt'] })",
        ],
        [
          {},
          "The token has no typ header, not at+jwt (RFC 9068 section 4); if the issuer sends that, accept it with oauth({ acceptTokenTypes: [null] })",
        ],
      ] as const;
      for (const [header, description] of cases) {
        const token = await handSigned(
          keys[0]!.privateKey,
          { kid: "k1", ...header },
          accessTokenClaims(as.issuer, gate.audience),
        );
        await expectInvalid(await gate.call(bearer(token)), description);
      }
    });

    it("accepts the listed types with acceptTokenTypes: oidc-provider issuing typ JWT, and tokens without typ", async () => {
      const jwtIssuer = await startAuthorizationServer({
        jwks: { keys: [keys[0]!.jwk] },
        accessTokenHeader: { typ: "JWT" },
      });
      closing.push(() => jwtIssuer.stop());
      const strict = await open(target, jwtIssuer.issuer);
      const lenient = await open(target, jwtIssuer.issuer, { acceptTokenTypes: ["jwt", null] });
      for (const [label, gate] of [
        ["strict", strict],
        ["lenient", lenient],
      ] as const) {
        const issued = await clientCredentialsToken(jwtIssuer.issuer, M2M, gate.audience, "notes:read");
        expect(decodeProtectedHeader(issued).typ).toBe("JWT");
        const untyped = await handSigned(
          keys[0]!.privateKey,
          { kid: "k1" },
          accessTokenClaims(jwtIssuer.issuer, gate.audience),
        );
        for (const token of [issued, untyped])
          expect((await gate.call(bearer(token))).status, label).toBe(label === "strict" ? 401 : 200);
        const other = await handSigned(
          keys[0]!.privateKey,
          { kid: "k1", typ: "secevent+jwt" },
          accessTokenClaims(jwtIssuer.issuer, gate.audience),
        );
        expect((await gate.call(bearer(other))).status, label).toBe(401);
      }
    });
  });

  describe("iat (RFC 7519 §4.1.6; docs/auth.md: within the clock tolerance)", () => {
    it("refuses a token issued an hour in the future, accepts one 10 s ahead (tolerance 30 s)", async () => {
      const now = Math.floor(Date.now() / 1000);
      const future = await handSigned(
        keys[0]!.privateKey,
        { kid: "k1", typ: "at+jwt" },
        accessTokenClaims(as.issuer, gate.audience, { iat: now + 3600, exp: now + 7200 }),
      );
      await expectInvalid(await gate.call(bearer(future)), "The token was issued in the future");
      const skewed = await handSigned(
        keys[0]!.privateKey,
        { kid: "k1", typ: "at+jwt" },
        accessTokenClaims(as.issuer, gate.audience, { iat: now + 10 }),
      );
      expect((await gate.call(bearer(skewed))).status).toBe(200);
    });

    it("refuses a token without iat (RFC 9068 §2.2 requires it), naming optionalClaims, and an iat that is no NumericDate", async () => {
      const missing = await handSigned(
        keys[0]!.privateKey,
        { kid: "k1", typ: "at+jwt" },
        accessTokenClaims(as.issuer, gate.audience, { iat: undefined }),
      );
      await expectInvalid(
        await gate.call(bearer(missing)),
        "The token has no iat claim (RFC 9068 section 2.2 requires it); if the issuer omits it, set oauth({ optionalClaims: ['iat'] })",
      );
      const word = await handSigned(
        keys[0]!.privateKey,
        { kid: "k1", typ: "at+jwt" },
        accessTokenClaims(as.issuer, gate.audience, { iat: "now" }),
      );
      await expectInvalid(await gate.call(bearer(word)), "The token's iat claim is not a NumericDate");
    });
  });

  describe("sub and client_id (RFC 9068 §2.2 requires both)", () => {
    it("refuses a token without sub or without client_id (azp is no stand-in), naming optionalClaims", async () => {
      const sign = (extra: Record<string, unknown>) =>
        handSigned(
          keys[0]!.privateKey,
          { kid: "k1", typ: "at+jwt" },
          accessTokenClaims(as.issuer, gate.audience, extra),
        );
      await expectInvalid(
        await gate.call(bearer(await sign({ sub: undefined }))),
        "The token has no sub claim (RFC 9068 section 2.2 requires it); if the issuer omits it, set oauth({ optionalClaims: ['sub'] })",
      );
      await expectInvalid(
        await gate.call(bearer(await sign({ client_id: undefined, azp: "m2m" }))),
        "The token has no client_id claim (RFC 9068 section 2.2 requires it); if the issuer omits it, set oauth({ optionalClaims: ['client_id'] })",
      );
      await expectInvalid(
        await gate.call(bearer(await sign({ sub: 42 }))),
        "The token's sub claim is not a non-empty string",
      );
      // An empty sub would make the token one caller with every token that omits sub.
      await expectInvalid(
        await gate.call(bearer(await sign({ sub: "" }))),
        "The token's sub claim is not a non-empty string",
      );
    });

    it("accepts them missing with optionalClaims", async () => {
      const lenient = await open(target, as.issuer, { optionalClaims: ["sub", "client_id"] });
      const token = await handSigned(
        keys[0]!.privateKey,
        { kid: "k1", typ: "at+jwt" },
        accessTokenClaims(as.issuer, lenient.audience, { sub: undefined, client_id: undefined, azp: "m2m" }),
      );
      expect((await lenient.call(bearer(token))).status).toBe(200);
    });
  });

  describe("the JWKS cannot be used (docs/auth.md: 503 with Retry-After, fail closed)", () => {
    it("answers 503 temporarily_unavailable when the jwks_uri answers 500, HTML or a non-JWKS JSON", async () => {
      for (const [status, body, type] of [
        [500, '{"error":"boom"}', "application/json"],
        [200, "<html>maintenance</html>", "text/html"],
        [200, '{"keys":"none"}', "application/json"],
      ] as const) {
        const issuer = await brokenJwksIssuer(status, body, type);
        const broken = await open(target, issuer);
        const token = await handSigned(
          keys[0]!.privateKey,
          { kid: "k1", typ: "at+jwt" },
          accessTokenClaims(issuer, broken.audience),
        );
        const response = await broken.call(bearer(token));
        expect(response.status, body).toBe(503);
        expect(response.headers.get("retry-after"), body).toBe("30");
        expect(await response.json(), body).toEqual({
          error: "temporarily_unavailable",
          error_description: "The authorization server cannot be reached; try again later",
        });
      }
    });
  });

  describe("no token (RFC 6750 §3.1: SHOULD NOT include an error code)", () => {
    it("answers 401 with only resource_metadata (and scope when auth.scopes is set), no error, for no header and for another scheme", async () => {
      const scoped = await open(target, as.issuer, { scopes: ["notes:read"] });
      const metadata = (audience: string) => `${new URL(audience).origin}/.well-known/oauth-protected-resource/mcp`;
      for (const [g, expected] of [
        [gate, `Bearer resource_metadata="${metadata(gate.audience)}"`],
        [scoped, `Bearer scope="notes:read", resource_metadata="${metadata(scoped.audience)}"`],
      ] as const) {
        for (const headers of [{}, { authorization: "Basic bTJtOm0ybS1zZWNyZXQ=" }] as Record<string, string>[]) {
          const response = await g.call(headers);
          expect(response.status).toBe(401);
          expect(response.headers.get("www-authenticate")).toBe(expected);
          expect(await response.text()).toBe("");
        }
      }
      // A Bearer header without a usable token is a bad token, not a missing one.
      await expectInvalid(
        await gate.call({ authorization: "Bearer" }),
        "Invalid Authorization header format, expected 'Bearer TOKEN'",
      );
    });
  });
});
