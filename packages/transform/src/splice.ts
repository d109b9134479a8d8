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
import type { CompletionHookModel, PromptModel, ResourceModel, ToolModel } from "@typed-mcp/model";
import type { ModuleMemo, ModuleMemory } from "./memory.js";
import {
  generatePrompt,
  generateResource,
  generateTool,
  helperCall,
  RUNTIME_NAMESPACE,
  type ImportRequest,
  type Profile,
  type SharedUnit,
} from "@typed-mcp/codegen";
import { unitDeclaration, unitImport, type ShareMode } from "./units.js";

/** The module specifier generated code imports its runtime helpers from. */
export const RUNTIME_MODULE = "typed-mcp/internal";

/** The result of {@link spliceModule}: the new module text and its source map (v3, `hires: "boundary"`: a mapping at every word boundary of the original text). */
export interface SpliceResult {
  code: string;
  map: ReturnType<MagicString["generateMap"]>;
  /** The shared units the module imports (`share: "virtual"`), for the host to load (units.ts); else empty. */
  units: SharedUnit[];
}

/**
 * What a module's splice is made of besides its tools (see {@link spliceModule}): the rest of its
 * model (resources, prompts, `@complete` hooks) and the build's options (profile, shared units).
 */
export interface SpliceInput {
  resources?: readonly ResourceModel[];
  prompts?: readonly PromptModel[];
  /** `@complete` hooks of the module's classes (docs/resources.md "Completion hooks"). */
  completions?: readonly CompletionHookModel[];
  profile?: Profile;
  /**
   * How the tools' shared units (one schema constant, reader and writer per object type,
   * docs/architecture.md "Shared types") are bound: imported from virtual modules, or declared at
   * the module's top (units.ts). Default: none, every type is inlined at each use.
   */
  share?: ShareMode;
}

/**
 * What the splice puts where, as plain data: {@link spliceModule} applies it to the module text
 * with magic-string; `@typed-mcp/babel` applies the same plan to Babel's AST. Offsets are UTF-16
 * offsets into the module text extraction was given.
 */
export interface SplicePlan {
  /** `[start, end)` of every `@tool(...)`/`@resource(...)`/`@prompt(...)` decorator, to remove. */
  removals: [number, number][];
  /**
   * Per class (offset just after the `{` that opens its body, see `ToolSite`), the member to
   * insert there: `` static { __tmcp.defineTools(this, [ … ]); … }`` (with a leading space).
   */
  classBlocks: { bodyStart: number; code: string }[];
  /**
   * Per quick-path call (offset of its closing `)`), the argument to append:
   * `__tmcp.generated({ … })`; `trailingComma` tells whether the call already ends with `,`.
   */
  quickArgs: { callEnd: number; trailingComma: boolean; code: string }[];
  /**
   * The import declarations the generated code needs, on one line (no newline): `import * as __tmcp from "typed-mcp/internal";…`,
   * then the module's shared units (imports, or declarations with `share: "hoist"`).
   */
  header: string;
  /** Every shared unit the module's tools use, each unit after the units it refers to (empty without `share`). */
  units: SharedUnit[];
}

/** The class-storage helpers a class's `static {}` block calls. */
type ClassDefine = "defineTools" | "defineResources" | "definePrompts" | "defineCompletions";

/**
 * Plans the splice for a module's tools, resources and prompts (see {@link spliceModule} for the
 * parameters): generates their code (`@typed-mcp/codegen`) and says where it goes.
 *
 * @returns The plan, or `undefined` when there is nothing to splice.
 */
