/**
 * The MCP protocol revisions typed-mcp serves, and every behaviour that depends on the revision
 * as a **named feature gate**. No other module compares revision strings: they ask a gate here
 * (docs/runtime.md "Revision shaping"; docs/mapping.md §6 last paragraph for listings and results).
 *
 * Revisions are `YYYY-MM-DD` strings, so "from revision R on" is a plain string comparison
 * `revision >= R`. Each gate takes the request's revision as {@link ClientView.protocolVersion}
 * resolves it (client-view.ts) and returns a boolean.
 *
 * @module
 */

/** The revisions typed-mcp serves, oldest first (the SDK 2.4.0's `SUPPORTED_PROTOCOL_VERSIONS`). */
const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

/** One of {@link REVISIONS}. */
export type Revision = (typeof REVISIONS)[number];

/** The first revision with tool `annotations` (MCP 2025-03-26). */
const ANNOTATIONS_FROM: Revision = "2025-03-26";
/** The first revision with `outputSchema` / `structuredContent` (MCP 2025-06-18). */
const STRUCTURED_FROM: Revision = "2025-06-18";
/** The one revision whose Streamable HTTP takes JSON-RPC batches (MCP 2025-03-26 "Batching"; removed in 2025-06-18). */
const BATCHES_IN: Revision = "2025-03-26";
/** The first revision with tasks (MCP 2025-11-25 "Tasks"; `params.task` on `tools/call`). */
const TASKS_FROM: Revision = "2025-11-25";
/** The first stateless revision: per-request `_meta` envelope, no `initialize`, no server→client requests (MCP 2026-07-28). */
const STATELESS_FROM: Revision = "2026-07-28";

/**
 * The revision assumed for a 2025-era HTTP request without `MCP-Protocol-Version` and without a
 * typed-mcp session (as the SDK and the MCP spec do: Streamable HTTP, "Protocol Version Header").
 */
export const DEFAULT_HTTP_REVISION: Revision = "2025-03-26";

/**
 * The revision of a `subscriptions/listen` request whose `_meta` names none: listen exists only
 * from the first stateless revision on (MCP 2026-07-28 "Subscriptions").
 */
export const LISTEN_REVISION: Revision = STATELESS_FROM;

/** Whether `revision` is one of {@link REVISIONS} (a `MCP-Protocol-Version` header naming another is the SDK's 400). */
export function isServedRevision(revision: string): boolean {
  return (REVISIONS as readonly string[]).includes(revision);
}

/** The 2025-era revisions, negotiated by `initialize` (and the only ones a typed-mcp session id may name, session.ts). */
const LEGACY_REVISIONS: ReadonlySet<string> = new Set(REVISIONS.filter((r) => r < STATELESS_FROM));

/** Whether `revision` is a 2025-era revision (negotiated by `initialize`; MCP 2024-11-05 … 2025-11-25). */
export function isLegacyRevision(revision: string): boolean {
  return LEGACY_REVISIONS.has(revision);
}

/** Tool listings carry `annotations` (from 2025-03-26; spec §6 last paragraph: dropped for 2024-11-05). */
export function hasAnnotations(revision: string): boolean {
  return revision >= ANNOTATIONS_FROM;
}

/** Tool listings carry `outputSchema` and results `structuredContent` (from 2025-06-18; spec §6 last paragraph). */
export function hasStructuredContent(revision: string): boolean {
  return revision >= STRUCTURED_FROM;
}

/**
 * The stateless revision family (from 2026-07-28): every request carries its own `_meta`
 * envelope (revision, client capabilities, client info), there is no `initialize` and no
 * server→client request. The gates below all open with it.
 */
export function isStateless(revision: string): boolean {
  return revision >= STATELESS_FROM;
}

/**
 * `RequestContext.elicit` / `sample` / `listRoots` use the `input_required` result flow
 * (SEP-2322, multi round-trip requests; input-required.ts) instead of server→client requests.
 */
export function inputRequiredFlow(revision: string): boolean {
  return isStateless(revision);
}

/**
 * A request whose declared client capabilities lack what it needs is answered with the SDK's
 * `MissingRequiredClientCapabilityError` (`-32021`, SEP-2575; docs/runtime.md "Missing client
 * capability"). Before: the SDK decides, and an exception stays a tool failure (spec §7).
 */
export function hasMissingCapabilityError(revision: string): boolean {
  return isStateless(revision);
}

/**
 * An unknown resource URI is answered `-32602` (the SDK's `ResourceNotFoundError`); before, the
 * 2025-era code `-32002` (spec §8, docs/resources.md; put back on the wire by sdk-patches.ts).
 */
export function resourceNotFoundIsInvalidParams(revision: string): boolean {
  return isStateless(revision);
}

/**
 * Clients subscribe to resources with `subscriptions/listen` (the SDK's listen routers deliver
 * `notifications/resources/updated`); before, with `resources/subscribe` (subscriptions.ts).
 */
export function subscribesWithListen(revision: string): boolean {
  return isStateless(revision);
}

/** A JSON-RPC batch (JSON-RPC 2.0 §6) is served over Streamable HTTP: only on 2025-03-26 (request-body.ts `refuseBatch`). */
export function takesBatches(revision: string): boolean {
  return revision === BATCHES_IN;
}

/** `revision` came before JSON-RPC batches were added (2024-11-05), rather than after they were removed (2025-06-18 on). */
export function precedesBatches(revision: string): boolean {
  return revision < BATCHES_IN;
}

/** A 2025-era `tools/call` may carry `params.task` (from 2025-11-25, MCP "Tasks"; tasks.ts). */
export function hasTasks(revision: string): boolean {
  return revision >= TASKS_FROM;
}
