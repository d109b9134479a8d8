/**
 * Who is calling: the one rule that says which caller a request comes from, for everything that
 * belongs to a caller (tasks) or is limited per caller (running tasks, stored results, listen
 * streams, subscriptions) — docs/security.md "Callers".
 *
 * - A request with a verified access token (the `auth` gate): the token's owner, set by
 *   auth/verify.ts as `extra.owner` — issuer + `sub` + `client_id` for a JWT access token (RFC 9068
 *   §2.2), issuer + (`sub` ?? `client_id`) for an introspected one (RFC 7662). Two users of one
 *   client are two callers; one user on two sessions or instances is one. An `authInfo` the
 *   application hands to `server.fetch` itself is read by the JWT rule.
 * - Without a token: the connection (stdio, or any transport connected with `serveStdio`), else the
 *   2025-era `Mcp-Session-Id` — which scopes visibility (a session sees its own tasks) but is
 *   charged to the anonymous quota bucket below: a client can open any number of sessions or make
 *   ids up, so a session is never a quota boundary.
 * - Otherwise the request is anonymous (stateless HTTP without auth, e.g. 2026-07-28): its owner is
 *   {@link ANONYMOUS_OWNER}, whose things are never listed and are reachable only by their random
 *   ids. All anonymous requests share one quota bucket, `"anonymous"`, unless the server's
 *   `callerKey(request)` option names a finer one (for instance the client address a trusted
 *   proxy puts in a header): then the bucket is `"anonymous\0" + key`. The key only splits quotas;
 *   it never makes anything visible to another request, since it is not authenticated.
 *
 * @module
 */
import type { AuthInfo, ServerContext } from "@modelcontextprotocol/server";

/**
 * The owner of what an anonymous request creates: never listed, reachable only by a 128-bit
 * random id (docs/security.md "Tasks"). A NUL byte, so no token owner, connection or session id
 * can equal it.
 */
export const ANONYMOUS_OWNER = "\0";

/** The quota bucket every anonymous request shares unless `callerKey` splits it. */
export const ANONYMOUS_BUCKET = "anonymous";

/**
 * The server option `callerKey` (`McpServerOptions.callerKey`): given the HTTP request of an
 * anonymous caller (no verified token, no connection, no session id), a string that tells such
 * callers apart for quotas, or `undefined` to leave the request in the shared anonymous bucket.
 * Only called for anonymous HTTP requests; what it returns is never echoed and never grants
 * access to anything.
 */
export type CallerKey = (request: Request) => string | undefined;

/** The caller of one request (see the module comment). */
export interface Caller {
  /**
   * Whose things the request may see (task ids, listings): a token owner (`token\0…`), a
   * connection (`connection:…`), a session (`session:…`), or {@link ANONYMOUS_OWNER}.
   */
  readonly owner: string;
  /** The quota bucket charged for what the request holds: `owner` for a token or a connection; for an unauthenticated HTTP request (with or without a session) the anonymous bucket (split by `callerKey`). */
  readonly bucket: string;
  /** Whether the request is unauthenticated HTTP (no token, no connection; with or without a session): its bucket's ceilings are the anonymous ones. */
  readonly anonymous: boolean;
}

/**
 * The caller of a request (see the module comment).
 *
 * @param ctx The SDK request context (`ctx.http.authInfo`, `ctx.http.req`).
 * @param connection The id of the connection the SDK instance serves (stdio), or `undefined` for
 *   an HTTP request's instance.
 * @param callerKey The server's `callerKey` option, for anonymous HTTP requests. An exception it
 *   throws, or a value that is not a non-empty string, leaves the request in the shared bucket.
 */
export function callerOf(ctx: ServerContext, connection: string | undefined, callerKey?: CallerKey): Caller {
  const owner = tokenOwner(ctx.http?.authInfo);
  if (owner !== undefined) return { owner, bucket: owner, anonymous: false };
  if (connection !== undefined) return { owner: connection, bucket: connection, anonymous: false };
  const session = ctx.http?.req?.headers.get("mcp-session-id");
  // A session id scopes what the session sees, but it is no quota boundary: any client can mint
  // sessions (`initialize`) or make ids up, so an unauthenticated session is charged to the
  // anonymous bucket like any anonymous request.
  if (session !== null && session !== undefined && session !== "")
    return { owner: `session:${session}`, bucket: anonymousBucket(ctx.http?.req, callerKey), anonymous: true };
  return { owner: ANONYMOUS_OWNER, bucket: anonymousBucket(ctx.http?.req, callerKey), anonymous: true };
}

/**
 * The owner a verified token stands for: `extra.owner` as the `auth` gate sets it; for an
 * `AuthInfo` handed to `server.fetch` by the application (no `auth` option), issuer + subject +
 * client id from `extra.issuer`, `extra.subject` and `clientId` (the JWT rule), when any is set.
 */
function tokenOwner(authInfo: AuthInfo | undefined): string | undefined {
  if (authInfo === undefined) return undefined;
  const extra = authInfo.extra ?? {};
  if (typeof extra["owner"] === "string" && extra["owner"] !== "") return extra["owner"];
  const parts = [extra["issuer"], extra["subject"], authInfo.clientId].map((p) => (typeof p === "string" ? p : ""));
  return parts.every((p) => p === "") ? undefined : `token\0${parts.join("\0")}`;
}

function anonymousBucket(request: Request | undefined, callerKey: CallerKey | undefined): string {
  if (request === undefined || callerKey === undefined) return ANONYMOUS_BUCKET;
  let key: unknown;
  try {
    key = callerKey(request);
  } catch {
    return ANONYMOUS_BUCKET;
  }
  return typeof key === "string" && key !== "" ? `${ANONYMOUS_BUCKET}\0${key}` : ANONYMOUS_BUCKET;
}
