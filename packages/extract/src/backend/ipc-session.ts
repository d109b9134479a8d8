/**
 * The TypeScript 7.x IPC session: the API primitives of {@link SessionBase} over one project's
 * checker (`typescript/unstable/sync` in 7.0, `typescript/sync` in 7.1 — same shape, enum values
 * from {@link IpcLib}). Array arguments are one request each: the batches here (`typesAt`,
 * `typesOfSymbols`, `prefetchParameters`) keep the round trips per module few, and symbol types
 * are cached per snapshot in {@link Caches}.
 */
import type {
  Checker,
  Diagnostic,
  Project,
  Symbol as TsSymbol,
  Type,
  NodeHandle,
  Signature,
} from "typescript/unstable/sync";
import type { Node, SourceFile } from "typescript/unstable/ast";
import { norm } from "./library.js";
import type { Caches, IndexSignature } from "./primitives.js";
import { SessionBase } from "./session.js";
import type { IpcLib } from "./ts7.js";

type AnyNode = Node & { [k: string]: any };

/** The IPC API's primitives for one module; the algorithm is {@link SessionBase}. Array arguments are one request each. */
export class IpcSession extends SessionBase {
  private readonly checker: Checker;
  private readonly signatureKind: IpcLib["sync"]["SignatureKind"];
  private readonly errorCategory: number;

  constructor(
    lib: IpcLib,
    private readonly project: Project,
    protected readonly sf: SourceFile,
    file: string,
    c: Caches,
  ) {
    const { TypeFlags, SymbolFlags, ModifierFlags, ObjectFlags } = lib.sync;
    super(file, c, {
      SyntaxKind: lib.ast.SyntaxKind,
      NodeFlags: lib.ast.NodeFlags,
      TypeFlags,
      SymbolFlags,
      ModifierFlags,
      ObjectFlags,
    });
    this.checker = project.checker;
    this.signatureKind = lib.sync.SignatureKind;
    this.errorCategory = lib.sync.DiagnosticCategory.Error;
  }

  // ---- syntax ---------------------------------------------------------------------------------

  protected forEachChild(node: AnyNode, cb: (child: AnyNode) => unknown): void {
    node.forEachChild(cb as (c: Node) => unknown);
  }

  protected modifierFlags(node: AnyNode | undefined): number {
    return node?.modifierFlags ?? 0;
  }

  // ---- symbols and declarations ---------------------------------------------------------------

  protected declarations(sym: TsSymbol): NodeHandle[] {
    return sym.declarations as NodeHandle[];
  }

  protected resolve(handle: NodeHandle | undefined): AnyNode | undefined {
    if (!handle) return undefined;
    let node: AnyNode | undefined;
    try {
      node = handle.resolve(this.project) as AnyNode | undefined;
    } catch {
      node = undefined;
    }
    this.consult(handle.path, node ? { span: [node.pos, node.end] } : undefined);
    return node;
  }

  protected pathOf(decl: NodeHandle): string {
    return norm(decl.path);
  }

  protected parentOf(sym: TsSymbol): TsSymbol | undefined {
    return sym.getParent();
  }

  protected symbolKey(sym: TsSymbol): unknown {
    return sym.id;
  }

  protected symbolAt(node: AnyNode): TsSymbol | undefined {
    return this.checker.getSymbolAtLocation(node);
  }

  protected symbolAtPosition(span: [number, number]): TsSymbol | undefined {
    return this.checker.getSymbolAtPosition(this.file, span[0]);
  }

  protected aliasedSymbol(sym: TsSymbol): TsSymbol {
    return this.checker.getAliasedSymbol(sym);
  }

  protected errorsOfFile(node: AnyNode): { start: number; end: number; text: string }[] {
    const file = node.getSourceFile().fileName as string;
    const flat = (d: Diagnostic): string => [d.text, ...(d.messageChain ?? []).map(flat)].join(" ");
    return this.project.program
      .getSemanticDiagnostics(file)
      .filter((d) => d.category === this.errorCategory)
      .map((d) => ({ start: d.pos, end: d.end, text: flat(d) }));
  }

  // ---- types ----------------------------------------------------------------------------------

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

  protected referenceTarget(type: Type): Type {
    try {
      return (type as any).getTarget();
    } catch {
      return type;
    }
  }

  protected baseTypes(type: Type): readonly Type[] {
    return this.checker.getBaseTypes(type as any);
  }

  protected typeFromTypeNode(node: AnyNode): Type | undefined {
    return this.checker.getTypeFromTypeNode(node as any);
  }

  protected anyType(): Type {
    return this.checker.getAnyType();
  }

  // ---- object types ---------------------------------------------------------------------------

  protected isTupleType(type: Type): boolean {
    return this.checker.isTupleType(type);
  }

  protected isArrayType(type: Type): boolean {
    return this.checker.isArrayType(type);
  }

  protected typeArguments(type: Type): readonly Type[] {
    return this.checker.getTypeArguments(type as any);
  }

  protected signaturesOfType(type: Type, kind: "call" | "construct"): readonly Signature[] {
    return this.checker.getSignaturesOfType(
      type,
      kind === "call" ? this.signatureKind.Call : this.signatureKind.Construct,
    );
  }

  protected indexSignatures(type: Type): IndexSignature[] {
    return this.checker.getIndexInfosOfType(type).map((info) => ({ keyType: info.keyType, valueType: info.valueType }));
  }

  protected propertiesOf(type: Type): readonly TsSymbol[] {
    return this.checker.getPropertiesOfType(type);
  }

  protected listedProperties(type: Type): TsSymbol[] {
    return [...this.checker.getPropertiesOfType(type)];
  }

  // ---- signatures and batches -----------------------------------------------------------------

  protected signatureOfDeclaration(node: AnyNode): Signature | undefined {
    return this.checker.getSignatureFromDeclaration(node);
  }

  protected signatureParameters(sig: Signature): readonly TsSymbol[] {
    return sig.getParameters();
  }

  protected returnTypeOf(sig: Signature): Type {
    return this.checker.getReturnTypeOfSignature(sig)!;
  }

  protected typesAt(nodes: AnyNode[]): (Type | undefined)[] {
    return this.checker.getTypeAtLocation(nodes);
  }

  protected typesAtEach(nodes: (AnyNode | undefined)[]): (index: number) => Type | undefined {
    const present = nodes.filter((n): n is AnyNode => !!n);
    const types = present.length ? this.checker.getTypeAtLocation(present) : [];
    const typeOf = new Map<AnyNode, Type | undefined>();
    present.forEach((n, i) => {
      typeOf.set(n, types[i]);
    });
    return (i) => typeOf.get(nodes[i]!);
  }

  /** One request for the symbols not asked before in this snapshot (cached by symbol id). */
  protected typesOfSymbols(syms: readonly TsSymbol[]): (Type | undefined)[] {
    const known = this.c.symbolTypes as Map<number, Type | undefined>;
    const missing = syms.filter((s) => !known.has(s.id));
    if (missing.length) {
      const types = this.checker.getTypeOfSymbol(missing);
      missing.forEach((s, i) => {
        known.set(s.id, types[i]);
      });
    }
    return syms.map((s) => known.get(s.id));
  }

  /**
   * Two requests for the whole module: the parameters' symbols (which the API's object registry
   * then holds, so a signature's `getParameters()` needs no request) and their types.
   */
  protected prefetchParameters(names: AnyNode[]): void {
    if (names.length === 0) return;
    const syms = this.checker.getSymbolAtLocation(names).filter((s): s is TsSymbol => !!s);
    if (syms.length) this.typesOfSymbols(syms);
  }
}
