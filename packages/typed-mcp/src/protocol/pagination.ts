/**
 * Opaque list cursors (MCP "Pagination"): the `cursor` / `nextCursor` of `tools/list`,
 * `resources/list`, `resources/templates/list`, `prompts/list` (paged with the `pageSize` option)
 * and `tasks/list` (pages of 50), and the pages of the four registration listings.
 *
 * A cursor is base64url (RFC 4648 §5, unpadded) of a small JSON object `{ v: 1, l, k, p }`: the
 * version tag, the list it belongs to, the key of the last entry listed (tool or prompt `name`,
 * resource `uri`, `uriTemplate`, `taskId`) and that entry's registration position. Clients treat
 * it as opaque; a cursor that does not decode to this shape, or belongs to another list, is
 * JSON-RPC `-32602` `Invalid cursor: <cursor>` (the cursor cut as every echo is, echo-cut.ts).
 *
 * Position by name: the registration listings are in registration order, and a registration
 * only ever appends (a name registered again after its removal goes to the end). Each key gets a
 * position when first seen in that order ({@link ListPositions}); the next page starts at the
 * first entry whose position follows the cursor's. So an entry removed between pages is simply
 * not listed, the entries after it are not skipped, none is listed twice, and entries
 * registered meanwhile come on a later page.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { cutEchoed } from "../codegen-support/argument-errors.js";
import { fromBase64url, toBase64url } from "../codegen-support/base64.js";

/** The lists with cursors. */
export type ListName = "tools" | "resources" | "resourceTemplates" | "prompts" | "tasks";

/** What a cursor says: after the entry `key`, at registration position `position` (0 for tasks). */
export interface CursorPosition {
  readonly key: string;
  readonly position: number;
}

/** The version tag of the cursor format. */
const CURSOR_VERSION = 1;

/** Longest cursor decoded, in UTF-16 code units (a longer one is refused without decoding). */
const MAX_CURSOR_LENGTH = 100_000;

/** The opaque cursor for the page after `key` (at `position`) of `list`. */
export function encodeCursor(list: ListName, key: string, position = 0): string {
  const json = JSON.stringify({ v: CURSOR_VERSION, l: list, k: key, p: position });
  return toBase64url(new TextEncoder().encode(json));
}

/**
 * The position a cursor of `list` names.
 * @throws ProtocolError `-32602` `Invalid cursor: <cursor>` for any text {@link encodeCursor} did not make for `list`.
 */
export function decodeCursor(list: ListName, cursor: string): CursorPosition {
  const value = cursor.length <= MAX_CURSOR_LENGTH ? parseCursor(cursor) : undefined;
  const ok =
    typeof value === "object" &&
    value !== null &&
    value.v === CURSOR_VERSION &&
    value.l === list &&
    typeof value.k === "string" &&
    Number.isSafeInteger(value.p) &&
    (value.p as number) >= 0;
  if (!ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cutEchoed(cursor)}`);
  return { key: value.k as string, position: value.p as number };
}

/** The JSON object inside `cursor`, or `undefined` when it is not base64url of UTF-8 JSON. */
function parseCursor(cursor: string): Record<string, unknown> | undefined {
  const bytes = fromBase64url(cursor);
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * The registration positions of one listing's keys: each key gets the next number when first
 * seen in registration order, and a new one when it is seen out of order (it was removed and
 * registered again, so it now stands at the end). Keys no longer registered are forgotten.
 */
export class ListPositions {
  #positions = new Map<string, number>();
  #next = 0;

  /** Brings the positions up to date with `keys`, every registered key in registration order. */
  sync(keys: Iterable<string>): void {
    const positions = new Map<string, number>();
    let last = -1;
    for (const key of keys) {
      let position = this.#positions.get(key);
      if (position === undefined || position <= last) position = this.#next++;
      positions.set(key, position);
      last = position;
    }
    this.#positions = positions;
  }

  /** The position of `key` (after {@link sync}); `-1` for a key not registered. */
  of(key: string): number {
    return this.#positions.get(key) ?? -1;
  }
}

/** One page of a listing, and the cursor of the next when there is one. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor?: string;
}

/**
 * The pages of one `McpServer`'s registration listings (shared by every SDK `Server` it builds,
 * so a cursor given on one HTTP request is read on the next): the `pageSize` option and the
 * registration positions of each listing.
 */
export class Pager {
  readonly #pageSize: number | undefined;
  readonly #positions = new Map<ListName, ListPositions>();

  /** @param pageSize The `pageSize` option (checked); `undefined`: lists are not paged. */
  constructor(pageSize: number | undefined) {
    this.#pageSize = pageSize;
  }

  /**
   * The page of `visible` that `cursor` asks for: all of it when lists are not paged (the cursor
   * is then not read: MCP "Pagination" lets a server answer a list in one page), else at most
   * `pageSize` entries from the first whose position follows the cursor's, with `nextCursor`
   * while more follow.
   *
   * @param all Every registered entry of the listing, in registration order.
   * @param visible The entries this caller may see (a subsequence of `all`; default `all`).
   * @throws ProtocolError `-32602` for a cursor that is not this list's ({@link decodeCursor}).
   */
  page<T>(list: ListName, all: T[], keyOf: (item: T) => string, cursor: string | undefined, visible = all): Page<T> {
    const size = this.#pageSize;
    if (size === undefined) return { items: visible };
    let positions = this.#positions.get(list);
    if (positions === undefined) this.#positions.set(list, (positions = new ListPositions()));
    positions.sync(all.map(keyOf));
    const at = (item: T) => positions.of(keyOf(item));
    const start = cursor === undefined ? 0 : firstAfter(visible, at, decodeCursor(list, cursor).position);
    const items = visible.slice(start, start + size);
    if (start + size >= visible.length) return { items };
    const last = items[items.length - 1]!;
    return { items, nextCursor: encodeCursor(list, keyOf(last), at(last)) };
  }
}

/** The index of the first of `items` (ascending positions) whose position is above `after`: a binary search. */
function firstAfter<T>(items: T[], positionOf: (item: T) => number, after: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (positionOf(items[mid]!) <= after) low = mid + 1;
    else high = mid;
  }
  return low;
}
