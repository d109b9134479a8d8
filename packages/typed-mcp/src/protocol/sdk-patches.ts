/**
 * Folder `protocol/`: MCP protocol rules shared by every capability, and the glue to the official
 * SDK — the SDK patches (this file), the revision gates, message and argument limits, the echo
 * cut, the stateless session id, long timers, and the SDK re-exports.
 *
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
 * 4. {@link patchRawMessages} (tool-argument capture, prompt-argument screen): every transport (stdio, the per-request HTTP transports of
 *    both eras) hands each inbound JSON-RPC message, as `JSON.parse` made it, to the
 *    `transport.onmessage` that `Server#connect` sets, before the SDK's Zod parse; that parse
 *    (`z.record`) drops an own `__proto__` key.
 * 5. {@link patchRawMessages} (validation-error rewrite): the SDK answers params that fail its Zod request schemas with
 *    `-32602` `Invalid <method> request: <Zod issues as indented JSON>` (or, for `initialize`,
 *    `-32603` with the bare issue dump), through `transport.send`. Asserted by
 *    `test/runtime/hostile.test.ts` ("params the SDK's request schemas refuse"), which holds the
 *    rewritten answers to the byte and so fails when the SDK's text changes.
 * 6. `linearStdioSend` (sdk-patches-stdio.ts): `StdioServerTransport#send` in linear time (the
 *    SDK's adds and removes stdout listeners per waiting message: O(N²)). Asserted, with the
 *    SDK's own send as the version guard, by `test/runtime/stdio-pipelined.test.ts`.
 * 7. stdio-listen.ts `applyListenRules`: `serveStdio` sets the transport's `onmessage` by assignment
 *    and receives every inbound message through it (so a `subscriptions/listen` can be answered
 *    before its listen router), and refuses a listen past its `maxSubscriptions` with `-32603`
 *    `Subscription limit reached` (re-worded as the quota error). Asserted by
 *    `test/runtime/streams-sdk.test.ts` (6, 6b).
 * 8. streams/listen-streams.ts `ListenStreams`: `createMcpHandler` answers an accepted `subscriptions/listen`
 *    with a `text/event-stream` body, and cancelling that body tears the subscription down (its
 *    `maxSubscriptions` slot is free again). Asserted by `test/runtime/streams-sdk.test.ts`.
 *
 * @module
 */
import type {
  ClientCapabilities,
  Implementation,
  McpRequestContext,
  Server,
  ServerContext,
} from "@modelcontextprotocol/server";
import { got, invalid, pathKey } from "../codegen-support/argument-errors.js";
import { cutErrorEchoes, longStringsOf } from "./echo-cut.js";
import { encodeSession } from "./session.js";

/**
 * The `@modelcontextprotocol/server` version these patches were written and tested against; the
 * SDK assumption tests (test/runtime/sdk-patches.test.ts, streams-sdk.test.ts) compare the
 * installed version with it and name it in every failure.
 *
 * @public
 */
export const PINNED_SDK_VERSION = "2.4.0";

/** The JSON-RPC error code of an unknown resource before MCP 2026-07-28 (spec §8). */
export const RESOURCE_NOT_FOUND_2025 = -32002;

/** A request handler as typed-mcp installs it (request and SDK context in, result out). */
export type AnyRequestHandler = (request: unknown, ctx: ServerContext) => unknown;

/**
 * Makes the handlers for `methods` that are installed on `sdk` **after** this call go through
 * `wrap(method, handler)` (the returned function is what the SDK dispatches to). Other methods
 * are installed unchanged. Used by the 2026-07-28 `input_required` flow (input-required.ts) and
 * the middleware chain (calls/middleware.ts); a later call wraps outside an earlier one.
 *
 * @param sdk One SDK `Server` instance (only that instance is patched).
 * @param methods The request methods to wrap, e.g. a `Set` holding `tools/call` (anything with `has(method)`).
 * @param wrap Builds the dispatched handler from the one being installed (`paramsOnly`: it is
 *   called with the parsed params, not the request).
 */
