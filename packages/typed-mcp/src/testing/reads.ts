/**
 * Typed reads of `typed-mcp/testing` (docs/testing.md "Resources and prompts"): positional
 * arguments → a resource template's URI (RFC 6570, the SDK's `UriTemplate`) or a prompt's
 * `arguments`, each value in the string form spec §8 reads it from; the answer as it arrived.
 *
 * @module
 */
import { UriTemplate } from "@modelcontextprotocol/client";
import type { Client, GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/client";
import type { GeneratedPrompt, GeneratedResource } from "../codegen-support/resource-descriptors.js";

/** A value in the string form spec §8 reads (`Date` → RFC 3339, `URL` → href, numbers and booleans as written). */
function stringOf(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof URL) return value.href;
  return String(value);
}

/** Zips `args` with `names` (`undefined` left out). @throws TypeError for more arguments than names. */
function named(what: string, names: readonly string[], args: readonly unknown[]): Record<string, string> {
  if (args.length > names.length)
    throw new TypeError(`typed-mcp/testing: ${what} takes ${names.length} argument(s), got ${args.length}.`);
  const out: Record<string, string> = {};
  args.forEach((a, i) => {
    if (a !== undefined) out[names[i]!] = stringOf(a);
  });
  return out;
}

/**
 * `resources/read` of `descriptor`'s resource: its fixed URI, or its template expanded with `args`
 * in parameter order. @throws the client's `ProtocolError` (e.g. `-32602` with the §5 text of a variable).
 */
export async function typedRead(
  client: Client,
  descriptor: GeneratedResource,
  args: readonly unknown[],
): Promise<ReadResourceResult> {
  const listing = descriptor.listing as { uri?: string; uriTemplate?: string };
  const uri =
    listing.uriTemplate === undefined
      ? (listing.uri ?? "")
      : new UriTemplate(listing.uriTemplate).expand(named(listing.uriTemplate, descriptor.params ?? [], args));
  return client.readResource({ uri });
}

/** `prompts/get` of `descriptor`'s prompt with `args` under its listed argument names. @throws as {@link typedRead}. */
export async function typedPrompt(
  client: Client,
  descriptor: GeneratedPrompt,
  args: readonly unknown[],
): Promise<GetPromptResult> {
  const names = (descriptor.listing.arguments ?? []).map((a) => a.name);
  const name = descriptor.listing.name;
  return client.getPrompt({ name, arguments: named(`prompt ${name}`, names, args) });
}
