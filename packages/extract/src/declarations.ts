/**
 * Per-declaration dependencies of a module model (docs/bundlers.md, "Watch mode and cache":
 * "Invalidation per declaration"). A model records which top-level declarations of the files it
 * consulted it may depend on; an edit of a consulted file that leaves all of them textually
 * unchanged (and at the same line and column) cannot change the model, so the model is reused
 * instead of extracted again.
 *
 * Which declarations: the closure, by name, of
 * - every identifier and string literal written in the module itself (a type imported and used
 *   there, a global it names),
 * - the declarations the checker resolved while extracting (a node handle's statement, a named
 *   type's declarations: {@link ConsultSeed}),
 * - every statement of a consulted file that is not a plain named declaration (imports,
 *   re-exports, `export default`, `declare global`, `declare module "…"`, expression
 *   statements): they can change what a name means, so they are always part of the closure,
 * where a reached statement adds every identifier and string literal it contains (its `extends`
 * clauses, type references, enum initializers, `typeof` queries, computed keys), and a name
 * reaches every top-level statement of a consulted file declaring it (also inside a
 * `namespace`, and every declaration of a merged name). Identifiers are over-approximated (a
 * property key named like a declaration reaches it too): more re-extraction, never less. A seed
 * that names no statement (a position outside every statement, an unparsable file) makes the
 * whole file the dependency.
 *
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseSync } from "oxc-parser";
import type { DeclarationDependencies } from "@typed-mcp/model";

/** What the checker consulted in one file: declaration spans (UTF-16 offsets), declared names, or the whole file. */
export interface ConsultSeed {
  /** `[start, end)` of declaration nodes the extractor resolved. */
  spans: [number, number][];
  /** Names of symbols whose declarations were consulted (a named type). */
  names: string[];
  /** The whole file was consulted (a seed without a position or name). */
  whole: boolean;
}

/** One top-level statement of a file. */
interface Statement {
  /** Names it declares (top level and inside namespaces); `undefined`: always reached. */
  declares: string[] | undefined;
  /** Every identifier and string literal in it (the names it can refer to). */
  refers: string[];
  /** Its slice `[start, end)`: from the end of the statement before (leading comments, JSDoc) to its own end. */
  start: number;
  end: number;
  /** `line:column` of its first token and its text, hashed. */
  hash: string;
}

/** The statements of one file's text, or `undefined` when oxc could not parse it (the whole file counts). */
export interface DeclarationTable {
  statements: Statement[] | undefined;
  /** SHA-256 of the whole text. */
  textHash: string;
  /** Per declared name, the indexes of the statements declaring it. */
  byName: Map<string, number[]>;
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/* eslint-disable @typescript-eslint/no-explicit-any */
type Node = any;

/** Every identifier name and string literal value under `root` (iterative: no recursion on deep files). */
function namesIn(root: Node, out: Set<string>): void {
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop();
    if (Array.isArray(n)) {
      for (const c of n) if (c && typeof c === "object") stack.push(c);
      continue;
    }
    if (n.type === "Identifier" || n.type === "JSXIdentifier") out.add(n.name);
    else if (n.type === "Literal" && typeof n.value === "string") out.add(n.value);
    else if (n.type === "TemplateElement" && typeof n.value?.cooked === "string") out.add(n.value.cooked);
    for (const k in n) {
      const v = n[k];
      if (v && typeof v === "object" && k !== "parent") stack.push(v);
    }
  }
}

/** Names a binding pattern or identifier declares (over-approximated: every identifier in it). */
function bindingNames(id: Node, out: string[]): void {
  const s = new Set<string>();
  namesIn(id, s);
  out.push(...s);
}

/**
 * The names a statement declares, or `undefined` when it is not a plain named declaration
 * (then it is always part of the closure).
 */
