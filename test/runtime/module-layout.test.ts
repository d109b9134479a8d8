/**
 * docs/runtime.md "Module layout" draws the tree of `packages/typed-mcp/src`: the files at its top
 * and, one line per folder, every module of that folder. This test reads the tree from the page
 * and compares it with the folder on disk, so a module added, moved or removed without its line
 * fails here instead of leaving a newcomer a stale map (issue 19's fresh-user check found ten
 * modules missing from it).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const src = join(root, "packages/typed-mcp/src");

/** The lines of the first fenced block after the "## Module layout" heading. */
function treeLines(): string[] {
  const page = readFileSync(join(root, "docs/runtime.md"), "utf8");
  const section = page.slice(page.indexOf("## Module layout"));
  const block = /```\n([\s\S]*?)```/.exec(section);
  if (!block?.[1]) throw new Error('docs/runtime.md has no tree block under "## Module layout"');
  return block[1].split("\n");
}

/** Folder → its `.ts` files as the page lists them; `""` is the top of `src/`. */
function documented(): Map<string, string[]> {
  const tree = new Map<string, string[]>([["", []]]);
  for (const line of treeLines()) {
    const folder = /^ {2}([a-z-]+)\/\s+(.*)$/.exec(line);
    if (folder) {
      const [, name, rest] = folder as unknown as [string, string, string];
      // "(entry otel.ts)" before the colon names the folder's entry at the top of src/.
      const colon = rest.indexOf(":");
      for (const entry of rest.slice(0, colon).match(/[a-z0-9-]+\.ts/g) ?? []) tree.get("")?.push(entry);
      tree.set(name, rest.slice(colon + 1).match(/[a-z0-9-]+\.ts/g) ?? []);
    } else if (line.startsWith("  ")) {
      tree.get("")?.push(...(line.match(/[a-z0-9-]+\.ts/g) ?? []));
    }
  }
  return tree;
}

/** Folder → its `.ts` files on disk; `""` is the top of `src/`. */
function onDisk(): Map<string, string[]> {
  const tree = new Map<string, string[]>([["", []]]);
  for (const e of readdirSync(src, { withFileTypes: true })) {
    if (e.isDirectory()) {
      tree.set(
        e.name,
        readdirSync(join(src, e.name)).filter((f) => f.endsWith(".ts")),
      );
    } else if (e.name.endsWith(".ts")) tree.get("")?.push(e.name);
  }
  return tree;
}

const sorted = (tree: Map<string, string[]>) =>
  Object.fromEntries(
    [...tree].map(([k, v]) => [k, [...v].sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))),
  );

it('docs/runtime.md "Module layout" lists every module of packages/typed-mcp/src, and no other', () => {
  const page = documented();
  // The parse itself found the tree: the folders the page's prose names are there.
  expect([...page.keys()]).toEqual(expect.arrayContaining(["server", "calls", "protocol", "codegen-support"]));
  expect(page.get("")).toContain("server.ts");
  expect(sorted(page)).toEqual(sorted(onDisk()));
});
