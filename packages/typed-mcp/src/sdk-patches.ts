/**
 * Every place typed-mcp patches the official SDK (`@modelcontextprotocol/server`, pinned to
 * {@link PINNED_SDK_VERSION}) or relies on how it behaves beyond its documented API. Nothing else
 * in typed-mcp wraps SDK methods or reads SDK internals.
 *
 * What each patch assumes about the SDK (1–4) is asserted by `test/runtime/sdk-patches.test.ts`, which
 * fails naming the pinned version and the changed assumption when the SDK changes under it:
 *
 * 1. {@link wrapRequestHandlers}: `Server#setRequestHandler` is an ordinary (overridable) method,
 *    and the handlers it registers are the ones the SDK dispatches to.
 * 2. {@link patchResourceNotFoundCode}: `Server#connect(transport)` sends every response through
 *    `transport.send`, looked up at send time; the SDK sends a handler-thrown `-32002` as `-32602`.
 * 3. {@link installSessionHook}: the stateless legacy HTTP fallback of `createMcpHandler` calls the
 *    factory with `{ era: "legacy", requestInfo: Request }`, connects the instance to a fresh
 *    per-request transport with `handleRequest`, `send` and `onmessage` (set by `connect`), then
 *    calls `transport.handleRequest(request)`, and answers `initialize` before that promise's
 *    response is used. stdio (`serveStdio`) calls the factory without `requestInfo`.
 * 4. {@link captureToolArguments}: every transport (stdio, the per-request HTTP transports of
 *    both eras) hands each inbound JSON-RPC message, as `JSON.parse` made it, to the
 *    `transport.onmessage` that `Server#connect` sets, before the SDK's Zod parse; that parse
 *    (`z.record`) drops an own `__proto__` key.
 * 5. {@link cleanValidationErrors}: the SDK answers params that fail its Zod request schemas with
 *    `-32602` `Invalid <method> request: <Zod issues as indented JSON>` (or, for `initialize`,
 *    `-32603` with the bare issue dump), through `transport.send`. Asserted by
 *    `test/runtime/hostile.test.ts` ("params the SDK's request schemas refuse"), which holds the
 *    rewritten answers to the byte and so fails when the SDK's text changes.
 *
 * @module
 */
import type { ClientCapabilities, Implementation, McpRequestContext, Server, ServerContext } from "@modelcontextprotocol/server";
import { argumentError, jsonTypeName, pathStep } from "@typed-mcp/model";
import { encodeSession } from "./session.js";

/** The `@modelcontextprotocol/server` version these patches were written and tested against. */
export const PINNED_SDK_VERSION = "2.4.0";

/** The JSON-RPC error code of an unknown resource before MCP 2026-07-28 (spec §8). */
export const RESOURCE_NOT_FOUND_2025 = -32002;

/** A request handler as typed-mcp installs it (request and SDK context in, result out). */
export type AnyRequestHandler = (request: unknown, ctx: ServerContext) => unknown;

/**
 * Makes the handlers for `methods` that are installed on `sdk` **after** this call go through
 * `wrap(method, handler)` (the returned function is what the SDK dispatches to). Other methods
 * are installed unchanged. Used by the 2026-07-28 `input_required` flow (input-required.ts).
 *
 * @param sdk One SDK `Server` instance (only that instance is patched).
 * @param methods The request methods to wrap, e.g. `tools/call`.
 * @param wrap Builds the dispatched handler from the one being installed.
 */
export function wrapRequestHandlers(sdk: Server, methods: ReadonlySet<string>, wrap: (method: string, handler: AnyRequestHandler) => AnyRequestHandler): void {
  const setRequestHandler = sdk.setRequestHandler.bind(sdk) as (method: string, ...rest: unknown[]) => void;
  // Both forms: (method, handler) and (method, { params }, handler) for custom-schema methods (tasks.ts).
  (sdk as { setRequestHandler: unknown }).setRequestHandler = (method: string, ...rest: unknown[]) => {
    const handler = rest[rest.length - 1] as AnyRequestHandler;
    setRequestHandler(method, ...rest.slice(0, -1), methods.has(method) ? wrap(method, handler) : handler);
  };
}

/**
 * Puts the 2025-era resource-not-found code back on the wire (spec §8: `-32002` before
 * 2026-07-28). The SDK 2.4.0 maps a handler-thrown `-32002` to `-32602` when it encodes the
 * response, so `sdk.connect` is wrapped to rewrite, in `transport.send`, the error response of
 * exactly the requests passed to the returned `mark(requestId)` (each once).
 *
 * @param sdk One SDK `Server` instance, before it is connected.
 * @returns `mark(requestId)`: call it before throwing the not-found error for that request.
 */
