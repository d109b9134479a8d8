/**
 * The disk form of a module's generated code (docs/bundlers.md "The cache"): what the memory
 * layer (memory.ts) hands the disk layer (cache.ts) after a splice, and how an entry's stored
 * code is read back — checked item by item, since it comes from a file — and matched to the
 * models of the entry it came with.
 *
 * @packageDocumentation
 */
import type { ModuleModel } from "@typed-mcp/model";
import type { ImportRequest, SharedUnit } from "@typed-mcp/codegen";

/** What code generation returns for one tool, resource or prompt. */
export interface GeneratedCode {
  code: string;
  imports: ImportRequest[];
  /** The shared units the code refers to (a tool generated with `share`). */
  units?: SharedUnit[];
}

/**
 * A module's generated code as plain JSON data, as the disk layer stores it with the model
 * (cache.ts): per code key (memory.ts `codeKey`), the code, its imports and the ids of its
 * shared units; each shared unit once.
 */
export interface StoredCode {
  codes: [key: string, code: { code: string; imports: ImportRequest[]; units?: string[] }][];
  units: Record<string, SharedUnit>;
}

/** Whether `value` (read from disk) has the shape of a {@link StoredCode}. */
export function isStoredCode(value: unknown): value is StoredCode {
  const v = value as StoredCode | null | undefined;
  return !!v && Array.isArray(v.codes) && typeof v.units === "object" && v.units !== null;
}

/** `code` (a module's code map) as {@link StoredCode}. */
export function encodeCode(code: Map<string, GeneratedCode>): StoredCode {
  const stored: StoredCode = { codes: [], units: {} };
  for (const [key, c] of code) {
    for (const u of c.units ?? []) stored.units[u.id] = u;
    stored.codes.push([key, { code: c.code, imports: c.imports, units: c.units?.map((u) => u.id) }]);
  }
  return stored;
}

/** Whether `u` (read from disk) has the shape of a {@link SharedUnit} whose id is `id`. */
function isUnit(u: unknown, id: string): u is SharedUnit {
  const v = u as SharedUnit | null | undefined;
  return (
    !!v &&
    v.id === id &&
    typeof v.name === "string" &&
    typeof v.code === "string" &&
    Array.isArray(v.deps) &&
    v.deps.every((d) => typeof d === "string")
  );
}

/** Whether `i` (read from disk) has the shape of an {@link ImportRequest}. */
function isImport(i: unknown): i is ImportRequest {
  const v = i as ImportRequest | null | undefined;
  return !!v && typeof v.from === "string" && typeof v.exportName === "string" && typeof v.local === "string";
}

/**
 * The code map of `stored` (read from disk, so checked item by item): an item that is not
 * well-formed, or names a unit `stored` lacks, is left out — its code is generated again.
 */
export function decodeCode(stored: StoredCode): Map<string, GeneratedCode> {
  const code = new Map<string, GeneratedCode>();
  for (const item of stored.codes) {
    if (!Array.isArray(item) || typeof item[0] !== "string") continue;
    const c = item[1] as StoredCode["codes"][number][1] | null | undefined;
    if (!c || typeof c.code !== "string" || !Array.isArray(c.imports) || !c.imports.every(isImport)) continue;
    if (c.units !== undefined && !(Array.isArray(c.units) && c.units.every((id) => typeof id === "string"))) continue;
    const ids = c.units;
    const units = ids?.map((id) => (Object.hasOwn(stored.units, id) ? stored.units[id] : undefined));
    // Each unit well-formed, and every unit it refers to among the code's own units (the code lists them all).
    if (units?.some((u, i) => !isUnit(u, ids![i]!) || !u.deps.every((d) => ids!.includes(d)))) continue;
    code.set(item[0], { code: c.code, imports: c.imports, units: units as SharedUnit[] | undefined });
  }
  return code;
}

/**
 * The models of `model` (tools, then resources, then prompts: the order a splice asks for their
 * code, and so the order of `stored.codes`) each with its stored key and code; `undefined` when
 * the counts differ (two equal models share one code) or a code was left out by {@link decodeCode}.
 */
export function storedByModel(
  model: ModuleModel,
  stored: StoredCode,
  decoded: Map<string, GeneratedCode>,
): WeakMap<object, [string, GeneratedCode]> | undefined {
  const models = [...model.tools, ...(model.resources ?? []), ...(model.prompts ?? [])];
  if (models.length !== stored.codes.length || decoded.size !== models.length) return undefined;
  const byModel = new WeakMap<object, [string, GeneratedCode]>();
  for (const [i, m] of models.entries()) {
    const key = stored.codes[i]![0];
    byModel.set(m, [key, decoded.get(key)!]);
  }
  return byModel;
}
