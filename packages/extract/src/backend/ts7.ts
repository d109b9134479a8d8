/**
 * The TypeScript 7.0 backend: the only module that touches `typescript/unstable/sync`.
 *
 * One warm tsgo sidecar per extractor (spawned lazily on first use, reused across modules,
 * ended by `close()`). Module text handed over by the bundler is overlaid through the API's
 * virtual file system (`fs.readFile`), and changes are applied incrementally with
 * `updateSnapshot({ fileChanges })`. Queries are batched where the API accepts arrays, and
 * every answer is cached per snapshot (the API's round trips dominate the cost).
 *
 * The same code serves TypeScript 7.1 (`typescript/sync`, see `ts71.ts`): the backend is built by
 * {@link ipcBackend} from the loaded API modules (their enum values differ between 7.0 and 7.1),
 * and the few calls whose shape changed in 7.1 (snapshot creation and update, project lookup,
 * compiler options, file-system callbacks) go through {@link IpcLib}.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import type * as sync70 from "typescript/unstable/sync";
import type { API, Checker, Project, Snapshot, Symbol as TsSymbol, Type, NodeHandle, Signature } from "typescript/unstable/sync";
import type * as ast70 from "typescript/unstable/ast";
import type { Node, SourceFile } from "typescript/unstable/ast";
import type {
  Backend,
  BackendStats,
  DefaultInfo,
  ModuleSession,
  ObjectShape,
  ParamInfo,
  PropertyInfo,
  QuickResolution,
  SignatureInfo,
  TypeHost,
  TypeRef,
} from "./host.js";
import { Caches, SessionBase, failedSession, findTsconfig, norm, notStrictMessage, setOverlay } from "./common.js";

/** Options of {@link Ts7Backend}. */
export interface Ts7BackendOptions {
  /** A fixed tsconfig.json; default: the nearest `tsconfig.json` above each file. */
  tsconfig?: string;
  /** Working directory of the sidecar; default `process.cwd()`. */
  cwd?: string;
}

export type { QuickResolution, ModuleSession, BackendStats } from "./host.js";

function isLibFile(path: string): boolean {
  return /\/node_modules\/typescript\/|\/lib\.[\w.]*\.d\.ts$|\/node_modules\/@types\/|\/node_modules\/@typescript\//.test(path) || /^\/?bundled:/.test(path);
}
export { isTypedMcpFile } from "./common.js";

/**
 * What differs between the TypeScript 7.0 and 7.1 IPC APIs. The rest of the API (checker,
 * symbols, types, node handles, AST) has the same shape; the enum values come from the modules.
 */
export interface IpcLib {
  /** `"7.0"` (`typescript/unstable/sync`) or `"7.1"` (`typescript/sync`). */
  family: "7.0" | "7.1";
  /** The TypeScript package version. */
  version: string;
  /** The API module (`API` and the flag enums). */
  sync: typeof sync70;
  /** The AST module (`SyntaxKind`, `NodeFlags`). */
  ast: typeof ast70;
  /** Starts the sidecar; `overlay(file)` is the bundler's text for a file, else `undefined` (read the disk). */
  createApi(cwd: string, overlay: (file: string) => string | undefined): API;
  /** The first snapshot, with the tsconfig `config` opened. */
  firstSnapshot(api: API, config: string): Snapshot;
  /** A new snapshot after `old`: more projects opened, files changed/deleted on disk or in overlays. */
  /** A new snapshot after `old`: more projects opened; files changed, deleted or created on disk or in overlays. */
  nextSnapshot(api: API, old: Snapshot, open: string[], changed: string[], deleted: string[], created?: string[]): Snapshot;
  /** The project of the tsconfig `config` in `snapshot`. */
  project(snapshot: Snapshot, config: string): Project | undefined;
  /** The project's resolved compiler options. */
  compilerOptions(project: Project): { strict?: boolean; strictNullChecks?: boolean };
}

/**
 * TypeScript 7.0's API (`typescript/unstable/sync` + `/ast`) from the package directory `dir`
 * (default: typed-mcp's own `typescript` dependency), loaded on first use — so that importing
 * `@typed-mcp/extract` never needs a TypeScript 7 (a project on TypeScript 6 has none). Loaded
 * with `require` (Node ≥ 20.19 `require`s ES modules) from the package's own path. Throws
 * `ERR_PACKAGE_PATH_NOT_EXPORTED` / `MODULE_NOT_FOUND` when `dir` is not a TypeScript 7.0.
 */