export function patchResourceNotFoundCode(sdk: Server): (requestId: string | number) => void {
  const marked = new Set<string | number>();
  const connect = sdk.connect.bind(sdk);
  sdk.connect = (transport) => {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const m = message as { id?: string | number; error?: { code: number } };
      if (m.error !== undefined && m.id !== undefined && marked.delete(m.id)) {
        message = { ...message, error: { ...m.error, code: RESOURCE_NOT_FOUND_2025 } } as typeof message;
      }
      return send(message, options);
    };
    return connect(transport);
  };
  return (requestId) => marked.add(requestId);
}

/** Whether the factory builds an instance for one stateless 2025-era HTTP request (the SDK's legacy fallback). */
export function isLegacyHttpRequest(ctx: McpRequestContext | undefined): boolean {
  return ctx?.era === "legacy" && ctx.requestInfo instanceof Request;
}

/** Whether the factory builds an instance for a lasting connection (stdio: no HTTP request). */
export function servesConnection(ctx: McpRequestContext | undefined): boolean {
  return ctx?.requestInfo === undefined;
}

/** A transport as the legacy fallback hands it to `Server.connect`: the parts typed-mcp wraps. */
interface LegacyTransport {
  handleRequest(request: Request, options?: unknown): Promise<Response>;
  send(message: unknown, options?: unknown): Promise<void>;
  onmessage?: ((message: unknown, extra?: unknown) => void) | undefined;
}

/** What the session hook needs from the SDK `Server` of one legacy request. */
interface NegotiatedSource {
  connect(transport: never): Promise<void>;
  getNegotiatedProtocolVersion(): string | undefined;
  getClientVersion(): Implementation | undefined;
  getClientCapabilities(): ClientCapabilities | undefined;
}

/** Longest wait for the `initialize` answer after `handleRequest` resolved, in milliseconds. */
const INITIALIZE_ANSWER_TIMEOUT_MS = 5000;

/**
 * Installs the session hook on the SDK `Server` built for one stateless 2025-era HTTP request
 * ({@link isLegacyHttpRequest}; docs/apps.md "Stateless HTTP"). When that request is
 * `initialize` and is answered with a result, the response gets
 * `Mcp-Session-Id: <encodeSession(...)>` (session.ts) built from what the SDK's `Server` itself
 * negotiated (`getNegotiatedProtocolVersion`, `getClientCapabilities`, `getClientVersion`).
 * Every other request passes through untouched.
 *
 * @param sdk The instance, before the fallback connects it.
 * @param uiExtension The MCP Apps extension id kept when capabilities are reduced (session.ts).
 */
export function installSessionHook(sdk: NegotiatedSource, uiExtension: string): void {
  const connect = sdk.connect.bind(sdk) as unknown as (transport: LegacyTransport) => Promise<void>;
  (sdk as unknown as { connect: (transport: LegacyTransport) => Promise<void> }).connect = async (transport) => {
    await connect(transport);
    let initId: unknown;
    let answered: (() => void) | undefined;
    const initAnswered = new Promise<void>((resolve) => (answered = resolve));
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as { method?: unknown; id?: unknown };
      if (m.method === "initialize" && m.id !== undefined) initId = m.id;
      onmessage?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (initId !== undefined && (message as { id?: unknown }).id === initId) answered?.();
      return send(message, options);
    };
    const handleRequest = transport.handleRequest.bind(transport);
    transport.handleRequest = async (request, options) => {
      const response = await handleRequest(request, options);
      if (initId === undefined) return response;
      // The SDK answers `initialize` synchronously; the timeout only guards against a handler that never answers.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([initAnswered, new Promise<void>((resolve) => (timer = setTimeout(resolve, INITIALIZE_ANSWER_TIMEOUT_MS)))]);
      clearTimeout(timer);
      const protocolVersion = sdk.getNegotiatedProtocolVersion();
      if (protocolVersion === undefined || !response.ok) return response;
      const token = encodeSession({ protocolVersion, clientInfo: sdk.getClientVersion(), clientCapabilities: sdk.getClientCapabilities() }, uiExtension);
      return withHeader(response, "mcp-session-id", token);
    };
  };
}

/** `response` with header `name` set: in place, or on a copy when its headers are immutable. */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** A transport as `Server#connect` receives it. */
type ConnectedTransport = Parameters<Server["connect"]>[0];

