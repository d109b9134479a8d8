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
 * Its session supplies the classic API's primitives to the shared algorithm (`session.ts`, the
 * same code as for the 7.0 backend) and normalises where the classic API differs (symbol parents
 * and alias symbols are properties, declarations are nodes rather than handles, modifier flags
 * are computed, unlinked mapped-type properties are sorted), so the model is byte-identical.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type * as TS from "@typescript/typescript6";
import type { BackendStats } from "./host.js";
import { norm } from "./library.js";
import { Caches, type IndexSignature } from "./primitives.js";
import { BackendBase, couldNotLoadMessage, type LoadedProject, type ProjectOptions } from "./project.js";
import { SessionBase } from "./session.js";

/** The classic `typescript` module (5.x or 6.x), as `require("typescript")` returns it. */
export type ClassicTs = typeof TS;

/** Options of {@link ClassicBackend}. */
export type ClassicBackendOptions = ProjectOptions;

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
export class ClassicBackend extends BackendBase<TS.SourceFile> {
  private readonly projects = new Map<string, ClassicProject>();
  private readonly versions = new Map<string, number>();
  private readonly registry: TS.DocumentRegistry;
  private coldStartMs = 0;
  private readonly caches = new Map<string, { program: TS.Program; caches: Caches }>();

  constructor(
    private readonly ts: ClassicTs,
    options: ClassicBackendOptions = {},
  ) {
    super(options);
    this.registry = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, this.options.cwd ?? process.cwd());
  }

  private bump(file: string): void {
    this.versions.set(file, (this.versions.get(file) ?? 0) + 1);
    this.generation++;
  }

  protected overlayChanged(file: string): void {
    this.bump(file);
  }

  /** The LanguageService host of `project`: overlays over the disk, script versions, re-resolution. */
  private serviceHost(project: ClassicProject): TS.LanguageServiceHost {
    const ts = this.ts;
    const config = project.config;
    const snapshotOf = (name: string): TS.IScriptSnapshot | undefined => {
      const f = norm(name);
      const text = this.overlays.get(f) ?? (existsSync(f) ? readFileSync(f, "utf8") : undefined);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    };
    return {
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
        ts.getParsedCommandLineOfConfigFile(name, undefined, {
          ...ts.sys,
          onUnRecoverableConfigFileDiagnostic: () => {},
        }),
    } as TS.LanguageServiceHost;
  }

  private open(config: string): ClassicProject | string {
    const ts = this.ts;
    const read = ts.readConfigFile(config, ts.sys.readFile);
    if (read.error)
      return `TypeScript could not read ${config}: ${ts.flattenDiagnosticMessageText(read.error.messageText, "\n")}`;
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(config), undefined, config);
    const project: ClassicProject = {
      config,
      parsed,
      roots: new Set(parsed.fileNames.map(norm)),
      reresolve: false,
      service: undefined as never,
    };
    project.service = ts.createLanguageService(this.serviceHost(project), this.registry);
    this.projects.set(config, project);
    return project;
  }

  /** Parses the tsconfig `config` again (its `include` globs see files created since). */
  private parse(config: string): TS.ParsedCommandLine | undefined {
    const ts = this.ts;
    const read = ts.readConfigFile(config, ts.sys.readFile);
    return read.error
      ? undefined
      : ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(config), undefined, config);
  }

  protected load(config: string, file: string): LoadedProject<TS.SourceFile> | string {
    const t0 = performance.now();
    const first = this.projects.size === 0;
    let project = this.projects.get(config);
    if (!project) {
      const opened = this.open(config);
      if (typeof opened === "string") return opened;
      project = opened;
    }
    let program = project.service.getProgram();
    if (!program) return couldNotLoadMessage(config);
    project.reresolve = false;
    if (!program.getSourceFile(file) && !project.roots.has(file) && this.exists(file)) {
      // A module created since the project was opened (watch mode): read the config's file list again.
      const fresh = this.parse(config);
      if (fresh && fresh.fileNames.some((f) => norm(f) === file)) {
        project.parsed = fresh;
        project.roots = new Set(fresh.fileNames.map(norm));
        this.bump(file);
        project.reresolve = true;
        program = project.service.getProgram();
        project.reresolve = false;
        if (!program) return couldNotLoadMessage(config);
      }
    }
    program.getTypeChecker(); // creates the checker inside the cold-start measurement
    if (first) this.coldStartMs = performance.now() - t0;
    const found = program;
    return {
      compilerOptions: () => found.getCompilerOptions(),
      // Like the 7.0 backend: the module must be in the program (a root or imported from one).
      sourceFile: () => found.getSourceFile(file),
      session: (sf) => new ClassicSession(this.ts, found, sf, file, this.cachesOf(config, found)),
    };
  }

  private cachesOf(config: string, program: TS.Program): Caches {
    let entry = this.caches.get(config);
    if (!entry || entry.program !== program) {
      entry = { program, caches: new Caches() };
      this.caches.set(config, entry);
    }
    return entry.caches;
  }

  /** Records a change on disk (watch mode); applied with the next `session`. */
  invalidate(file: string, deleted = false): void {
    file = norm(file);
    this.overlays.delete(file);
    // A deleted root stays listed: its snapshot is then missing, as for the 7.0 backend.
    this.bump(file);
    // Deleted, or (re)created: a file no current program holds.
    if (deleted || ![...this.caches.values()].some((e) => e.program.getSourceFile(file)))
      for (const p of this.projects.values()) p.reresolve = true;
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

/** The classic API's primitives; the algorithm is {@link SessionBase}. Nothing is batched (no IPC). */
class ClassicSession extends SessionBase {
  private readonly checker: TS.TypeChecker;

  constructor(
    private readonly ts: ClassicTs,
    private readonly program: TS.Program,
    protected readonly sf: TS.SourceFile,
    file: string,
    c: Caches,
  ) {
    super(file, c, ts);
    this.checker = program.getTypeChecker();
  }

  protected errorsOfFile(node: TS.Node): { start: number; end: number; text: string }[] {
    return this.program
      .getSemanticDiagnostics(node.getSourceFile())
      .filter((d) => d.category === this.ts.DiagnosticCategory.Error && d.start !== undefined)
      .map((d) => ({
        start: d.start!,
        end: d.start! + (d.length ?? 0),
        text: this.ts.flattenDiagnosticMessageText(d.messageText, " "),
      }));
  }

  // ---- syntax ---------------------------------------------------------------------------------

  protected forEachChild(node: AnyNode, cb: (child: AnyNode) => unknown): void {
    this.ts.forEachChild(node, cb as (c: TS.Node) => unknown);
  }

  protected modifierFlags(node: AnyNode | undefined): number {
    if (!node) return 0;
    try {
      return this.ts.getCombinedModifierFlags(node as TS.Declaration);
    } catch {
      return 0;
    }
  }

  // ---- symbols and declarations ---------------------------------------------------------------

  protected declarations(sym: AnySymbol | undefined): AnyNode[] {
    return (sym?.declarations ?? []) as AnyNode[];
  }

  /** The declaration node (marks its file consulted, like resolving a 7.0 node handle). */
  protected resolve(decl: TS.Node | undefined): AnyNode | undefined {
    if (!decl) return undefined;
    this.consult(decl.getSourceFile().fileName, { span: [decl.pos, decl.end] });
    return decl as AnyNode;
  }

  protected pathOf(decl: TS.Node): string {
    return norm(decl.getSourceFile().fileName);
  }

  protected parentOf(sym: AnySymbol): AnySymbol | undefined {
    return sym.parent as AnySymbol | undefined;
  }

  protected symbolKey(sym: AnySymbol): unknown {
    return sym;
  }

  /** The adapter's own id of a symbol (the classic checker assigns ids lazily). */
  private symbolId(sym: AnySymbol): number {
    let id = this.c.symbolIds.get(sym);
    if (id === undefined) {
      id = this.c.symbolIds.size + 1;
      this.c.symbolIds.set(sym, id);
    }
    return id;
  }

  protected symbolAt(node: AnyNode): AnySymbol | undefined {
    return this.checker.getSymbolAtLocation(node) as AnySymbol | undefined;
  }

  /** The classic checker has no `getSymbolAtPosition`: find the identifier, then ask for its symbol. */
  protected symbolAtPosition(span: [number, number]): AnySymbol | undefined {
    const id = this.findNode(span[0], span[1], (n) => n.kind === this.K.Identifier && this.start(n) === span[0]);
    return id ? this.symbolAt(id) : undefined;
  }

  protected aliasedSymbol(sym: AnySymbol): AnySymbol {
    return this.checker.getAliasedSymbol(sym) as AnySymbol;
  }

  // ---- types ----------------------------------------------------------------------------------

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

  protected referenceTarget(type: AnyType): AnyType {
    return (type.target as AnyType) ?? type;
  }

  protected baseTypes(type: AnyType): readonly AnyType[] {
    return this.checker.getBaseTypes(type as TS.InterfaceType) as AnyType[];
  }

  protected typeFromTypeNode(node: AnyNode): AnyType {
    return this.checker.getTypeFromTypeNode(node as TS.TypeNode) as AnyType;
  }

  protected anyType(): AnyType {
    return this.checker.getAnyType() as AnyType;
  }

  // ---- object types ---------------------------------------------------------------------------

  private get internalChecker(): TS.TypeChecker & {
    isTupleType(t: TS.Type): boolean;
    isArrayType(t: TS.Type): boolean;
  } {
    return this.checker as never;
  }

  protected isTupleType(type: AnyType): boolean {
    return this.internalChecker.isTupleType(type);
  }

  protected isArrayType(type: AnyType): boolean {
    return this.internalChecker.isArrayType(type);
  }

  protected typeArguments(type: AnyType): readonly AnyType[] {
    return this.checker.getTypeArguments(type as TS.TypeReference) as AnyType[];
  }

  protected signaturesOfType(type: AnyType, kind: "call" | "construct"): readonly TS.Signature[] {
    return this.checker.getSignaturesOfType(
      type,
      kind === "call" ? this.ts.SignatureKind.Call : this.ts.SignatureKind.Construct,
    );
  }

  protected indexSignatures(type: AnyType): IndexSignature[] {
    return this.checker.getIndexInfosOfType(type).map((info) => ({ keyType: info.keyType, valueType: info.type }));
  }

  protected propertiesOf(type: AnyType): readonly AnySymbol[] {
    return this.checker.getPropertiesOfType(type) as AnySymbol[];
  }

  /**
   * A mapped type whose properties are not linked to declarations (`Record<"b" | "a", T>`,
   * `Pick` over a non-keyof key, an `as` remapping): the classic checker lists them in the key
   * union's type-id order (creation order); TypeScript 7 lists them sorted by name (UTF-16 code
   * units), and so does this. Linked ones (`Partial<I>`, `Pick<I, K>`) keep declaration order in both.
   */
  protected listedProperties(type: AnyType): AnySymbol[] {
    const symbols = [...this.checker.getPropertiesOfType(type)] as AnySymbol[];
    const mapped = ((type as { objectFlags?: number }).objectFlags ?? 0) & this.OF.Mapped;
    if (!mapped || !symbols.every((s) => !s.declarations?.length)) return symbols;
    return symbols.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  // ---- signatures (nothing to batch in process) -----------------------------------------------

  protected signatureOfDeclaration(node: AnyNode): TS.Signature | undefined {
    return this.checker.getSignatureFromDeclaration(node as TS.SignatureDeclaration);
  }

  protected signatureParameters(sig: TS.Signature): readonly TS.Symbol[] {
    return sig.getParameters();
  }

  protected returnTypeOf(sig: TS.Signature): AnyType {
    return this.checker.getReturnTypeOfSignature(sig) as AnyType;
  }

  protected typesAt(nodes: AnyNode[]): AnyType[] {
    return nodes.map((m) => this.checker.getTypeAtLocation(m) as AnyType);
  }

  protected typesAtEach(nodes: (AnyNode | undefined)[]): (index: number) => AnyType | undefined {
    return (i) => (nodes[i] ? (this.checker.getTypeAtLocation(nodes[i]) as AnyType) : undefined);
  }

  protected typesOfSymbols(syms: readonly AnySymbol[]): AnyType[] {
    return syms.map((p) => this.checker.getTypeOfSymbol(p) as AnyType);
  }

  /** In-process calls: nothing to batch (and the checker's type creation order stays the sites' order). */
  protected prefetchParameters(): void {}
}
