/**
 * The keys and channels typed-mcp writes to a {@link StateStore} (docs/scaling.md "Keys"). Every
 * key is `<prefix><kind>:<hash>`: the hash is the base64url SHA-256 of the parts (owner, task id,
 * request id, …) joined with NUL, so no client-chosen id is ever a raw key, another owner's task
 * id hashes to another key, and a key's length does not depend on what a client sent.
 *
 * @module
 */
import { toBase64url } from "../codegen-support/base64.js";

/** The prefix of every key and channel unless the server's `store.prefix` says otherwise. */
const DEFAULT_PREFIX = "tmcp:";

/** What typed-mcp keeps in a store, one kind of key each. */
type KeyKind =
  /** A task record (JSON), under (owner, task id). */
  | "task"
  /** The expiring set of one owner's task ids (`tasks/list`). */
  | "owner"
  /** The expiring set of one quota bucket's running tasks (leases). */
  | "running"
  /** The expiring set of one quota bucket's finished tasks (`maxResults`, `maxResultBytes`). */
  | "results"
  /** One instance's heartbeat. */
  | "instance"
  /** A secret the instances share (the `requestState` key). */
  | "secret"
  /** One event of a 2025-era SSE stream kept for resumption, under (owner, stream id, sequence). */
  | "event";

/** The fan-out channels (one subscription per instance each; messages are JSON). */
export type Channel =
  | "resource-updated"
  | "list-changed"
  | "cancel-call"
  | "cancel-task"
  | "task-input"
  | "task-settled"
  | "client-answer";

/** Makes the keys of one server in one store. */
export class Keys {
  constructor(readonly prefix: string = DEFAULT_PREFIX) {}

  /** The key of `kind` for `parts` (hashed; see the module comment). */
  async key(kind: KeyKind, ...parts: string[]): Promise<string> {
    return `${this.prefix}${kind}:${await digest(parts)}`;
  }

  /** The name of `channel`. */
  channel(channel: Channel): string {
    return `${this.prefix}ch:${channel}`;
  }
}

/** The base64url SHA-256 of `parts` joined with NUL (each part UTF-8). */
export async function digest(parts: readonly string[]): Promise<string> {
  const bytes = new TextEncoder().encode(parts.join("\0"));
  return toBase64url(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}