/**
 * Puts `inspect` in front of the inbound messages of every transport `sdk` connects to, after
 * `Server#connect` has set `transport.onmessage` (the assumption of patches 4 and 5): `inspect`
 * sees each message as `JSON.parse` made it and returns the message to pass on to the SDK, or
 * `undefined` when it has answered the message itself. `onConnected`, when given, runs once per
 * transport first (e.g. to wrap `transport.send`).
 */
function interceptInbound(
  sdk: Server,
  inspect: (message: unknown, transport: ConnectedTransport) => unknown,
  onConnected?: (transport: ConnectedTransport) => void,
): void {
  const connect = sdk.connect.bind(sdk);
  sdk.connect = async (transport) => {
    await connect(transport);
    onConnected?.(transport);
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const passed = inspect(message, transport);
      if (passed !== undefined) onmessage?.(passed as typeof message, extra as never);
    };
  };
}

/** What {@link captureToolArguments} saw in the raw `arguments` of one `tools/call`. */
export type RawArgumentsCapture =
  /** The arguments were over a bound: the whole §5 argument error to answer; the SDK was handed `{}` instead. */
  | { readonly refused: string }
  /** The arguments had an own `__proto__` key, which the SDK's parse drops: its value. */
  | { readonly proto: unknown };

/**
 * Looks at the raw `params.arguments` of every `tools/call` request `sdk` receives, before the
 * SDK's parse, on every transport it is connected to (patch 4 above):
 *
 * - `arguments` that are not an object are refused the same way, with the reader's §5 text
 *   (`Argument 'arguments' is not valid. Expected an object, got an array.`);
 * - `inspect(arguments)` returns the §5 argument error when the arguments are over a bound
 *   (limits.ts, `checkArgumentBounds`): the request is passed on with `arguments: {}` (so no
 *   later stage walks the oversized value) and the capture is `{ refused: message }`;
 * - otherwise an own `__proto__` key is remembered as `{ proto: value }`, so the reader can see
 *   it like any other key (spec §5: `__proto__`, `constructor`, `prototype` follow one rule).
 *
 * @param sdk One SDK `Server` instance, before it is connected.
 * @param inspect The bound check; must not recurse on the value.
 * @returns `take(requestId)`: the capture of that request, removed once read (also removed when
 *   the request is answered).
 */
export function captureToolArguments(
  sdk: Server,
  inspect: (args: Record<string, unknown>) => string | undefined,
): (requestId: string | number) => RawArgumentsCapture | undefined {
  const captured = new Map<string | number, RawArgumentsCapture>();
  const forget = (transport: ConnectedTransport) => {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const id = (message as { id?: unknown; method?: unknown }).id;
      if ((message as { method?: unknown }).method === undefined && (typeof id === "string" || typeof id === "number")) captured.delete(id);
      return send(message, options);
    };
  };
  interceptInbound(
    sdk,
    (message) => {
      const m = message as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
      const args = m.method === "tools/call" && (typeof m.id === "string" || typeof m.id === "number") ? m.params?.arguments : undefined;
      if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
        // Not an object: the SDK's parse would refuse it with its own text; the reader's answer is §5's.
        captured.set(m.id as string | number, { refused: argumentError("arguments", `Expected an object, got ${jsonTypeName(args)}.`) });
        message = { ...m, params: { ...m.params, arguments: {} } } as unknown as typeof message;
      } else if (typeof args === "object" && args !== null && !Array.isArray(args)) {
        const id = m.id as string | number;
        const refused = inspect(args as Record<string, unknown>);
        if (refused !== undefined) {
          captured.set(id, { refused });
          message = { ...m, params: { ...m.params, arguments: {} } } as unknown as typeof message;
        } else if (Object.prototype.hasOwnProperty.call(args, "__proto__")) {
          captured.set(id, { proto: Object.getOwnPropertyDescriptor(args, "__proto__")!.value });
        }
      }
      return message;
    },
    forget,
  );
  return (requestId) => {
    const capture = captured.get(requestId);
    captured.delete(requestId);
    return capture;
  };
}

/** One Zod issue as the SDK's validation error text holds it. */
interface ZodIssue {
  path: (string | number)[];
  message: string;
}

