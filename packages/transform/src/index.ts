/**
 * `@typed-mcp/transform`: what the build plugins share between a module's text and its
 * transformed output, whatever the host (spec §1, §10; docs/bundlers.md):
 * - the {@link Driver}: one session's extractor (one warm TypeScript sidecar), the content-hash
 *   {@link ModelCache} and the invalidation lifecycle (watch events, polled changes, idle close);
 * - the splice plan ({@link planSplice}) and its text application with a source map
 *   ({@link spliceTools}); `@typed-mcp/babel` applies the same plan to Babel's AST; the
 *   {@link GeneratedCodeMemo} that lets watch rebuilds reuse the code of unchanged models; the
 *   binding of shared units (one schema, reader and writer per object type: {@link UnitRegistry});
 * - the diagnostic format ({@link formatDiagnostic}) and the default module filters.
 *
 * `@typed-mcp/unplugin` (bundler hooks) and `@typed-mcp/babel` (Babel visitor) are thin adapters
 * over it.
 *
 * @packageDocumentation
 */
export { Driver, type DriverEvent, type DriverOptions } from "./driver.js";
export { FileHashes, ModelCache, tsconfigChain, type CacheHit, type ModelCacheOptions } from "./cache.js";
export {
  planSplice,
  spliceTools,
  RUNTIME_MODULE,
  type SplicePlan,
  type SpliceResult,
  type SpliceMore,
} from "./splice.js";
export {
  UnitRegistry,
  unitFile,
  unitOfSpecifier,
  UNIT_FILE,
  UNIT_SPECIFIER,
  UNIT_SPECIFIER_PREFIX,
  type ShareMode,
} from "./units.js";
export { GeneratedCodeMemo, type GeneratedCode, type GeneratedKind, type ModuleMemo } from "./memo.js";
export { PROFILES, type Profile } from "@typed-mcp/codegen";
export { formatDiagnostic } from "@typed-mcp/model";
export type { BuildWarning, WarningCode } from "@typed-mcp/model";
export { DEFAULT_EXCLUDE, DEFAULT_INCLUDE } from "./diagnostics.js";
