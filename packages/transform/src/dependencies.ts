/**
 * The files a transformed module depends on, for the host to watch (docs/bundlers.md "Watch mode
 * and cache"): type-only imports are gone from every bundler's graph after the transform, so each
 * adapter reports these itself — `addWatchFile` (`@typed-mcp/unplugin`), `this.addDependency`
 * (the webpack-loader entry, `@typed-mcp/unplugin/loader`) and `api.addExternalDependency`
 * (`@typed-mcp/babel`). One rule for all three.
 *
 * @packageDocumentation
 */
import { existsSync } from "node:fs";
import type { ModuleModel } from "@typed-mcp/model";

/**
 * Per module, the files reported on its last transform; {@link ModuleDependencies.of} gives the
 * files to report now.
 */
export class ModuleDependencies {
  private readonly reported = new Map<string, string[]>();

  /**
   * The files module `file` (absolute, forward slashes) depends on after a transform that gave
   * `model`: every file whose declarations it consulted, every file it consulted before that is
   * gone now (a deleted declaration file fails the module — nothing consults it any more — and
   * its return must trigger a rebuild: webpack only watches the dependencies of the last run),
   * and its tsconfig (the compiler options decide the model too, e.g. `strictNullChecks`). The
   * module itself is left out; each file appears once.
   *
   * @param tsconfig The module's tsconfig.json (the `Driver`'s `tsconfigOf`), or `undefined`.
   */
  of(file: string, model: ModuleModel, tsconfig: string | undefined): string[] {
    const previous = this.reported.get(file) ?? [];
    const watched = [
      ...model.consultedFiles,
      ...previous.filter((f) => !model.consultedFiles.includes(f) && !existsSync(f)),
    ];
    this.reported.set(file, watched);
    const out = new Set(watched.filter((f) => f !== file));
    if (tsconfig) out.add(tsconfig);
    for (const f of out) this.everyFile.add(f);
    return [...out];
  }

  /**
   * Every file {@link of} returned for any module so far, sorted: for a host that takes
   * dependencies only before it knows the module (Babel's `api.addExternalDependency`, callable
   * only while the plugin is created).
   */
  all(): string[] {
    return [...this.everyFile].sort();
  }

  private readonly everyFile = new Set<string>();
}
