/** The `auth` option is checked when the server is made (docs/auth.md "The `auth` option"), never on a request. */
import { describe, expect, it } from "vitest";
import { McpServer, type AuthOptions, type ServerAuth } from "typed-mcp";
import { oauth } from "typed-mcp/auth";

const make = (auth: Partial<AuthOptions>) => () =>
  new McpServer({
    name: "s",
    version: "1",
    auth: oauth({ issuer: "https://auth.example.com", audience: "https://mcp.example.com/mcp", ...auth }),
  });

describe("auth option checks", () => {
  it("accepts https issuers and loopback http ones", () => {
    expect(make({})).not.toThrow();
    expect(make({ issuer: "http://127.0.0.1:4000" })).not.toThrow();
    expect(make({ issuer: "http://localhost:4000" })).not.toThrow();
  });

  it("refuses a plain-http issuer elsewhere (the SDK's rule)", () => {
    expect(make({ issuer: "http://auth.example.com" })).toThrow("Issuer URL must be HTTPS");
  });

  it("refuses relative URLs, an audience with a fragment (RFC 8707 §2), bad numbers and bad scope tokens", () => {
    expect(make({ issuer: "auth.example.com" })).toThrow(
      new TypeError('auth.issuer must be an absolute URL, got "auth.example.com"'),
    );
    expect(make({ audience: "/mcp" })).toThrow(new TypeError('auth.audience must be an absolute URL, got "/mcp"'));
    expect(make({ audience: "https://mcp.example.com/mcp#x" })).toThrow(
      new TypeError("auth.audience must not have a fragment (RFC 8707 §2), got https://mcp.example.com/mcp#x"),
    );
    expect(make({ timeoutMs: 0 })).toThrow(new TypeError("auth.timeoutMs must be a positive number, got 0"));
    expect(make({ clockToleranceSeconds: -1 })).toThrow(
      new TypeError("auth.clockToleranceSeconds must be a non-negative number, got -1"),
    );
    expect(make({ scopes: ["notes read"] })).toThrow(
      new TypeError('auth.scopes: "notes read" is not an OAuth scope token (RFC 6749 §3.3)'),
    );
  });

  it("refuses acceptTokenTypes other than strings and null, optionalClaims other than sub and client_id, a negative introspection cache age or size", () => {
    expect(make({ acceptTokenTypes: ["JWT", null] })).not.toThrow();
    expect(make({ acceptTokenTypes: [""] })).toThrow(
      new TypeError('auth.acceptTokenTypes takes typ header values (strings) and null (no typ), got ""'),
    );
    expect(make({ acceptTokenTypes: [42 as unknown as string] })).toThrow(
      new TypeError("auth.acceptTokenTypes takes typ header values (strings) and null (no typ), got 42"),
    );
    expect(make({ optionalClaims: ["sub", "client_id"] })).not.toThrow();
    expect(make({ optionalClaims: ["azp" as "sub"] })).toThrow(
      new TypeError('auth.optionalClaims takes "sub", "client_id" and "iat", got "azp"'),
    );
    expect(make({ introspectionCacheMaxAgeSeconds: 0 })).not.toThrow();
    expect(make({ introspectionCacheMaxAgeSeconds: -1 })).toThrow(
      new TypeError("auth.introspectionCacheMaxAgeSeconds must be a non-negative number, got -1"),
    );
    expect(make({ introspectionCacheMaxEntries: Number.NaN })).toThrow(
      new TypeError("auth.introspectionCacheMaxEntries must be a non-negative number, got NaN"),
    );
  });

  it("refuses an auth value not made by oauth() of typed-mcp/auth, naming the fix (docs/auth.md)", () => {
    const plain = {
      issuer: "https://auth.example.com",
      audience: "https://mcp.example.com/mcp",
    } as unknown as ServerAuth;
    expect(() => new McpServer({ name: "s", version: "1", auth: plain })).toThrow(
      new TypeError(
        'The auth option takes oauth({ issuer, audience, … }) from "typed-mcp/auth", not the plain options object (docs/auth.md): import { oauth } from "typed-mcp/auth" and write auth: oauth({ … })',
      ),
    );
    // Any plain object gets the same fix: {}, a misspelt key, a null-prototype object.
    for (const other of [
      {},
      { audience: "https://mcp.example.com/mcp" },
      { isuer: "https://auth.example.com" },
      Object.create(null),
    ]) {
      expect(() => new McpServer({ name: "s", version: "1", auth: other as ServerAuth })).toThrow(
        new TypeError(
          'The auth option takes oauth({ issuer, audience, … }) from "typed-mcp/auth", not the plain options object (docs/auth.md): import { oauth } from "typed-mcp/auth" and write auth: oauth({ … })',
        ),
      );
    }
    expect(() => new McpServer({ name: "s", version: "1", auth: [] as unknown as ServerAuth })).toThrow(
      new TypeError(
        'The auth option must be made by oauth({ issuer, audience, … }) from "typed-mcp/auth" (docs/auth.md), got object',
      ),
    );
    expect(() => new McpServer({ name: "s", version: "1", auth: "yes" as unknown as ServerAuth })).toThrow(
      new TypeError(
        'The auth option must be made by oauth({ issuer, audience, … }) from "typed-mcp/auth" (docs/auth.md), got string',
      ),
    );
    expect(() => new McpServer({ name: "s", version: "1", auth: null as unknown as ServerAuth })).toThrow(
      new TypeError(
        'The auth option must be made by oauth({ issuer, audience, … }) from "typed-mcp/auth" (docs/auth.md), got null',
      ),
    );
  });
});
