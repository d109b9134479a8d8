/**
 * The SDK internals the shared store relies on (docs/scaling.md; store/answers.ts and
 * server/sdk-server.ts), each asserted against the installed SDK by
 * test/runtime/sdk-patches.test.ts, as sdk-patches.ts's are (written for SDK 2.4.0):
 *
 * - `Protocol._oncancel(notification)`: what the SDK calls for every `notifications/cancelled`;
 * - `Protocol._requestMessageId`: the next id of an outgoing request (counted from 0 per instance);
 * - `Protocol._onresponse(message)`: where a JSON-RPC response meets the request waiting for it;
 * - `Server._clientCapabilities`: what `elicitInput` / `createMessage` / `listRoots` check, set
 *   by `initialize` (which a per-request instance of 2025-era HTTP never saw);
 * - `WebStandardStreamableHTTPServerTransport._eventStore`: the `eventStore` option, read at each
 *   use (priming event, `send`), so setting it once the transport is connected makes the stream
 *   resumable (store/resumption.ts).
 *
 * @module
 */
import type { EventStore, Server } from "@modelcontextprotocol/server";

interface Internals {
  _oncancel(notification: { params: { requestId?: string | number; reason?: unknown } }): Promise<void>;
  _requestMessageId: number;
  _onresponse(message: unknown): void;
  _clientCapabilities: unknown;
}

const internals = (sdk: Server): Internals => sdk as unknown as Internals;

/** Calls `after(requestId, reason)` after the SDK's own handling of each `notifications/cancelled` `sdk` receives. */
export function afterCancel(sdk: Server, after: (requestId: string | number, reason: unknown) => Promise<void>): void {
  const local = internals(sdk)._oncancel.bind(sdk);
  internals(sdk)._oncancel = async (notification) => {
    await local(notification);
    const id = notification.params.requestId;
    if (id !== undefined) await after(id, notification.params.reason);
  };
}

/** Makes `sdk` number its next outgoing requests `first`, `first + 1`, … */
export function numberRequestsFrom(sdk: Server, first: number): void {
  internals(sdk)._requestMessageId = first;
}

/** Hands `message` (a JSON-RPC response) to `sdk` as if its transport had received it. */
export function deliverResponse(sdk: Server, message: unknown): void {
  internals(sdk)._onresponse(message);
}

/** Gives `sdk` the client capabilities `capabilities` unless an `initialize` on it already set them. */
export function adoptClientCapabilities(sdk: Server, capabilities: unknown): void {
  internals(sdk)._clientCapabilities ??= capabilities;
}

/**
 * Makes `sdk` give `events` to the transport it is connected to (the SDK's per-request 2025-era
 * HTTP transport, built by `createMcpHandler` without one), before that transport handles its request.
 */
export function connectWithEventStore(sdk: Server, events: EventStore): void {
  const connect = sdk.connect.bind(sdk);
  sdk.connect = (transport) => {
    (transport as unknown as { _eventStore?: EventStore })._eventStore = events;
    return connect(transport);
  };
}
