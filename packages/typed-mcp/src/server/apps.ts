/**
 * MCP Apps UI resources (spec §9, MCP Apps extension `io.modelcontextprotocol/ui`, stable
 * 2026-01-26): `server.addUiResource(uri, html, options)` and the check that every tool's
 * `uiResource` names a registered resource.
 *
 * @module
 */
import type { GeneratedResource, ResourceListingEntry } from "../codegen-support/resource-descriptors.js";

/** The MCP Apps extension id (spec §9): the key of `capabilities.extensions` on both sides. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";

/** The MIME type of an MCP Apps HTML view (spec §9; MCP Apps "UI Resource Format"). */
export const UI_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * Content Security Policy domains a view asks the host for (MCP Apps `McpUiResourceCsp`). Each
 * list is of origins, e.g. `https://api.example.com`; omitted or empty means none, and the host
 * then applies the extension's restrictive default (`default-src 'none'`, inline script and style
 * only, `connect-src 'none'`).
 */
export interface UiResourceCsp {
  /** Origins for fetch / XHR / WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** Origins for images, scripts, stylesheets, fonts, media (`img-src`, `script-src`, …). */
  resourceDomains?: string[];
  /** Origins for nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** Allowed `<base>` URIs (`base-uri`). */
  baseUriDomains?: string[];
}

/** Browser permissions a view asks for (MCP Apps; hosts MAY grant them through the iframe's `allow`). */
export interface UiResourcePermissions {
  /** `{}`: ask for the camera (Permission Policy `camera`). */
  camera?: Record<string, never>;
  /** `{}`: ask for the microphone (Permission Policy `microphone`). */
  microphone?: Record<string, never>;
  /** `{}`: ask for the location (Permission Policy `geolocation`). */
  geolocation?: Record<string, never>;
  /** `{}`: ask to write the clipboard (Permission Policy `clipboard-write`). */
  clipboardWrite?: Record<string, never>;
}

/** MCP Apps `UIResourceMeta`: the `ui` entry of a UI resource's `_meta`. */
export interface UiResourceMeta {
  /** Network and resource origins the view needs; see {@link UiResourceCsp}. */
  csp?: UiResourceCsp;
  /** Permissions the view asks for; see {@link UiResourcePermissions}. */
  permissions?: UiResourcePermissions;
  /** A dedicated sandbox origin for the view (format decided by each host). */
  domain?: string;
  /** `true`: ask the host for a visible border and background; `false`: none; omitted: host decides. */
  prefersBorder?: boolean;
}

/** Options of {@link McpServer.addUiResource} (spec §9). */
export interface UiResourceOptions {
  /** The resource's `name` in `resources/list`; default: the URI. */
  name?: string;
  /** The resource's human-readable `title`. */
  title?: string;
  /** The resource's `description`. */
  description?: string;
  /**
   * The resource's `_meta`, written both in its `resources/list` entry and on the contents
   * `resources/read` returns (where MCP Apps hosts read `_meta.ui`). Usually
   * `{ ui: { csp, permissions, domain, prefersBorder } }`; other keys are passed through.
   */
  _meta?: { ui?: UiResourceMeta; [key: string]: unknown };
}

/** The HTML of a view, or a function that makes it (called on every `resources/read`). */
export type UiResourceHtml = string | (() => string | Promise<string>);

/** A {@link GeneratedResource} for one UI resource, and the function that returns its HTML. */
export interface UiResourceParts {
  /** Listing, reader (no arguments) and writer (one text contents) of the resource. */
  descriptor: GeneratedResource;
  /** Returns the HTML (or a promise of it). */
  fn: () => unknown;
}

/**
 * Builds the resource behind `server.addUiResource(uri, html, options)`: listed with key order
 * `uri, name, title, description, mimeType, _meta` (spec §8), MIME type {@link UI_MIME_TYPE};
 * read as `{ contents: [{ uri, mimeType, text, _meta? }] }`.
 *
 * @throws Error when `uri` does not start with `ui://` (naming it), TypeError when `html` is
 *   neither a string nor a function or an option has the wrong type.
 */
export function uiResourceParts(uri: string, html: UiResourceHtml, options: UiResourceOptions = {}): UiResourceParts {
  if (typeof uri !== "string" || !uri.startsWith("ui://") || uri.length <= "ui://".length) {
    throw new Error(
      `typed-mcp: server.addUiResource(${JSON.stringify(uri)}, …): an MCP Apps UI resource URI must start with "ui://" (spec §9).`,
    );
  }
  if (typeof html !== "string" && typeof html !== "function") {
    throw new TypeError(
      `typed-mcp: server.addUiResource(${JSON.stringify(uri)}, …): the HTML must be a string or a function returning one.`,
    );
  }
  for (const key of ["name", "title", "description"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "string") {
      throw new TypeError(
        `typed-mcp: server.addUiResource(${JSON.stringify(uri)}, …): option ${key} must be a string.`,
      );
    }
  }
  const meta = options._meta;
  if (meta !== undefined && (typeof meta !== "object" || meta === null || Array.isArray(meta))) {
    throw new TypeError(`typed-mcp: server.addUiResource(${JSON.stringify(uri)}, …): option _meta must be an object.`);
  }
  const listing: ResourceListingEntry & { _meta?: Record<string, unknown> } = {
    uri,
    name: options.name ?? uri,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.description !== undefined && { description: options.description }),
    mimeType: UI_MIME_TYPE,
    ...(meta !== undefined && { _meta: meta }),
  };
  const descriptor: GeneratedResource = {
    listing,
    read: () => [],
    write(value: unknown, requested: string) {
      if (typeof value !== "string") throw new TypeError(`the HTML of ${uri} is not a string`);
      return {
        contents: [{ uri: requested, mimeType: UI_MIME_TYPE, text: value, ...(meta !== undefined && { _meta: meta }) }],
      };
    },
  };
  const fn = typeof html === "string" ? () => html : () => html();
  return { descriptor, fn };
}

/** A tool whose `_meta.ui.resourceUri` names no registered resource. */
export interface MissingUiResource {
  /** The tool's name. */
  tool: string;
  /** Its `_meta.ui.resourceUri`. */
  resourceUri: string;
}

/** The message for {@link MissingUiResource} (a warning; see docs/apps.md). */
export function missingUiResourceMessage(m: MissingUiResource): string {
  return (
    `typed-mcp: tool ${JSON.stringify(m.tool)} renders its results with ${JSON.stringify(m.resourceUri)} (uiResource), ` +
    `but no resource with that URI is registered on this server; MCP Apps hosts will fail to show it. ` +
    `Register it with server.addUiResource(${JSON.stringify(m.resourceUri)}, html).`
  );
}
