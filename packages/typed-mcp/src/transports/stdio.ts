/**
 * stdio transport (spec §0): `serveStdio(server)` from `typed-mcp/stdio`.
 *
 * The SDK's `StdioServerTransport` silently skips a line that is not JSON or not a JSON-RPC 2.0
 * message, and closes the connection (the process then exits 0) once a line outgrows its 10 MiB
 * buffer. typed-mcp puts a line filter ({@link JsonRpcLines}) between stdin and that transport, so
 * that each such line is answered as JSON-RPC 2.0 §5 says and the connection keeps serving
 * (docs/security.md "stdio").
 *
 * @packageDocumentation
 */
import { Transform } from "node:stream";
import type { TransformCallback } from "node:stream";
import { parseJSONRPCMessage } from "@modelcontextprotocol/server";
import type { AuthInfo, JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio as sdkServeStdio } from "@modelcontextprotocol/server/stdio";
import type { ServeStdioOptions, StdioServerHandle } from "@modelcontextprotocol/server/stdio";
import { linearStdioSend } from "../protocol/sdk-patches-stdio.js";
import { LISTEN_STREAMS, SDK_FACTORY } from "../server.js";
import { applyListenRules } from "../streams/stdio-listen.js";
import { consoleToStderr } from "./stdio-console.js";
import type { McpServer } from "../server.js";
import { nestsTooDeep, tooDeepAnswer } from "../protocol/limits.js";

export type { ServeStdioOptions, StdioServerHandle };

/**
 * Serves `server` over the process's stdin/stdout with the SDK's `serveStdio`: one connection,
 * opened by a 2025-era `initialize` or a 2026-07-28 `server/discover`, served by one SDK server
 * instance built from `server`'s registry. stdout carries only protocol messages: while serving,
 * `console.log`, `console.info` and `console.debug` write to stderr instead (same text, see
 * stdio-console.ts), until `close()` puts them back. Other writes to stdout corrupt the stream,
 * and so does a `console.log` run before this call (a module's top level, an import's side
 * effect): log those with `console.error` (docs/runtime.md "stdio and `console`").
 *
 * Unless `options.transport` is given, every stdin line goes through {@link JsonRpcLines} first:
 * a line that is not JSON is answered `-32700` `Parse error` (`id: null`); JSON that is not a
 * JSON-RPC 2.0 message (e.g. `"jsonrpc":"1.0"`, a batch array) `-32600` `Invalid Request` with its
 * `id` when that is a string or number, else `null`; a line longer than
 * `McpServerOptions.maxRequestBodySize` bytes (default 4 MiB) is discarded and answered `-32600`
 * with `id: null`. The connection keeps serving after each. Answers are written in linear time
 * however many wait for stdout (sdk-patches-stdio.ts).
 *
 * 2026-07-28 listen streams (docs/security.md "Streams"): a connection holds at most
 * `McpServerOptions.streams.maxListenStreamsPerCaller` (the SDK's `maxSubscriptions`, unless
 * `options.maxSubscriptions` says otherwise; one more is `-32000` naming
 * `streams.maxListenStreamsPerCaller`, as over HTTP), and a filter naming more than
 * `streams.maxListenUris` URIs is `-32602` naming that option.
 *
 * @param server The typed-mcp server.
 * With `options.transport` (your own transport, maybe not on stdout) neither the line filter nor
 * the `console` redirect applies.
 *
 * @param options The SDK's stdio options (`legacy: "serve" | "reject"`, `transport`, `onerror`, …).
 * @returns A handle whose `close()` ends the connection.
 */
export function serveStdio(server: McpServer, options?: ServeStdioOptions): StdioServerHandle {
  if (options?.transport !== undefined) return serveTransport(server, { ...options, transport: options.transport });
  const connection = `connection:${crypto.randomUUID()}`;
  const factory = (ctx: Parameters<McpServer[typeof SDK_FACTORY]>[0]) => server[SDK_FACTORY](ctx, connection);
  // Listen streams: one connection is one caller (streams/listen-streams.ts, stdio-listen.ts).
  const { maxListenStreamsPerCaller: maxSubscriptions, maxListenUris } = server.streamLimits;
  const streams = options?.maxSubscriptions ?? maxSubscriptions;
  const limit = server.maxRequestBodySize;
  const lines = new JsonRpcLines(limit, (answer) => void transport.send(answer).catch(() => {}));
  const transport = new StdioServerTransport(process.stdin.pipe(lines), process.stdout, { maxBufferSize: limit + 2 });
  linearStdioSend(transport, process.stdout);
  const restoreConsole = consoleToStderr();
  const handle = sdkServeStdio(factory, {
    maxSubscriptions,
    ...options,
    transport: applyListenRules(transport, maxListenUris, streams, {
      streams: server[LISTEN_STREAMS],
      connection,
    }),
  });
  return {
    close: () => {
      restoreConsole();
      return handle.close();
    },
  };
}