export function ts70Lib(dir?: string): IpcLib {
  dir ??= dirname(createRequire(import.meta.url).resolve("typescript/package.json"));
  const req = createRequire(join(dir, "package.json"));
  // Self-reference: the package is named "typescript", so its own exports map applies.
  const sync = req("typescript/unstable/sync") as typeof sync70;
  const ast = req("typescript/unstable/ast") as typeof ast70;
  const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  return {
  family: "7.0",
  version,
  sync,
  ast,
  createApi: (cwd, overlay) => new sync.API({ cwd, collectTiming: true, fs: { readFile: (name: string) => overlay(norm(name)) } }),
  firstSnapshot: (api, config) => api.updateSnapshot({ openProjects: [config] }),
  nextSnapshot: (api, _old, open, changed, deleted, created = []) =>
    api.updateSnapshot({
      ...(open.length ? { openProjects: open } : {}),
      ...(changed.length || deleted.length || created.length ? { fileChanges: { changed, deleted, created } } : {}),
    }),
  project: (snapshot, config) => snapshot.getProject(config) ?? snapshot.getProjects()[0],
  compilerOptions: (project) => project.compilerOptions as { strict?: boolean; strictNullChecks?: boolean },
  };
}

/** A backend class over one IPC API version. */
export type IpcBackendClass = new (options?: Ts7BackendOptions) => Backend & {
  /** The tsconfig used for `file`. */
  configFor(file: string): string | undefined;
};

/** Builds the IPC backend class for `lib` (TypeScript 7.0 or 7.1). */
export function ipcBackend(lib: IpcLib): IpcBackendClass {
const { ModifierFlags, SignatureKind, SymbolFlags, TypeFlags, ObjectFlags } = lib.sync;
const { SyntaxKind, NodeFlags } = lib.ast;

/** The TypeScript 7.x IPC backend. */
class Ts7Backend implements Backend {
  private api: API | undefined;
  private snapshot: Snapshot | undefined;
  private readonly overlays = new Map<string, string>();
  private readonly openConfigs = new Set<string>();
  private readonly pendingChanged = new Set<string>();
  private readonly pendingDeleted = new Set<string>();
  /** Modules not in their program that were already reported to the sidecar as created. */
  private readonly createdTried = new Set<string>();
  private coldStartMs = 0;
  /** Incremented on every new snapshot: models computed under an older generation may be stale. */
  generation = 0;
  private closed = false;
  /** Per-snapshot caches, keyed by project. */
  private caches = new Map<string, Caches>();

  constructor(private readonly options: Ts7BackendOptions = {}) {}

  /** Finds the tsconfig for `file`: the fixed one, else the nearest `tsconfig.json` above it. */
  configFor(file: string): string | undefined {
    return findTsconfig(this.options, file);
  }

  /** Opens (or refreshes) the project for `file` with `code` as its text and returns a session. */
  session(file: string, code: string): ModuleSession {
    if (this.closed) throw new Error("The extractor was closed.");
    file = norm(file);
    const config = this.configFor(file);
    if (!config) return failedSession(`No tsconfig.json found above ${file}; typed-mcp needs one (with "strict": true).`);
    if (setOverlay(this.overlays, file, code)) {
      if (this.snapshot) this.pendingChanged.add(file);
    }
    const newConfig = !this.openConfigs.has(config);
    if (!this.api) {
      const t0 = performance.now();
      this.api = lib.createApi(this.options.cwd ?? process.cwd(), (name) => this.overlays.get(name));
      this.openConfigs.add(config);
      this.snapshot = lib.firstSnapshot(this.api, config);
      this.pendingChanged.clear();
      this.coldStartMs = performance.now() - t0;
    } else if (newConfig || this.pendingChanged.size > 0 || this.pendingDeleted.size > 0) {
      const old = this.snapshot;
      if (newConfig) this.openConfigs.add(config);
      const changed = [...this.pendingChanged];
      const deleted = [...this.pendingDeleted];
      this.pendingChanged.clear();
      this.pendingDeleted.clear();
      this.snapshot = lib.nextSnapshot(this.api, old!, newConfig ? [config] : [], changed, deleted);
      this.caches.clear();
      this.generation++;
      old?.dispose();
    }
    let project = lib.project(this.snapshot!, config);
    if (!project) return failedSession(`TypeScript could not load the project ${config}.`);
    if (!project.program.getSourceFile(file) && !this.createdTried.has(file) && (this.overlays.has(file) || existsSync(file))) {
      // A module created since the project was loaded (watch mode): report it as created once,
      // so the config's include globs are matched again.
      this.createdTried.add(file);
      const old = this.snapshot!;
      this.snapshot = lib.nextSnapshot(this.api!, old, [], [], [], [file]);
      this.caches.clear();
      this.generation++;
      old.dispose();
      project = lib.project(this.snapshot, config);
      if (!project) return failedSession(`TypeScript could not load the project ${config}.`);
    }
    const opts = lib.compilerOptions(project);
    const strictNull = opts.strictNullChecks ?? opts.strict ?? false;
    if (!strictNull) {
      return failedSession(notStrictMessage(config));
    }
    const sf = project.program.getSourceFile(file);
    if (!sf) return failedSession(`${file} is not part of the TypeScript project ${config}; include it there (tsconfig "include"/"files").`);
    let caches = this.caches.get(project.id);
    if (!caches) {
      caches = new Caches();
      this.caches.set(project.id, caches);
    }
    return new Ts7Session(project, sf, file, caches);
  }

  /** Records a change on disk (watch mode); applied with the next `session`. */
  invalidate(file: string, deleted = false): void {
    file = norm(file);
    this.overlays.delete(file);
    this.createdTried.delete(file);
    if (!this.snapshot) return;
    if (deleted) {
      this.pendingDeleted.add(file);
      this.pendingChanged.delete(file);
    } else {
      this.pendingChanged.add(file);
    }
  }

  /** Measurements so far. */
  stats(): BackendStats {
    if (!this.api) return { roundTrips: 0, coldStartMs: 0, backend: lib.family, typescriptVersion: lib.version };
    const info = this.api.getTimingInfo();
    return { roundTrips: info.totals.requestCount, coldStartMs: this.coldStartMs, backend: lib.family, typescriptVersion: lib.version };
  }

  /** Ends the sidecar. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.snapshot?.dispose();
    } catch {
      /* already gone */
    }
    try {
      this.api?.close();
    } catch {
      /* already gone */
    }
    this.api = undefined;
    this.snapshot = undefined;
  }
}

