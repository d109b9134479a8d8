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
import { dirname, join, relative, resolve } from "node:path";
import type * as TS from "@typescript/typescript6";
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
import { isTypedMcpFile } from "./ts7.js";

/** The classic `typescript` module (5.x or 6.x), as `require("typescript")` returns it. */
export type ClassicTs = typeof TS;

/** Options of {@link ClassicBackend}. */
export interface ClassicBackendOptions {
  /** A fixed tsconfig.json; default: the nearest `tsconfig.json` above each file. */
  tsconfig?: string;
  /** Working directory (resolves a relative `tsconfig`); default `process.cwd()`. */
  cwd?: string;
}

const norm = (f: string) => f.replace(/\\/g, "/");

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
        this.bump(file);
      }
    }
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
      return failedSession(
        `typed-mcp needs strictNullChecks: set "strict": true (or "strictNullChecks": true) in the compilerOptions of ${config}.`,
      );
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

function failedSession(message: string): ModuleSession {
  return {
    host: undefined as never,
    configProblem: message,
    methodSignature: () => undefined,
    quickSites: () => [],
    consulted: () => [],
  };
}

/** Per-program caches keyed by type / symbol id. */
class Caches {
  shape = new Map<number, TypeShape>();
  object = new Map<number, ObjectShape>();
  props = new Map<number, PropertyInfo[]>();
  tags = new Map<number, ReturnType<TypeHost["tags"]>>();
  enums = new Map<AnySymbol, EnumInfo | undefined>();
  named = new Map<number, NamedInfo | undefined>();
  text = new Map<number, string>();
  symbolIds = new Map<AnySymbol, number>();
}

class ClassicSession implements ModuleSession, TypeHost {
  readonly host: TypeHost = this;
  private readonly consultedFiles = new Set<string>();
  private readonly K: typeof TS.SyntaxKind;
  private readonly TF: typeof TS.TypeFlags;
  private readonly SF: typeof TS.SymbolFlags;
  private readonly OF: typeof TS.ObjectFlags;
  private readonly MF: typeof TS.ModifierFlags;

  constructor(
    private readonly ts: ClassicTs,
    private readonly program: TS.Program,
    private readonly checker: TS.TypeChecker,
    private readonly sf: TS.SourceFile,
    private readonly file: string,
    private readonly c: Caches,
  ) {
    this.K = ts.SyntaxKind;
    this.TF = ts.TypeFlags;
    this.SF = ts.SymbolFlags;
    this.OF = ts.ObjectFlags;
    this.MF = ts.ModifierFlags;
  }

  consulted(): string[] {
    return [...this.consultedFiles].sort();
  }

