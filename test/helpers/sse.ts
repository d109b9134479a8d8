// Reading MCP's HTTP answers in tests: a JSON body or a `text/event-stream` body (WHATWG HTML
// §9.2 "Server-sent events": an event is its `data:` lines, ended by a blank line), whole or live.
// The one SSE reader of the suite: test/runtime, test/store and the raw-HTTP helpers all read
// streams through it.

/** The JSON-RPC messages of an HTTP response body (JSON or SSE), in order. */
export function messagesOf(body: string): Array<Record<string, any>> {
  const trimmed = body.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const parsed = JSON.parse(trimmed);
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  return body
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trim())
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data));
}

/** One complete SSE event: its `id` field (`undefined` when it has none) and its JSON-RPC messages. */
export interface SseEvent {
  id: string | undefined;
  messages: Array<Record<string, any>>;
}

/**
 * The events of a live SSE body, each as soon as it is complete (an event split across chunks
 * waits for the rest); `id` is the value of its `id:` line (one leading space dropped, WHATWG
 * HTML §9.2.6). Ends when the stream ends; rejects when it errors; leaving the loop early
 * releases the body's reader (the body itself stays open: cancel it to close it).
 */
export async function* sseEvents(body: ReadableStream<BufferSource>): AsyncGenerator<SseEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      const events = buffer.split("\n\n");
      buffer = events.pop()!;
      for (const event of events) {
        const id = /^id: ?(.*)$/m.exec(event)?.[1];
        yield { id, messages: messagesOf(event) };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** The JSON-RPC messages of a live SSE body, in order, as {@link sseEvents} reads them. */
export async function* sseMessages(body: ReadableStream<BufferSource>): AsyncGenerator<Record<string, any>> {
  for await (const event of sseEvents(body)) yield* event.messages;
}