function declaredBy(s: Node): string[] | undefined {
  if ((s.type === "ExportNamedDeclaration" || s.type === "ExportDefaultDeclaration") && s.declaration) {
    if (s.type === "ExportDefaultDeclaration") return undefined;
    if (s.source || s.specifiers?.length) return undefined;
    return declaredBy(s.declaration);
  }
  switch (s.type) {
    case "TSInterfaceDeclaration":
    case "TSTypeAliasDeclaration":
    case "TSEnumDeclaration":
    case "ClassDeclaration":
    case "FunctionDeclaration":
    case "TSDeclareFunction":
      return s.id?.type === "Identifier" ? [s.id.name] : undefined;
    case "VariableDeclaration": {
      const out: string[] = [];
      for (const d of s.declarations) bindingNames(d.id, out);
      return out;
    }
    case "TSModuleDeclaration": {
      // `namespace N { … }` (also `A.B.C`); `declare global` and `declare module "x"` augment others.
      if (s.kind === "global" || (s.id?.type !== "Identifier" && s.id?.type !== "TSQualifiedName")) return undefined;
      const out: string[] = [];
      bindingNames(s.id, out);
      const stack: Node[] = [s.body];
      while (stack.length) {
        const b = stack.pop();
        if (!b) continue;
        if (b.type === "TSModuleDeclaration") {
          bindingNames(b.id, out);
          stack.push(b.body);
        } else if (b.type === "TSModuleBlock") {
          for (const inner of b.body) {
            const names = declaredBy(inner);
            if (names === undefined) return undefined;
            out.push(...names);
          }
        }
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** The 1-based line and column of `offset` in `text`. */
function lineColumn(text: string, offset: number, from: { offset: number; line: number; lineStart: number }): string {
  for (let i = from.offset; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      from.line++;
      from.lineStart = i + 1;
    }
  }
  from.offset = offset;
  return `${from.line}:${offset - from.lineStart + 1}`;
}

/**
 * The top-level statements of `text` (file `file`, which selects the dialect as the site finder
 * does), with what each declares and refers to. Never throws: a file oxc cannot parse without
 * errors has no statements (it counts as a whole).
 */
export function declarationTable(file: string, text: string): DeclarationTable {
  const table: DeclarationTable = { statements: undefined, textHash: sha(text), byName: new Map() };
  let program: Node;
  try {
    const lang = /\.tsx$/i.test(file)
      ? "tsx"
      : /\.[cm]?jsx?$/i.test(file)
        ? "jsx"
        : /\.d\.[cm]?ts$/i.test(file)
          ? "dts"
          : "ts";
    const r = parseSync(file, text, { sourceType: "module", lang: lang as "ts" });
    if (r.errors.some((e) => e.severity === "Error")) return table;
    program = r.program;
  } catch {
    return table;
  }
  const statements: Statement[] = [];
  const pos = { offset: 0, line: 1, lineStart: 0 };
  let previousEnd = 0;
  for (const s of program.body as Node[]) {
    const refers = new Set<string>();
    namesIn(s, refers);
    const at = lineColumn(text, s.start, pos);
    const declares = declaredBy(s);
    const i =
      statements.push({
        declares,
        refers: [...refers],
        start: previousEnd,
        end: s.end,
        hash: sha(`${at}\0${text.slice(previousEnd, s.end)}`),
      }) - 1;
    for (const name of declares ?? []) {
      const list = table.byName.get(name);
      if (list) list.push(i);
      else table.byName.set(name, [i]);
    }
    previousEnd = s.end;
  }
  table.statements = statements;
  return table;
}

/**
 * The names the statements of `table` that overlap `spans` declare; `undefined` when a span
 * overlaps no statement or only ones that declare nothing by name (then the whole file counts,
 * except that statements declaring nothing are reached anyway).
 */
function namesAtSpans(table: DeclarationTable, spans: [number, number][]): string[] | undefined {
  if (!table.statements) return undefined;
  const out: string[] = [];
  for (const [start, end] of spans) {
    const hits = table.statements.filter((s) => s.start < Math.max(end, start + 1) && start < s.end);
    if (hits.length === 0) return undefined;
    for (const h of hits) if (h.declares) out.push(...h.declares);
  }
  return out;
}

/**
 * The digest of what a model depends on (see the module comment): starting from `names`, the
 * closure over the statements of `files` (each file's current {@link DeclarationTable} from
 * `tableOf`; `undefined`: missing). A file in `whole` (or unparsable, or missing) counts with its
 * whole text. Equal digests mean every reached statement has the same text at the same place.
 */
export function dependencyDigest(
  files: readonly string[],
  names: Iterable<string>,
  whole: readonly string[],
  tableOf: (file: string) => DeclarationTable | undefined,
): string {
  const tables = files.map((f) => tableOf(f));
  const reached = tables.map(() => new Set<number>());
  const seen = new Set<string>();
  const queue: string[] = [];
  const addName = (n: string) => {
    if (!seen.has(n)) {
      seen.add(n);
      queue.push(n);
    }
  };
  const reach = (t: number, i: number) => {
    if (reached[t]!.has(i)) return;
    reached[t]!.add(i);
    for (const n of tables[t]!.statements![i]!.refers) addName(n);
  };
  for (const n of names) addName(n);
  tables.forEach((table, t) => {
    if (!table?.statements || whole.includes(files[t]!)) return;
    table.statements.forEach((s, i) => {
      if (s.declares === undefined) reach(t, i);
    });
  });
  while (queue.length) {
    const n = queue.pop()!;
    tables.forEach((table, t) => {
      if (!table?.statements || whole.includes(files[t]!)) return;
      for (const i of table.byName.get(n) ?? []) reach(t, i);
    });
  }
  const h = createHash("sha256");
  tables.forEach((table, t) => {
    h.update(`${files[t]}\0`);
    if (!table) h.update("missing\0");
    else if (!table.statements || whole.includes(files[t]!)) h.update(`whole ${table.textHash}\0`);
    else for (const i of [...reached[t]!].sort((a, b) => a - b)) h.update(`${table.statements[i]!.hash}\0`);
  });
  return h.digest("hex");
}

/**
 * The dependencies of a model just extracted: `program` is the module's own oxc AST (its
 * identifiers and string literals start the closure), `seeds` what the checker consulted in
 * each of `files` (the model's consulted files), `tableOf` the tables of their current text. A
 * seed the tables cannot place — a span outside every statement, a name no statement declares,
 * a whole-file consult, an unparsable file — makes that file a whole dependency.
 */
export function recordDependencies(
  program: unknown,
  files: readonly string[],
  seeds: ReadonlyMap<string, ConsultSeed>,
  tableOf: (file: string) => DeclarationTable | undefined,
): DeclarationDependencies {
  const names = new Set<string>();
  if (program) namesIn(program, names);
  const whole: string[] = [];
  for (const file of files) {
    const seed = seeds.get(file);
    const table = tableOf(file);
    const atSpans = table && seed ? namesAtSpans(table, seed.spans) : undefined;
    if (!seed || seed.whole || !atSpans || seed.names.some((n) => !table!.byName.has(n))) {
      whole.push(file);
      continue;
    }
    for (const n of [...atSpans, ...seed.names]) names.add(n);
  }
  const sorted = [...names].sort();
  whole.sort();
  return { names: sorted, whole, digest: dependencyDigest(files, sorted, whole, tableOf) };
}

/**
 * The {@link DeclarationTable}s of files as they are on disk now, memoized per file by its text
 * (a file is parsed again only when its text changed). A file that cannot be read has none.
 */
export class DeclarationTables {
  private readonly memo = new Map<string, { text: string; stamp?: string; table: DeclarationTable }>();

  /**
   * The table of `file` (absolute) as on disk, or `undefined` when it cannot be read. `stamp`,
   * when given, is the file's current content hash: a table memoized under the same stamp is
   * returned without reading the file.
   */
  of(file: string, stamp?: string): DeclarationTable | undefined {
    const known = this.memo.get(file);
    if (stamp !== undefined && known?.stamp === stamp) return known.table;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      this.memo.delete(file);
      return undefined;
    }
    if (known?.text === text) {
      known.stamp = stamp;
      return known.table;
    }
    const table = declarationTable(file, text);
    this.memo.set(file, { text, stamp, table });
    return table;
  }
}
