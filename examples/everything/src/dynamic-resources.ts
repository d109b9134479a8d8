/**
 * The dynamic demo resources (`demo://resource/dynamic/{text,blob}/{resourceId}`) shared by the
 * resource templates, the `resource-prompt` prompt and the `get-resource-*` tools: the contents
 * are made on each read and carry the local time of day, as the original server's do.
 */
import type { BlobResourceContents, TextResourceContents } from "typed-mcp";

/** The two kinds of dynamic resource, as the original names them. */
export type ResourceType = "Text" | "Blob";

/** The URI of dynamic resource `id` of `type`, e.g. `demo://resource/dynamic/text/1`. */
function dynamicUri(type: ResourceType, id: number): string {
  return `demo://resource/dynamic/${type === "Text" ? "text" : "blob"}/${id}`;
}

/** A text resource's contents: `Resource <id>: This is a plaintext resource created at <local time>`. */
export function textContents(uri: string, id: number): TextResourceContents {
  return {
    uri,
    mimeType: "text/plain",
    text: `Resource ${id}: This is a plaintext resource created at ${new Date().toLocaleTimeString()}`,
  };
}

/** A blob resource's contents: the base64 of `Resource <id>: This is a base64 blob created at <local time>` (MIME type `text/plain`, as the original sends). */
export function blobContents(uri: string, id: number): BlobResourceContents {
  const text = `Resource ${id}: This is a base64 blob created at ${new Date().toLocaleTimeString()}`;
  return { uri, mimeType: "text/plain", blob: Buffer.from(text).toString("base64") };
}

/** The contents of dynamic resource `id` of `type` at its URI. */
export function dynamicContents(type: ResourceType, id: number): TextResourceContents | BlobResourceContents {
  const uri = dynamicUri(type, id);
  return type === "Text" ? textContents(uri, id) : blobContents(uri, id);
}

/**
 * Checks a resource id the way the original does (a finite positive integer).
 * @throws Error naming the value, `Invalid resourceId: <id>. Must be a finite positive integer.`
 */
export function checkResourceId(id: number): number {
  if (!Number.isFinite(id) || !Number.isInteger(id) || id < 1)
    throw new Error(`Invalid resourceId: ${id}. Must be a finite positive integer.`);
  return id;
}
