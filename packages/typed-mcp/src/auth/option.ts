/**
 * The `auth` option's contract inside the main runtime (docs/auth.md "The `auth` option"): what
 * `McpServer` needs of a resource-server gate, and the check of the value it is given. The gate
 * itself (auth.ts, auth/verify.ts: jose, oauth4webapi) is reachable only through the
 * `typed-mcp/auth` entry, so a server without `auth` bundles none of it (docs/runtimes.md
 * "Bundle size").
 *
 * @module
 */
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { ScopeSource } from "./scopes.js";

/** `server.fetch` behind the gate: the SDK's handler, given the verified `authInfo` and the parsed body. */
export type GatedServe = (request: Request, options: { authInfo: AuthInfo; parsedBody?: unknown }) => Promise<Response>;

/** The resource-server gate of one `McpServer` (made by {@link ServerAuth.gate}). */
export interface AuthHandler {
  /**
   * Answers one HTTP request (docs/auth.md "What is verified where"), calling `serve` once the
   * token and scopes pass; the JSON body is read at most `maxBodyBytes` bytes (request-body.ts).
   */
  handle(request: Request, serve: GatedServe, maxBodyBytes: number): Promise<Response>;
  /** The `tools/list` result for a caller (`hideUnauthorizedTools`; `cacheScope: "private"` on 2026-07-28). */
  listTools<T extends { name: string }>(
    tools: T[],
    authInfo: AuthInfo | undefined,
    protocolVersion: string,
  ): { tools: T[]; cacheScope?: "private" };
}

/**
 * The value of the `auth` option: made by `oauth({ issuer, audience, … })` from `typed-mcp/auth`
 * (docs/auth.md). Opaque to applications.
 */
export interface ServerAuth {
  /**
   * Makes the gate of one server, whose registrations answer `source`.
   * @throws TypeError / Error for a bad option (as `oauth`'s docstring lists).
   */
  gate(source: ScopeSource): AuthHandler;
}

/**
 * The gate for the `auth` option `value` (none when `undefined`).
 * @throws TypeError when `value` is not made by `oauth()` of `typed-mcp/auth` — for any plain
 *   object (`{}`, the `{ issuer, audience, … }` object earlier versions took) naming the fix.
 */
export function authGate(value: ServerAuth | undefined, source: ScopeSource): AuthHandler | undefined {
  if (value === undefined) return undefined;
  if (value !== null && typeof value === "object" && typeof (value as Partial<ServerAuth>).gate === "function")
    return value.gate(source);
  // Any plain object (a `{ issuer, audience }` of earlier versions, `{}`, a misspelt key): the fix is the same.
  const plain =
    value !== null && typeof value === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(value));
  throw new TypeError(
    plain
      ? 'The auth option takes oauth({ issuer, audience, … }) from "typed-mcp/auth", not the plain options object (docs/auth.md): import { oauth } from "typed-mcp/auth" and write auth: oauth({ … })'
      : `The auth option must be made by oauth({ issuer, audience, … }) from "typed-mcp/auth" (docs/auth.md), got ${value === null ? "null" : typeof value}`,
  );
}
