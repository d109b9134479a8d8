/**
 * `list_changed` and `resources/updated` across instances (docs/scaling.md "Fan-out"): what one
 * instance announces is delivered to its own clients as without a store, and published on the
 * shared store; every other instance delivers what it receives to its own clients (lasting
 * connections and 2026-07-28 `subscriptions/listen` streams), without publishing it again.
 *
 * Registrations themselves are not replicated: every instance runs the same code, so each applies
 * its own `removeTool` / `addTools`; the store carries only the notification, so that clients
 * connected to another instance hear of it and list again (docs/scaling.md "Dynamic lists").
 * Publishing is best effort (pub/sub is at most once; a store outage loses the notification).
 *
 * @module
 */
import type { ListKind } from "../server/dynamic-lists.js";
import type { SharedInstance } from "./shared.js";

/** What this instance delivers to its own clients. */
interface LocalDelivery {
  /** Whether list changes are announced at all (the server's `dynamic` option). */
  readonly dynamic: boolean;
  lists(kinds: readonly ListKind[]): void;
  resource(uri: string): Promise<void>;
}

/** The announcing of one server: here, and on every instance when `shared` is given. */
interface FanOut {
  listsChanged(kinds: readonly ListKind[]): void;
  resourceUpdated(uri: string): Promise<void>;
}

const KINDS: ReadonlySet<string> = new Set<ListKind>(["tools", "resources", "prompts"]);

/** The {@link FanOut} of a server: `local` alone without a shared store. */
export function shareFanOut(shared: SharedInstance | undefined, local: LocalDelivery): FanOut {
  if (shared === undefined) return { listsChanged: (kinds) => local.lists(kinds), resourceUpdated: local.resource };
  shared.on("list-changed", (message) => {
    const kinds = message["kinds"];
    if (message["from"] === shared.id || !Array.isArray(kinds)) return;
    local.lists(kinds.filter((k): k is ListKind => typeof k === "string" && KINDS.has(k)));
  });
  shared.on("resource-updated", (message) => {
    const uri = message["uri"];
    if (message["from"] !== shared.id && typeof uri === "string") void local.resource(uri).catch(() => {});
  });
  return {
    listsChanged(kinds) {
      local.lists(kinds);
      // Registrations before serving are every instance's own start-up: nothing to tell the others.
      if (local.dynamic && shared.started && kinds.length > 0)
        void shared.publish("list-changed", { from: shared.id, kinds: [...new Set(kinds)] }).catch(() => {});
    },
    async resourceUpdated(uri) {
      await local.resource(uri);
      await shared.publish("resource-updated", { from: shared.id, uri }).catch(() => {});
    },
  };
}
