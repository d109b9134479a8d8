/**
 * docs/architecture.md "Adding a type kind" lists every `assertNever` call site in
 * `packages/*\/src` (the checklist the compiler gives for a new kind). This test finds them in the
 * sources — each call with the function it stands in, by oxc's AST — and compares them with the
 * page's table, so the checklist cannot drift from the code.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync } from "../../packages/extract/node_modules/oxc-parser/src-js/index.js";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === "node_modules" || e.name === "dist"
        ? []
        : sources(join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")
        ? [join(dir, e.name)]
        : [],
  );
}

type Node = { type?: string; [key: string]: unknown };

/** The name a function node is known by: its own id, its variable, its property or method key. */
function nameOf(node: Node, parent: Node | undefined): string | undefined {
  const id = node["id"] as Node | null | undefined;
  if (id && typeof id["name"] === "string") return id["name"];
  if (parent?.type === "VariableDeclarator") return ((parent["id"] as Node)["name"] as string) ?? undefined;
  if (parent?.type === "MethodDefinition" || parent?.type === "Property" || parent?.type === "PropertyDefinition") {
    const key = parent["key"] as Node;
    return (key["name"] as string) ?? (key["value"] as string) ?? undefined;
  }
  return undefined;
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** `file function` for every `assertNever(…)` call of one module (the nearest named enclosing function). */
function sitesOf(file: string): string[] {
  const { program } = parseSync(file, readFileSync(file, "utf8"));
  const found: string[] = [];
  const walk = (node: unknown, parent: Node | undefined, names: string[]): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n, parent, names);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const n = node as Node;
    let inner = names;
    if (n.type && FUNCTIONS.has(n.type)) {
      const name = nameOf(n, parent);
      if (name !== undefined) inner = [...names, name];
    }
    if (
      n.type === "CallExpression" &&
      (n["callee"] as Node).type === "Identifier" &&
      (n["callee"] as Node)["name"] === "assertNever"
    ) {
      found.push(`${relative(root, file).replaceAll("\\", "/")} ${inner.at(-1) ?? "(top level)"}`);
    }
    for (const [key, value] of Object.entries(n))
      if (key !== "type" && value && typeof value === "object") walk(value, n, inner);
  };
  walk(program, undefined, []);
  return found;
}

it("docs/architecture.md lists every assertNever call site of packages/*/src, and no other", () => {
  const inCode = readdirSync(join(root, "packages"))
    .flatMap((p) => {
      try {
        return sources(join(root, "packages", p, "src"));
      } catch {
        return [];
      }
    })
    .flatMap(sitesOf);
  const page = readFileSync(join(root, "docs/architecture.md"), "utf8");
  const section = page.slice(
    page.indexOf("## Adding a type kind"),
    page.indexOf("\n## ", page.indexOf("## Adding a type kind") + 1),
  );
  // Rows of the "Every call site" table: | `file` | `function` | union | … |
  const listed = [...section.matchAll(/^\| `(packages\/[^`]+)` \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
  expect([...new Set(listed)].sort()).toEqual([...new Set(inCode)].sort());
  expect(inCode.length).toBeGreaterThan(10);
});
