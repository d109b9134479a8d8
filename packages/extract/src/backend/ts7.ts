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
import { dirname, join, relative, resolve } from "node:path";
import { createRequire } from "node:module";
import type * as sync70 from "typescript/unstable/sync";
import type { API, Checker, Project, Snapshot, Symbol as TsSymbol, Type, NodeHandle, Signature } from "typescript/unstable/sync";
import type * as ast70 from "typescript/unstable/ast";
import type { Node, SourceFile } from "typescript/unstable/ast";
import type { SourceLocation } from "@typed-mcp/model";
import type {
  Backend,
  BackendStats,
  BindingInfo,
  ConstructorInfo,
  DefaultInfo,
  EnumInfo,
  ModuleSession,
  NamedInfo,
  ObjectShape,
  ParamInfo,
  PropertyInfo,
  QuickResolution,
  SignatureInfo,
  TypeHost,
  TypeNodeRef,
  TypeRef,
  TypeShape,
} from "./host.js";

/** Options of {@link Ts7Backend}. */
export interface Ts7BackendOptions {
  /** A fixed tsconfig.json; default: the nearest `tsconfig.json` above each file. */
  tsconfig?: string;
  /** Working directory of the sidecar; default `process.cwd()`. */
  cwd?: string;
}

export type { QuickResolution, ModuleSession, BackendStats } from "./host.js";

const norm = (f: string) => f.replace(/\\/g, "/");

