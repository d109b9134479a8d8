/**
 * The `transform` hook: a module's model from the {@link Driver}, its diagnostics as a build
 * error or its splice with a source map, and the files the bundler must watch for it.
 *
 * @module
 */
import { existsSync } from "node:fs";
import type { UnpluginBuildContext, UnpluginContext } from "unplugin";
import { mayDeclareTools } from "@typed-mcp/extract";
import {
  formatDiagnostic,
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
 * Reports with `addWatchFile` what the module consulted, what it consulted before that is gone
 * now (a deleted declaration file fails the module — nothing consults it any more — and its
 * return must trigger a rebuild: webpack only watches the dependencies of the last run), and
 * its tsconfig (the compiler options decide the model too, e.g. `strictNullChecks`).
 */
export function transformModule(driver: Driver, framework: string, units: UnitRegistry): TransformHandler {
  const throwsErrors = framework === "webpack" || framework === "rspack";
  /** Per module: the files reported with `addWatchFile` on its last transform. */
  const watchedBy = new Map<string, string[]>();
  return function handler(this: UnpluginBuildContext & UnpluginContext, code: string, id: string) {
    if (!mayDeclareTools(code)) return undefined;
    const file = fileOf(id);
    const model = driver.model(file, code);
    const previous = watchedBy.get(file) ?? [];
    const watched = [
      ...model.consultedFiles,
      ...previous.filter((f) => !model.consultedFiles.includes(f) && !existsSync(f)),
    ];
    watchedBy.set(file, watched);
    for (const consulted of watched) {
      if (consulted !== file) this.addWatchFile(consulted);
    }
    const config = driver.tsconfigOf(file);
    if (config) this.addWatchFile(config);
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
