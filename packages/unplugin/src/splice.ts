/**
 * The splice step: puts generated tool descriptors into a module's source text and removes the
 * build-time `@tool(...)` markers, with an exact source map (magic-string).
 *
 * Generated code reaches the runtime only through `typed-mcp/internal`, imported as the namespace
 * `__tmcp`:
 * - a class with `@tool()` methods gets `static { __tmcp.defineTools(this, [ …descriptors ]); }`
 *   as the first member of its body (spec §1 generator path); the decorators are removed, so the
 *   output never depends on a bundler's decorator support;
 * - a quick-path call `server.tool("name", [options,] fn)` gets one more argument,
 *   `__tmcp.generated({ …descriptor })` (spec §1 quick path).
 *
 * @packageDocumentation
 */
import MagicString from "magic-string";
import type { ToolModel } from "@typed-mcp/model";
import { generateTool, RUNTIME_NAMESPACE, type ImportRequest } from "@typed-mcp/codegen";

/** The module specifier generated code imports its runtime helpers from. */
export const RUNTIME_MODULE = "typed-mcp/internal";

/** The result of {@link spliceTools}: the new module text and its source map (v3, `hires`). */
export interface SpliceResult {
  code: string;
  map: ReturnType<MagicString["generateMap"]>;
}

/**
 * Splices the generated code for `tools` into `code` (the module text extraction was given;
 * every `ToolSite` offset refers to it).
 *
 * @param code The module's source text.
 * @param id The module id, used as the source map's source.
 * @param tools The tools extraction found in this module (no diagnostics may be pending).
 * @returns The transformed module with a source map, or `undefined` when there are no tools.
 */
export function spliceTools(code: string, id: string, tools: readonly ToolModel[]): SpliceResult | undefined {
  if (tools.length === 0) return undefined;
  const s = new MagicString(code);
  const imports: ImportRequest[] = [];
  const classes = new Map<number, string[]>();

  for (const tool of tools) {
    const generated = generateTool(tool);
    imports.push(...generated.imports);
    const site = tool.site;
    if (site.kind === "method") {
      s.remove(site.decorator[0], site.decorator[1]);
      let list = classes.get(site.classBodyStart);
      if (!list) classes.set(site.classBodyStart, (list = []));
      list.push(generated.code);
    } else {
      const sep = site.trailingComma ? " " : ", ";
      s.appendLeft(site.callEnd, `${sep}${RUNTIME_NAMESPACE}.generated(${generated.code})`);
    }
  }
  for (const [bodyStart, list] of classes) {
    s.appendRight(bodyStart, ` static { ${RUNTIME_NAMESPACE}.defineTools(this, [${list.join(", ")}]); }`);
  }

  const seen = new Set<string>();
  let header = `import * as ${RUNTIME_NAMESPACE} from ${JSON.stringify(RUNTIME_MODULE)};`;
  for (const imp of imports) {
    const line = `import { ${imp.exportName} as ${imp.local} } from ${JSON.stringify(imp.from)};`;
    if (!seen.has(line)) {
      seen.add(line);
      header += line;
    }
  }
  s.prepend(header + "\n");
  return { code: s.toString(), map: s.generateMap({ hires: true, source: id, includeContent: true }) };
}