type AnyNode = Node & { [k: string]: any };

class Ts7Session extends SessionBase implements ModuleSession, TypeHost {
  readonly host: TypeHost = this;
  private readonly checker: Checker;

  constructor(
    private readonly project: Project,
    protected readonly sf: SourceFile,
    file: string,
    c: Caches,
  ) {
    super(file, c, { SyntaxKind, TypeFlags, SymbolFlags, ModifierFlags }, isLibFile);
    this.checker = project.checker;
  }

  // ---- primitives of the shared algorithm (common.ts) -------------------------------------

  protected resolve(handle: NodeHandle | undefined): AnyNode | undefined {
    if (!handle) return undefined;
    this.consult(handle.path);
    try {
      return handle.resolve(this.project) as AnyNode | undefined;
    } catch {
      return undefined;
    }
  }

  protected typeToString(type: Type): string {
    return this.checker.typeToString(type);
  }

  protected typeMembers(type: Type): Type[] {
    return (type as any).getTypes();
  }

  protected enumId(type: Type): string {
    const member = type.getSymbol();
    const parent = member?.getParent();
    return String(parent?.id ?? member?.id ?? type.id);
  }

  protected symbolOf(type: Type): TsSymbol | undefined {
    return type.getSymbol();
  }

  protected aliasSymbolOf(type: Type): TsSymbol | undefined {
    return type.getAliasSymbol();
  }

  protected aliasArgumentCount(type: Type): number {
    return type.getAliasTypeArguments().length;
  }

  protected parentOf(sym: TsSymbol): TsSymbol | undefined {
    return sym.getParent();
  }

  protected symbolKey(sym: TsSymbol): unknown {
    return sym.id;
  }

  protected declarations(sym: TsSymbol): NodeHandle[] {
    return sym.declarations as NodeHandle[];
  }

  protected pathOf(decl: NodeHandle): string {
    return norm(decl.path);
  }

  protected modifierFlags(node: AnyNode | undefined): number {
    return node?.modifierFlags ?? 0;
  }

  protected symbolAt(node: AnyNode): TsSymbol | undefined {
    return this.checker.getSymbolAtLocation(node);
  }

  protected aliasedSymbol(sym: TsSymbol): TsSymbol {
    return this.checker.getAliasedSymbol(sym);
  }

  protected typeFromTypeNode(node: AnyNode): Type | undefined {
    return this.checker.getTypeFromTypeNode(node as any);
  }

  protected typesAt(nodes: AnyNode[]): (Type | undefined)[] {
    return this.checker.getTypeAtLocation(nodes);
  }

  protected propertiesOf(type: Type): readonly TsSymbol[] {
    return this.checker.getPropertiesOfType(type);
  }

  protected typesOfSymbols(syms: TsSymbol[]): (Type | undefined)[] {
    return this.checker.getTypeOfSymbol(syms);
  }