  consult(file: string): void {
    const f = norm(file);
    if (f !== this.file && !isLibFile(f) && !/\/node_modules\//.test(f)) this.consultedFiles.add(f);
  }

  /** The declaration node (marks its file consulted, like resolving a 7.0 node handle). */
  private resolve(decl: TS.Node | undefined): AnyNode | undefined {
    if (!decl) return undefined;
    this.consult(decl.getSourceFile().fileName);
    return decl as AnyNode;
  }

  private pathOf(decl: TS.Node): string {
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

  private modifierFlags(node: AnyNode | undefined): number {
    if (!node) return 0;
    try {
      return this.ts.getCombinedModifierFlags(node as TS.Declaration);
    } catch {
      return 0;
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

  private declarations(sym: AnySymbol | undefined): AnyNode[] {
    return (sym?.declarations ?? []) as AnyNode[];
  }

  // ---- finding nodes in the module -------------------------------------------------------

  private findNode(start: number, end: number, pred: (n: AnyNode) => boolean): AnyNode | undefined {
    let found: AnyNode | undefined;
    const visit = (n: TS.Node): void => {
      if (found) return;
      this.ts.forEachChild(n, (c: TS.Node) => {
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
    visit(this.sf);
    return found;
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

  private unparen(n: AnyNode): AnyNode {
    const K = this.K;
    while (
      n.kind === K.ParenthesizedExpression ||
      (n.kind === K.AsExpression && n.type?.kind === K.TypeReference && n.type.typeName?.text === "const")
    )
      n = n.expression;
    return n;
  }

  /** A default value readable from syntax alone (spec §3), or `undefined` when the checker must decide. */
  private syntacticDefault(init: AnyNode): DefaultInfo | undefined {
    const K = this.K;
    const e = this.unparen(init);
    switch (e.kind) {
      case K.StringLiteral:
      case K.NoSubstitutionTemplateLiteral:
        return { kind: "const", value: e.text };
      case K.NumericLiteral:
        return { kind: "const", value: Number(String(e.text).replace(/_/g, "")) };
      case K.TrueKeyword:
        return { kind: "const", value: true };
      case K.FalseKeyword:
        return { kind: "const", value: false };
      case K.NullKeyword:
        return { kind: "null" };
      case K.PrefixUnaryExpression: {
        const o = this.unparen(e.operand);
        if (e.operator === K.MinusToken && o.kind === K.NumericLiteral) return { kind: "const", value: -Number(o.text) };
        return { kind: "other" };
      }
      case K.Identifier:
      case K.PropertyAccessExpression:
        return undefined;
      default:
        return { kind: "other" };
    }
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
    const params: ParamInfo[] = paramNodes.map((p, i) => {
      const info: ParamInfo = {
        name: p.name.kind === K.Identifier ? p.name.text : undefined,
        rest: !!p.dotDotDotToken,
        optional: !!p.questionToken,
        type: (types[i] ?? this.checker.getAnyType()) as never,
        typeNode: p.type as never,
        doc: this.lastDoc(p),
        loc: this.loc(p.name),
        default: defaultOf(p.initializer),
      };
      if (p.name.kind === K.ObjectBindingPattern) {
        info.pattern = "object";
        info.bindings = (p.name.elements as AnyNode[]).map((el): BindingInfo => {
          const keyNode = el.propertyName ?? el.name;
          let key: string | undefined;
          if (keyNode?.kind === K.Identifier || keyNode?.kind === K.StringLiteral || keyNode?.kind === K.NumericLiteral) key = keyNode.text;
          return { key: el.dotDotDotToken ? undefined : key, rest: !!el.dotDotDotToken, default: defaultOf(el.initializer), loc: this.loc(el) };
        });
      } else if (p.name.kind === K.ArrayBindingPattern) {
        info.pattern = "array";
      }
      return info;
    });
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
    const K = this.K;
    const own = this.lastDoc(node);
    if (own) return own;
    let p = node.parent as AnyNode | undefined;
    while (p && p.kind === K.ParenthesizedExpression) p = p.parent;
    if (p?.kind === K.VariableDeclaration) return this.lastDoc(p.parent?.parent) ?? this.lastDoc(p);
    if (p?.kind === K.CallExpression) {
      let s = p.parent as AnyNode | undefined;
      while (s && (s.kind === K.AwaitExpression || s.kind === K.ParenthesizedExpression)) s = s.parent;
      if (s?.kind === K.ExpressionStatement) return this.lastDoc(s);
    }
    return undefined;
  }

  // ---- TypeHost ---------------------------------------------------------------------------

  typeId(t: TypeRef): number {
    return (t as unknown as AnyType).id;
  }

  private namedFromSymbol(sym: AnySymbol, isClass: boolean): NamedInfo {
    const paths = this.declarations(sym).map((d) => this.pathOf(d));
    const typedMcp = paths.some(isTypedMcpFile);
    const builtin = paths.length > 0 && paths.every((p) => isLibFile(p) || /\/node_modules\//.test(p));
    return { name: sym.name, typedMcp, builtin: builtin && !typedMcp, isClass };
  }

  aliasNamed(t: TypeRef): NamedInfo | undefined {
    const sym = (t as unknown as AnyType).aliasSymbol as AnySymbol | undefined;
    return sym ? this.namedFromSymbol(sym, false) : undefined;
  }

  referenceNamed(node: TypeNodeRef | undefined): NamedInfo | undefined {
    const K = this.K;
    let n = node as unknown as AnyNode | undefined;
    while (n && n.kind === K.ParenthesizedType) n = n.type;
    if (!n || n.kind !== K.TypeReference) return undefined;
    let sym = this.checker.getSymbolAtLocation(n.typeName) as AnySymbol | undefined;
    if (!sym) return undefined;
    if (sym.flags & this.SF.Alias) sym = this.checker.getAliasedSymbol(sym) as AnySymbol;
    return this.namedFromSymbol(sym, !!(sym.flags & this.SF.Class));
  }

  typeDoc(t: TypeRef): string | undefined {
    const type = t as unknown as AnyType;
    const sym = (type.getSymbol() ?? type.aliasSymbol) as AnySymbol | undefined;
    if (!sym) return undefined;
    for (const d of this.declarations(sym)) {
      const doc = this.lastDoc(this.resolve(d));
      if (doc) return doc;
    }
    const alias = type.aliasSymbol as AnySymbol | undefined;
    if (alias && alias !== sym)
      for (const d of this.declarations(alias)) {
        const doc = this.lastDoc(this.resolve(d));
        if (doc) return doc;
      }
    return undefined;
  }

  text(t: TypeRef): string {
    const type = t as unknown as AnyType;
    let s = this.c.text.get(type.id);
    if (s === undefined) {
      s = this.checker.typeToString(type);
      this.c.text.set(type.id, s);
    }
    return s;
  }

  shape(t: TypeRef): TypeShape {
    const type = t as unknown as AnyType;
    const cached = this.c.shape.get(type.id);
    if (cached) return cached;
    const s = this.computeShape(type);
    this.c.shape.set(type.id, s);
    return s;
  }

  private computeShape(type: AnyType): TypeShape {
    const TF = this.TF;
    const f = type.flags;
    if (f & TF.Union) return { kind: "union", members: type.types };
    if (f & TF.Intersection) return { kind: "intersection", members: type.types };
    if (f & TF.EnumLiteral && f & (TF.StringLiteral | TF.NumberLiteral)) {
      const member = type.getSymbol() as AnySymbol | undefined;
      const parent = member?.parent as AnySymbol | undefined;
      return { kind: "enumLiteral", value: type.value, enumId: String(parent ? this.symbolId(parent) : member ? this.symbolId(member) : type.id) };
    }
    if (f & TF.StringLiteral) return { kind: "stringLiteral", value: type.value };
    if (f & TF.NumberLiteral) return { kind: "numberLiteral", value: type.value };
    if (f & TF.BooleanLiteral) return { kind: "booleanLiteral", value: type.intrinsicName === "true" };
    if (f & TF.BigIntLiteral) return { kind: "bigintLiteral" };
    if (f & TF.String) return { kind: "string" };
    if (f & TF.Number) return { kind: "number" };
    if (f & TF.BigInt) return { kind: "bigint" };
    if (f & TF.Boolean) return { kind: "boolean" };
    if (f & TF.Null) return { kind: "null" };
    if (f & TF.Undefined) return { kind: "undefined" };
    if (f & TF.Void) return { kind: "void" };
    if (f & TF.Any) return { kind: "any" };
    if (f & TF.Unknown) return { kind: "unknown" };
    if (f & TF.Never) return { kind: "never" };
    if (f & (TF.ESSymbol | TF.UniqueESSymbol)) return { kind: "symbol" };
    if (f & TF.NonPrimitive) return { kind: "nonPrimitive" };
    if (f & TF.TypeParameter) return { kind: "typeParameter" };
    if (f & TF.Object) return { kind: "object" };
    return { kind: "other" };
  }

  private namedOf(type: AnyType): NamedInfo | undefined {
    if (this.c.named.has(type.id)) return this.c.named.get(type.id);
    let info: NamedInfo | undefined;
    const sym = type.getSymbol() as AnySymbol | undefined;
    if (sym && !sym.name.startsWith("__")) {
      const paths = this.declarations(sym).map((d) => this.pathOf(d));
      const builtin = paths.length > 0 && paths.every((p) => isLibFile(p) || (/\/node_modules\//.test(p) && p.endsWith(".d.ts")));
      const typedMcp = paths.some(isTypedMcpFile);
      if (!builtin) for (const p of paths) this.consult(p);
      info = { name: sym.name, builtin: builtin && !typedMcp, typedMcp, isClass: !!(sym.flags & this.SF.Class) };
    }
    this.c.named.set(type.id, info);
    return info;
  }

  declaredAt(t: TypeRef): SourceLocation | undefined {
    const type = t as unknown as AnyType;
    const sym = (type.aliasSymbol ?? type.getSymbol()) as AnySymbol | undefined;
    const decl = this.declarations(sym)[0];
    if (!decl) return undefined;
    if (isLibFile(this.pathOf(decl))) return { file: this.pathOf(decl), line: 0, column: 0 };
    const node = this.resolve(decl);
    return node ? this.loc(node.name ?? node) : undefined;
  }

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

  private propertyInfo(sym: AnySymbol, type: AnyType): PropertyInfo {
    const K = this.K;
    const SF = this.SF;
    const MF = this.MF;
    const decl = this.resolve(sym.valueDeclaration ?? this.declarations(sym)[0]);
    let kind: PropertyInfo["kind"] = "field";
    if (sym.flags & SF.Method) kind = "method";
    else if (sym.flags & SF.GetAccessor) kind = sym.flags & SF.SetAccessor ? "getterSetter" : "getter";
    else if (sym.flags & SF.SetAccessor) kind = "setter";
    else if (!(sym.flags & SF.Property)) kind = "other";
    const mf = this.modifierFlags(decl);
    let visibility: PropertyInfo["visibility"] = "public";
    if (decl?.name?.kind === K.PrivateIdentifier || sym.name.startsWith("#") || String(sym.escapedName).startsWith("__#")) visibility = "hash";
    else if (mf & MF.Private) visibility = "private";
    else if (mf & MF.Protected) visibility = "protected";
    let doc = this.lastDoc(decl);
    if (!doc && this.declarations(sym).length > 1) {
      for (const d of this.declarations(sym)) {
        doc = this.lastDoc(this.resolve(d));
        if (doc) break;
      }
    }
    return {
      name: sym.name,
      type: type as never,
      optional: !!(sym.flags & SF.Optional),
      doc,
      typeNode: decl?.type as never,
      declaredAt: decl ? this.loc(decl.name ?? decl) : undefined,
      kind,
      visibility,
      isStatic: !!(mf & MF.Static),
      hasInitializer: decl?.kind === K.PropertyDeclaration && !!decl.initializer,
      parameterProperty: decl?.kind === K.Parameter,
    };
  }

  enumOf(t: TypeRef): EnumInfo | undefined {
    const type = t as unknown as AnyType;
    const member = type.getSymbol() as AnySymbol | undefined;
    const parent = member?.parent as AnySymbol | undefined;
    if (!parent) return undefined;
    if (this.c.enums.has(parent)) return this.c.enums.get(parent);
    let info: EnumInfo | undefined;
    const memberNodes: AnyNode[] = [];
    for (const d of this.declarations(parent)) {
      const node = this.resolve(d);
      if (node?.kind === this.K.EnumDeclaration) memberNodes.push(...(node.members as AnyNode[]));
    }
    if (memberNodes.length) {
      info = {
        name: parent.name,
        members: memberNodes.map((m) => ({ name: m.name.text as string, value: (this.checker.getTypeAtLocation(m) as AnyType).value })),
      };
    }
    this.c.enums.set(parent, info);
    return info;
  }

  literalOrder(t: TypeRef, node: TypeNodeRef | undefined): (string | number)[] | undefined {
    const out: (string | number)[] = [];
    if (node) {
      if (this.collectLiterals(node as unknown as AnyNode, out, 0)) return out;
      return undefined;
    }
    const type = t as unknown as AnyType;
    const alias = type.aliasSymbol as AnySymbol | undefined;
    if (alias && (type.aliasTypeArguments ?? []).length === 0) {
      const decl = this.resolve(this.declarations(alias)[0]);
      if (decl?.kind === this.K.TypeAliasDeclaration && this.collectLiterals(decl.type, out, 0)) return out;
    }
    return undefined;
  }

  aliasTypeNode(t: TypeRef): TypeNodeRef | undefined {
    const K = this.K;
    const alias = (t as unknown as AnyType).aliasSymbol as AnySymbol | undefined;
    const decl = alias ? this.resolve(this.declarations(alias)[0]) : undefined;
    if (decl?.kind !== K.TypeAliasDeclaration) return undefined;
    let n = decl.type as AnyNode;
    for (let depth = 0; depth < 20; depth++) {
      while (n.kind === K.ParenthesizedType) n = n.type;
      if (n.kind !== K.TypeReference || n.typeArguments?.length) break;
      let sym = this.checker.getSymbolAtLocation(n.typeName) as AnySymbol | undefined;
      if (sym && sym.flags & this.SF.Alias) sym = this.checker.getAliasedSymbol(sym) as AnySymbol;
      const next = sym && sym.flags & this.SF.TypeAlias ? this.resolve(this.declarations(sym)[0]) : undefined;
      if (next?.kind !== K.TypeAliasDeclaration) break;
      n = next.type;
    }
    return n as never;
  }

  private collectLiterals(node: AnyNode, out: (string | number)[], depth: number): boolean {
    const K = this.K;
    const SF = this.SF;
    if (depth > 20) return false;
    switch (node.kind) {
      case K.ParenthesizedType:
        return this.collectLiterals(node.type, out, depth + 1);
      case K.UnionType:
        return (node.types as AnyNode[]).every((m) => this.collectLiterals(m, out, depth + 1));
      case K.NullKeyword:
      case K.UndefinedKeyword:
        return true;
      case K.LiteralType: {
        const lit = node.literal as AnyNode;
        if (lit.kind === K.StringLiteral || lit.kind === K.NoSubstitutionTemplateLiteral) out.push(lit.text);
        else if (lit.kind === K.NumericLiteral) out.push(Number(String(lit.text).replace(/_/g, "")));
        else if (lit.kind === K.PrefixUnaryExpression && lit.operator === K.MinusToken && lit.operand.kind === K.NumericLiteral)
          out.push(-Number(lit.operand.text));
        else if (lit.kind !== K.NullKeyword && lit.kind !== K.TrueKeyword && lit.kind !== K.FalseKeyword) return false;
        return true;
      }
      case K.TypeReference: {
        if (node.typeArguments?.length) return false;
        let sym = this.checker.getSymbolAtLocation(node.typeName) as AnySymbol | undefined;
        if (!sym) return false;
        if (sym.flags & SF.Alias) sym = this.checker.getAliasedSymbol(sym) as AnySymbol;
        if (sym.flags & SF.TypeAlias) {
          const decl = this.resolve(this.declarations(sym)[0]);
          return decl?.kind === K.TypeAliasDeclaration ? this.collectLiterals(decl.type, out, depth + 1) : false;
        }
        if (sym.flags & SF.Enum || sym.flags & SF.EnumMember) {
          const t = this.checker.getTypeFromTypeNode(node as TS.TypeNode) as AnyType;
          const members: AnyType[] = t && t.flags & this.TF.Union ? t.types : t ? [t] : [];
          const info = members[0] ? this.enumOf(members[0] as never) : undefined;
          if (!info) return false;
          if (sym.flags & SF.Enum) for (const m of info.members) out.push(m.value);
          else for (const m of members) out.push(m.value);
          return true;
        }
        return false;
      }
      default:
        return false;
    }
  }

  childNode(node: TypeNodeRef | undefined, which: "element" | "nonNull" | number): TypeNodeRef | undefined {
    const K = this.K;
    let n = node as unknown as AnyNode | undefined;
    while (n && n.kind === K.ParenthesizedType) n = n.type;
    if (!n) return undefined;
    if (which === "nonNull") {
      if (n.kind !== K.UnionType) return n as never;
      const rest = (n.types as AnyNode[]).filter(
        (m) => m.kind !== K.UndefinedKeyword && m.kind !== K.NullKeyword && !(m.kind === K.LiteralType && m.literal.kind === K.NullKeyword),
      );
      return rest.length === 1 ? (this.childNode(rest[0] as never, "nonNull") as never) : (n as never);
    }
    if (n.kind === K.TypeOperator && n.operator === K.ReadonlyKeyword) return this.childNode(n.type, which);
    if (which === "element") {
      if (n.kind === K.ArrayType) return n.elementType;
      if (n.kind === K.TypeReference && n.typeArguments?.length === 1) return n.typeArguments[0];
      return undefined;
    }
    if (n.kind === K.TypeReference && n.typeArguments && n.typeArguments.length > which) return n.typeArguments[which];
    return undefined;
  }

  tags(t: TypeRef): { name: string; value: string | number | boolean | undefined }[] | undefined {
    const TF = this.TF;
    const type = t as unknown as AnyType;
    if (this.c.tags.has(type.id)) return this.c.tags.get(type.id);
    let result: { name: string; value: string | number | boolean | undefined }[] | undefined;
    if (type.flags & TF.Object) {
      const props = this.checker.getPropertiesOfType(type);
      if (props.length > 0 && props.every((p) => p.name.startsWith("typed-mcp:"))) {
        result = props.map((p) => {
          let pt = this.checker.getTypeOfSymbol(p) as AnyType | undefined;
          if (pt && pt.flags & TF.Union) pt = (pt.types as AnyType[]).find((m) => !(m.flags & TF.Undefined));
          const value =
            pt && pt.flags & (TF.StringLiteral | TF.NumberLiteral)
              ? pt.value
              : pt && pt.flags & TF.BooleanLiteral
                ? pt.intrinsicName === "true"
                : undefined;
          return { name: p.name.slice("typed-mcp:".length), value };
        });
      }
    }
    this.c.tags.set(type.id, result);
    return result;
  }

  classConstructor(t: TypeRef, fromFile: string): ConstructorInfo | undefined {
    const K = this.K;
    const MF = this.MF;
    const type = t as unknown as AnyType;
    const sym = type.getSymbol() as AnySymbol | undefined;
    if (!sym || !(sym.flags & this.SF.Class)) return undefined;
    const decl = this.resolve(sym.valueDeclaration ?? this.declarations(sym)[0]);
    if (!decl) return undefined;
    let ctor: AnyNode | undefined;
    for (const m of decl.members as AnyNode[]) if (m.kind === K.Constructor && m.body) ctor = m;
    const params = ((ctor?.parameters ?? []) as AnyNode[]).map((p) => ({
      name: p.name.kind === K.Identifier ? (p.name.text as string) : undefined,
      optional: !!p.questionToken,
      hasDefault: !!p.initializer,
      rest: !!p.dotDotDotToken,
    }));
    const declFile = norm(decl.getSourceFile().fileName);
    const mf = this.modifierFlags(decl);
    const exported = (mf & MF.Export) !== 0;
    const isDefault = (mf & MF.Default) !== 0;
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

function oflags(t: AnyType): number {
  return (t as { objectFlags?: number }).objectFlags ?? 0;
}