export function planSplice(
  tools: readonly ToolModel[],
  more: SpliceInput = {},
  memo?: ModuleMemo,
): SplicePlan | undefined {
  const resources = more.resources ?? [];
  const prompts = more.prompts ?? [];
  if (tools.length === 0 && resources.length === 0 && prompts.length === 0) {
    memo?.done();
    return undefined;
  }
  const plan: SplicePlan = { removals: [], classBlocks: [], quickArgs: [], header: "", units: [] };
  const units = new Map<string, SharedUnit>();
  const imports: ImportRequest[] = [];
  const classes = new Map<number, Record<ClassDefine, string[]>>();
  const listsOf = (bodyStart: number): Record<ClassDefine, string[]> => {
    let lists = classes.get(bodyStart);
    if (!lists)
      classes.set(
        bodyStart,
        (lists = { defineTools: [], defineResources: [], definePrompts: [], defineCompletions: [] }),
      );
    return lists;
  };

  const place = (
    site: ToolModel["site"],
    generated: { code: string; imports: ImportRequest[]; units?: SharedUnit[] },
    define: "defineTools" | "defineResources" | "definePrompts",
  ) => {
    imports.push(...generated.imports);
    for (const u of generated.units ?? []) if (!units.has(u.id)) units.set(u.id, u);
    if (site.kind === "method") {
      plan.removals.push([site.decorator[0], site.decorator[1]]);
      listsOf(site.classBodyStart)[define].push(generated.code);
    } else {
      plan.quickArgs.push({
        callEnd: site.callEnd,
        trailingComma: site.trailingComma,
        code: helperCall("generated", generated.code),
      });
    }
  };
  const gen: ModuleMemo["code"] = memo ? memo.code : (_kind, model, generate) => generate(model);
  const share = more.share !== undefined;
  for (const tool of tools)
    place(
      tool.site,
      gen(share ? "shared-tool" : "tool", tool, (t: ToolModel) => generateTool(t, { profile: more.profile, share })),
      "defineTools",
    );
  for (const r of resources) place(r.site, gen("resource", r, generateResource), "defineResources");
  for (const p of prompts) place(p.site, gen("prompt", p, generatePrompt), "definePrompts");
  memo?.done();
  // `@complete` hooks: plain data, no generated code (docs/resources.md "Completion hooks").
  for (const c of more.completions ?? []) {
    plan.removals.push([c.decorator[0], c.decorator[1]]);
    listsOf(c.classBodyStart).defineCompletions.push(
      JSON.stringify({ prompt: c.prompt, argument: c.argument, member: c.member, static: c.static, given: c.given }),
    );
  }
  for (const [bodyStart, lists] of classes) {
    const calls = (["defineTools", "defineResources", "definePrompts", "defineCompletions"] as const)
      .filter((k) => lists[k].length > 0)
      .map((k) => `${helperCall(k, "this", `[${lists[k].join(", ")}]`)};`);
    plan.classBlocks.push({ bodyStart, code: ` static { ${calls.join(" ")} }` });
  }

  plan.units = [...units.values()];
  plan.header = spliceHeader(imports, plan.units, more.share);
  return plan;
}

/**
 * {@link SplicePlan.header}: the runtime namespace import, each of `imports` once, then `units`
 * imported from their virtual modules or, with `share: "hoist"`, declared in place.
 */
function spliceHeader(imports: readonly ImportRequest[], units: readonly SharedUnit[], share?: ShareMode): string {
  const seen = new Set<string>();
  let header = `import * as ${RUNTIME_NAMESPACE} from ${JSON.stringify(RUNTIME_MODULE)};`;
  for (const imp of imports) {
    const line = `import { ${imp.exportName} as ${imp.local} } from ${JSON.stringify(imp.from)};`;
    if (!seen.has(line)) {
      seen.add(line);
      header += line;
    }
  }
  for (const u of units) header += share === "hoist" ? unitDeclaration(u) : unitImport(u);
  return header;
}

/** A copy of a source map (a host may change the one it is given), still a magic-string `SourceMap`. */
function copyMap(map: SpliceResult["map"]): SpliceResult["map"] {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(map) as object) as SpliceResult["map"], map);
  copy.sources = [...map.sources];
  copy.names = [...map.names];
  if (map.sourcesContent) copy.sourcesContent = [...map.sourcesContent];
  return copy;
}

/**
 * Splices the generated code for `tools` into `code` (the module text extraction was given;
 * every `ToolSite` offset refers to it).
 *
 * @param code The module's source text.
 * @param id The module id, used as the source map's source.
 * @param tools The tools extraction found in this module (no diagnostics may be pending).
 * @param more The module's resources and prompts (spec §8; e.g. the whole `ModuleModel`): a class
 *   gets `defineResources` / `definePrompts` calls in the same `static {}` block, a quick-path
 *   `server.resource(...)` / `server.prompt(...)` call gets `__tmcp.generated(...)` appended;
 *   the profile (spec §11) and how shared units are bound ({@link SpliceInput.share}).
 * @param memo A build session's memory layer ({@link ModuleMemory}, the `Driver`'s `memory`): a tool, resource or prompt whose model is
 *   unchanged since the module's previous splice, or stored with a disk-cache hit's model, reuses
 *   its generated code (watch rebuilds, warm builds); a module whose text and models are all
 *   unchanged gets its previous output (a copy) back.
 * @returns The transformed module with a source map, or `undefined` when there is nothing to splice.
 */
export function spliceModule(
  code: string,
  id: string,
  tools: readonly ToolModel[],
  more: SpliceInput = {},
  memo?: ModuleMemory,
): SpliceResult | undefined {
  const plan = planSplice(tools, more, memo?.module(id));
  if (!plan) return undefined;
  const previous = memo?.previousSplice<SpliceResult>(id, code);
  if (previous) return { code: previous.code, map: copyMap(previous.map), units: previous.units };
  const s = new MagicString(code);
  for (const [start, end] of plan.removals) s.remove(start, end);
  for (const q of plan.quickArgs) s.appendLeft(q.callEnd, `${q.trailingComma ? " " : ", "}${q.code}`);
  for (const c of plan.classBlocks) s.appendRight(c.bodyStart, c.code);
  s.prepend(plan.header + "\n");
  const result = {
    code: s.toString(),
    map: s.generateMap({ hires: "boundary", source: id, includeContent: true }),
    units: more.share === "virtual" ? plan.units : [],
  };
  memo?.rememberSplice(id, code, result);
  return result;
}