function isLibFile(path: string): boolean {
  return /\/node_modules\/typescript\/|\/lib\.[\w.]*\.d\.ts$|\/node_modules\/@types\/|\/node_modules\/@typescript\//.test(path) || /^\/?bundled:/.test(path);
}
/** A file belonging to the typed-mcp runtime package (installed or in the workspace). */
export function isTypedMcpFile(path: string): boolean {
  return /\/typed-mcp\/(?:src|dist)\/[^/]+\.(?:d\.)?[cm]?ts$/.test(norm(path)) || /\/node_modules\/typed-mcp\//.test(norm(path));
}

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
    if (this.options.tsconfig) return norm(resolve(this.options.cwd ?? process.cwd(), this.options.tsconfig));
    let dir = dirname(file);
    for (;;) {
      const candidate = join(dir, "tsconfig.json");
      if (existsSync(candidate)) return norm(candidate);
      const up = dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
  }

  /** Opens (or refreshes) the project for `file` with `code` as its text and returns a session. */
  session(file: string, code: string): ModuleSession {
    if (this.closed) throw new Error("The extractor was closed.");
    file = norm(file);
    const config = this.configFor(file);
    if (!config) return failedSession(`No tsconfig.json found above ${file}; typed-mcp needs one (with "strict": true).`);
    const previous = this.overlays.get(file);
    if (previous !== code) {
      let disk: string | undefined;
      if (previous === undefined) {
        try {
          disk = readFileSync(file, "utf8");
        } catch {
          disk = undefined;
        }
      }
      if (previous !== undefined || disk !== code) {
        this.overlays.set(file, code);
        if (this.snapshot) this.pendingChanged.add(file);
      }
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
      return failedSession(
        `typed-mcp needs strictNullChecks: set "strict": true (or "strictNullChecks": true) in the compilerOptions of ${config}.`,
      );
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

function failedSession(message: string): ModuleSession {
  return {
    host: undefined as never,
    configProblem: message,
    methodSignature: () => undefined,
    quickSites: () => [],
    consulted: () => [],
  };
}

/** Per-project-snapshot caches keyed by type / symbol id. */
class Caches {
  shape = new Map<number, TypeShape>();
  object = new Map<number, ObjectShape>();
  props = new Map<number, PropertyInfo[]>();
  tags = new Map<number, ReturnType<TypeHost["tags"]>>();
  enums = new Map<number, EnumInfo | undefined>();
  named = new Map<number, NamedInfo | undefined>();
  text = new Map<number, string>();
}

type AnyNode = Node & { [k: string]: any };

class Ts7Session implements ModuleSession, TypeHost {
  readonly host: TypeHost = this;
  private readonly checker: Checker;
  private readonly consultedFiles = new Set<string>();

  constructor(
    private readonly project: Project,
    private readonly sf: SourceFile,
    private readonly file: string,
    private readonly c: Caches,
  ) {
    this.checker = project.checker;
  }

  consulted(): string[] {
    return [...this.consultedFiles].sort();
  }

  consult(file: string): void {
    const f = norm(file);
    if (f !== this.file && !isLibFile(f) && !/\/node_modules\//.test(f)) this.consultedFiles.add(f);
  }

  private resolve(handle: NodeHandle | undefined): AnyNode | undefined {
    if (!handle) return undefined;
    this.consult(handle.path);
    try {
      return handle.resolve(this.project) as AnyNode | undefined;
    } catch {
      return undefined;
    }
  }

  private loc(node: AnyNode): SourceLocation {
    const sf = node.getSourceFile();
    const pos = node.getStart(sf);
    const lc = sf.getLineAndCharacterOfPosition(pos);
    return { file: norm(sf.fileName), line: lc.line + 1, column: lc.character + 1 };
  }

  private lastDoc(node: AnyNode | undefined): string | undefined {
    const docs = node?.jsDoc as AnyNode[] | undefined;
    if (!docs || docs.length === 0) return undefined;
    const d = docs[docs.length - 1]!;
    const text = d.getSourceFile().text as string;
    return text.slice(d.pos, d.end);
  }

  // ---- finding nodes in the module -------------------------------------------------------

  private findNode(start: number, end: number, pred: (n: AnyNode) => boolean): AnyNode | undefined {
    let found: AnyNode | undefined;
    const visit = (n: AnyNode): void => {
      if (found) return;
      n.forEachChild((c: Node) => {
        if (found) return true;
        const child = c as AnyNode;
        if (child.pos <= start && child.end >= end) {
          if (pred(child)) {
            found = child;
            return true;
          }
          visit(child);
        }
        return undefined;
      });
    };
    visit(this.sf as AnyNode);
    return found;
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
          (unparen(decl.initializer).kind === SyntaxKind.ArrowFunction || unparen(decl.initializer).kind === SyntaxKind.FunctionExpression)
        ) {
          fnNode = unparen(decl.initializer);
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
      const d = syntacticDefault(init);
      if (d) return d;
      const e = unparen(init);
      if (e.kind === SyntaxKind.Identifier || e.kind === SyntaxKind.PropertyAccessExpression) {
        needType.push(e);
        return { kind: "type", type: e as never };
      }
      return { kind: "other" };
    };
    const params: ParamInfo[] = paramNodes.map((p, i) => {
      const info: ParamInfo = {
        name: p.name.kind === SyntaxKind.Identifier ? p.name.text : undefined,
        rest: !!p.dotDotDotToken,
        optional: !!p.questionToken,
        type: (types[i] ?? this.checker.getAnyType()) as never,
        typeNode: p.type as never,
        doc: this.lastDoc(p),
        loc: this.loc(p.name),
        default: defaultOf(p.initializer),
      };
      if (p.name.kind === SyntaxKind.ObjectBindingPattern) {
        info.pattern = "object";
        info.bindings = (p.name.elements as AnyNode[]).map((el): BindingInfo => {
          const keyNode = el.propertyName ?? el.name;
          let key: string | undefined;
          if (keyNode?.kind === SyntaxKind.Identifier || keyNode?.kind === SyntaxKind.StringLiteral || keyNode?.kind === SyntaxKind.NumericLiteral) key = keyNode.text;
          return { key: el.dotDotDotToken ? undefined : key, rest: !!el.dotDotDotToken, default: defaultOf(el.initializer), loc: this.loc(el) };
        });
      } else if (p.name.kind === SyntaxKind.ArrayBindingPattern) {
        info.pattern = "array";
      }
      return info;
    });
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

  /** JSDoc of a tool function: its own, else its `const` statement's, else the enclosing call statement's. */
  private docOfFunction(node: AnyNode): string | undefined {
    const own = this.lastDoc(node);
    if (own) return own;
    let p = node.parent as AnyNode | undefined;
    while (p && p.kind === SyntaxKind.ParenthesizedExpression) p = p.parent;
    if (p?.kind === SyntaxKind.VariableDeclaration) return this.lastDoc(p.parent?.parent) ?? this.lastDoc(p);
    if (p?.kind === SyntaxKind.CallExpression) {
      let s = p.parent as AnyNode | undefined;
      while (s && (s.kind === SyntaxKind.AwaitExpression || s.kind === SyntaxKind.ParenthesizedExpression)) s = s.parent;
      if (s?.kind === SyntaxKind.ExpressionStatement) return this.lastDoc(s);
    }
    return undefined;
  }

  // ---- TypeHost ---------------------------------------------------------------------------

  typeId(t: TypeRef): number {
    return (t as unknown as Type).id;
  }

  aliasNamed(t: TypeRef): NamedInfo | undefined {
    const sym = (t as unknown as Type).getAliasSymbol();
    if (!sym) return undefined;
    const paths = sym.declarations.map((d) => norm(d.path));
    const typedMcp = paths.some(isTypedMcpFile);
    const builtin = paths.length > 0 && paths.every((p) => isLibFile(p) || /\/node_modules\//.test(p));
    return { name: sym.name, typedMcp, builtin: builtin && !typedMcp, isClass: false };
  }

  referenceNamed(node: TypeNodeRef | undefined): NamedInfo | undefined {
    let n = node as unknown as AnyNode | undefined;
    while (n && n.kind === SyntaxKind.ParenthesizedType) n = n.type;
    if (!n || n.kind !== SyntaxKind.TypeReference) return undefined;
    let sym = this.checker.getSymbolAtLocation(n.typeName);
    if (!sym) return undefined;
    if (sym.flags & SymbolFlags.Alias) sym = this.checker.getAliasedSymbol(sym);
    const paths = sym.declarations.map((d) => norm(d.path));
    const typedMcp = paths.some(isTypedMcpFile);
    const builtin = paths.length > 0 && paths.every((p) => isLibFile(p) || /\/node_modules\//.test(p));
    return { name: sym.name, typedMcp, builtin: builtin && !typedMcp, isClass: !!(sym.flags & SymbolFlags.Class) };
  }

  typeDoc(t: TypeRef): string | undefined {
    const type = t as unknown as Type;
    const sym = type.getSymbol() ?? type.getAliasSymbol();
    if (!sym) return undefined;
    for (const d of sym.declarations) {
      const doc = this.lastDoc(this.resolve(d));
      if (doc) return doc;
    }
    const alias = type.getAliasSymbol();
    if (alias && alias !== sym) for (const d of alias.declarations) {
      const doc = this.lastDoc(this.resolve(d));
      if (doc) return doc;
    }
    return undefined;
  }

  text(t: TypeRef): string {
    const type = t as unknown as Type;
    let s = this.c.text.get(type.id);
    if (s === undefined) {
      s = this.checker.typeToString(type);
      this.c.text.set(type.id, s);
    }
    return s;
  }

  shape(t: TypeRef): TypeShape {
    const type = t as unknown as Type;
    const cached = this.c.shape.get(type.id);
    if (cached) return cached;
    const s = this.computeShape(type);
    this.c.shape.set(type.id, s);
    return s;
  }

  private computeShape(type: Type): TypeShape {
    const f = type.flags;
    if (f & TypeFlags.Union) return { kind: "union", members: (type as any).getTypes() };
    if (f & TypeFlags.Intersection) return { kind: "intersection", members: (type as any).getTypes() };
    if (f & TypeFlags.EnumLiteral && f & (TypeFlags.StringLiteral | TypeFlags.NumberLiteral)) {
      const member = type.getSymbol();
      const parent = member?.getParent();
      return { kind: "enumLiteral", value: (type as any).value, enumId: String(parent?.id ?? member?.id ?? type.id) };
    }
    if (f & TypeFlags.StringLiteral) return { kind: "stringLiteral", value: (type as any).value };
    if (f & TypeFlags.NumberLiteral) return { kind: "numberLiteral", value: (type as any).value };
    if (f & TypeFlags.BooleanLiteral) return { kind: "booleanLiteral", value: (type as any).intrinsicName === "true" };
    if (f & TypeFlags.BigIntLiteral) return { kind: "bigintLiteral" };
    if (f & TypeFlags.String) return { kind: "string" };
    if (f & TypeFlags.Number) return { kind: "number" };
    if (f & TypeFlags.BigInt) return { kind: "bigint" };
    if (f & TypeFlags.Boolean) return { kind: "boolean" };
    if (f & TypeFlags.Null) return { kind: "null" };
    if (f & TypeFlags.Undefined) return { kind: "undefined" };
    if (f & TypeFlags.Void) return { kind: "void" };
    if (f & TypeFlags.Any) return { kind: "any" };
    if (f & TypeFlags.Unknown) return { kind: "unknown" };
    if (f & TypeFlags.Never) return { kind: "never" };
    if (f & (TypeFlags.ESSymbol | TypeFlags.UniqueESSymbol)) return { kind: "symbol" };
    if (f & TypeFlags.NonPrimitive) return { kind: "nonPrimitive" };
    if (f & TypeFlags.TypeParameter) return { kind: "typeParameter" };
    if (f & TypeFlags.Object) return { kind: "object" };
    return { kind: "other" };
  }

  private namedOf(type: Type): NamedInfo | undefined {
    if (this.c.named.has(type.id)) return this.c.named.get(type.id);
    let info: NamedInfo | undefined;
    const sym = type.getSymbol();
    if (sym && !sym.name.startsWith("__")) {
      const decls = sym.declarations;
      const paths = decls.map((d) => norm(d.path));
      const builtin = paths.length > 0 && paths.every((p) => isLibFile(p) || (/\/node_modules\//.test(p) && p.endsWith(".d.ts")));
      const typedMcp = paths.some(isTypedMcpFile);
      if (!builtin) for (const p of paths) this.consult(p);
      info = { name: sym.name, builtin: builtin && !typedMcp, typedMcp, isClass: !!(sym.flags & SymbolFlags.Class) };
    }
    this.c.named.set(type.id, info);
    return info;
  }

  declaredAt(t: TypeRef): SourceLocation | undefined {
    const type = t as unknown as Type;
    const sym = type.getAliasSymbol() ?? type.getSymbol();
    const decl = sym?.declarations[0];
    if (!decl) return undefined;
    if (isLibFile(norm(decl.path))) return { file: norm(decl.path), line: 0, column: 0 };
    const node = this.resolve(decl);
    return node ? this.loc(node.name ?? node) : undefined;
  }

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

  private propertyInfo(sym: TsSymbol, type: Type): PropertyInfo {
    const decl = this.resolve(sym.valueDeclaration ?? sym.declarations[0]);
    let kind: PropertyInfo["kind"] = "field";
    if (sym.flags & SymbolFlags.Method) kind = "method";
    else if (sym.flags & SymbolFlags.GetAccessor) kind = sym.flags & SymbolFlags.SetAccessor ? "getterSetter" : "getter";
    else if (sym.flags & SymbolFlags.SetAccessor) kind = "setter";
    else if (!(sym.flags & SymbolFlags.Property)) kind = "other";
    const mf: number = decl?.modifierFlags ?? 0;
    let visibility: PropertyInfo["visibility"] = "public";
    if (decl?.name?.kind === SyntaxKind.PrivateIdentifier || sym.name.startsWith("#") || sym.escapedName.startsWith("__#")) visibility = "hash";
    else if (mf & ModifierFlags.Private) visibility = "private";
    else if (mf & ModifierFlags.Protected) visibility = "protected";
    // A getter's documentation may be on the getter or the setter: take the first documented declaration.
    let doc = this.lastDoc(decl);
    if (!doc && sym.declarations.length > 1) {
      for (const d of sym.declarations) {
        doc = this.lastDoc(this.resolve(d));
        if (doc) break;
      }
    }
    return {
      name: sym.name,
      type: type as never,
      optional: !!(sym.flags & SymbolFlags.Optional),
      doc,
      typeNode: (decl && decl.kind !== SyntaxKind.GetAccessor && decl.kind !== SyntaxKind.SetAccessor ? decl.type : decl?.type) as never,
      declaredAt: decl ? this.loc(decl.name ?? decl) : undefined,
      kind,
      visibility,
      isStatic: !!(mf & ModifierFlags.Static),
      hasInitializer: decl?.kind === SyntaxKind.PropertyDeclaration && !!decl.initializer,
      parameterProperty: decl?.kind === SyntaxKind.Parameter,
    };
  }

  enumOf(t: TypeRef): EnumInfo | undefined {
    const type = t as unknown as Type;
    const member = type.getSymbol();
    const parent = member?.getParent();
    if (!parent) return undefined;
    if (this.c.enums.has(parent.id)) return this.c.enums.get(parent.id);
    let info: EnumInfo | undefined;
    const memberNodes: AnyNode[] = [];
    for (const d of parent.declarations) {
      const node = this.resolve(d);
      if (node?.kind === SyntaxKind.EnumDeclaration) memberNodes.push(...(node.members as AnyNode[]));
    }
    if (memberNodes.length) {
      const types = this.checker.getTypeAtLocation(memberNodes);
      info = {
        name: parent.name,
        members: memberNodes.map((m, i) => ({ name: m.name.text as string, value: (types[i] as any)?.value })),
      };
    }
    this.c.enums.set(parent.id, info);
    return info;
  }

  literalOrder(t: TypeRef, node: TypeNodeRef | undefined): (string | number)[] | undefined {
    const out: (string | number)[] = [];
    if (node) {
      if (this.collectLiterals(node as unknown as AnyNode, out, 0)) return out;
      return undefined;
    }
    const type = t as unknown as Type;
    const alias = type.getAliasSymbol();
    if (alias && type.getAliasTypeArguments().length === 0) {
      const decl = this.resolve(alias.declarations[0]);
      if (decl?.kind === SyntaxKind.TypeAliasDeclaration && this.collectLiterals(decl.type, out, 0)) return out;
    }
    return undefined;
  }

  aliasTypeNode(t: TypeRef): TypeNodeRef | undefined {
    const alias = (t as unknown as Type).getAliasSymbol();
    const decl = alias ? this.resolve(alias.declarations[0]) : undefined;
    if (decl?.kind !== SyntaxKind.TypeAliasDeclaration) return undefined;
    let n = decl.type as AnyNode;
    for (let depth = 0; depth < 20; depth++) {
      while (n.kind === SyntaxKind.ParenthesizedType) n = n.type;
      if (n.kind !== SyntaxKind.TypeReference || n.typeArguments?.length) break;
      let sym = this.checker.getSymbolAtLocation(n.typeName);
      if (sym && sym.flags & SymbolFlags.Alias) sym = this.checker.getAliasedSymbol(sym);
      const next = sym && sym.flags & SymbolFlags.TypeAlias ? this.resolve(sym.declarations[0]) : undefined;
      if (next?.kind !== SyntaxKind.TypeAliasDeclaration) break;
      n = next.type;
    }
    return n as never;
  }

  private collectLiterals(node: AnyNode, out: (string | number)[], depth: number): boolean {
    if (depth > 20) return false;
    switch (node.kind) {
      case SyntaxKind.ParenthesizedType:
        return this.collectLiterals(node.type, out, depth + 1);
      case SyntaxKind.UnionType:
        return (node.types as AnyNode[]).every((m) => this.collectLiterals(m, out, depth + 1));
      case SyntaxKind.NullKeyword:
      case SyntaxKind.UndefinedKeyword:
        return true;
      case SyntaxKind.LiteralType: {
        const lit = node.literal as AnyNode;
        if (lit.kind === SyntaxKind.StringLiteral || lit.kind === SyntaxKind.NoSubstitutionTemplateLiteral) out.push(lit.text);
        else if (lit.kind === SyntaxKind.NumericLiteral) out.push(Number(String(lit.text).replace(/_/g, "")));
        else if (lit.kind === SyntaxKind.PrefixUnaryExpression && lit.operator === SyntaxKind.MinusToken && lit.operand.kind === SyntaxKind.NumericLiteral)
          out.push(-Number(lit.operand.text));
        else if (lit.kind !== SyntaxKind.NullKeyword && lit.kind !== SyntaxKind.TrueKeyword && lit.kind !== SyntaxKind.FalseKeyword) return false;
        return true;
      }
      case SyntaxKind.TypeReference: {
        if (node.typeArguments?.length) return false;
        let sym = this.checker.getSymbolAtLocation(node.typeName);
        if (!sym) return false;
        if (sym.flags & SymbolFlags.Alias) sym = this.checker.getAliasedSymbol(sym);
        if (sym.flags & SymbolFlags.TypeAlias) {
          const decl = this.resolve(sym.declarations[0]);
          return decl?.kind === SyntaxKind.TypeAliasDeclaration ? this.collectLiterals(decl.type, out, depth + 1) : false;
        }
        if (sym.flags & SymbolFlags.Enum || sym.flags & SymbolFlags.EnumMember) {
          const t = this.checker.getTypeFromTypeNode(node as any);
          const members = t && t.flags & TypeFlags.Union ? (t as any).getTypes() : t ? [t] : [];
          const info = members[0] ? this.enumOf(members[0]) : undefined;
          if (!info) return false;
          if (sym.flags & SymbolFlags.Enum) for (const m of info.members) out.push(m.value);
          else for (const m of members) out.push((m as any).value);
          return true;
        }
        return false;
      }
      default:
        return false;
    }
  }

  childNode(node: TypeNodeRef | undefined, which: "element" | "nonNull" | number): TypeNodeRef | undefined {
    let n = node as unknown as AnyNode | undefined;
    while (n && n.kind === SyntaxKind.ParenthesizedType) n = n.type;
    if (!n) return undefined;
    if (which === "nonNull") {
      if (n.kind !== SyntaxKind.UnionType) return n as never;
      const rest = (n.types as AnyNode[]).filter(
        (m) =>
          m.kind !== SyntaxKind.UndefinedKeyword &&
          m.kind !== SyntaxKind.NullKeyword &&
          !(m.kind === SyntaxKind.LiteralType && m.literal.kind === SyntaxKind.NullKeyword),
      );
      return rest.length === 1 ? (this.childNode(rest[0] as never, "nonNull") as never) : (n as never);
    }
    if (n.kind === SyntaxKind.TypeOperator && n.operator === SyntaxKind.ReadonlyKeyword) return this.childNode(n.type, which);
    if (which === "element") {
      if (n.kind === SyntaxKind.ArrayType) return n.elementType;
      if (n.kind === SyntaxKind.TypeReference && n.typeArguments?.length === 1) return n.typeArguments[0];
      return undefined;
    }
    if (n.kind === SyntaxKind.TypeReference && n.typeArguments && n.typeArguments.length > which) return n.typeArguments[which];
    return undefined;
  }

  tags(t: TypeRef): { name: string; value: string | number | boolean | undefined }[] | undefined {
    const type = t as unknown as Type;
    if (this.c.tags.has(type.id)) return this.c.tags.get(type.id);
    let result: { name: string; value: string | number | boolean | undefined }[] | undefined;
    if (type.flags & TypeFlags.Object) {
      const props = this.checker.getPropertiesOfType(type);
      if (props.length > 0 && props.every((p) => p.name.startsWith("typed-mcp:"))) {
        const types = this.checker.getTypeOfSymbol([...props]);
        result = props.map((p, i) => {
          let pt = types[i] as Type | undefined;
          if (pt && pt.flags & TypeFlags.Union) pt = (pt as any).getTypes().find((m: Type) => !(m.flags & TypeFlags.Undefined));
          const value = pt && pt.flags & (TypeFlags.StringLiteral | TypeFlags.NumberLiteral) ? (pt as any).value : pt && pt.flags & TypeFlags.BooleanLiteral ? (pt as any).intrinsicName === "true" : undefined;
          return { name: p.name.slice("typed-mcp:".length), value };
        });
      }
    }
    this.c.tags.set(type.id, result);
    return result;
  }

  classConstructor(t: TypeRef, fromFile: string): ConstructorInfo | undefined {
    const type = t as unknown as Type;
    const sym = type.getSymbol();
    if (!sym || !(sym.flags & SymbolFlags.Class)) return undefined;
    const decl = this.resolve(sym.valueDeclaration ?? sym.declarations[0]);
    if (!decl) return undefined;
    let ctor: AnyNode | undefined;
    for (const m of decl.members as AnyNode[]) if (m.kind === SyntaxKind.Constructor && m.body) ctor = m;
    const params = ((ctor?.parameters ?? []) as AnyNode[]).map((p) => ({
      name: p.name.kind === SyntaxKind.Identifier ? (p.name.text as string) : undefined,
      optional: !!p.questionToken,
      hasDefault: !!p.initializer,
      rest: !!p.dotDotDotToken,
    }));
    const declFile = norm(decl.getSourceFile().fileName);
    const exported = (decl.modifierFlags & ModifierFlags.Export) !== 0;
    const isDefault = (decl.modifierFlags & ModifierFlags.Default) !== 0;
    const doc = this.lastDoc(ctor);
    if (declFile === norm(fromFile)) return { from: "", exportName: sym.name, params, ...(doc ? { doc } : {}) };
    let from: string | undefined;
    if (exported) {
      if (/\/node_modules\//.test(declFile)) {
        const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(declFile);
        from = m ? m[1] : undefined;
      } else {
        let rel = relative(dirname(fromFile), declFile).replace(/\\/g, "/").replace(/\.(d\.)?([cm]?)tsx?$/, ".$2js");
        if (!rel.startsWith(".")) rel = "./" + rel;
        from = rel;
      }
    }
    return { from, exportName: exported && from !== undefined ? (isDefault ? "default" : sym.name) : undefined, params, ...(doc ? { doc } : {}) };
  }
}

function oflags(t: Type): number {
  return (t as { objectFlags?: number }).objectFlags ?? 0;
}

function unparen(n: AnyNode): AnyNode {
  while (n.kind === SyntaxKind.ParenthesizedExpression || n.kind === SyntaxKind.AsExpression && n.type?.kind === SyntaxKind.TypeReference && n.type.typeName?.text === "const") n = n.expression;
  return n;
}

/** A default value readable from syntax alone (spec §3), or `undefined` when the checker must decide. */
function syntacticDefault(init: AnyNode): DefaultInfo | undefined {
  const e = unparen(init);
  switch (e.kind) {
    case SyntaxKind.StringLiteral:
    case SyntaxKind.NoSubstitutionTemplateLiteral:
      return { kind: "const", value: e.text };
    case SyntaxKind.NumericLiteral:
      return { kind: "const", value: Number(String(e.text).replace(/_/g, "")) };
    case SyntaxKind.TrueKeyword:
      return { kind: "const", value: true };
    case SyntaxKind.FalseKeyword:
      return { kind: "const", value: false };
    case SyntaxKind.NullKeyword:
      return { kind: "null" };
    case SyntaxKind.PrefixUnaryExpression: {
      const o = unparen(e.operand);
      if (e.operator === SyntaxKind.MinusToken && o.kind === SyntaxKind.NumericLiteral) return { kind: "const", value: -Number(o.text) };
      return { kind: "other" };
    }
    case SyntaxKind.Identifier:
    case SyntaxKind.PropertyAccessExpression:
      return undefined;
    default:
      return { kind: "other" };
  }
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
