/**
 * 2025-era SSE resumption across instances (docs/scaling.md "Resuming a cut stream"): with a
 * shared store, the events of a 2025-era `tools/call` response stream are kept in the store (the
 * SDK's `EventStore` interface, {@link SharedEvents}), the call goes on when the client's
 * connection is cut, and a `GET` with `Last-Event-ID` reaching any instance replays what the
 * client missed, in order, once, then ends; the client reconnects again until it has the response.
 *
 * The SDK's `createMcpHandler` builds its 2025-era transports without an event store, and tears
 * the call down when its response stream is cancelled. So, for such a call, the request handed
 * to it carries a signal of its own ({@link resumableCall}), the factory gives the transport the
 * store (protocol/sdk-patches-store.ts `connectWithEventStore`), and a cut response body is read
 * on to its end instead of being cancelled ({@link readOnAfterCut}). The server's own close
 * (`ctx.closeStream()`, {@link closeResumableStream}) is that cut made on purpose: the client's
 * body ends while the SDK's stream is read on (the SDK's `closeSSEStream` would end the SDK's
 * stream, and `createMcpHandler` tears a 2025-era call down when its stream ends). The replay is
 * served by the SDK's own web-standard transport, built with the store ({@link replay}).
 *
 * Event ids are `<stream id>_<sequence>` (the SDK's stream id is a random UUID of the POST); each
 * event is one key (`event` kind: owner, stream id, sequence — hashed, so a `Last-Event-ID` names
 * nothing of another owner's) expiring after `store.eventTtlMs`, written only once the stream was
 * cut (until then the instance keeps the events itself).
 *
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";
import { isLegacyRevision } from "../protocol/revisions.js";
import { storeUnavailableResponse } from "./shared.js";
import type { SharedInstance } from "./shared.js";

/** Longest `Last-Event-ID` read (longer ones name no stream). */
const MAX_EVENT_ID = 200;
/** An event id this store made: a stream id (UUID-like) and a sequence number. */
const EVENT_ID = /^([A-Za-z0-9-]{1,128})_(\d{1,9})$/;

/**
 * The SDK's `EventStore` over a shared store, for one owner's streams. While the client reads the
 * stream, events are only numbered and kept here (a call that is not cut costs the store
 * nothing); {@link cut} writes them to the store, and every later event is written through.
 */
export class SharedEvents implements EventStore {
  readonly #next = new Map<string, number>();
  /** Events not written yet (before a cut): key parts and JSON. */
  #pending: Array<[string, number, string]> | undefined = [];
  #primed = false;

  constructor(
    readonly shared: SharedInstance,
    readonly owner: string,
  ) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const sequence = this.#next.get(streamId) ?? 0;
    this.#next.set(streamId, sequence + 1);
    // The priming event (an empty object), which the SDK writes only where clients resume (≥ 2025-11-25).
    if (Object.keys(message).length === 0) this.#primed = true;
    const json = JSON.stringify(message);
    if (this.#pending !== undefined) this.#pending.push([streamId, sequence, json]);
    else await this.#write(streamId, sequence, json).catch(() => {});
    return `${streamId}_${sequence}`;
  }

  /** Whether the stream began with a priming event (its client can resume it). */
  get primed(): boolean {
    return this.#primed;
  }

  /** The client's connection was cut: writes the events kept so far, in order, and every later one at once. */
  async cut(): Promise<void> {
    const pending = this.#pending ?? [];
    this.#pending = undefined;
    for (const [streamId, sequence, json] of pending) await this.#write(streamId, sequence, json);
  }

  async #write(streamId: string, sequence: number, json: string): Promise<void> {
    await this.shared.store.swap(await this.#key(streamId, sequence), undefined, json, this.shared.eventTtlMs);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return parse(eventId)?.streamId;
  }

  /** Sends every stored event after `lastEventId` of its stream, in order, up to the first not (yet) stored. */
  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = parse(lastEventId);
    if (last === undefined) throw new Error("typed-mcp: not an event id of this server");
    for (let sequence = last.sequence + 1; ; sequence++) {
      const stored = await this.shared.store.get(await this.#key(last.streamId, sequence));
      if (stored === undefined) return last.streamId;
      const message = JSON.parse(stored) as JSONRPCMessage;
      // The priming event (an empty object) carries only its id.
      if (Object.keys(message).length > 0) await send(`${last.streamId}_${sequence}`, message);
    }
  }

