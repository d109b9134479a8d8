/**
 * Checks `serveHttp` (node.ts) makes on a request before the SDK's Node adapter turns it into a
 * web `Request` (docs/security.md "Malformed HTTP requests"). Node's HTTP parser has already read
 * the request line and headers; these rules decide what the adapter may be handed:
 *
 * - exactly one `Host` header, with a valid `uri-host [ ":" port ]` value, else HTTP 400
 *   (RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1
 *   request message that lacks a Host header field and to any request message that contains more
 *   than one Host header field line or a Host header field with an invalid field value");
 * - the request target in origin-form (`/path?query`, RFC 9112 §3.2.1) is served as is; in
 *   absolute-form (`http://host/path`, §3.2.2, which a server MUST accept) it is served as its
 *   origin-form with the target's authority in place of `Host` ("the origin server MUST ignore
 *   the received Host header field … and instead use the host information of the
 *   request-target"), so DNS-rebinding protection checks that authority; anything else
 *   (authority-form, asterisk-form, a relative path) is HTTP 400;
 * - a response with status 413 (body over the limit) keeps reading, and discarding, what the
 *   client still sends — at most {@link DRAIN_MAX_BYTES} or {@link DRAIN_MAX_MS} — before the
 *   connection is closed, so a client still writing its body reads the 413 instead of a reset;
 * - the hop-by-hop headers of the web `Response` (RFC 9110 §7.6.1: `Connection` but for `close`,
 *   `Keep-Alive`, `Proxy-Connection`, `Transfer-Encoding`, `Upgrade`) are not copied onto the
 *   Node response: they describe a connection, which Node's server manages. The SDK's SSE
 *   responses carry `Connection: keep-alive`, which would otherwise make Node keep a connection
 *   open after the response although the client sent `Connection: close` (RFC 9112 §9.6: the
 *   server then closes it once the response is sent).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Most bytes read and discarded after a 413 before the connection is closed anyway. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** Longest wait, in milliseconds, for the client to finish sending after a 413. */
const DRAIN_MAX_MS = 10_000;

/**
 * Normalises `req`'s target and `Host` in place (absolute-form → origin-form, the target's
 * authority as `Host`), or answers HTTP 400 with a JSON-RPC error body (`-32600`, the reason in
 * the message, `id: null`) and returns `false`.
 */
export function checkRequestTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const hosts = req.headersDistinct["host"];
  if (hosts === undefined || hosts.length !== 1) return badRequest(res, "exactly one Host header is required");
  const target = req.url ?? "";
  if (!target.startsWith("/")) {
    const absolute = /^https?:\/\//i.test(target) ? parseAuthorityUrl(target) : undefined;
    if (absolute === undefined) return badRequest(res, "the request target must be a path or an absolute http URL");
    req.url = `${absolute.pathname}${absolute.search}`;
    req.headers["host"] = absolute.host;
    return true;
  }
  if (parseAuthorityUrl(`http://${hosts[0]}/`) === undefined) return badRequest(res, "invalid Host header");
  return true;
}

/** `text` parsed as an http(s) URL whose authority is a plain `host[:port]` (no user info), else `undefined`. */
function parseAuthorityUrl(text: string): URL | undefined {
  const authority = text.replace(/^https?:\/\//i, "").split(/[/?#]/, 1)[0] ?? "";
  if (authority === "" || /[@\\\s]/.test(authority)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function badRequest(res: ServerResponse, reason: string): false {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: { code: -32600, message: `Bad Request: ${reason}.` },
    id: null,
  });
  res.writeHead(400, { "content-type": "application/json", connection: "close" }).end(body);
  return false;
}

/**
 * Makes a 413 answer on `res` readable by a client still sending its body: when Node closes the
 * connection after that response, the socket is half-closed (our side ends) and keeps reading and
 * discarding until the client ends, {@link DRAIN_MAX_BYTES} were read or {@link DRAIN_MAX_MS}
 * passed; only then is it destroyed. Without this the kernel resets the connection while the
 * client writes, and many clients report EPIPE/ECONNRESET instead of the 413.
 */
export function lingerAfter413(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    if (args[0] === 413) linger(req);
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

/** The hop-by-hop header names (RFC 9110 §7.6.1) that {@link dropHopByHopHeaders} removes. */
const HOP_BY_HOP = new Set(["keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);

/**
 * Removes the hop-by-hop headers from the head `res.writeHead` is given as an object (how the
 * SDK's `toNodeHandler` writes a web `Response`'s headers), so that Node decides the
 * connection's persistence from the request (RFC 9112 §9.3, §9.6). A `Connection: close` is
 * kept: it is the server's own decision to close (the 413 answer).
 */
export function dropHopByHopHeaders(res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    const headers = args.find((a, i) => i > 0 && typeof a === "object" && a !== null && !Array.isArray(a));
    if (headers !== undefined) {
      const fields = headers as Record<string, unknown>;
      for (const name of Object.keys(fields)) {
        const lower = name.toLowerCase();
        if (
          HOP_BY_HOP.has(lower) ||
          (lower === "connection" && !/(?:^|,)\s*close\s*(?:,|$)/i.test(String(fields[name])))
        )
          delete fields[name];
      }
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

/** Reads and discards the rest of `req`'s body; closes its connection once that is done (or a bound is hit). */
function linger(req: IncomingMessage): void {
  const socket: Socket | null = req.socket;
  if (socket === null) return; // already detached: nothing left to read
  let ended = req.readableEnded;
  let close: (() => void) | undefined;
  let read = 0;
  req.on("data", (chunk: Buffer) => {
    read += chunk.length;
    if (read > DRAIN_MAX_BYTES) socket.destroy();
  });
  req.once("end", () => {
    ended = true;
    close?.();
  });
  req.resume();
  socket.destroySoon = function (this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), DRAIN_MAX_MS);
    timer.unref();
    close = () => {
      clearTimeout(timer);
      this.destroy();
    };
    if (ended) close();
  };
}
