/**
 * The hooks `typed-mcp/otel` (../otel.ts) installs on a server besides its middleware: the
 * server→client requests a tool sends (2025-era `elicitation/create`, `sampling/createMessage`,
 * `roots/list`), the notifications a client sends, and the life of a lasting connection
 * (docs/observability.md). The core runtime calls them only when they are set; it never imports
 * `@opentelemetry/api`.
 *
 * @module
 */
import type { Server } from "@modelcontextprotocol/server";
import type { ServerRequestMethod } from "./errors.js";
import type { Middleware } from "./middleware.js";

/** What the hooks know about the connection or HTTP request a message arrived on. */
export interface ConnectionInfo {
  /** `stdio` (a lasting connection) or `http`. */
  readonly transport: "stdio" | "http";
  /** The stdio connection's id, or the 2025-era HTTP request's `Mcp-Session-Id`; `undefined` otherwise. */
  readonly session: string | undefined;
  /** The revision negotiated so far on this instance (`undefined` before `initialize` or without it). */
  protocolVersion(): string | undefined;
}

/** The instrumentation of one `McpServer` (set once, by `typed-mcp/otel`'s `instrument`). */
export interface Instrumentation {
  /**
   * Whether anything would be recorded now (an SDK's tracer or meter provider is there); while
   * it is `false` the core skips every hook below, so requests cost what they cost without it.
   */
  enabled(): boolean;
  /** Runs outside every `server.use` middleware, around every chained request (middleware.ts). */
  readonly middleware: Middleware;
  /**
   * Around one server→client request of the request whose signal is `signal`: `send(meta)` sends
   * it with `meta` merged into its `params._meta` (the trace context), and is called exactly once.
   */
  serverRequest<T>(
    method: ServerRequestMethod,
    signal: AbortSignal,
    send: (meta: Record<string, string>) => Promise<T>,
  ): Promise<T>;
  /** A notification the client sent (`notifications/initialized`, `notifications/cancelled`, …), as it arrived. */
  notification(method: string, params: unknown, info: ConnectionInfo): void;
  /** A lasting connection opened; the returned function is called once when it closes. */
  connection(info: ConnectionInfo): () => void;
}

/** The method under which `typed-mcp/otel` sets an `McpServer`'s instrumentation (once per server). */
export const INSTRUMENT: unique symbol = Symbol("typed-mcp.instrument") as never;

/** The instrumentation of each SDK `Server` instance built while one was set. */
const OF = new WeakMap<Server, Instrumentation>();

/** Sets the instrumentation `sdk` reports to (server/sdk-server.ts). */
export function bindInstrumentation(sdk: Server, instrumentation: Instrumentation): void {
  OF.set(sdk, instrumentation);
}

/** The instrumentation of `sdk`, when one was bound. */
export function instrumentationOf(sdk: Server): Instrumentation | undefined {
  return OF.get(sdk);
}
