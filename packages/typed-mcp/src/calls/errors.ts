/**
 * The errors a call's answer is made of (spec §7, docs/runtime.md "Errors the client sees"):
 * `ToolError` (a message meant for the client) and its brand test, `thrownAnswer` (what a thrown
 * value becomes on the wire), `ServerRequestError` (a server→client request that failed) and
 * `ServerRequestUnavailableError` (one the transport cannot carry), and `pluginMissingMessage` (the text when the build plugin did not run).
 *
 * @packageDocumentation
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/** Brand on {@link ToolError} instances, shared by every copy of typed-mcp loaded in a process. */
const TOOL_ERROR_BRAND: unique symbol = Symbol.for("typed-mcp.ToolError") as never;

/**
 * An error whose message is meant for the client (spec §7) — the one error class of tools,
 * resources and prompts (docs/runtime.md "Errors the client sees").
 *
 * - In a tool, `throw new ToolError("No such order.")` answers the call with
 *   `{"content":[{"type":"text","text":"No such order."}],"isError":true}`.
 * - In a resource (`resources/read`) or a prompt (`prompts/get`), it answers with the JSON-RPC
 *   error `-32603` (Internal error, the code the MCP spec gives a resource or prompt that fails)
 *   whose `message` is the ToolError's message, e.g.
 *   `{"code":-32603,"message":"No such order."}`.
 *
 * Any other exception answers `The tool failed.` (`The resource failed.` / `The prompt failed.`)
 * and is never sent. To answer with another JSON-RPC code, throw the SDK's `ProtocolError`
 * (spec §7: it is sent as that JSON-RPC error).
 */
export class ToolError extends Error {
  /**
   * @param message The text sent to the client as the tool result's only text block.
   * @param options Standard `ErrorOptions` (`cause` is kept locally and never sent).
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ToolError";
  }

  /** Always `true`: lets the runtime recognize a ToolError from another copy of typed-mcp. */
  get [TOOL_ERROR_BRAND](): true {
    return true;
  }
}

/**
 * Whether `error` is a {@link ToolError}: by `instanceof`, or by the brand a second copy of
 * typed-mcp in the process also sets.
 * @internal
 */
export function isToolError(error: unknown): error is ToolError {
  return (
    error instanceof ToolError ||
    (typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[TOOL_ERROR_BRAND] === true)
  );
}

/**
 * The JSON-RPC error answering an exception thrown by the function of a resource, prompt or
 * completion hook (spec §7, §8; docs/runtime.md "Errors the client sees"): the SDK's
 * `ProtocolError` (any subclass, from any copy of the SDK) as is; a {@link ToolError} `-32603`
 * with its message; anything else `-32603` with `failedText` (e.g. `The prompt failed.`), after
 * `report(error)` (whatever `report` throws is ignored).
 * @internal
 */
export function thrownAnswer(error: unknown, failedText: string, report: (error: unknown) => void): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (isToolError(error)) return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  try {
    report(error);
  } catch {
    // The answer stays the same.
  }
  return new ProtocolError(ProtocolErrorCode.InternalError, failedText);
}

/** The server→client requests of {@link RequestContext} (MCP method names). */
export type ServerRequestMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

/**
 * Rejection of `RequestContext.elicit` / `sample` / `listRoots` by an error that answers the
 * request the server made (spec §7, docs/runtime.md "Server→client requests"), on every
 * transport and revision except a 2026-07-28 missing capability (that one stays the SDK's
 * `MissingRequiredClientCapabilityError`, `-32021`, sent as the request's answer):
 *
 * - the client answered the request with a JSON-RPC error: its `code` and `message` (e.g. `-32601`
 *   `Method not found` from a client without a handler for it), its `data` when it sent one;
 * - the client did not declare the capability the request needs (2025-era revisions): `-32021`
 *   (the MCP code for a missing client capability), nothing is sent;
 * - {@link ServerRequestUnavailableError}: the transport cannot carry the request, `-32603`.
 *
 * It is never a protocol error: a tool catches it to go on without the answer, and let escape it
 * is an ordinary exception — `The tool failed.`, published and passed to `onToolError` — never the
 * client's error as the `tools/call` answer:
 *
 * ```ts
 * try { roots = (await ctx.listRoots()).roots; }
 * catch (e) { if (!(e instanceof ServerRequestError)) throw e; roots = []; } // e.method, e.code
 * ```
 */
