/**
 * The names of the runtime helpers generated code calls, as `__tmcp.<name>(…)` on the namespace
 * import of `typed-mcp/internal` (docs/codegen.md; docs/mapping.md §1 generator and quick paths).
 *
 * One list, two checks, so that renaming or removing a helper on either side fails `pnpm build`:
 * `@typed-mcp/codegen` emits helper calls only through `helperCall(name, …)` (references: `runtimeRef`) typed with
 * {@link RuntimeHelperName}, and `typed-mcp/internal` declares its helper table with
 * `satisfies Record<RuntimeHelperName, Function>`.
 *
 * @module
 */

/** Every helper of `typed-mcp/internal` that generated code may call. */
export const RUNTIME_HELPERS = [
  // Class storage and the quick-path brand (spliced in by @typed-mcp/unplugin and @typed-mcp/babel).
  "defineTools",
  "defineResources",
  "definePrompts",
  "defineCompletions",
  "generated",
  // Readers (spec §4, §5, §8).
  "codePoints",
  "isEmail",
  "isUri",
  "readDateTime",
  "readUrl",
  "readBase64",
  "defineOwn",
  "numberFromString",
  "integerFromString",
  "bigintFromString",
  // Listings (spec §1–§4): a described use of a shared object schema.
  "described",
  // Argument errors (spec §5): safe path steps, the whole message (also from a shared reader's failure), the JSON type a value has.
  "pathKey",
  "invalid",
  "invalidFrom",
  "got",
  // The tool reader's start and end (spec §5): the arguments object, an unknown argument.
  "args",
  "unknownArg",
  // Writers (spec §6, §8).
  "toBase64",
  "passthrough",
  "withContent",
  "resourceResult",
  // Capability runtimes a descriptor carries, referenced, not called (typed-mcp/internal GeneratedTool.tasks,
  // GeneratedResource.template).
  "installTasks",
  "uriTemplate",
] as const;

/** The name of one runtime helper ({@link RUNTIME_HELPERS}). */
export type RuntimeHelperName = (typeof RUNTIME_HELPERS)[number];