/**
 * One lasting connection of `server` on `options.transport` (the SDK's `serveStdio` given a
 * transport; the listen-stream rules of {@link serveStdio}). With `authInfo` (`typed-mcp/testing`'s
 * `connect`), every message reaches the SDK server instance carrying it, as a verifying transport
 * would pass it, so tools see it as `RequestContext.authInfo`.
 */
export function serveTransport(
  server: McpServer,
  options: ServeStdioOptions & { transport: Transport },
  authInfo?: AuthInfo,
): StdioServerHandle {
  const { maxListenStreamsPerCaller: maxSubscriptions, maxListenUris } = server.streamLimits;
  const streams = options.maxSubscriptions ?? maxSubscriptions;
  const connection = `connection:${crypto.randomUUID()}`;
  const factory = (ctx: Parameters<McpServer[typeof SDK_FACTORY]>[0]) => {
    const instance = server[SDK_FACTORY](ctx, connection);
    if (authInfo === undefined) return instance;
    const connect = instance.connect.bind(instance);
    instance.connect = async (transport) => {
      await connect(transport);
      const handler = transport.onmessage;
      transport.onmessage = (message, extra) => handler?.(message, { ...extra, authInfo });
    };
    return instance;
  };
  return sdkServeStdio(factory, {
    maxSubscriptions,
    ...options,
    transport: applyListenRules(options.transport, maxListenUris, streams, {
      streams: server[LISTEN_STREAMS],
      connection,
      authInfo,
    }),
  });
}

/**
 * A `Transform` from raw stdin bytes to newline-terminated lines that are JSON-RPC 2.0 messages
 * (as the SDK's `parseJSONRPCMessage` accepts them), at most `maxLineBytes` long without the
 * `\n` (`\r\n` endings are accepted). Every other line is dropped and `answer` is called with the
 * JSON-RPC error response it gets (see {@link serveStdio}). Empty lines are skipped.
 */
export class JsonRpcLines extends Transform {
  readonly #maxLineBytes: number;
  readonly #answer: (response: JSONRPCMessage) => void;
  /** The pieces of the line being read, and their length in bytes. */
  #pieces: Buffer[] = [];
  #length = 0;
  /** Whether the line being read is over the limit (its rest is discarded up to the next `\n`). */
  #discarding = false;

  /**
   * @param maxLineBytes Longest accepted line in bytes (a positive integer).
   * @param answer Sends one error response (the SDK transport's `send`).
   */
  constructor(maxLineBytes: number, answer: (response: JSONRPCMessage) => void) {
    super();
    this.#maxLineBytes = maxLineBytes;
    this.#answer = answer;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.#discarding) {
        this.#pieces.push(chunk.subarray(start, end));
        this.#length += end - start;
        if (this.#length > this.#maxLineBytes) {
          this.#discarding = true;
          this.#pieces = [];
          this.#answer(
            errorResponse(null, -32600, `Invalid Request: the message is longer than ${this.#maxLineBytes} bytes`),
          );
        }
      }
      if (newline === -1) break;
      if (!this.#discarding) this.#line(Buffer.concat(this.#pieces, this.#length));
      this.#pieces = [];
      this.#length = 0;
      this.#discarding = false;
      start = newline + 1;
    }
    done();
  }

  /** Passes on one complete line, or answers it. */
  #line(bytes: Buffer): void {
    const text = bytes.toString("utf8").replace(/\r$/, "");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#answer(errorResponse(null, -32700, "Parse error"));
      return;
    }
    if (nestsTooDeep(value)) {
      this.#answer(tooDeepAnswer(value) as JSONRPCMessage);
      return;
    }
    try {
      parseJSONRPCMessage(value);
    } catch {
      const id = (value as { id?: unknown } | null)?.id;
      this.#answer(
        errorResponse(typeof id === "string" || typeof id === "number" ? id : null, -32600, "Invalid Request"),
      );
      return;
    }
    this.push(`${text}\n`);
  }
}

/** A JSON-RPC 2.0 error response (`id` `null` when it could not be read, JSON-RPC 2.0 §5). */
function errorResponse(id: string | number | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
}
