/**
 * Folder `transports/`: how requests arrive and who sends them — the web-standard `server.fetch`
 * path (this file) with its request-body, `Origin` and HTTP guards, `serveStdio` and `serveHttp`
 * (the `typed-mcp/stdio` and `typed-mcp/node` entries re-export them), and a request's caller.
 *
 * `server.fetch`'s path from an HTTP request to the SDK's handler (docs/runtime.md "Request
 * bodies"): the JSON body read once (request-body.ts), JSON-RPC batches on a revision without
 * them and messages nested too deep refused first, `subscriptions/listen` bounded (streams/listen-streams.ts),
 * and client text cut from the SDK's own error answers (echo-cut.ts).
 *
 * @module
 */
import type { AuthInfo, McpHttpHandler } from "@modelcontextprotocol/server";
import { cutResponseEchoes } from "../protocol/echo-cut.js";
import { nestsTooDeep, tooDeepAnswer } from "../protocol/limits.js";
import { readJsonBody, refuseBatch } from "./request-body.js";
import type { ListenStreams } from "../streams/listen-streams.js";
import type { CorsOptions } from "./cors.js";
import { relayClientAnswer } from "../store/answers.js";
import type { SharedInstance } from "../store/shared.js";
import { replay, resumableCall } from "../store/resumption.js";
import { callerOf } from "./caller.js";
import type { CallerKey } from "./caller.js";

/** Options of `McpServer.fetch`. */
export interface FetchOptions {
  /**
   * Validated authentication information, passed through to `RequestContext.authInfo` (never
   * derived from headers). Ignored when the server has `auth`: the gate's verified token is used.
   */
  authInfo?: AuthInfo;
  /** A body already parsed by a framework (e.g. `req.body` of `express.json()`). */
  parsedBody?: unknown;
  /**
   * CORS for browser apps on other origins (cors.ts, docs/security.md "CORS"): preflights
   * answered, `Mcp-Session-Id` and the other MCP headers exposed; an origin it allows passes the
   * `Origin` check too. Default: none (no CORS headers; a cross-origin `OPTIONS` reaches the SDK).
   */
  cors?: CorsOptions;
}

/**
 * Hands `request` to the SDK's `handler`, its JSON body read ahead as `parsedBody` unless given
 * (request-body.ts); a JSON-RPC batch on a revision without batches is answered HTTP 400 `-32600`
 * first (`refuseBatch`), and so is a message nested deeper than limits.ts `MAX_MESSAGE_DEPTH`
 * (`refuseDeep`).
 *
 * @param listen The server's listen-stream bounds.
 * @param maxRequestBodySize The HTTP body limit in bytes.
 */
export async function serveRequest(
  request: Request,
  options: FetchOptions | undefined,
  handler: McpHttpHandler,
  listen: ListenStreams,
  maxRequestBodySize: number,
  shared?: SharedInstance,
): Promise<Response> {
  // With a shared store, the client's answer to a server→client request goes to the instance that waits for it (store/answers.ts);
  // subscriptions/listen: per-caller quota, URI cap and a bounded outbound queue (streams/listen-streams.ts).
  const hand = async (r: Request, body: unknown, o: FetchOptions | undefined) =>
    (await relayClientAnswer(shared, r, body, o?.authInfo, listen.callerKey)) ??
    (await resumable(shared, r, body, o, handler, listen.callerKey)) ??
    listen.serve(r, body, o?.authInfo, () => handler.fetch(r, o));
  if (options?.parsedBody !== undefined)
    return (
      refuseBatch(request, options.parsedBody) ??
      refuseDeep(options.parsedBody) ??
      cutResponseEchoes(await hand(request, options.parsedBody, options), options.parsedBody, request.headers)
    );
  const read = await readJsonBody(request, maxRequestBodySize);
  const answer =
    refuseBatch(request, read.parsedBody) ??
    refuseDeep(read.parsedBody) ??
    hand(
      read.request,
      read.parsedBody,
      read.parsedBody === undefined ? options : { ...options, parsedBody: read.parsedBody },
    );
  // The SDK entry's own 4xx answers (e.g. -32020 header/body mismatch) quote client text: cut it (echo-cut.ts).
  return cutResponseEchoes(await answer, read.parsedBody, request.headers);
}

/**
 * With a shared store (store/resumption.ts): a `GET` with `Last-Event-ID` replayed from the
 * store, and a 2025-era `tools/call` served so that its stream survives a cut; `undefined` for
 * every other request.
 */
async function resumable(
  shared: SharedInstance | undefined,
  request: Request,
  body: unknown,
  options: FetchOptions | undefined,
  handler: McpHttpHandler,
  callerKey: CallerKey | undefined,
): Promise<Response | undefined> {
  if (shared === undefined || (request.method !== "GET" && request.method !== "POST")) return undefined;
  const owner = () =>
    callerOf({ http: { authInfo: options?.authInfo, req: request } } as never, undefined, callerKey).owner;
  const replayed = await replay(shared, request, owner);
  if (replayed !== undefined) return replayed;
  const call = resumableCall(shared, request, body, owner);
  return call === undefined ? undefined : call.respond(await handler.fetch(call.request, options));
}

/**
 * HTTP 400 with the `-32600` answer of limits.ts `tooDeepAnswer` when the JSON body (one message,
 * or each of a 2025-03-26 batch) nests deeper than `MAX_MESSAGE_DEPTH` outside `tools/call`
 * arguments — before the SDK parses it; `undefined` otherwise.
 */
function refuseDeep(body: unknown): Response | undefined {
  const deep = (Array.isArray(body) ? body : [body]).find(nestsTooDeep);
  return deep === undefined ? undefined : Response.json(tooDeepAnswer(deep), { status: 400 });
}
