/**
 * The classic backend: TypeScript 5.x / 6.x's in-process compiler API (`typescript@5`/`6`,
 * `@typescript/typescript6`), for projects not on TypeScript 7.
 *
 * One `LanguageService` per tsconfig, kept warm for the extractor's lifetime. The bundler's
 * module text is overlaid through the host's `getScriptSnapshot`; edits bump the file's script
 * version so the next `getProgram()` re-checks incrementally (unchanged files keep their ASTs).
 * The TypeScript module is passed in (loaded by `select.ts` from the project), so this file only
 * imports its *types*.
 *
 * It answers the same {@link TypeHost} questions as the 7.0 backend and normalises where the
 * classic API differs (symbol parents and alias symbols are properties, declarations are nodes
 * rather than handles, modifier flags are computed), so the model is byte-identical.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type * as TS from "@typescript/typescript6";
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

/** The classic `typescript` module (5.x or 6.x), as `require("typescript")` returns it. */
export type ClassicTs = typeof TS;

/** Options of {@link ClassicBackend}. */
export interface ClassicBackendOptions {
  /** A fixed tsconfig.json; default: the nearest `tsconfig.json` above each file. */
  tsconfig?: string;
  /** Working directory (resolves a relative `tsconfig`); default `process.cwd()`. */
  cwd?: string;
}

function isLibFile(path: string): boolean {
  return /\/node_modules\/typescript\/|\/lib\.[\w.]*\.d\.ts$|\/node_modules\/@types\/|\/node_modules\/@typescript\//.test(path);
}

type AnyNode = TS.Node & { [k: string]: any };
type AnyType = TS.Type & { [k: string]: any };
type AnySymbol = TS.Symbol & { [k: string]: any };

/** One warm LanguageService over a tsconfig. */
interface ClassicProject {
  config: string;
  service: TS.LanguageService;
  parsed: TS.ParsedCommandLine;
  /** Root files (the config's `files`/`include`; read again when a new module shows up). */
  roots: Set<string>;
  /** A file was created or deleted since the last program: re-resolve imports everywhere once. */
  reresolve: boolean;
}

/**
 * The classic TS 5.x/6.x backend. `ts` is the project's TypeScript module (CommonJS `typescript`
 * or `@typescript/typescript6`); errors reading the tsconfig become a `configProblem` (OMCG0000).
 */
export class ClassicBackend implements Backend {
  private readonly projects = new Map<string, ClassicProject>();
  private readonly overlays = new Map<string, string>();
  private readonly versions = new Map<string, number>();
  private readonly registry: TS.DocumentRegistry;
  private coldStartMs = 0;
  generation = 0;
  private closed = false;
  private readonly caches = new Map<string, { program: TS.Program; caches: Caches }>();

