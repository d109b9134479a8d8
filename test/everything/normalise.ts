/**
 * What the parity test normalises before comparing answers — only what is random or depends on
 * the time: the local time of day the dynamic resources carry (`12:17:27 PM` → `<time>`, also
 * inside base64 blobs of text), random UUIDs (`elicitationId`s the servers make) → `<uuid>`, and
 * of MCP tasks (2025-11-25 "Tasks") the `taskId` (random: 32 hex digits in the original, 22
 * base64url characters in the port) → `<task-id>` and the ISO 8601 `createdAt` / `lastUpdatedAt`
 * → `<timestamp>`, wherever those keys appear (a `Task`, a `notifications/tasks/status`, the
 * `io.modelcontextprotocol/related-task` `_meta`). Nothing else is rewritten.
 */
const TIME = /\b\d{1,2}:\d{2}:\d{2}(?:\s?[AP]M)?\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/** `s` with times and UUIDs replaced. */
const text = (s: string): string => s.replace(TIME, "<time>").replace(UUID, "<uuid>");

/** A base64 blob: when it is UTF-8 text, `text:<normalised text>`; binary (gzip) stays as is. */
function blob(b64: string): string {
  const bytes = Buffer.from(b64, "base64");
  const decoded = bytes.toString("utf8");
  return Buffer.from(decoded, "utf8").equals(bytes) && !decoded.includes("\uFFFD") ? `text:${text(decoded)}` : b64;
}

/** A deep copy of a JSON value with times, UUIDs, task ids and task timestamps normalised (strings, and blob contents). */
export function normalise(value: unknown, key?: string): unknown {
  if (key === "taskId" && typeof value === "string") return "<task-id>";
  if ((key === "createdAt" || key === "lastUpdatedAt") && typeof value === "string") return "<timestamp>";
  if (typeof value === "string") return key === "blob" ? blob(value) : text(value);
  if (Array.isArray(value)) return value.map((v) => normalise(v));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k)]));
  return value;
}

/** The answer to a request: its result, or its JSON-RPC error's code, message and data. */
export async function answer(run: () => Promise<unknown>): Promise<Record<string, any>> {
  try {
    return { result: normalise(await run()) };
  } catch (e) {
    const { code, message, data } = e as { code?: number; message?: string; data?: unknown };
    return { error: normalise({ code, message, ...(data !== undefined && { data }) }) };
  }
}