export function wrapRequestHandlers(
  sdk: Server,
  methods: { has(method: string): boolean },
  wrap: (method: string, handler: AnyRequestHandler, paramsOnly: boolean) => AnyRequestHandler,
): void {
  const setRequestHandler = sdk.setRequestHandler.bind(sdk) as (method: string, ...rest: unknown[]) => void;
  // Both forms: (method, handler) and (method, { params }, handler) for custom-schema methods
  // (tasks.ts), whose handler gets the parsed params instead of the request (`paramsOnly`).
  (sdk as { setRequestHandler: unknown }).setRequestHandler = (method: string, ...rest: unknown[]) => {
    const handler = rest[rest.length - 1] as AnyRequestHandler;
    const installed = methods.has(method) ? wrap(method, handler, rest.length > 1) : handler;
    setRequestHandler(method, ...rest.slice(0, -1), installed);
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

/**
 * Whether the factory builds an instance for one stateless 2025-era HTTP request (the SDK's legacy fallback).
 * A stdio connection has no `requestInfo`: it is answered before the global `Request` is read,
 * whose first read makes Node load its fetch implementation (undici) — a cost of every stdio
 * cold start otherwise (`pnpm bench` "Node cold start").
 */
export function isLegacyHttpRequest(ctx: McpRequestContext | undefined): boolean {
  return ctx?.era === "legacy" && ctx.requestInfo !== undefined && ctx.requestInfo instanceof Request;
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
      await Promise.race([
        initAnswered,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, INITIALIZE_ANSWER_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      const protocolVersion = sdk.getNegotiatedProtocolVersion();
      if (protocolVersion === undefined || !response.ok) return response;
      const token = encodeSession(
        { protocolVersion, clientInfo: sdk.getClientVersion(), clientCapabilities: sdk.getClientCapabilities() },
        uiExtension,
      );
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

/** What {@link patchRawMessages} saw in the raw `arguments` of one `tools/call`. */
export type RawArgumentsCapture =
  /** The arguments were over a bound: the whole §5 argument error to answer; the SDK was handed `{}` instead. */
  | { readonly refused: string }
  /** The arguments had an own `__proto__` key, which the SDK's parse drops: its value. */
  | { readonly proto: unknown };

/** A JSON-RPC request id (the only ids the patches remember per request). */
type RequestId = string | number;

/** Whether `id` is a JSON-RPC request id typed-mcp keys per-request state by. */
function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || typeof id === "number";
}

/**
 * The three raw-message patches (patches 4 and 5 above), installed with **one** wrap of
 * `Server#connect`, one `transport.onmessage` and one `transport.send` wrapper per transport, so
 * each inbound message is looked at once, as `JSON.parse` made it, before the SDK's parse:
 *
 * - **tool-argument capture**, the raw `params.arguments` of every `tools/call`: arguments that
 *   are not an object are refused with the reader's §5 text (`Argument 'arguments' is not valid.
 *   Expected an object, got an array.`); `inspect(arguments)` returns the §5 argument error when
 *   they are over a bound (limits.ts, `checkArgumentBounds`) — the request is then passed on with
 *   `arguments: {}` (so no later stage walks the oversized value) and the capture is
 *   `{ refused: message }`; otherwise an own `__proto__` key is remembered as `{ proto: value }`,
 *   so the reader can see it like any other key (spec §5: `__proto__`, `constructor`,
 *   `prototype` follow one rule);
 * - **prompt-argument screen**: a `prompts/get` whose raw arguments {@link promptArgumentsProblem}
 *   refuses is answered JSON-RPC `-32602` with that §5 text, through `transport.send`, and not
 *   passed on;
 * - **echo cut**: every error answer has the request's long client text it repeats cut by
 *   `cutEchoed` (echo-cut.ts, `cutErrorEchoes`), whoever wrote the message (typed-mcp or the SDK);
 * - **validation-error rewrite**: the SDK's schema-validation errors are sent as a plain `-32602`
 *   Invalid params whose message is {@link validationErrorMessage} (no JSON dump of Zod issues;
 *   `initialize`'s `-32603` becomes the `-32602` JSON-RPC defines for invalid params); the
 *   method is taken from the request, remembered per id until it is answered.
 *
 * @param sdk One SDK `Server` instance, before it is connected.
 * @param inspect The bound check; must not recurse on the value.
 * @param onNotification Told about every inbound notification (a message with a `method` and no
 *   `id`), as it arrived, before the SDK sees it (the instrumentation, calls/instrumentation.ts);
 *   what it throws is ignored.
 * @returns `take(requestId)`: the argument capture of that request, removed once read (also
 *   removed when the request is answered).
 */
export function patchRawMessages(
  sdk: Server,
  inspect: (args: Record<string, unknown>) => string | undefined,
  onNotification?: (method: string, params: unknown) => void,
): (requestId: RequestId) => RawArgumentsCapture | undefined {
  const captured = new Map<RequestId, RawArgumentsCapture>();
  const methods = new Map<RequestId, string>();
  // Each request until answered: an error answer is cut against its long client text (echo-cut.ts).
  const requests = new Map<RequestId, unknown>();
  const connect = sdk.connect.bind(sdk);
  sdk.connect = async (transport) => {
    await connect(transport);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const id = (message as { id?: unknown }).id;
      if ((message as { method?: unknown }).method === undefined && isRequestId(id)) {
        captured.delete(id);
        const method = methods.get(id) ?? "request";
        methods.delete(id);
        const request = requests.get(id);
        requests.delete(id);
        message = cleanValidationError(message, method);
        // The request's long strings are looked for only when its answer is an error (echo-cut.ts).
        if (request !== undefined && (message as { error?: unknown }).error !== undefined)
          message = cutErrorEchoes(message, longStringsOf(request));
      }
      return send(message, options);
    };
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
      let passed: unknown = message;
      if (typeof m.method === "string" && isRequestId(m.id)) {
        requests.set(m.id, m);
        if (m.method === "tools/call") passed = captureArguments(m, m.id, captured, inspect);
        else if (m.method === "prompts/get" && screenPrompt(m.id, m.params?.arguments, transport)) return;
        methods.set(m.id, m.method.slice(0, 100));
      } else if (typeof m.method === "string" && m.id === undefined && onNotification !== undefined) {
        try {
          onNotification(m.method, m.params);
        } catch {
          // Observing a notification never changes how it is handled.
        }
      }
      onmessage?.(passed as typeof message, extra as never);
    };
  };
  return (requestId) => {
    const capture = captured.get(requestId);
    captured.delete(requestId);
    return capture;
  };
}

/** The tool-argument capture of {@link patchRawMessages} for one `tools/call`: the message to pass on. */
function captureArguments(
  m: { params?: { arguments?: unknown } },
  id: RequestId,
  captured: Map<RequestId, RawArgumentsCapture>,
  inspect: (args: Record<string, unknown>) => string | undefined,
): unknown {
  const args = m.params?.arguments;
  if (args === undefined) return m;
  // Not an object: the SDK's parse would refuse it with its own text; the reader's answer is §5's.
  const refused =
    typeof args !== "object" || args === null || Array.isArray(args)
      ? invalid("arguments", `Expected an object, got ${got(args)}.`)
      : inspect(args as Record<string, unknown>);
  if (refused !== undefined) {
    captured.set(id, { refused });
    return { ...m, params: { ...m.params, arguments: {} } };
  }
  if (Object.hasOwn(args as object, "__proto__"))
    captured.set(id, { proto: Object.getOwnPropertyDescriptor(args, "__proto__")!.value });
  return m;
}

/** The prompt-argument screen of {@link patchRawMessages}: answers and returns `true` when the arguments are refused. */
function screenPrompt(id: RequestId, args: unknown, transport: ConnectedTransport): boolean {
  const problem = promptArgumentsProblem(args);
  if (problem === undefined) return false;
  void transport.send({ jsonrpc: "2.0", id, error: { code: -32602, message: problem } } as never);
  return true;
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
    const ok = parsed.every(
      (i) =>
        typeof i === "object" &&
        i !== null &&
        Array.isArray(i.path) &&
        typeof i.message === "string" &&
        typeof i.code === "string",
    );
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
function validationErrorMessage(method: string, issue: ZodIssue): string {
  let path = "";
  for (const step of issue.path) path += typeof step === "number" ? `[${step}]` : pathKey(step, path === "");
  if (path.length > 200) path = path.slice(0, 200) + "…";
  const text = issue.message
    .replace(/^Invalid input: /, "")
    .slice(0, 200)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `Invalid ${method} params: '${path || "params"}' ${text}.`;
}

/**
 * The validation-error rewrite of {@link patchRawMessages} (patch 5 above) for one response to a
 * `method` request: an SDK `-32602` / `-32603` whose message is `Invalid <method> request: <Zod
 * issues>` (or the bare issue dump) becomes `-32602` {@link validationErrorMessage}; every other
 * message is returned unchanged.
 */
function cleanValidationError<M>(message: M, method: string): M {
  const error = (message as { error?: { code: number; message: string } }).error;
  if (error === undefined || typeof error.message !== "string" || (error.code !== -32602 && error.code !== -32603))
    return message;
  const prefix = `Invalid ${method} request: `;
  const issues = zodIssues(error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message);
  return issues === undefined
    ? message
    : { ...message, error: { code: -32602, message: validationErrorMessage(method, issues[0]!) } };
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
function promptArgumentsProblem(args: unknown): string | undefined {
  if (args === undefined) return undefined;
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return invalid("arguments", `Expected an object, got ${got(args)}.`);
  if (Object.hasOwn(args as object, "__proto__"))
    return invalid(pathKey("__proto__", true), "It is not an argument of this prompt.");
  for (const key of Object.keys(args)) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value !== "string") return invalid(pathKey(key, true), `Expected a string, got ${got(value)}.`);
  }
  return undefined;
}
