/**
 * One typed call of `typed-mcp/testing` (docs/testing.md "Typed calls"): positional arguments →
 * the `tools/call` `arguments` object (names from the listing's `inputSchema`, spec §3), the call
 * through the official client (as a task when the tool requires one), and the answer read back
 * as it arrived (spec §6), or rejected with a {@link ToolCallError} (spec §5, §7).
 *
 * @module
 */
import { specTypeSchemas } from "@modelcontextprotocol/client";
import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import type { GeneratedTool } from "../internal.js";
import { toBase64 } from "../codegen-support/base64.js";

/**
 * A typed call answered with `isError` (spec §5: an argument error, `Argument 'days' is not valid.
 * Expected an integer.`; spec §7: a `ToolError`'s message, `The tool failed.`, `The tool timed out.`).
 */
export class ToolCallError extends Error {
  override readonly name = "ToolCallError";
  /** The tool's listed name. */
  readonly tool: string;
  /** The text of the answer's text blocks, joined (the §5 / §7 text). */
  readonly text: string;
  /** The whole answer, as the client received it. */
  readonly result: CallToolResult;

  /** @param tool The tool name. @param result The `isError` answer. */
  constructor(tool: string, result: CallToolResult) {
    const text = textOf(result);
    super(text);
    this.tool = tool;
    this.text = text;
    this.result = result;
  }
}

/** How deep {@link encode} follows an argument (the server's default `maxArgumentDepth` is 64; deeper is refused here, not sent). */
const MAX_DEPTH = 64;

/**
 * A TypeScript argument value as JSON (the inverse of spec §4's readers): `Date` → RFC 3339,
 * `URL` → href, `Uint8Array` → base64, `bigint` → number, `Set` → array, `Map` → object, `undefined`
 * properties left out. `ancestors` holds the objects and arrays `value` is inside of.
 *
 * @throws TypeError when a value contains itself (JSON, and so the wire, cannot carry a cycle);
 *   RangeError deeper than {@link MAX_DEPTH}.
 */
function encode(value: unknown, depth = 0, ancestors: object[] = []): unknown {
  if (depth > MAX_DEPTH) throw new RangeError(`typed-mcp/testing: an argument nests deeper than ${MAX_DEPTH} levels.`);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof URL) return value.href;
  if (value instanceof Uint8Array) return toBase64(value);
  if (typeof value === "bigint") return Number(value);
  if (typeof value !== "object" || value === null) return value;
  if (ancestors.includes(value))
    throw new TypeError("typed-mcp/testing: an argument contains itself (a cycle); JSON cannot carry it.");
  const inside = [...ancestors, value];
  if (value instanceof Set) return [...value].map((v) => encode(v, depth + 1, inside));
  if (value instanceof Map) return encode(Object.fromEntries(value), depth, ancestors);
  if (Array.isArray(value)) return value.map((v) => encode(v, depth + 1, inside));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = encode(v, depth + 1, inside);
  return out;
}

/**
 * The `arguments` of a call of `descriptor`'s tool with positional `args` (spec §3): the one object
 * of a destructured parameter, else each argument under the listed property of its position
 * (`undefined` left out, so the tool's default applies).
 *
 * @throws TypeError for more arguments than the tool lists.
 */
function argumentsOf(descriptor: GeneratedTool, args: readonly unknown[]): Record<string, unknown> {
  if (descriptor.destructured === true) return (encode(args[0] ?? {}) as Record<string, unknown>) ?? {};
  const names = Object.keys((descriptor.listing.inputSchema as { properties?: object }).properties ?? {});
  if (args.length > names.length)
    throw new TypeError(
      `typed-mcp/testing: tool ${descriptor.listing.name} takes ${names.length} argument(s), got ${args.length}.`,
    );
  const out: Record<string, unknown> = {};
  args.forEach((a, i) => {
    if (a !== undefined) out[names[i]!] = encode(a);
  });
  return out;
}

/**
 * Calls `descriptor`'s tool with `args` over `client` and reads the answer (spec §6): as a task
 * (`tools/call` with `task`, then `tasks/result`) when the listing says `taskSupport: "required"`.
 *
 * @throws ToolCallError for an `isError` answer; the client's `ProtocolError` for a JSON-RPC error.
 */
export async function typedCall(client: Client, descriptor: GeneratedTool, args: readonly unknown[]): Promise<unknown> {
  const name = descriptor.listing.name;
  const params = { name, arguments: argumentsOf(descriptor, args) };
  let result: CallToolResult;
  if (descriptor.listing.execution?.taskSupport === "required") {
    const created = await client.request(
      { method: "tools/call", params: { ...params, task: {} } },
      specTypeSchemas.CreateTaskResult,
    );
    result = await client.request(
      { method: "tasks/result", params: { taskId: created.task.taskId } },
      specTypeSchemas.CallToolResult,
    );
  } else result = (await client.callTool(params)) as CallToolResult;
  if (result.isError === true) throw new ToolCallError(name, result);
  return answerValue(descriptor, result);
}

/** The text blocks' text, joined. */
function textOf(result: CallToolResult): string {
  return result.content
    .filter((b): b is { type: "text"; text: string } => b.type === "text")
    .map((b) => b.text)
    .join("");
}

/**
 * The value a successful answer carries, by the descriptor's §6 result kind: `undefined` (void),
 * the text (string), `structuredContent` (object-shaped; `null` for a `null` answer; the parsed
 * text on revisions without it), the parsed text (other JSON), or the whole result (passed
 * through, and for descriptors without a result kind).
 */
function answerValue(descriptor: GeneratedTool, result: CallToolResult): unknown {
  switch (descriptor.result) {
    case "void":
      return undefined;
    case "text":
      return textOf(result);
    case "structured":
      return result.structuredContent ?? JSON.parse(textOf(result));
    case "json":
      return JSON.parse(textOf(result));
    default:
      return result;
  }
}
