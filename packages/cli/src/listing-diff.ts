/**
 * What changed between two listings of `typed-mcp list` — the lines `typed-mcp dev` prints after
 * each rebuild (docs/cli.md "dev").
 *
 * @module
 */
import type { Listing } from "./list.js";

/** The label and key of each list a {@link Listing} holds, in print order. */
const KINDS = [
  { list: "tools", label: "tool", key: "name" },
  { list: "resources", label: "resource", key: "uri" },
  { list: "resourceTemplates", label: "resource template", key: "uriTemplate" },
  { list: "prompts", label: "prompt", key: "name" },
] as const;

/** The dotted paths under which `a` and `b` differ: a key on one side only, or a different non-object value (arrays compare whole). Listings are our own, finite data. */
function differences(a: unknown, b: unknown, path: string, out: string[]): void {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const p = path === "" ? k : `${path}.${k}`;
      if (!(k in a) || !(k in b)) out.push(p);
      else differences(a[k], b[k], p, out);
    }
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    out.push(path === "" ? "(value)" : path);
  }
}

/**
 * The lines that say how `after` differs from `before` (either may be empty lists), in the
 * order tools, resources, resource templates, prompts: `+ tool x` (new), `- tool x` (gone),
 * `~ tool x: description, inputSchema.properties.limit` (changed; the sorted dotted paths of the
 * listing entry, MCP field names, where a key was added or removed or a value changed).
 * Entries are matched by `name` (tools, prompts), `uri` (resources) or `uriTemplate`.
 */
export function diffListings(before: Listing, after: Listing): string[] {
  const lines: string[] = [];
  for (const { list, label, key } of KINDS) {
    const keyOf = (e: object) => String((e as Record<string, unknown>)[key]);
    const old = new Map<string, object>(before[list].map((e) => [keyOf(e), e]));
    const now = new Map<string, object>(after[list].map((e) => [keyOf(e), e]));
    for (const [k, e] of now) {
      const was = old.get(k);
      if (was === undefined) lines.push(`+ ${label} ${k}`);
      else {
        const paths: string[] = [];
        differences(was, e, "", paths);
        if (paths.length > 0) lines.push(`~ ${label} ${k}: ${paths.sort().join(", ")}`);
      }
    }
    for (const k of old.keys()) if (!now.has(k)) lines.push(`- ${label} ${k}`);
  }
  return lines;
}
