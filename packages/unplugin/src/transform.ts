/**
 * The `transform` hook: a module's model from the {@link Driver}, its diagnostics as a build
 * error or its splice with a source map, and the files the bundler must watch for it.
 *
 * @module
 */
import type { UnpluginBuildContext, UnpluginContext } from "unplugin";
import { mayDeclareTools } from "@typed-mcp/extract";
import {
  formatDiagnostic,
  ModuleDependencies,
  spliceModule,
  type Driver,
  type SpliceResult,
  type UnitRegistry,
} from "@typed-mcp/transform";
import { errorLocation } from "./frame.js";

/** The `transform` hook's handler: the spliced module and its source map, or `undefined` (left as is). */
export type TransformHandler = (
  this: UnpluginBuildContext & UnpluginContext,
  code: string,
  id: string,
) => { code: string; map: SpliceResult["map"] } | undefined;

/** Strips a query (`?v=…`) or hash from a bundler module id, leaving the file name. */
export function fileOf(id: string): string {
  const q = id.search(/[?#]/);
  return (q === -1 ? id : id.slice(0, q)).replace(/\\/g, "/");
}

/**
 * The `transform` hook's handler: the module's model from the {@link Driver}, then either its
 * diagnostics as a build error (spec §10: webpack and Rspack get a thrown `Error`, since they
 * report a failed loader as a module error and go on bundling; the others `this.error` with a
 * location and code frame, see {@link errorLocation}) or the splice with its source map.
 *
 * Reports with `addWatchFile` every file the module depends on (`@typed-mcp/transform`'s
 * `ModuleDependencies`: what it consulted, what it consulted before that is gone now, its tsconfig).
 */
export function transformModule(driver: Driver, framework: string, units: UnitRegistry): TransformHandler {
  const throwsErrors = framework === "webpack" || framework === "rspack";
  const dependencies = new ModuleDependencies();
  return function handler(this: UnpluginBuildContext & UnpluginContext, code: string, id: string) {
    if (!mayDeclareTools(code)) return undefined;
    const file = fileOf(id);
    const model = driver.model(file, code);
    for (const dep of dependencies.of(file, model, driver.tsconfigOf(file))) this.addWatchFile(dep);
    if (model.diagnostics.length > 0) {
      const first = model.diagnostics[0]!;
      const message = model.diagnostics.map((d) => formatDiagnostic(d)).join("\n");
      if (throwsErrors) {
        const error = new Error(message) as Error & { hideStack?: boolean };
        error.hideStack = true; // webpack prints the message without the plugin's stack
        throw error;
      }
      this.error({
        message,
        code: first.code,
        id: file,
        ...errorLocation(
          first.file === file ? code : undefined,
          first.file,
          first.line,
          first.column,
          framework === "esbuild",
        ),
      });
      return undefined;
    }
    for (const w of driver.warnings(model)) this.warn(formatDiagnostic(w));
    const result = spliceModule(
      code,
      id,
      model.tools,
      { ...model, profile: driver.profile, share: "virtual" },
      driver.memory,
    );
    if (result) units.add(result.units);
    return result && { code: result.code, map: result.map };
  };
}
