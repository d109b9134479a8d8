/**
 * The per-API primitives the shared extraction algorithm (`syntax.ts` → `types.ts` →
 * `session.ts`) is written over. Both APIs have the same AST shape and the same flag names (only
 * the enum values differ, so they are passed in); what differs — how a type's union members,
 * alias symbol or a symbol's declarations are read, how a declaration handle becomes a node,
 * which checker calls are batched — is what each backend (`ts7.ts`, `classic.ts`) implements here.
 */
import type { EnumInfo, NamedInfo, ObjectShape, PropertyInfo, TypeHost, TypeShape } from "./host.js";
import { fileOrigin, norm } from "./library.js";
import type { ConsultSeed } from "../declarations.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
/** A compiler node, type, symbol, signature or declaration handle of either API. */
export type Any = any;
/** An enum of flag or syntax-kind values (`TypeFlags`, `SyntaxKind`, …) of either API. */
type Enum = Record<string, any>;

/** Per-program (per-snapshot) caches keyed by type / symbol id. */
export class Caches {
  shape = new Map<number, TypeShape>();
  object = new Map<number, ObjectShape>();
  props = new Map<number, PropertyInfo[]>();
  tags = new Map<number, ReturnType<TypeHost["tags"]>>();
  enums = new Map<unknown, EnumInfo | undefined>();
  named = new Map<number, NamedInfo | undefined>();
  text = new Map<number, string>();
  /** The classic backend's own symbol ids (its checker assigns them lazily). */
  symbolIds = new Map<unknown, number>();
  /** The IPC backends' types of symbols already asked (by symbol id), e.g. prefetched parameters. */
  symbolTypes = new Map<unknown, unknown>();
  /** Per cache entry (`"named:12"`, an enum's symbol key, …): the consults its computation made, replayed on a hit. */
  consults = new Map<unknown, ConsultRecord>();
}

/** The consults (file, and which declaration) one cache entry's computation made. */
type ConsultRecord = [string, { span: [number, number] } | { name: string } | undefined][];

/** The enums a session reads (values from the backend's TypeScript modules). */
export interface Enums {
  SyntaxKind: Enum;
  TypeFlags: Enum;
  SymbolFlags: Enum;
  ModifierFlags: Enum;
  ObjectFlags: Enum;
  NodeFlags: Enum;
}

/** An index signature of a type: the key type and the value type. */
export interface IndexSignature {
  keyType: Any;
  valueType: Any;
}

/** The primitives of one TypeScript API, and the files its answers consulted. */
export abstract class ApiPrimitives {
  private readonly consultedFiles = new Set<string>();
  private readonly seeds = new Map<string, ConsultSeed>();
  /** The consult records of the cache entries being computed (nested: every open one records). */
  private readonly recording: ConsultRecord[] = [];
  protected readonly K: Enum;
  protected readonly TF: Enum;
  protected readonly SF: Enum;
  protected readonly MF: Enum;
  protected readonly OF: Enum;
  protected readonly NF: Enum;

  constructor(
    protected readonly file: string,
    protected readonly c: Caches,
    enums: Enums,
  ) {
    this.K = enums.SyntaxKind;
    this.TF = enums.TypeFlags;
    this.SF = enums.SymbolFlags;
    this.MF = enums.ModifierFlags;
    this.OF = enums.ObjectFlags;
    this.NF = enums.NodeFlags;
  }

  /** Files whose declarations were consulted so far (absolute, forward slashes, sorted). */
  consulted(): string[] {
    return [...this.consultedFiles].sort();
  }

  /** Per consulted file, what of it was consulted (declaration spans and names, or all of it). */
  consultedDeclarations(): Map<string, ConsultSeed> {
    return this.seeds;
  }

  /**
   * Marks a file as consulted (watched); the module itself, libraries and packages are not.
   * `what` says which declaration: the `span` of a resolved declaration node, or the `name` of a
   * symbol whose declarations were looked at; without it the whole file counts.
   */
  consult(file: string, what?: { span: [number, number] } | { name: string }): void {
    const f = norm(file);
    for (const r of this.recording) r.push([f, what]);
    if (f === this.file || fileOrigin(f) !== "project") return;
    this.consultedFiles.add(f);
    let seed = this.seeds.get(f);
    if (!seed) this.seeds.set(f, (seed = { spans: [], names: [], whole: false }));
    if (!what) seed.whole = true;
    else if ("span" in what) seed.spans.push(what.span);
    else if (!seed.names.includes(what.name)) seed.names.push(what.name);
  }

  /**
   * `compute()`, the answer to the per-snapshot cache entry `key`, with the consults it makes
   * recorded, so that {@link replayConsults} repeats them for a later module answered from the
   * cache (its model depends on the same declarations).
   */
  protected recordConsults<V>(key: unknown, compute: () => V): V {
    const record: ConsultRecord = [];
    this.recording.push(record);
    try {
      return compute();
    } finally {
      this.recording.splice(this.recording.indexOf(record), 1);
      this.c.consults.set(key, record);
    }
  }

  /** Repeats the consults recorded for cache entry `key` (see {@link recordConsults}). */
  protected replayConsults(key: unknown): void {
    for (const [f, what] of this.c.consults.get(key) ?? []) this.consult(f, what);
  }