  // ---- finding nodes in the module -------------------------------------------------------

  // ---- finding nodes in the module -------------------------------------------------------

  protected forEachChild(node: AnyNode, cb: (child: AnyNode) => unknown): void {
    node.forEachChild(cb as (c: Node) => unknown);
  }

  methodSignature(nameSpan: [number, number]): SignatureInfo | undefined {
    const node = this.findNode(nameSpan[0], nameSpan[1], (n) => n.kind === SyntaxKind.MethodDeclaration && n.name.getStart() === nameSpan[0]);
    return node ? this.signatureOf(node) : undefined;
  }

  quickSites(sites: { receiver: [number, number]; fn: { kind: string; span: [number, number] } }[]): QuickResolution[] {
    if (sites.length === 0) return [];
    const receivers = sites.map((s) =>
      this.findNode(s.receiver[0], s.receiver[1], (n) => n.getStart() === s.receiver[0] && n.end === s.receiver[1]),
    );
    const present = receivers.filter((r): r is AnyNode => !!r);
    const types = present.length ? this.checker.getTypeAtLocation(present) : [];
    const typeOf = new Map<AnyNode, Type | undefined>();
    present.forEach((r, i) => typeOf.set(r, types[i]));
    return sites.map((s, i) => {
      const r = receivers[i];
      const t = r ? typeOf.get(r) : undefined;
      const named = t ? this.namedOf(t) : undefined;
      const isServer = !!named && named.name === "McpServer" && named.typedMcp;
      if (!isServer) return { isServer };
      let fnNode: AnyNode | undefined;
      if (s.fn.kind === "inline") {
        fnNode = this.findNode(s.fn.span[0], s.fn.span[1], (n) =>
          (n.kind === SyntaxKind.ArrowFunction || n.kind === SyntaxKind.FunctionExpression) && n.getStart() === s.fn.span[0],
        );
      } else if (s.fn.kind === "identifier") {
        let sym = this.checker.getSymbolAtPosition(this.file, s.fn.span[0]);
        if (sym && sym.flags & SymbolFlags.Alias) sym = this.checker.getAliasedSymbol(sym);
        const decl = this.resolve(sym?.valueDeclaration);
        if (decl?.kind === SyntaxKind.FunctionDeclaration) fnNode = decl;
        else if (
          decl?.kind === SyntaxKind.VariableDeclaration &&
          decl.parent.flags & NodeFlags.Const &&
          decl.initializer &&
          (this.unparen(decl.initializer).kind === SyntaxKind.ArrowFunction || this.unparen(decl.initializer).kind === SyntaxKind.FunctionExpression)
        ) {
          fnNode = this.unparen(decl.initializer);
        } else {
          return {
            isServer,
            problem: `server.tool: '${this.sf.text.slice(s.fn.span[0], s.fn.span[1])}' must be bound to a function declaration or a const arrow function (or pass the function inline).`,
          };
        }
      }
      if (!fnNode) return { isServer, problem: "server.tool: the function argument could not be read." };
      return { isServer, signature: this.signatureOf(fnNode) };
    });
  }

  private signatureOf(node: AnyNode): SignatureInfo | undefined {
    const sig = this.checker.getSignatureFromDeclaration(node);
    if (!sig) return undefined;
    const paramNodes = (node.parameters as AnyNode[]).filter(
      (p) => !(p.name.kind === SyntaxKind.Identifier && p.name.text === "this"),
    );
    const symbols = sig.getParameters();
    const types = symbols.length ? this.checker.getTypeOfSymbol(symbols) : [];
    const returnType = this.checker.getReturnTypeOfSignature(sig)!;
    // Defaults that need the checker (identifiers, enum members): one batched query.
    const needType: AnyNode[] = [];
    const defaultOf = (init: AnyNode | undefined): DefaultInfo | undefined => {
      if (!init) return undefined;
      const d = this.syntacticDefault(init);
      if (d) return d;
      const e = this.unparen(init);
      if (e.kind === SyntaxKind.Identifier || e.kind === SyntaxKind.PropertyAccessExpression) {
        needType.push(e);
        return { kind: "type", type: e as never };
      }
      return { kind: "other" };
    };
    const params: ParamInfo[] = paramNodes.map((p, i) => this.paramInfo(p, types[i] ?? this.checker.getAnyType(), defaultOf));
    if (needType.length) {
      const resolved = this.checker.getTypeAtLocation(needType);
      const byNode = new Map(needType.map((n, i) => [n, resolved[i]]));
      const fix = (d: DefaultInfo | undefined): DefaultInfo | undefined => {
        if (d?.kind !== "type") return d;
        const t = byNode.get(d.type as unknown as AnyNode);
        return t ? { kind: "type", type: t as never } : { kind: "other" };
      };
      for (const p of params) {
        p.default = fix(p.default);
        if (p.bindings) for (const b of p.bindings) b.default = fix(b.default);
      }
    }
    return {
      params,
      returnType: returnType as never,
      returnTypeNode: node.type as never,
      returnLoc: this.loc(node.type ?? node.name ?? node),
      doc: this.docOfFunction(node),
      hasTypeParameters: !!node.typeParameters?.length,
    };
  }

