/**
 * The per-client view: what the client of one request negotiated (revision, capabilities,
 * client info, MCP Apps) and what it therefore sees — revision-shaped tool listings and results
 * (spec §6 last paragraph) and MCP Apps gating (spec §9). docs/runtime.md "Revision shaping" and
 * "MCP Apps gating" are the rules implemented here.
 *
 * @module
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";
import type { ClientCapabilities, Implementation, Server, ServerContext } from "@modelcontextprotocol/server";
import type { ToolListing } from "@typed-mcp/model";
import { UI_EXTENSION } from "../server/apps.js";
import { DEFAULT_HTTP_REVISION, hasAnnotations, hasStructuredContent } from "../protocol/revisions.js";
import { decodeSession } from "../protocol/session.js";
import type { CallToolResult } from "../types.js";

/** What a request's client may see: the shape of listings and results (spec §6, §9). */
export interface ClientView {
  /** The request's revision (see {@link viewOf} for where it comes from). */
  readonly protocolVersion: string;
  /** `outputSchema` / `structuredContent` are sent ({@link hasStructuredContent}). */
  readonly structured: boolean;
  /** `annotations` are sent ({@link hasAnnotations}). */
  readonly annotations: boolean;
  /** The client negotiated the MCP Apps extension (`capabilities.extensions["io.modelcontextprotocol/ui"]`). */
  readonly apps: boolean;
  /** The client's `clientInfo`, when known. */
  readonly clientInfo: Implementation | undefined;
  /** The client's declared capabilities, when known. */
  readonly clientCapabilities: ClientCapabilities | undefined;
}

/**
 * What the client of this request negotiated. The revision is the request's 2026 envelope
 * (`io.modelcontextprotocol/protocolVersion`), else the one negotiated by `initialize` on this
 * instance, else the typed-mcp session id of a stateless 2025-era HTTP request (session.ts),
 * else its `MCP-Protocol-Version` header, else {@link DEFAULT_HTTP_REVISION}. Capabilities and
 * client info come from the same sources, in the same order.
 *
 * @param sdk The SDK `Server` instance serving the request.
 * @param ctx The SDK's context of the request.
 */
export function viewOf(sdk: Server, ctx: ServerContext): ClientView {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = envelope?.[PROTOCOL_VERSION_META_KEY];
  const negotiated = sdk.getNegotiatedProtocolVersion();
  // A stateless 2025-era HTTP request: what its `initialize` negotiated travels in Mcp-Session-Id (session.ts).
  const session =
    typeof fromEnvelope !== "string" && negotiated === undefined
      ? decodeSession(ctx.http?.req?.headers.get("mcp-session-id"))
      : undefined;
  const protocolVersion =
    (typeof fromEnvelope === "string" ? fromEnvelope : undefined) ??
    negotiated ??
    session?.protocolVersion ??
    ctx.http?.req?.headers.get("mcp-protocol-version") ??
    DEFAULT_HTTP_REVISION;
  const clientCapabilities =
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ??
    sdk.getClientCapabilities() ??
    session?.clientCapabilities;
  const clientInfo =
    (envelope?.[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? sdk.getClientVersion() ?? session?.clientInfo;
  return {
    protocolVersion,
    structured: hasStructuredContent(protocolVersion),
    annotations: hasAnnotations(protocolVersion),
    apps: negotiatedApps(clientCapabilities),
    clientInfo,
    clientCapabilities,
  };
}

/** Whether declared client capabilities have an `extensions["io.modelcontextprotocol/ui"]` key (spec §9). */
function negotiatedApps(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return (
    extensions !== undefined &&
    extensions !== null &&
    typeof extensions === "object" &&
    Object.hasOwn(extensions, UI_EXTENSION)
  );
}

/** A tool as the view needs it: its full listing, and whether only apps may see it. */
export interface ListedTool {
  readonly listing: ToolListing;
  /** Listed only to clients that negotiated MCP Apps (`_meta.ui.visibility` has `"app"` but not `"model"`). */
  readonly appOnly: boolean;
}

/**
 * The `tools/list` arrays of one registry, memoized per view shape (structured, annotations,
 * apps). {@link invalidate} after every registration.
 */
export class ToolListings {
  #cache = new Map<string, ToolListing[]>();

  /**
   * The `tools` array for a client view (spec §1, §6 last paragraph, §9): tools in registration
   * order, app-only tools left out unless the client negotiated MCP Apps, each listing shaped by
   * {@link shapeListing}. The same array object is returned until {@link invalidate}.
   */
  list(tools: Iterable<ListedTool>, view: ClientView): ToolListing[] {
    const key = `${+view.structured}${+view.annotations}${+view.apps}`;
    let listed = this.#cache.get(key);
    if (listed === undefined) {
      listed = [];
      for (const tool of tools) {
        if (tool.appOnly && !view.apps) continue;
        listed.push(shapeListing(tool.listing, view));
      }
      this.#cache.set(key, listed);
    }
    return listed;
  }

  /** Forgets every memoized array (the registered tools changed). */
  invalidate(): void {
    this.#cache = new Map();
  }
}

/**
 * A listing shaped for a client (spec §6 last paragraph, §9), key order kept: without
 * `outputSchema` before 2025-06-18, without `annotations` before 2025-03-26, and without
 * `_meta.ui` (and `_meta` when nothing else is left) for a client without MCP Apps.
 */
function shapeListing(listing: ToolListing, view: ClientView): ToolListing {
  if (view.structured && view.annotations && view.apps) return listing;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(listing)) {
    const value = (listing as unknown as Record<string, unknown>)[key];
    if (key === "outputSchema" && !view.structured) continue;
    if (key === "annotations" && !view.annotations) continue;
    if (key === "_meta" && !view.apps) {
      const meta = omit(value as Record<string, unknown>, "ui");
      if (Object.keys(meta).length > 0) out[key] = meta;
      continue;
    }
    out[key] = value;
  }
  return out as unknown as ToolListing;
}

/** A tool result shaped for a client (spec §6 last paragraph): without `structuredContent` before 2025-06-18. */
export function shapeResult(result: CallToolResult, view: ClientView): CallToolResult {
  return view.structured || result.structuredContent === undefined ? result : omit(result, "structuredContent");
}

/** A copy of `value` without `key`, other keys in their order. */
function omit<T extends object>(value: T, key: string): T {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) if (k !== key) out[k] = (value as Record<string, unknown>)[k];
  return out as T;
}