/** The issues of a Zod dump (`[{ "code", "path", "message", … }, …]`), or `undefined` when `text` is not one. */
function zodIssues(text: string): ZodIssue[] | undefined {
  if (!text.startsWith("[")) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
    const ok = parsed.every((i) => typeof i === "object" && i !== null && Array.isArray(i.path) && typeof i.message === "string" && typeof i.code === "string");
    return ok ? (parsed as ZodIssue[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The message typed-mcp sends for params the SDK's request schema refused (JSON-RPC `-32602`
 * Invalid params): `Invalid <method> params: '<path>' <issue>.` for the first issue, the path
 * written with the §5 safe-path rule (client-chosen keys can forge nothing) and cut at 200
 * characters, the issue's text without Zod's `Invalid input: ` prefix (at most 200 characters,
 * anything outside U+0020–U+007E as `\uXXXX`); e.g. `Invalid tools/call
 * params: 'params.name' expected string, received number.`
 */
export function validationErrorMessage(method: string, issue: ZodIssue): string {
  let path = "";
  for (const step of issue.path) path += typeof step === "number" ? `[${step}]` : pathStep(step, path === "");
  if (path.length > 200) path = path.slice(0, 200) + "…";
  const text = issue.message
    .replace(/^Invalid input: /, "")
    .slice(0, 200)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `Invalid ${method} params: '${path || "params"}' ${text}.`;
}

/**
 * Rewrites, in `transport.send`, the SDK's schema-validation errors (patch 5 above) into a plain
 * `-32602` Invalid params whose message is {@link validationErrorMessage}: no JSON dump of Zod
 * issues, and `initialize`'s `-32603` becomes the `-32602` JSON-RPC defines for invalid params.
 * The method is taken from the request (remembered per id in `transport.onmessage`). Every other
 * message passes unchanged.
 *
 * @param sdk One SDK `Server` instance, before it is connected.
 */
export function cleanValidationErrors(sdk: Server): void {
  const methods = new Map<string | number, string>();
  const rewrite = (transport: ConnectedTransport) => {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const m = message as { id?: unknown; error?: { code: number; message: string }; method?: unknown };
      if (m.method === undefined && (typeof m.id === "string" || typeof m.id === "number")) {
        const method = methods.get(m.id) ?? "request";
        methods.delete(m.id);
        if (m.error !== undefined && typeof m.error.message === "string" && (m.error.code === -32602 || m.error.code === -32603)) {
          const prefix = `Invalid ${method} request: `;
          const dump = m.error.message.startsWith(prefix) ? m.error.message.slice(prefix.length) : m.error.message;
          const issues = zodIssues(dump);
          if (issues !== undefined) message = { ...message, error: { code: -32602, message: validationErrorMessage(method, issues[0]!) } } as typeof message;
        }
      }
      return send(message, options);
    };
  };
  interceptInbound(
    sdk,
    (message) => {
      const m = message as { id?: unknown; method?: unknown };
      if ((typeof m.id === "string" || typeof m.id === "number") && typeof m.method === "string") methods.set(m.id, m.method.slice(0, 100));
      return message;
    },
    rewrite,
  );
}

/**
 * The §5 answer to a `prompts/get` whose raw `arguments` the SDK's parse would refuse with its own
 * text or silently change (spec §8: prompt arguments are strings): not an object →
 * `Argument 'arguments' is not valid. Expected an object, got <type>.`; an own `__proto__` key
 * (which the parse drops) → `Argument '__proto__' is not valid. It is not an argument of this
 * prompt.`; a value that is not a string (first in the object's order) → `Argument '<name>' is
 * not valid. Expected a string, got <type>.`. `undefined` when the SDK and the generated reader
 * can take the arguments.
 */
export function promptArgumentsProblem(args: unknown): string | undefined {
  if (args === undefined) return undefined;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return argumentError("arguments", `Expected an object, got ${jsonTypeName(args)}.`);
  if (Object.prototype.hasOwnProperty.call(args, "__proto__")) return argumentError(pathStep("__proto__", true), "It is not an argument of this prompt.");
  for (const key of Object.keys(args)) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value !== "string") return argumentError(pathStep(key, true), `Expected a string, got ${jsonTypeName(value)}.`);
  }
  return undefined;
}

/**
 * Answers, from `transport.onmessage` and before the SDK's parse, a `prompts/get` whose raw
 * arguments {@link promptArgumentsProblem} refuses: JSON-RPC `-32602` with that §5 text, sent
 * through `transport.send` (the request is not passed on). Relies on patch 4's assumption.
 *
 * @param sdk One SDK `Server` instance, before it is connected.
 */
export function screenPromptArguments(sdk: Server): void {
  interceptInbound(sdk, (message, transport) => {
    const m = message as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
    if (m.method === "prompts/get" && (typeof m.id === "string" || typeof m.id === "number")) {
      const problem = promptArgumentsProblem(m.params?.arguments);
      if (problem !== undefined) {
        void transport.send({ jsonrpc: "2.0", id: m.id, error: { code: -32602, message: problem } } as never);
        return undefined;
      }
    }
    return message;
  });
}
