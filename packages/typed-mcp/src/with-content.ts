/**
 * Custom content beside a typed result (docs/runtime.md "Custom text beside a typed result"): a
 * tool declared to return `WithContent<T>` is listed with `T`'s `outputSchema` (spec §6) and
 * answers `structuredContent` written from `T` as usual, but with the content blocks the tool
 * chose instead of the compact JSON text of §6. One brand, shared by the helper a tool calls and
 * the writer the plugin generates.
 *
 * @module
 */
import type { ContentBlock } from "./types.js";

/** Brand of a {@link WithContent} value: the generated writer accepts only what {@link withContent} made. */
const BRAND: unique symbol = Symbol.for("typed-mcp.with-content") as never;

/**
 * A typed result with its own content blocks: `value` is written as `structuredContent` and
 * described by the tool's `outputSchema` (both from `T`, spec §6), `content` is sent as the
 * result's `content` unchanged. Make one with {@link withContent}. `T` must be object-shaped (an
 * object, record or map, or a discriminated union), else the build fails with OMCG0009.
 */
export interface WithContent<T> {
  readonly [BRAND]: true;
  /** The typed value: `structuredContent`. */
  readonly value: T;
  /** The content blocks: `content`, in order. */
  readonly content: readonly ContentBlock[];
}

/**
 * Pairs a typed value with the content blocks to send beside it (docs/runtime.md "Custom text
 * beside a typed result"): `content` is a text (one text block), one content block, or an array
 * of them (sent in order; an empty array sends no block). Declare the tool's return type as
 * `WithContent<T>` (or `Promise<WithContent<T>>`) so `outputSchema` comes from `T`.
 *
 * @example
 * ```ts
 * @tool() search(q: string): WithContent<Hits> {
 *   const hits = find(q);
 *   return withContent(hits, `${hits.items.length} hits for ${q}:\n` + hits.items.join("\n"));
 * }
 * ```
 * @throws TypeError when `content` is not a string, a content block (an object with a string
 * `type`) or an array of those.
 */
export function withContent<T>(value: T, content: string | ContentBlock | readonly ContentBlock[]): WithContent<T> {
  const blocks: readonly ContentBlock[] =
    typeof content === "string" ? [{ type: "text", text: content }] : isBlockList(content) ? content : [content];
  if (!blocks.every(isBlock))
    throw new TypeError("withContent: content must be a string, a content block or an array of content blocks.");
  return Object.freeze({ [BRAND]: true as const, value, content: Object.freeze([...blocks]) });
}

function isBlockList(c: ContentBlock | readonly ContentBlock[]): c is readonly ContentBlock[] {
  return Array.isArray(c);
}

function isBlock(b: unknown): b is ContentBlock {
  return typeof b === "object" && b !== null && typeof (b as { type?: unknown }).type === "string";
}

/**
 * The generated writer's check (spec §7: a value that does not fit the declared type is `The
 * tool failed.`): `v` as a {@link WithContent}.
 *
 * @throws TypeError when `v` was not made by {@link withContent}.
 */
export function unwrapWithContent(v: unknown): { value: unknown; content: ContentBlock[] } {
  if (typeof v !== "object" || v === null || (v as { [BRAND]?: unknown })[BRAND] !== true)
    throw new TypeError("A tool declared to return WithContent<T> must return withContent(value, content).");
  const w = v as WithContent<unknown>;
  return { value: w.value, content: [...w.content] };
}