export class ServerRequestError extends Error {
  /** The MCP method of the request, e.g. `"roots/list"`. */
  readonly method: ServerRequestMethod;
  /** The JSON-RPC error code: the client's, `-32021` for an undeclared capability, `-32603` when it could not be sent. */
  readonly code: number;
  /** The `data` of the client's JSON-RPC error, when it had one. */
  readonly data?: unknown;

  /**
   * @param method The MCP method of the request.
   * @param code The JSON-RPC error code (see {@link ServerRequestError.code}).
   * @param message The error's message (the client's, for its JSON-RPC error).
   * @param options `cause` (the SDK's error, kept locally) and `data` (the client's error data).
   */
  constructor(method: ServerRequestMethod, code: number, message: string, options?: ErrorOptions & { data?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ServerRequestError";
    this.method = method;
    this.code = code;
    if (options?.data !== undefined) this.data = options.data;
  }
}

/**
 * The {@link ServerRequestError} of a server→client request the request's transport cannot carry
 * (docs/runtime.md "Server→client requests"): a 2025-era request on stateless Streamable HTTP
 * (`server.fetch`, `serveHttp`), where each request is served by a fresh instance and the
 * client's answer would reach another one. `code` is `-32603` (Internal error). The promise
 * rejects at once, before anything is sent, whatever capabilities the client declared. Over
 * stdio, and with revision 2026-07-28 (the `input_required` flow) on any transport, the requests work.
 */
export class ServerRequestUnavailableError extends ServerRequestError {
  /** @param method The MCP method that could not be sent. */
  constructor(method: ServerRequestMethod) {
    super(
      method,
      ProtocolErrorCode.InternalError,
      `typed-mcp: cannot send ${method} to the client: this request came over stateless 2025-era Streamable HTTP, ` +
        `which cannot carry a server-to-client request (the answer would reach another server instance). ` +
        `It works over stdio, and over HTTP with protocol revision 2026-07-28.`,
    );
    this.name = "ServerRequestUnavailableError";
  }
}

/**
 * The message of every error thrown when code that only the typed-mcp build plugin can compile
 * runs untransformed (spec §1: "Without the plugin, `@tool` and `server.tool` throw … with a
 * message that says to add the plugin"). It names the fix for each host: Vite (and the other
 * unplugin entries), Next.js (`withTypedMcp`, for Turbopack and webpack alike), any other
 * webpack-loader host (Turbopack, Rspack, webpack: the loader entry) and Babel.
 *
 * @param what What was called, e.g. `@tool("search")` or `server.tool("search", …)`.
 * @internal
 */
export function pluginMissingMessage(what: string): string {
  return (
    `${what} ran without the typed-mcp build plugin. typed-mcp reads the TypeScript types of a tool ` +
    `at build time; add the plugin to your bundler, e.g. in vite.config.ts: ` +
    `import typedMcp from "@typed-mcp/unplugin/vite"; export default { plugins: [typedMcp()] } ` +
    `(also @typed-mcp/unplugin/rollup, /rolldown, /esbuild, /webpack or /rspack). ` +
    `Next.js (Turbopack or webpack): in next.config.ts, import { withTypedMcp } from "@typed-mcp/unplugin/next"; ` +
    `export default withTypedMcp(nextConfig). Other webpack-loader hosts (Turbopack, Rspack, webpack): ` +
    `run the loader "@typed-mcp/unplugin/loader" on .ts files, first. Babel: plugins: ["@typed-mcp/babel"].`
  );
}

/**
 * The registration error of a descriptor that lacks a capability runtime its declaration needs
 * (docs/codegen.md "What a descriptor carries"): one generated by an older plugin, or written by
 * hand without it.
 *
 * @param what The registration, e.g. `tool "report"`, `resource template "notes://{id}"`.
 * @param origin Where it was registered, e.g. `Jobs.report`, `server.tool("report")`.
 * @param needs Why it needs the runtime, e.g. `may run as a task`.
 * @param runtime The runtime's name and the descriptor key that carries it, e.g. `["task runtime", "tasks"]`.
 * @internal
 */
export function staleDescriptorMessage(what: string, origin: string, needs: string, runtime: [string, string]): string {
  return (
    `typed-mcp: ${what} (${origin}) ${needs}, but its generated descriptor carries no ${runtime[0]} (\`${runtime[1]}\`): ` +
    `it was built by an older typed-mcp plugin. Rebuild it with the plugin of this typed-mcp version.`
  );
}
