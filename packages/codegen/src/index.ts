/**
 * `@typed-mcp/codegen`: turns a {@link ToolModel} into generated code — the tool's listing
 * (JSON Schema), an argument reader and a result writer — as plain ES2022 source text.
 * Pure functions of the model; no TypeScript compiler objects. The contract is
 * `shared/spec/mapping.md` (§1–§6, §9); the rules it leaves open are in `docs/codegen.md`.
 *
 * @packageDocumentation
 */
import { mayRunAsTask } from "@typed-mcp/model";
import type { ToolModel } from "@typed-mcp/model";
import { Lines, Scope, assemble, type ImportRequest } from "./emit.js";
import { profiledListing, type Profile, type ProfileWarning } from "./profiles.js";
import { readBody } from "./read.js";
import { writeBody } from "./write.js";
import { SharedUnits, shareMethod, type SharedUnit } from "./shared.js";

export { RUNTIME_NAMESPACE, CodegenError, helperCall, type ImportRequest } from "./emit.js";
export { UNIT_NAME_PREFIX, type SharedUnit } from "./shared.js";
export { toolListing, typeSchema, inputSchema, outputSchema, type ToolListing } from "./schema.js";
export { KEYWORD_ORDER } from "./keyword-order.js";
export {
  applyProfile,
  profiledListing,
  sentence,
  PROFILES,
  PROFILE_RULES,
  type Profile,
  type ProfileWarning,
} from "./profiles.js";
export { toolWarnings, moduleWarnings, PROVIDER_NAME_LIMIT } from "./warnings.js";
export { lintListing, type LintFamily, type LintFinding } from "./profile-lint.js";
export {
  generateResource,
  generatePrompt,
  resourceListing,
  promptListing,
  completionValues,
  type ResourceListing,
  type ResourceTemplateListing,
  type PromptListing,
} from "./resource-prompt-descriptors.js";

/**
 * Generates a JavaScript expression that evaluates to a `GeneratedTool`
 * (`typed-mcp/internal`): `{ listing, read(a, ctx), write(value), scopes?, member?, static? }`
 * (`scopes`: the tool's `scopes` option, docs/auth.md; `taskStart`: `"after-input"` from the `taskStart`
 * option, docs/runtime.md "Tasks"; neither is part of the listing).
 *
 * - `listing` is the literal of {@link toolListing} (spec §1).
 * - `read(a, ctx)` checks and converts `arguments` (spec §5) and returns the argument array,
 *   or the wire path of the first invalid argument as a string.
 * - `write(value)` returns the `CallToolResult` (spec §6).
 * - `member` and `static` are set for a decorated method (`site.kind === "method"`).
 *
 * The code refers to the runtime helpers as `__tmcp.<name>` ({@link RUNTIME_NAMESPACE}; the
 * plugin adds `import * as __tmcp from "typed-mcp/internal"`) and to class constructors by the
 * local names in `imports`, which the plugin must import
 * (`import { <exportName> as <local> } from "<from>"`). Equal requests get equal local names,
 * so imports of several tools of one module can be deduplicated by `local`.
 * When the tool needs closure-level constants (regular expressions, enum sets) the expression
 * is an arrow-function IIFE; otherwise an object literal.
 *
 * `options.share` (the build plugins set it): every object type's schema, reader and writer is
 * a shared unit referred to by name (`__tmcp_u_<id>`), listed in `units` (dependencies first),
 * which the host must bind once per bundle (docs/architecture.md "Shared types"); so are the
 * tool's `read` and `write` themselves (one function per distinct text, shared by tools with the
 * same parameter list or result; inline when they construct a class); without it
 * (default) everything is inline and `units` is empty.
 *
 * `options.profile` (spec §11, default `"default"`) rewrites the listing with {@link profiledListing};
 * under `openai-strict` the reader also takes `null` for an optional, non-nullable parameter or
 * property as absent. `warnings` are the profile's OMCW0003 warnings (spec §10).
 *
 * @throws CodegenError when the model breaks the contract (see {@link typeSchema}, e.g.
 * constraints that do not fit their type, a pattern that does not compile with `u`).
 * @throws TypeError for an unknown profile name.
 */
export function generateTool(
  tool: ToolModel,
  options: { profile?: Profile; share?: boolean } = {},
): { code: string; imports: ImportRequest[]; warnings: ProfileWarning[]; units: SharedUnit[] } {
  const profile = options.profile ?? "default";
  const share = options.share === true ? new SharedUnits() : undefined;
  const scope = new Scope();
  scope.share = share;
  const { listing, warnings } = profiledListing(tool, profile);
  // With `share`, the reader and the writer are units of their own (one per distinct text), each
  // generated in a fresh scope; one that constructs a class stays inline in the tool's scope.
  const method = (params: string, gen: (s: Scope) => Lines): Lines | string => {
    if (share === undefined) return gen(scope);
    const own = new Scope();
    own.share = share;
    const body = gen(own);
    return shareMethod(params, own, body) ?? gen(scope);
  };
  const read = method("a, ctx", (s) => readBody(tool.params, s, profile === "openai-strict"));
  const write = method("value", (s) => writeBody(tool.result, s));

  return {
    ...assemble(
      listing,
      read,
      "write(value) {",
      write,
      tool.site,
      scope,
      undefined,
      tool.scopes,
      tool.execution?.start,
      { result: tool.result.kind, destructured: tool.params.some((p) => p.role === "destructured") },
      // A tool that may run as a task carries the tasks runtime (docs/codegen.md "What a descriptor carries").
      mayRunAsTask(tool.execution) ? { tasks: "installTasks" } : undefined,
    ),
    warnings,
    units: share?.units ?? [],
  };
}