  constructor(
    private readonly ts: ClassicTs,
    private readonly options: ClassicBackendOptions = {},
  ) {
    this.registry = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, this.options.cwd ?? process.cwd());
  }

  /** Finds the tsconfig for `file`: the fixed one, else the nearest `tsconfig.json` above it. */
  configFor(file: string): string | undefined {
    return findTsconfig(this.options, file);
  }

  private bump(file: string): void {
    this.versions.set(file, (this.versions.get(file) ?? 0) + 1);
    this.generation++;
  }

  private open(config: string): ClassicProject | string {
    const ts = this.ts;
    const read = ts.readConfigFile(config, ts.sys.readFile);
    if (read.error) return `TypeScript could not read ${config}: ${ts.flattenDiagnosticMessageText(read.error.messageText, "\n")}`;
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(config), undefined, config);
    const project: ClassicProject = { config, parsed, roots: new Set(parsed.fileNames.map(norm)), reresolve: false, service: undefined as never };
    const snapshotOf = (name: string): TS.IScriptSnapshot | undefined => {
      const f = norm(name);
      const text = this.overlays.get(f) ?? (existsSync(f) ? readFileSync(f, "utf8") : undefined);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    };
    const host: TS.LanguageServiceHost = {
      getCompilationSettings: () => project.parsed.options,
      getProjectReferences: () => project.parsed.projectReferences,
      getScriptFileNames: () => [...project.roots],
      getScriptVersion: (name) => String(this.versions.get(norm(name)) ?? 0),
      getScriptSnapshot: snapshotOf,
      getCurrentDirectory: () => dirname(config),
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (name) => this.overlays.has(norm(name)) || ts.sys.fileExists(name),
      readFile: (name, enc) => this.overlays.get(norm(name)) ?? ts.sys.readFile(name, enc),
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
      realpath: ts.sys.realpath,
      useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
      // After a file appeared or disappeared, imports are resolved again in every file (an
      // unchanged importer would otherwise keep its failed or stale resolution).
      hasInvalidatedResolutions: () => project.reresolve,
      // Referenced projects are read from their sources (as editors do), not from built .d.ts.
      useSourceOfProjectReferenceRedirect: () => true,
      // A referenced project's config, with `options.configFile` set (the program asserts it).
      getParsedCommandLine: (name: string) =>
        ts.getParsedCommandLineOfConfigFile(name, undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} }),
    } as TS.LanguageServiceHost;
    project.service = ts.createLanguageService(host, this.registry);
    this.projects.set(config, project);
    return project;
  }

  /** Parses the tsconfig `config` again (its `include` globs see files created since). */
  private parse(config: string): TS.ParsedCommandLine | undefined {
    const ts = this.ts;
    const read = ts.readConfigFile(config, ts.sys.readFile);
    return read.error ? undefined : ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(config), undefined, config);
  }

  /** Opens (or refreshes) the project for `file` with `code` as its text and returns a session. */
  session(file: string, code: string): ModuleSession {
    if (this.closed) throw new Error("The extractor was closed.");
    file = norm(file);
    const config = this.configFor(file);
    if (!config) return failedSession(`No tsconfig.json found above ${file}; typed-mcp needs one (with "strict": true).`);
    if (setOverlay(this.overlays, file, code)) this.bump(file);
    const t0 = performance.now();
    const first = this.projects.size === 0;
    let project = this.projects.get(config);
    if (!project) {
      const opened = this.open(config);
      if (typeof opened === "string") return failedSession(opened);
      project = opened;
    }
    let program = project.service.getProgram();
    if (!program) return failedSession(`TypeScript could not load the project ${config}.`);
    project.reresolve = false;
    if (!program.getSourceFile(file) && !project.roots.has(file) && (this.overlays.has(file) || existsSync(file))) {
      // A module created since the project was opened (watch mode): read the config's file list again.
      const fresh = this.parse(config);
      if (fresh && fresh.fileNames.some((f) => norm(f) === file)) {
        project.parsed = fresh;
        project.roots = new Set(fresh.fileNames.map(norm));
        this.bump(file);
        project.reresolve = true;
        program = project.service.getProgram();
        project.reresolve = false;
        if (!program) return failedSession(`TypeScript could not load the project ${config}.`);
      }
    }
    const checker = program.getTypeChecker();
    if (first) this.coldStartMs = performance.now() - t0;
    const opts = program.getCompilerOptions();
    const strictNull = opts.strictNullChecks ?? opts.strict ?? false;
    if (!strictNull) {
      return failedSession(notStrictMessage(config));
    }
    const sf = program.getSourceFile(file);
    // Like the 7.0 backend: the module must be in the program (a root or imported from one).
    if (!sf) {
      return failedSession(`${file} is not part of the TypeScript project ${config}; include it there (tsconfig "include"/"files").`);
    }
    let entry = this.caches.get(config);
    if (!entry || entry.program !== program) {
      entry = { program, caches: new Caches() };
      this.caches.set(config, entry);
    }
    return new ClassicSession(this.ts, program, checker, sf, file, entry.caches);
  }

  /** Records a change on disk (watch mode); applied with the next `session`. */
  invalidate(file: string, deleted = false): void {
    file = norm(file);
    this.overlays.delete(file);
    // A deleted root stays listed: its snapshot is then missing, as for the 7.0 backend.
    this.bump(file);
    // Deleted, or (re)created: a file no current program holds.
    if (deleted || ![...this.caches.values()].some((e) => e.program.getSourceFile(file))) for (const p of this.projects.values()) p.reresolve = true;
  }

  /** Measurements so far (no IPC: `roundTrips` is 0). */
  stats(): BackendStats {
    return { roundTrips: 0, coldStartMs: this.coldStartMs, backend: "6", typescriptVersion: this.ts.version };
  }

  /** Disposes the language services. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.projects.values()) p.service.dispose();
    this.projects.clear();
    this.caches.clear();
  }
}

class ClassicSession extends SessionBase implements ModuleSession, TypeHost {
  readonly host: TypeHost = this;
  protected declare readonly K: typeof TS.SyntaxKind;
  protected declare readonly TF: typeof TS.TypeFlags;
  protected declare readonly SF: typeof TS.SymbolFlags;
  private readonly OF: typeof TS.ObjectFlags;

  constructor(
    private readonly ts: ClassicTs,
    private readonly program: TS.Program,
    private readonly checker: TS.TypeChecker,
    protected readonly sf: TS.SourceFile,
    file: string,
    c: Caches,
  ) {
    super(file, c, ts, isLibFile);
    this.OF = ts.ObjectFlags;
  }

  // ---- primitives of the shared algorithm (common.ts) -------------------------------------

  /** The declaration node (marks its file consulted, like resolving a 7.0 node handle). */
  protected resolve(decl: TS.Node | undefined): AnyNode | undefined {
    if (!decl) return undefined;
    this.consult(decl.getSourceFile().fileName);
    return decl as AnyNode;
  }

  protected pathOf(decl: TS.Node): string {
    return norm(decl.getSourceFile().fileName);
  }

  private symbolId(sym: AnySymbol): number {
    let id = this.c.symbolIds.get(sym);
    if (id === undefined) {
      id = this.c.symbolIds.size + 1;
      this.c.symbolIds.set(sym, id);
    }
    return id;
  }

  protected modifierFlags(node: AnyNode | undefined): number {
    if (!node) return 0;
    try {
      return this.ts.getCombinedModifierFlags(node as TS.Declaration);
    } catch {
      return 0;
    }
  }
  protected declarations(sym: AnySymbol | undefined): AnyNode[] {
    return (sym?.declarations ?? []) as AnyNode[];
  }


  protected typeToString(type: AnyType): string {
    return this.checker.typeToString(type);
  }

  protected typeMembers(type: AnyType): AnyType[] {
    return type.types;
  }

  protected enumId(type: AnyType): string {
    const member = type.getSymbol() as AnySymbol | undefined;
    const parent = member?.parent as AnySymbol | undefined;
    return String(parent ? this.symbolId(parent) : member ? this.symbolId(member) : type.id);
  }

  protected symbolOf(type: AnyType): AnySymbol | undefined {
    return type.getSymbol() as AnySymbol | undefined;
  }

  protected aliasSymbolOf(type: AnyType): AnySymbol | undefined {
    return type.aliasSymbol as AnySymbol | undefined;
  }

  protected aliasArgumentCount(type: AnyType): number {
    return (type.aliasTypeArguments ?? []).length;
  }

  protected parentOf(sym: AnySymbol): AnySymbol | undefined {
    return sym.parent as AnySymbol | undefined;
  }

  protected symbolKey(sym: AnySymbol): unknown {
    return sym;
  }

  protected symbolAt(node: AnyNode): AnySymbol | undefined {
    return this.checker.getSymbolAtLocation(node) as AnySymbol | undefined;
  }

  protected aliasedSymbol(sym: AnySymbol): AnySymbol {
    return this.checker.getAliasedSymbol(sym) as AnySymbol;
  }

  protected typeFromTypeNode(node: AnyNode): AnyType {
    return this.checker.getTypeFromTypeNode(node as TS.TypeNode) as AnyType;
  }

  protected typesAt(nodes: AnyNode[]): AnyType[] {
    return nodes.map((m) => this.checker.getTypeAtLocation(m) as AnyType);
  }

  protected propertiesOf(type: AnyType): readonly AnySymbol[] {
    return this.checker.getPropertiesOfType(type) as AnySymbol[];
  }

  protected typesOfSymbols(syms: AnySymbol[]): AnyType[] {
    return syms.map((p) => this.checker.getTypeOfSymbol(p) as AnyType);
  }

  // ---- finding nodes in the module -------------------------------------------------------

  protected forEachChild(node: AnyNode, cb: (child: AnyNode) => unknown): void {
    this.ts.forEachChild(node, cb as (c: TS.Node) => unknown);
  }

  methodSignature(nameSpan: [number, number]): SignatureInfo | undefined {
    const K = this.K;
    const node = this.findNode(nameSpan[0], nameSpan[1], (n) => n.kind === K.MethodDeclaration && n.name.getStart(this.sf) === nameSpan[0]);
    return node ? this.signatureOf(node) : undefined;
  }

  quickSites(sites: { receiver: [number, number]; fn: { kind: string; span: [number, number] } }[]): QuickResolution[] {
    const K = this.K;
    const SF = this.SF;
    if (sites.length === 0) return [];
    return sites.map((s) => {
      const r = this.findNode(s.receiver[0], s.receiver[1], (n) => n.getStart(this.sf) === s.receiver[0] && n.end === s.receiver[1]);
      const t = r ? this.checker.getTypeAtLocation(r) : undefined;
      const named = t ? this.namedOf(t as AnyType) : undefined;
      const isServer = !!named && named.name === "McpServer" && named.typedMcp;
      if (!isServer) return { isServer };
      let fnNode: AnyNode | undefined;
      if (s.fn.kind === "inline") {
        fnNode = this.findNode(s.fn.span[0], s.fn.span[1], (n) =>
          (n.kind === K.ArrowFunction || n.kind === K.FunctionExpression) && n.getStart(this.sf) === s.fn.span[0],
        );
      } else if (s.fn.kind === "identifier") {
        const id = this.findNode(s.fn.span[0], s.fn.span[1], (n) => n.kind === K.Identifier && n.getStart(this.sf) === s.fn.span[0]);
        let sym = id ? (this.checker.getSymbolAtLocation(id) as AnySymbol | undefined) : undefined;
        if (sym && sym.flags & SF.Alias) sym = this.checker.getAliasedSymbol(sym) as AnySymbol;
        const decl = this.resolve(sym?.valueDeclaration);
        if (decl?.kind === K.FunctionDeclaration) fnNode = decl;
        else if (
          decl?.kind === K.VariableDeclaration &&
          decl.parent.flags & this.ts.NodeFlags.Const &&
          decl.initializer &&
          (this.unparen(decl.initializer).kind === K.ArrowFunction || this.unparen(decl.initializer).kind === K.FunctionExpression)
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
    const K = this.K;
    const sig = this.checker.getSignatureFromDeclaration(node as TS.SignatureDeclaration);
    if (!sig) return undefined;
    const paramNodes = (node.parameters as AnyNode[]).filter((p) => !(p.name.kind === K.Identifier && p.name.text === "this"));
    const types = sig.getParameters().map((s) => this.checker.getTypeOfSymbol(s));
    const returnType = this.checker.getReturnTypeOfSignature(sig);
    const defaultOf = (init: AnyNode | undefined): DefaultInfo | undefined => {
      if (!init) return undefined;
      const d = this.syntacticDefault(init);
      if (d) return d;
      const e = this.unparen(init);
      if (e.kind === K.Identifier || e.kind === K.PropertyAccessExpression) {
        const t = this.checker.getTypeAtLocation(e);
        return t ? { kind: "type", type: t as never } : { kind: "other" };
      }
      return { kind: "other" };
    };
    const params: ParamInfo[] = paramNodes.map((p, i) => this.paramInfo(p, types[i] ?? this.checker.getAnyType(), defaultOf));
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
    const type = t as unknown as AnyType;
    const cached = this.c.object.get(type.id);
    if (cached) return cached;
    const shape: ObjectShape = { tuple: false, typeArguments: [], callable: false, otherIndex: false };
    const of = oflags(type);
    const checker = this.checker as TS.TypeChecker & { isTupleType(t: TS.Type): boolean; isArrayType(t: TS.Type): boolean };
    if (of & this.OF.Reference) {
      if (checker.isTupleType(type)) shape.tuple = true;
      else shape.typeArguments = [...this.checker.getTypeArguments(type as TS.TypeReference)] as unknown as TypeRef[];
      if (!shape.tuple && checker.isArrayType(type)) shape.arrayElement = shape.typeArguments[0] as never;
    }
    shape.named = this.namedOf(type);
    if (!shape.arrayElement && !shape.tuple) {
      const calls = this.checker.getSignaturesOfType(type, this.ts.SignatureKind.Call);
      const ctors = calls.length ? [] : this.checker.getSignaturesOfType(type, this.ts.SignatureKind.Construct);
      shape.callable = calls.length + ctors.length > 0;
      for (const info of this.checker.getIndexInfosOfType(type)) {
        if (info.keyType.flags & this.TF.String) shape.stringIndex = info.type as never;
        else shape.otherIndex = true;
      }
    }
    this.c.object.set(type.id, shape);
    return shape;
  }

  properties(t: TypeRef): PropertyInfo[] {
    const type = t as unknown as AnyType;
    const cached = this.c.props.get(type.id);
    if (cached) return cached;
    const symbols = [...this.checker.getPropertiesOfType(type)] as AnySymbol[];
    let ordered = this.baseFirst(type, symbols);
    // A mapped type whose properties are not linked to declarations (`Record<"b" | "a", T>`,
    // `Pick` over a non-keyof key, an `as` remapping): the classic checker lists them in the key
    // union's type-id order (creation order); TypeScript 7 lists them sorted by name (UTF-16
    // code units). Linked ones (`Partial<I>`, `Pick<I, K>`) keep declaration order in both.
    if (oflags(type) & this.OF.Mapped && ordered.every((s) => !s.declarations?.length)) {
      ordered = [...ordered].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    const props = ordered.map((sym) => this.propertyInfo(sym, this.checker.getTypeOfSymbol(sym) as AnyType));
    this.c.props.set(type.id, props);
    return props;
  }

  /** Orders properties base (`extends`) first, then declaration order. */
  private baseFirst(type: AnyType, symbols: AnySymbol[]): AnySymbol[] {
    const OF = this.OF;
    let target: AnyType = type;
    if (oflags(type) & OF.Reference && !(oflags(type) & OF.ClassOrInterface)) target = (type.target as AnyType) ?? type;
    if (!(oflags(target) & OF.ClassOrInterface)) return symbols;
    const baseNames: string[] = [];
    const collect = (t: AnyType, depth: number): void => {
      if (depth > 20) return;
      for (const base of this.checker.getBaseTypes(t as TS.InterfaceType) as AnyType[]) {
        let bt: AnyType = base;
        if (oflags(bt) & OF.Reference && !(oflags(bt) & OF.ClassOrInterface)) bt = bt.target as AnyType;
        collect(bt, depth + 1);
        for (const p of this.checker.getPropertiesOfType(base)) if (!baseNames.includes(p.name)) baseNames.push(p.name);
      }
    };
    collect(target, 0);
    if (baseNames.length === 0) return symbols;
    const byName = new Map(symbols.map((s) => [s.name, s]));
    const out: AnySymbol[] = [];
    for (const n of baseNames) {
      const s = byName.get(n);
      if (s) out.push(s);
    }
    for (const s of symbols) if (!baseNames.includes(s.name)) out.push(s);
    return out;
  }
}

function oflags(t: AnyType): number {
  return (t as { objectFlags?: number }).objectFlags ?? 0;
}
