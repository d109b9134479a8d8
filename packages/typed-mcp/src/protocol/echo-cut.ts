/**
 * Echoed client text, cut in one place (docs/security.md "Echoed client text"): every JSON-RPC
 * error typed-mcp sends — its own and the SDK's, which typed-mcp passes on — has each piece of the
 * request's text longer than {@link MAX_PATH_LENGTH} UTF-16 code units that it repeats cut by the
 * one rule, model `cutEchoed` (the first 200 code units and `…`), in `error.message` and in the
 * strings of `error.data` (e.g. the SDK's `Resource not found: <uri>` with `data: { uri }`, and
 * its SEP-2243 `-32020` "the request headers and body disagree" text, which quotes both). The
 * request `id` is never changed: JSON-RPC 2.0 §5 requires the response to carry the same id (a
 * huge id is bounded by the body limit, `maxRequestBodySize`).
 *
 * Two places call it, both with the request the answer is to: `patchRawMessages`
 * (sdk-patches.ts) for the answers that go through a transport's `send` (stdio, and every HTTP
 * request the SDK dispatches), and `server.fetch` ({@link cutResponseEchoes}) for the answers the
 * SDK's HTTP entry gives before dispatch (HTTP 4xx: header/body mismatches and the like).
 *
 * @module
 */
import { MAX_PATH_LENGTH, cutEchoed } from "../codegen-support/argument-errors.js";
import { isJsonContentType } from "@modelcontextprotocol/server";

/** Deepest nesting of `error.data` that is cut. */
const DATA_DEPTH = 6;

/**
 * The strings (values and keys) of `value` longer than {@link MAX_PATH_LENGTH} code units — the
 * client text an answer could echo too long — longest first. Every value is looked at, breadth
 * first with an explicit queue (no recursion on client data): a budget would let a long string
 * placed after it go uncut. The work is linear in the message, itself bounded by
 * `maxRequestBodySize`, and is done only for a message whose answer is an error (callers walk
 * lazily).
 *
 * @param value A JSON-RPC message as `JSON.parse` made it (or any JSON value).
 * @param extra More client text, e.g. HTTP header values; only the long ones are kept.
 */
export function longStringsOf(value: unknown, extra: Iterable<string> = []): string[] {
  const found = new Set<string>();
  for (const text of extra) if (text.length > MAX_PATH_LENGTH) found.add(text);
  const queue: unknown[] = [value];
  for (let i = 0; i < queue.length; i++) {
    const item = queue[i];
    queue[i] = undefined; // what was looked at can be collected
    if (typeof item === "string") {
      if (item.length > MAX_PATH_LENGTH) found.add(item);
    } else if (Array.isArray(item)) {
      for (const element of item) queue.push(element);
    } else if (typeof item === "object" && item !== null) {
      for (const key of Object.keys(item)) {
        if (key.length > MAX_PATH_LENGTH) found.add(key);
        queue.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of each of `echoed` (as is, or as written inside a JSON string) cut by `cutEchoed`. */
function cutEchoes(text: string, echoed: readonly string[]): string {
  for (const s of echoed) {
    if (text.length < s.length) continue;
    if (text.includes(s)) text = text.split(s).join(cutEchoed(s));
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s && text.includes(escaped))
      text = text.split(escaped).join(JSON.stringify(cutEchoed(s)).slice(1, -1));
  }
  return text;
}

/** `data` with its strings (to {@link DATA_DEPTH} levels) passed through {@link cutEchoes}. */
function cutData(data: unknown, echoed: readonly string[], depth: number): unknown {
  if (typeof data === "string") return cutEchoes(data, echoed);
  if (depth >= DATA_DEPTH || typeof data !== "object" || data === null) return data;
  if (Array.isArray(data)) return data.map((item) => cutData(item, echoed, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(data)) out[key] = cutData((data as Record<string, unknown>)[key], echoed, depth + 1);
  return out;
}

/**
 * `message` with its `error.message` and `error.data` cut ({@link cutEchoes}); any other message
 * (a result, a notification, no long client text) is returned as is. The `id` and every other
 * member are kept, in order.
 *
 * @param message A JSON-RPC message about to be sent.
 * @param echoed The long client text of the request it answers ({@link longStringsOf}).
 */
export function cutErrorEchoes<M>(message: M, echoed: readonly string[] | undefined): M {
  const error = (message as { error?: { message?: unknown; data?: unknown } } | null)?.error;
  if (echoed === undefined || echoed.length === 0 || typeof error !== "object" || error === null) return message;
  const cut: Record<string, unknown> = { ...error };
  if (typeof error.message === "string") cut.message = cutEchoes(error.message, echoed);
  if (error.data !== undefined) cut.data = cutData(error.data, echoed, 0);
  return { ...message, error: cut };
}

/**
 * The answer `server.fetch` gives to `request`, its JSON-RPC errors cut ({@link cutErrorEchoes})
 * against the long strings of the request's JSON body and header values. Only HTTP 4xx/5xx JSON
 * answers are read (the SDK's entry answers those itself, before any handler runs); every other
 * response, and every request without long text, is returned untouched.
 *
 * @param response The SDK handler's response.
 * @param body The request's parsed JSON body (`undefined` when it was not read).
 * @param headers The request's headers.
 */
export async function cutResponseEchoes(response: Response, body: unknown, headers: Headers): Promise<Response> {
  if (response.status < 400 || !isJsonContentType(response.headers.get("content-type") ?? "")) return response;
  const echoed = longStringsOf(body, [...headers.values()]);
  if (echoed.length === 0) return response;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  const cut = Array.isArray(parsed) ? parsed.map((m) => cutErrorEchoes(m, echoed)) : cutErrorEchoes(parsed, echoed);
  const out = new Headers(response.headers);
  out.delete("content-length");
  return new Response(JSON.stringify(cut), { status: response.status, statusText: response.statusText, headers: out });
}
