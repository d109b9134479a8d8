/**
 * Binding the shared units of generated code (`@typed-mcp/codegen` shared.ts; docs/architecture.md
 * "Shared types"): one schema constant, reader or writer per distinct text, bound once per bundle.
 * A "unit" (short for shared unit) is one such constant, generated once and referred to by every
 * module that uses it; "unit" in the names below always means that.
 *
 * - `virtual` (`@typed-mcp/unplugin`): each unit is a module of its own. Generated code imports it
 *   as `import { default as __tmcp_u_<id> } from "@typed-mcp/unit/<id>"`; the plugin
 *   resolves that to one id per unit ({@link unitFile}) and loads its text from the build's
 *   {@link UnitRegistry} ({@link unitModule}), so every bundler keeps one copy of it, whichever
 *   modules import it.
 * - `hoist` (`@typed-mcp/babel`, which has no virtual modules): the units a module uses are
 *   declared at its top, `const __tmcp_u_<id> = …;`, once per module.
 *
 * @packageDocumentation
 */
import { RUNTIME_NAMESPACE, type SharedUnit } from "@typed-mcp/codegen";

/** How shared units are bound (see the module comment). */
export type ShareMode = "virtual" | "hoist";

/**
 * The prefix of the import specifier of a unit (`@typed-mcp/unit/<id>`): bare, as webpack and
 * Rspack read a `scheme:` specifier themselves, before any resolver plugin.
 */
const UNIT_SPECIFIER_PREFIX = "@typed-mcp/unit/";
/** An import specifier of a unit (`@typed-mcp/unit/<16 hex digits>`); also the plugin's `resolveId` hook filter. */
export const UNIT_SPECIFIER = /^@typed-mcp\/unit\/([0-9a-f]{16})$/;
/** The resolved id of a unit: `<root>/__typed-mcp-unit-<id>.js` (see {@link unitFile}). */
export const UNIT_FILE = /[\\/]__typed-mcp-unit-([0-9a-f]{16})\.js$/;

/** The id of the unit an import specifier names, or `undefined` when it names none. */
export function unitOfSpecifier(specifier: string): string | undefined {
  return UNIT_SPECIFIER.exec(specifier)?.[1];
}

/**
 * The resolved id of unit `id` in a build rooted at `root`: an absolute path of no file (the
 * plugin loads it) directly in the root, so that every bundler resolves the unit's own import of
 * `typed-mcp/internal` from the project's directory (esbuild resolves from a module's existing
 * directory only), and outside `node_modules`, so that no bundler takes it for an external
 * dependency.
 */
export function unitFile(root: string, id: string): string {
  return `${root.replace(/\\/g, "/").replace(/\/$/, "")}/__typed-mcp-unit-${id}.js`;
}

/** The import declaration binding unit `u` in generated code (`virtual` mode). */
export function unitImport(u: SharedUnit): string {
  return `import { default as ${u.name} } from ${JSON.stringify(UNIT_SPECIFIER_PREFIX + u.id)};`;
}

/** The declaration binding unit `u` at the top of a module (`hoist` mode), on one line. */
export function unitDeclaration(u: SharedUnit): string {
  // Generated code holds line feeds only between statements: strings and patterns escape theirs.
  return `const ${u.name} = ${u.code.replace(/\n\s*/g, " ")};`;
}

/**
 * The units of one build session, by id, for the plugin's `load` hook. Each is a pure function of
 * its id (a content hash), so entries are never replaced.
 */
export class UnitRegistry {
  private readonly units = new Map<string, SharedUnit>();

  /**
   * Records the units a splice produced.
   * @throws Error when an id names two different texts (a hash collision: never silently wrong code).
   */
  add(units: readonly SharedUnit[]): void {
    for (const u of units) {
      const known = this.units.get(u.id);
      if (known === undefined) this.units.set(u.id, u);
      else if (known.code !== u.code)
        throw new Error(`typed-mcp: two generated units have the id ${u.id}; please report this (a hash collision).`);
    }
  }

  /**
   * The text of unit `id`'s module (`virtual` mode): the runtime namespace from `runtimeModule`,
   * the units it refers to, its value bound to its name and exported as the default; `undefined` when no splice of this
   * session produced the unit.
   */
  moduleText(id: string, runtimeModule: string): string | undefined {
    const u = this.units.get(id);
    if (u === undefined) return undefined;
    const deps = u.deps.map((d) => this.units.get(d)!);
    // A named binding, so that bundlers keep the short name instead of one made from the module id.
    return [
      `import * as ${RUNTIME_NAMESPACE} from ${JSON.stringify(runtimeModule)};`,
      ...deps.map(unitImport),
      `const ${u.name} = ${u.code};`,
      `export default ${u.name};`,
      "",
    ].join("\n");
  }
}