  // The primitives below are a list of one-line abstract declarations, not repeated logic:
  // `duplicates` pairs its runs with each other by shape alone (a deliberate exception).

  // ---- syntax ---------------------------------------------------------------------------------

  /** The module's source file node. */
  protected abstract readonly sf: Any;
  /** Calls `cb` on each child of `node` until it returns a truthy value. */
  protected abstract forEachChild(node: Any, cb: (child: Any) => unknown): void;
  /** Modifier flags of a declaration node (0 for none). */
  protected abstract modifierFlags(node: Any): number;

  // ---- symbols and declarations ---------------------------------------------------------------

  /** A symbol's declarations (handles or nodes; `[]` for none). */
  protected abstract declarations(sym: Any): Any[];
  /** The node of a declaration handle (marks its file consulted). */
  protected abstract resolve(decl: Any): Any;
  /** The file of a declaration (forward slashes). */
  protected abstract pathOf(decl: Any): string;
  /** The parent symbol (an enum member's enum). */
  protected abstract parentOf(sym: Any): Any;
  /** A cache key for a symbol. */
  protected abstract symbolKey(sym: Any): unknown;
  /** The symbol a node names. */
  protected abstract symbolAt(node: Any): Any;
  /** The symbol named by the identifier at `span` of the module. */
  protected abstract symbolAtPosition(span: [number, number]): Any;
  /** The symbol an import alias stands for. */
  protected abstract aliasedSymbol(sym: Any): Any;
  /** The checker's error diagnostics of the file `node` is in: `[start, end)` offsets and the flattened message text. Costly (checks the file): ask only on a failure path. */
  protected abstract errorsOfFile(node: Any): { start: number; end: number; text: string }[];

  // ---- types ----------------------------------------------------------------------------------

  /** The checker's text of a type. */
  protected abstract typeToString(type: Any): string;
  /** Members of a union or intersection type. */
  protected abstract typeMembers(type: Any): Any[];
  /** The id of the enum an enum literal type belongs to. */
  protected abstract enumId(type: Any): string;
  /** The type's symbol. */
  protected abstract symbolOf(type: Any): Any;
  /** The type alias the type was written as. */
  protected abstract aliasSymbolOf(type: Any): Any;
  /** Number of type arguments of the type's alias reference. */
  protected abstract aliasArgumentCount(type: Any): number;
  /** The generic type a type reference instantiates (`Box<T>` of `Box<string>`), else the type. */
  protected abstract referenceTarget(type: Any): Any;
  /** The base types of a class or interface type. */
  protected abstract baseTypes(type: Any): readonly Any[];
  /** The type a type node denotes. */
  protected abstract typeFromTypeNode(node: Any): Any;
  /** The `any` type (a parameter the signature does not type). */
  protected abstract anyType(): Any;

  // ---- object types ---------------------------------------------------------------------------

  /** Whether a type reference is a tuple. */
  protected abstract isTupleType(type: Any): boolean;
  /** Whether a type reference is `T[]` / `Array<T>` / `readonly T[]`. */
  protected abstract isArrayType(type: Any): boolean;
  /** The type arguments of a type reference. */
  protected abstract typeArguments(type: Any): readonly Any[];
  /** The call or construct signatures of a type. */
  protected abstract signaturesOfType(type: Any, kind: "call" | "construct"): readonly Any[];
  /** The index signatures of a type. */
  protected abstract indexSignatures(type: Any): IndexSignature[];
  /** The properties of a type, in the checker's order. */
  protected abstract propertiesOf(type: Any): readonly Any[];
  /** The properties of a type in the order TypeScript 7 lists them (docs/extraction.md, classic). */
  protected abstract listedProperties(type: Any): Any[];

  // ---- signatures and batches -----------------------------------------------------------------

  /** The signature a function-like declaration node declares. */
  protected abstract signatureOfDeclaration(node: Any): Any;
  /** The parameter symbols of a signature. */
  protected abstract signatureParameters(sig: Any): readonly Any[];
  /** The return type of a signature. */
  protected abstract returnTypeOf(sig: Any): Any;
  /** The types at nodes (one request where the API batches). */
  protected abstract typesAt(nodes: Any[]): Any[];
  /**
   * The types at nodes (`undefined` entries stay `undefined`), as a lookup by index. The IPC
   * backend asks for all of them in one request up front; the classic backend asks on lookup,
   * so its checker creates types in the order it did when sites were read one by one.
   */
  protected abstract typesAtEach(nodes: (Any | undefined)[]): (index: number) => Any;
  /** The types of symbols (one request where the API batches). */
  protected abstract typesOfSymbols(syms: readonly Any[]): Any[];
  /**
   * Asks, ahead of the one-by-one signature reads, for the symbols and types of these parameter
   * name identifiers of all the module's tool methods (two requests for the whole module where
   * the API batches; the answers are cached for {@link typesOfSymbols} and the signatures'
   * parameter lists). A no-op where questions are in-process calls (classic: its checker must
   * create types in the order the sites are read).
   */
  protected abstract prefetchParameters(names: Any[]): void;
}
