/**
 * A 2026-07-28 `subscriptions/listen` stream (SEP-2575) opened with a raw POST, as the official
 * client 2.4.0 cannot open one: the response (its headers: where a balancer sent it), every
 * message that arrived on it so far, and how to close it. Resolves once the server acknowledged
 * the listen (its first message), so the stream is live.
 */
import { expect } from "vitest";
import { sseMessages } from "./sse.ts";

/** An open listen stream. */
export interface Listen {
  response: Response;
  messages: Array<Record<string, any>>;
  close(): void;
}

/**
 * Opens a listen stream at `url` for `notifications` (e.g. `{ resourceSubscriptions: [uri] }` or
 * `{ toolsListChanged: true }`).
 * @throws when the answer is not an SSE stream, or no acknowledgement arrives within 10 s.
 */
export async function listen(url: URL | string, notifications: Record<string, unknown>): Promise<Listen> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    signal: controller.signal,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "subscriptions/listen",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: {
        notifications,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "listener", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const messages: Array<Record<string, any>> = [];
  void (async () => {
    try {
      for await (const message of sseMessages(response.body!)) messages.push(message);
    } catch {
      // closed by the test
    }
  })();
  // The SDK acknowledges a listen before any notification (SEP-2575): the stream is live after it.
  const deadline = Date.now() + 10_000;
  while (messages.length === 0) {
    if (Date.now() > deadline) throw new Error(`no acknowledgement of the listen at ${String(url)} within 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { response, messages, close: () => controller.abort() };
}
