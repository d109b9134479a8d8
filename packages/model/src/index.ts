/**
 * The typed-mcp tool model: plain, serializable data that sits between type extraction
 * (`@typed-mcp/extract`) and code generation (`@typed-mcp/codegen`).
 *
 * Nothing here refers to TypeScript compiler objects: a model can be written with
 * `JSON.stringify`, cached by content hash, diffed and tested alone. Every field is
 * already resolved to what the contract (`shared/spec/mapping.md`) needs: wire names,
 * descriptions after doc-comment normalisation, enum values in source order, defaults as
 * JSON values.
 *
 * @packageDocumentation
 */

export type {
  ToolListing,
  ResourceListing,
  ResourceTemplateListing,
  ResourceListingEntry,
  PromptListing,
  PromptArgumentListing,
} from "./listing.js";
export { RUNTIME_HELPERS, type RuntimeHelperName } from "./runtime-helpers.js";
export type * from "./diagnostics.js";
export { formatDiagnostic } from "./diagnostics.js";
export type * from "./model.js";
export { assertNever, mayRunAsTask, wireType } from "./model.js";
export { SCOPE_TOKEN, isValidToolName, toCamelCase, toSnakeCase, toolNameFromMember } from "./naming.js";