  /** Whether `eventId` names an event of this owner still kept. */
  async known(eventId: string): Promise<boolean> {
    const event = parse(eventId);
    if (event === undefined) return false;
    return (await this.shared.store.get(await this.#key(event.streamId, event.sequence))) !== undefined;
  }

  #key(streamId: string, sequence: number): Promise<string> {
    return this.shared.keys.key("event", this.owner, streamId, String(sequence));
  }
}

function parse(eventId: string): { streamId: string; sequence: number } | undefined {
  if (eventId.length > MAX_EVENT_ID) return undefined;
  const match = EVENT_ID.exec(eventId);
  return match === null ? undefined : { streamId: match[1]!, sequence: Number(match[2]) };
}

/** A resumable call: its events, whether the factory made it resumable, and how to end the client's body. */
interface Resumable {
  events: SharedEvents;
  used: boolean;
  /** Ends the client's body as a cut (set once the response is wrapped; before that, `closing` asks for it). */
  close?: () => void;
  closing?: boolean;
}

/** The resumable calls, by the request handed to the SDK (read by the factory and `ctx.closeStream()`). */
const RESUMABLE = new WeakMap<Request, Resumable>();

/**
 * For a POST that may be a 2025-era `tools/call` (its `MCP-Protocol-Version` absent or 2025-era)
 * with a shared store: the request to hand to the SDK instead — the same request with a signal
 * that follows the client's until the factory made the call resumable ({@link eventStoreFor}) —
 * and the function that makes the SDK's response survive a cut ({@link readOnAfterCut}).
 * `undefined` for every other request (served as before).
 */
export function resumableCall(
  shared: SharedInstance | undefined,
  request: Request,
  body: unknown,
  owner: () => string,
): { request: Request; respond: (response: Response) => Response } | undefined {
  if (shared === undefined || request.method !== "POST" || (body as { method?: unknown })?.method !== "tools/call")
    return undefined;
  const revision = request.headers.get("mcp-protocol-version");
  if (revision !== null && !isLegacyRevision(revision)) return undefined;
  const controller = new AbortController();
  // The body was read ahead (the SDK gets it as `parsedBody`), so the request handed on has none.
  const handed = new Request(request.url, { method: "POST", headers: request.headers, signal: controller.signal });
  const entry: Resumable = { events: new SharedEvents(shared, owner()), used: false };
  RESUMABLE.set(handed, entry);
  request.signal.addEventListener("abort", () => entry.used || controller.abort(request.signal.reason), {
    once: true,
  });
  const cut = () => void entry.events.cut().catch(() => {});
  const respond = (response: Response): Response => {
    if (!entry.used) return response;
    const wrapped = readOnAfterCut(response, cut, entry.closing === true);
    entry.close = wrapped.close;
    return wrapped.response;
  };
  return { request: handed, respond };
}

/**
 * The event store the SDK transport of the 2025-era request `request` is to use (the factory
 * calls it for each such request), marking the call resumable; `undefined` when it is not one.
 */
export function eventStoreFor(request: Request): SharedEvents | undefined {
  const entry = RESUMABLE.get(request);
  if (entry !== undefined) entry.used = true;
  return entry?.events;
}

/**
 * `ctx.closeStream()` of the request `request` handed to the SDK: when it is a resumable call
 * whose stream began with a priming event, ends the client's body as a cut (at once, or after
 * the first chunk — the priming event — when nothing was sent yet) and returns `true`; else `false`.
 */
export function closeResumableStream(request: Request | undefined): boolean {
  const entry = request === undefined ? undefined : RESUMABLE.get(request);
  if (entry === undefined || !entry.used || !entry.events.primed) return false;
  if (entry.close !== undefined) entry.close();
  else entry.closing = true;
  return true;
}

/**
 * `response` whose body, when the client cancels it (a cut connection) or `close()` ends it (the
 * server's own cut; `closeAfterFirst`: after the first chunk), is read on to its end (the SDK's stream
 * ends after the call's response) after `onCut()`: the call finishes and its events are stored.
 */
function readOnAfterCut(
  response: Response,
  onCut: () => void,
  closeAfterFirst: boolean,
): { response: Response; close: () => void } {
  const wrapped = { response, close: () => {} };
  if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) return wrapped;
  const reader = response.body.getReader();
  let detached = false;
  let sent = false;
  let closing = closeAfterFirst;
  let ended = false;
  let out: ReadableStreamDefaultController<Uint8Array> | undefined;
  const detach = (): void => {
    if (detached) return;
    detached = true;
    onCut();
    void (async () => {
      for (;;) if ((await reader.read()).done) return;
    })().catch(() => {});
  };
  const close = (): void => {
    if (ended || detached) return;
    if (!sent) return void (closing = true);
    detach();
    out?.close();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      out = controller;
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      // A chunk read as the body was detached is dropped: its events are in the store.
      if (detached) return;
      if (done) {
        ended = true;
        return controller.close();
      }
      controller.enqueue(value);
      sent = true;
      if (closing) close();
    },
    cancel: detach,
  });
  wrapped.response = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  wrapped.close = close;
  return wrapped;
}

/**
 * A `GET` with `Last-Event-ID` and a shared store: the events after it, replayed by the SDK's
 * transport from the store; HTTP 404 `-32001` when the id names no event kept for this caller
 * (expired, another owner's, not this server's), 503 `-32603` when the store cannot be reached.
 * `undefined` for any other request.
 */
export async function replay(
  shared: SharedInstance | undefined,
  request: Request,
  owner: () => string,
): Promise<Response | undefined> {
  const lastEventId = request.headers.get("last-event-id");
  if (shared === undefined || request.method !== "GET" || lastEventId === null) return undefined;
  const events = new SharedEvents(shared, owner());
  try {
    if (!(await events.known(lastEventId))) {
      const message = `Unknown or expired Last-Event-ID: events are kept ${shared.eventTtlMs} ms (store.eventTtlMs), for the caller that received them.`;
      return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32001, message } }, { status: 404 });
    }
  } catch (error) {
    return storeUnavailableResponse(error);
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, eventStore: events });
  return transport.handleRequest(request);
}