  // ---- TypeHost (the rest is in common.ts) ------------------------------------------------

  object(t: TypeRef): ObjectShape {
    const type = t as unknown as Type;
    const cached = this.c.object.get(type.id);
    if (cached) return cached;
    const shape: ObjectShape = { tuple: false, typeArguments: [], callable: false, otherIndex: false };
    const of = oflags(type);
    if (of & ObjectFlags.Reference) {
      if (this.checker.isTupleType(type)) shape.tuple = true;
      else shape.typeArguments = [...this.checker.getTypeArguments(type as any)] as unknown as TypeRef[];
      if (!shape.tuple && this.checker.isArrayType(type)) shape.arrayElement = shape.typeArguments[0] as never;
    }
    shape.named = this.namedOf(type);
    if (!shape.arrayElement && !shape.tuple) {
      const calls = this.checker.getSignaturesOfType(type, SignatureKind.Call);
      const ctors = calls.length ? [] : this.checker.getSignaturesOfType(type, SignatureKind.Construct);
      shape.callable = calls.length + ctors.length > 0;
      for (const info of this.checker.getIndexInfosOfType(type)) {
        if (info.keyType.flags & TypeFlags.String) shape.stringIndex = info.valueType as never;
        else shape.otherIndex = true;
      }
    }
    shape.typeArguments = shape.typeArguments.map((a) => a as never);
    this.c.object.set(type.id, shape);
    return shape;
  }

  properties(t: TypeRef): PropertyInfo[] {
    const type = t as unknown as Type;
    const cached = this.c.props.get(type.id);
    if (cached) return cached;
    const symbols = [...this.checker.getPropertiesOfType(type)];
    const ordered = this.baseFirst(type, symbols);
    const types = ordered.length ? this.checker.getTypeOfSymbol(ordered) : [];
    const props = ordered.map((sym, i) => this.propertyInfo(sym, types[i]!));
    this.c.props.set(type.id, props);
    return props;
  }

  /** Orders properties base (`extends`) first, then declaration order. */
  private baseFirst(type: Type, symbols: TsSymbol[]): TsSymbol[] {
    let target: Type = type;
    if ((oflags(type)) & ObjectFlags.Reference && !((oflags(type)) & ObjectFlags.ClassOrInterface)) {
      try {
        target = (type as any).getTarget();
      } catch {
        target = type;
      }
    }
    if (!(oflags(target) & ObjectFlags.ClassOrInterface)) return symbols;
    const baseNames: string[] = [];
    const collect = (t: Type, depth: number): void => {
      if (depth > 20) return;
      for (const base of this.checker.getBaseTypes(t as any)) {
        let bt: Type = base;
        if (oflags(bt) & ObjectFlags.Reference && !(oflags(bt) & ObjectFlags.ClassOrInterface)) bt = (bt as any).getTarget();
        collect(bt, depth + 1);
        for (const p of this.checker.getPropertiesOfType(base)) if (!baseNames.includes(p.name)) baseNames.push(p.name);
      }
    };
    collect(target, 0);
    if (baseNames.length === 0) return symbols;
    const byName = new Map(symbols.map((s) => [s.name, s]));
    const out: TsSymbol[] = [];
    for (const n of baseNames) {
      const s = byName.get(n);
      if (s) out.push(s);
    }
    for (const s of symbols) if (!baseNames.includes(s.name)) out.push(s);
    return out;
  }
}


function oflags(t: Type): number {
  return (t as { objectFlags?: number }).objectFlags ?? 0;
}

return Ts7Backend;
}

const ts70Classes = new Map<string, IpcBackendClass>();

/**
 * The TypeScript 7.0 IPC backend class over the 7.0 package at `dir` (default: typed-mcp's own
 * `typescript` dependency); loaded once per directory. Throws as {@link ts70Lib}.
 */
export function ts70Backend(dir?: string): IpcBackendClass {
  const key = dir ?? "";
  let cls = ts70Classes.get(key);
  if (!cls) {
    cls = ipcBackend(ts70Lib(dir));
    ts70Classes.set(key, cls);
  }
  return cls;
}

export type { Signature };
