/**
 * `connect(server, options?)` of `typed-mcp/testing` (docs/testing.md): the official MCP client
 * (`@modelcontextprotocol/client`) on a lasting connection to `server` over the SDK's own linked
 * in-memory transports, served as `serveStdio` serves one connection (the same SDK `serveStdio`,
 * given the transport). Everything goes through the real protocol: listing, reader, writer, errors.
 *
 * @module
 */
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type {
  AuthInfo,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  Root,
} from "@modelcontextprotocol/client";
import { McpServer } from "../server.js";
import { serveTransport } from "../transports/stdio.js";
import { isLegacyRevision } from "../protocol/revisions.js";
import { TypedClient } from "./typed-client.js";

/** The options of {@link connect}. Every handler is optional; a capability is declared only for the handlers given. */
export interface ConnectOptions {
  /**
   * The protocol revision to use (`"2025-06-18"`, `"2025-11-25"`, `"2026-07-28"`, …), pinned with the
   * client's `versionNegotiation`; default: what the client negotiates by itself.
   */
  protocolVersion?: string;
  /** The client's `clientInfo` (default `{ name: "typed-mcp-testing", version: "0.0.0" }`). */
  clientInfo?: Implementation;
  /** More client capabilities, merged over those the handlers below declare. */
  capabilities?: ClientCapabilities;
  /** Answers `ctx.elicit(...)` (declares `elicitation: { form: {}, url: {} }`). */
  elicit?: (params: ElicitRequestParams) => ElicitResult | Promise<ElicitResult>;
  /** Answers `ctx.sample(...)` (declares `sampling: {}`). */
  sample?: (params: CreateMessageRequestParams) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Answers `ctx.listRoots()` (declares `roots: {}`): the roots, or a function giving them. */
  roots?: Root[] | (() => Root[] | Promise<Root[]>);
  /**
   * Passed with every message to the server as a verifying transport passes it, so tools (and
   * middleware) see it as `RequestContext.authInfo`, as with `server.fetch(request, { authInfo })`.
   * The server's `auth` gate (HTTP only: tokens, scopes) is not on this path (docs/testing.md).
   */
  authInfo?: AuthInfo;
}

/**
 * Connects the official client to `server` in memory (docs/testing.md). The answer is that client
 * (every `Client` method: `listTools`, `callTool`, `readResource`, …) with typed calls:
 * `call(handle, …args)` for a quick-path tool, `tools(target)` for the tools of an object given to
 * `server.addTools`. Close it with `client.close()` (which ends the server side too).
 *
 * @param server The server under test, its tools registered.
 * @param options Revision, client info and capabilities, handlers for `ctx.elicit` / `sample` /
 *   `listRoots`, and `authInfo`.
 * @returns The connected client, after `initialize` (2025-era) or `server/discover` (2026-07-28).
 * @throws {TypeError} when `server` is not a typed-mcp `McpServer` (an instance of the tools, `{}`, `undefined`).
 * @throws The client's error when the connection is refused (e.g. an unsupported `protocolVersion`).
 */
export async function connect(server: McpServer, options: ConnectOptions = {}): Promise<TypedClient> {
  if (!(server instanceof McpServer))
    throw new TypeError(
      `typed-mcp/testing: connect(server) takes the McpServer under test (new McpServer({ name, version }) with its tools added), got ${describe(server)}.`,
    );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveTransport(server, { transport: serverSide }, options.authInfo);
  const client = new TypedClient(options.clientInfo ?? { name: "typed-mcp-testing", version: "0.0.0" }, {
    capabilities: { ...capabilitiesOf(options), ...options.capabilities },
    ...pinned(options.protocolVersion),
  });
  installHandlers(client, options);
  try {
    await client.connect(clientSide);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return client;
}

/**
 * Client options pinning `revision`: a 2025-era one (protocol/revisions.ts `isLegacyRevision`) by
 * `supportedProtocolVersions` (the client's `initialize` asks for it and accepts only it), any other
 * by `versionNegotiation` (`server/discover` at exactly that revision; the client or the server refuses one it does not know).
 */
function pinned(revision: string | undefined): object {
  if (revision === undefined) return {};
  return isLegacyRevision(revision)
    ? { supportedProtocolVersions: [revision] }
    : { versionNegotiation: { mode: { pin: revision } } };
}

/** The capabilities the given handlers stand for. */
function capabilitiesOf(options: ConnectOptions): ClientCapabilities {
  return {
    ...(options.elicit !== undefined && { elicitation: { form: {}, url: {} } }),
    ...(options.sample !== undefined && { sampling: {} }),
    ...(options.roots !== undefined && { roots: {} }),
  };
}

/** Registers the handlers of `elicitation/create`, `sampling/createMessage` and `roots/list` that `options` gives. */
function installHandlers(client: Client, options: ConnectOptions): void {
  const { elicit, sample, roots } = options;
  if (elicit !== undefined) client.setRequestHandler("elicitation/create", (request) => elicit(request.params));
  if (sample !== undefined)
    client.setRequestHandler("sampling/createMessage", async (request) => sample(request.params));
  if (roots !== undefined)
    client.setRequestHandler("roots/list", async () => ({
      roots: typeof roots === "function" ? await roots() : roots,
    }));
}

/** What a wrong `server` argument is, for connect's error: `undefined`, `null`, `a string`, `an instance of Notes`, `an object`. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== "object") return `a ${typeof value}`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" && name !== "Object" ? `an instance of ${name}` : "an object";
}
