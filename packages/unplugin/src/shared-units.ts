/**
 * The hooks that serve the shared units (docs/architecture.md "Shared types": one schema
 * constant, reader or writer per object type, bound once per bundle): `@typed-mcp/unit/<id>`
 * resolves to one id per unit under the root and loads from the session's {@link UnitRegistry}.
 *
 * @module
 */
import type { UnpluginOptions } from "unplugin";
import {
  RUNTIME_MODULE,
  UNIT_FILE,
  UNIT_SPECIFIER,
  unitFile,
  unitOfSpecifier,
  type UnitRegistry,
} from "@typed-mcp/transform";

/** `resolveId` and `load` for the shared units of `units`, resolved under `root()`. */
export function sharedUnitHooks(units: UnitRegistry, root: () => string): Pick<UnpluginOptions, "resolveId" | "load"> {
  return {
    resolveId: {
      filter: { id: UNIT_SPECIFIER },
      handler(id) {
        const unit = unitOfSpecifier(id);
        return unit === undefined ? undefined : unitFile(root(), unit);
      },
    },
    load: {
      filter: { id: UNIT_FILE },
      handler(id) {
        const unit = UNIT_FILE.exec(id)?.[1];
        if (unit === undefined) return undefined;
        const text = units.moduleText(unit, RUNTIME_MODULE);
        if (text === undefined) {
          throw new Error(
            `typed-mcp: the generated module ${id} is not one this build produced (a module restored from a stale bundler cache?); clear the bundler's cache and build again.`,
          );
        }
        return text;
      },
    },
  };
}
