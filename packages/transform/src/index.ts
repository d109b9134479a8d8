/**
 * `@typed-mcp/transform`: what the build plugins share between a module's text and its
 * transformed output, whatever the host (spec §1, §10; docs/bundlers.md):
 * - the {@link Driver}: one session's extractor (one warm TypeScript sidecar), the two layers
 *   that reuse a module's model under one rule — in memory ({@link ModuleMemory}, which also keeps
 *   the code generated from it) and on disk (`cache.ts`) — and the invalidation lifecycle
 *   (watch events, polled changes, idle close);
 * - the splice plan ({@link planSplice}) and its text application with a source map
 *   ({@link spliceModule}); `@typed-mcp/babel` applies the same plan to Babel's AST; the
 *   binding of shared units (one schema, reader and writer per object type: {@link UnitRegistry});
 * - the diagnostic format ({@link formatDiagnostic}) and the default module filters.
 *
 * `@typed-mcp/unplugin` (bundler hooks) and `@typed-mcp/babel` (Babel visitor) are thin adapters
 * over it.
 *
 * @packageDocumentation
 */
export { Driver, type DriverEvent, type DriverOptions } from "./driver.js";
export type { ModuleMemory } from "./memory.js";
export {
  planSplice,
  spliceModule,
  RUNTIME_MODULE,
  type SplicePlan,
  type SpliceResult,
  type SpliceInput,
} from "./splice.js";
export { UnitRegistry, unitFile, unitOfSpecifier, UNIT_FILE, UNIT_SPECIFIER } from "./units.js";
export type { Profile } from "@typed-mcp/codegen";
export { formatDiagnostic } from "@typed-mcp/model";
export type { WarningCode } from "@typed-mcp/model";
export { DEFAULT_EXCLUDE, DEFAULT_INCLUDE } from "./module-filters.js";
export { ModuleDependencies } from "./dependencies.js";
export { sharedDriver, closeSharedDrivers } from "./shared-drivers.js";
