/**
 * The OAuth 2.1 resource server end to end on Node (docs/auth.md): oidc-provider as the real
 * authorization server, the plugin-built notes fixture served by `serveHttp`, and the official
 * `@modelcontextprotocol/client` with its OAuth support (client credentials; authorization code
 * with PKCE, its login and consent pages driven headlessly). Expected values come from the MCP
 * specification ("Authorization", 2025-06-18 and later), RFC 6750 §3, RFC 9728 §3 and RFC 8707.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { M2M, READER, authorize, startAuthorizationServer, type AuthorizationServer } from "./authorization-server.js";
import { recordIncoming } from "../helpers/wire.ts";
import {
  AppProvider,
  RPC,
  buildNotes,
  clientCredentialsToken,
  importNotes,
  post,
  rpcAnswer,
  serveNotes,
  type NotesModule,
} from "./setup.js";

let as: AuthorizationServer;
let notes: NotesModule;
let served: Awaited<ReturnType<typeof serveNotes>>;
let hiding: Awaited<ReturnType<typeof serveNotes>>;
let remove: () => Promise<void>;

beforeAll(async () => {
  as = await startAuthorizationServer();
  const build = await buildNotes([["node", "node"]]);
  remove = build.remove;
  notes = await importNotes(build.built["node"]!);
  served = await serveNotes(notes, as.issuer);
  hiding = await serveNotes(notes, as.issuer, { hideUnauthorizedTools: true });
});
afterAll(async () => {
  await served?.close();
  await hiding?.close();
  await as?.stop();
  await remove?.();
});

const metadataUrl = () => `http://127.0.0.1:${served.port}/.well-known/oauth-protected-resource/mcp`;

async function connect(url: string, provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: "auth-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return client;
}

function text(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

describe("without a token", () => {
  it("is answered 401 with the Bearer challenge naming the resource metadata and no error code (MCP Authorization, RFC 9728 §5.1, RFC 6750 §3.1)", async () => {
    const response = await post(served.url, RPC.callTool("whoami"));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    expect(await response.text()).toBe("");
  });

  it("serves the RFC 9728 document on the path-suffixed and the root well-known path", async () => {
    const expected = {
      resource: served.audience,
      authorization_servers: [as.issuer],
      scopes_supported: ["notes:read", "notes:write", "admin"],
    };
    for (const url of [metadataUrl(), `http://127.0.0.1:${served.port}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(expected);
    }
  });
});

describe("client credentials (the official client's ClientCredentialsProvider)", () => {
  let client: Client;
  beforeAll(async () => {
    const provider = new ClientCredentialsProvider({
      ...M2M,
      scope: "notes:read notes:write",
      expectedIssuer: as.issuer,
    });
    client = await connect(served.url.href, provider);
  });
  afterAll(() => client?.close());

  it("discovers the authorization server from the 401, gets a token and calls tools", async () => {
    expect(text(await client.callTool({ name: "add_note", arguments: { text: "second" } }))).toBe("2 notes");
    expect(text(await client.callTool({ name: "list_notes", arguments: {} }))).toBe("first\nsecond");
  });

  it("hands the verified identity to the tool as RequestContext.authInfo", async () => {
    const result = await client.callTool({ name: "whoami", arguments: {} });
    const caller = result.structuredContent as {
      clientId: string;
      scopes: string[];
      subject: string | null;
      expiresAt: number;
    };
    expect(caller.clientId).toBe("m2m");
    // The client asks for the resource's scopes_supported (MCP 2025-11-25 "Scope selection strategy").
    expect(caller.scopes.sort()).toEqual(["admin", "notes:read", "notes:write"]);
    // oidc-provider's client credentials tokens have sub = the client (RFC 9068 §2.2).
    expect(caller.subject).toBe("m2m");
    expect(caller.expiresAt).toBeGreaterThan(Date.now() / 1000);
  });

  it("lists every tool unchanged: scopes are never part of a listing", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["list_notes", "add_note", "whoami"]);
    expect(tools[0]).toEqual({
      name: "list_notes",
      description: "Lists the notes.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true },
    });
  });
});

describe("scopes (403 insufficient_scope, MCP 2025-11-25 scope challenges, RFC 6750 §3.1)", () => {
  it("refuses a tool call without the tool's scopes, naming them", async () => {
    const token = await clientCredentialsToken(as.issuer, READER, served.audience, "notes:read");
    const response = await post(served.url, RPC.callTool("add_note", { text: "x" }), {
      authorization: `Bearer ${token}`,
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", error_description="The tool 'add_note' needs the scope notes:write", scope="notes:read notes:write", resource_metadata="${metadataUrl()}"`,
    );
    const allowed = await post(served.url, RPC.callTool("list_notes"), { authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
  });

  it("refuses a resource read and a prompt without their scopes", async () => {
    const adminOnly = await clientCredentialsToken(as.issuer, M2M, served.audience, "admin");
    const read = await post(served.url, RPC.readResource("notes://all"), { authorization: `Bearer ${adminOnly}` });
    expect(read.status).toBe(403);
    expect(await read.json()).toEqual({
      error: "insufficient_scope",
      error_description: "The resource needs the scope notes:read",
    });
    const reader = await clientCredentialsToken(as.issuer, READER, served.audience, "notes:read");
    const prompt = await post(served.url, RPC.getPrompt("summary"), { authorization: `Bearer ${reader}` });
    expect(prompt.status).toBe(403);
    expect(prompt.headers.get("www-authenticate")).toContain(
      `error="insufficient_scope", error_description="The prompt 'summary' needs the scope admin", scope="admin"`,
    );
  });

  it("with hideUnauthorizedTools, tools/list leaves out what the caller may not call", async () => {
    const reader = await clientCredentialsToken(as.issuer, READER, hiding.audience, "notes:read");
    const listing = await post(
      hiding.url,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { authorization: `Bearer ${reader}` },
    );
    expect(listing.status).toBe(200);
    const { result } = await rpcAnswer(listing);
    expect((result!["tools"] as { name: string }[]).map((t) => t.name)).toEqual(["list_notes", "whoami"]);
    // The same server lists everything to a caller with every scope.
    const all = await clientCredentialsToken(as.issuer, M2M, hiding.audience, "notes:read notes:write");
    const full = await rpcAnswer(
      await post(
        hiding.url,
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
        { authorization: `Bearer ${all}` },
      ),
    );
    expect((full.result!["tools"] as { name: string }[]).map((t) => t.name)).toEqual([
      "list_notes",
      "add_note",
      "whoami",
    ]);
  });
});

describe("hideUnauthorizedTools on 2026-07-28", () => {
  it("marks the caller-dependent listing cacheScope private (docs/mapping.md §11)", async () => {
    const reader = await clientCredentialsToken(as.issuer, READER, hiding.audience, "notes:read");
    const transport = new StreamableHTTPClientTransport(hiding.url, {
      requestInit: { headers: { authorization: `Bearer ${reader}` } },
    });
    const raw = recordIncoming(transport);
    const client = new Client({ name: "auth-test", version: "1.0.0" }, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    } as never);
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["list_notes", "whoami"]);
      const listed = raw.find((m) => Array.isArray(m.result?.["tools"]))!.result!;
      expect(listed["cacheScope"]).toBe("private");
    } finally {
      await client.close();
    }
  });
});

describe("authorization code with PKCE (the official client's OAuth flow, login and consent driven headlessly)", () => {
  it("sends the user to the authorization server, redeems the code and calls tools as that user", async () => {
    const provider = new AppProvider({ clientName: "auth test" });
    const first = new Client({ name: "auth-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(served.url, { authProvider: provider });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl!;
    // RFC 7636 S256 challenge and the RFC 8707 resource from the protected resource metadata.
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(served.audience);
    await transport.finishAuth(await authorize(url, "alice"));
    const client = await connect(served.url.href, provider);
    try {
      const caller = (await client.callTool({ name: "whoami", arguments: {} })).structuredContent as {
        clientId: string;
        subject: string;
      };
      expect(caller.clientId).toBe("app");
      expect(caller.subject).toBe("alice");
      expect(text(await client.callTool({ name: "list_notes", arguments: {} }))).toMatch(/^first/);
    } finally {
      await client.close();
    }
  });
});
