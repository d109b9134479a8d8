/**
 * Type facts of the shared extraction algorithm (the {@link TypeHost} questions of docs/mapping.md
 * §4): shapes, names and where types are declared, object shapes, properties in listing order
 * (base first), enums, typed-mcp tags and class constructors. Cached per program in {@link Caches}.
 */
import type { SourceLocation } from "@typed-mcp/model";
import type {
  ConstructorInfo,
  EnumInfo,
  NamedInfo,
  ObjectShape,
  PropertyInfo,
  RawDoc,
  TypeHost,
  TypeNodeRef,
  TypeRef,
  TypeShape,
} from "./host.js";
import { fileOrigin, isBuiltinDeclaration, isTypedMcpFile, moduleSpecifier, norm } from "./library.js";
import type { Any } from "./primitives.js";
import { MAX_DEPTH } from "./syntax.js";
import { WrittenOrderFacts } from "./written-order.js";

/** The prefix of typed-mcp's phantom tag properties (`Minimum<1>` → `"typed-mcp:minimum"`). */
const TAG_PREFIX = "typed-mcp:";
/** How deep base types are followed. */
const MAX_BASE_DEPTH = 20;

/**
 * Defines `obj[key]` as computed by `compute` on first read, then an ordinary enumerable data
 * property holding that value (a lazily answered checker question).
 */
function lazy<T extends object, K extends keyof T>(obj: T, key: K, compute: () => T[K]): void {
  Object.defineProperty(obj, key, {
    configurable: true,
    enumerable: true,
    get(): T[K] {
      const value = compute();
      Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
      return value;
    },
  });
}

/** The type half of a session: everything decided on types and symbols. */
export abstract class TypeFacts extends WrittenOrderFacts {
  /** {@link TypeHost.typeId}. */
  typeId(t: TypeRef): number {
    return (t as Any).id;
  }

  /** {@link TypeHost.text}: the checker's text (cached). */
  text(t: TypeRef): string {
    const type = t as Any;
    let s = this.c.text.get(type.id);
    if (s === undefined) {
      s = this.typeToString(type);
      this.c.text.set(type.id, s);
    }
    return s;
  }

  /** {@link TypeHost.shape}: the kind of type, from its flags (cached). */
  shape(t: TypeRef): TypeShape {
    const type = t as Any;
    const cached = this.c.shape.get(type.id);
    if (cached) return cached;
    const s = this.computeShape(type);
    this.c.shape.set(type.id, s);
    return s;
  }

  private computeShape(type: Any): TypeShape {
    const TF = this.TF;
    const f = type.flags;
    if (f & TF.Union) return { kind: "union", members: this.typeMembers(type) };
    if (f & TF.Intersection) return { kind: "intersection", members: this.typeMembers(type) };
    if (f & TF.EnumLiteral && f & (TF.StringLiteral | TF.NumberLiteral))
      return { kind: "enumLiteral", value: type.value, enumId: this.enumId(type) };
    if (f & TF.StringLiteral) return { kind: "stringLiteral", value: type.value };
    if (f & TF.NumberLiteral) return { kind: "numberLiteral", value: type.value };
    if (f & TF.BooleanLiteral)
      return { kind: "booleanLiteral", value: (type.intrinsicName ?? this.typeToString(type)) === "true" };
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

  // ---- names ---------------------------------------------------------------------------------

  private declarationPaths(sym: Any): string[] {
    return this.declarations(sym).map((d) => this.pathOf(d));
  }

  /** The {@link NamedInfo} of a symbol (`builtin` by the one rule of `library.ts`). */
  private namedFromSymbol(sym: Any, isClass: boolean): NamedInfo {
    const paths = this.declarationPaths(sym);
    const typedMcp = paths.some(isTypedMcpFile);
    const builtin = paths.length > 0 && paths.every(isBuiltinDeclaration);
    return { name: sym.name, builtin: builtin && !typedMcp, typedMcp, isClass };
  }

  /** The symbol an object type is named after (cached); its declarations are consulted. */
  protected namedOf(type: Any): NamedInfo | undefined {
    const key = `named:${type.id}`;
    if (this.c.named.has(type.id)) {
      this.replayConsults(key);
      return this.c.named.get(type.id);
    }
    return this.recordConsults(key, () => {
      let info: NamedInfo | undefined;
      const sym = this.symbolOf(type);
      if (sym && !sym.name.startsWith("__")) {
        info = this.namedFromSymbol(sym, !!(sym.flags & this.SF.Class));
        for (const p of this.declarationPaths(sym)) this.consult(p, { name: sym.name });
      }
      this.c.named.set(type.id, info);
      return info;
    });
  }

  /** {@link TypeHost.aliasNamed}. */
  aliasNamed(t: TypeRef): NamedInfo | undefined {
    const sym = this.aliasSymbolOf(t);
    return sym ? this.namedFromSymbol(sym, false) : undefined;
  }

  /** {@link TypeHost.referenceNamed}: the declaration a plain type reference names, through imports. */
  referenceNamed(node: TypeNodeRef | undefined): NamedInfo | undefined {
    const n = this.unparenType(node as Any);
    if (!n || n.kind !== this.K.TypeReference) return undefined;
    const sym = this.unaliased(this.symbolAt(n.typeName));
    if (!sym) return undefined;
    return this.namedFromSymbol(sym, !!(sym.flags & this.SF.Class));
  }

  /**
   * {@link TypeHost.unresolvedReason}: a reference whose name resolves to no declaration (the
   * checker's `unknown` symbol), directly or through type aliases (at most {@link MAX_DEPTH}),
   * with the checker's message at it (spec §4).
   */
  unresolvedReason(node: TypeNodeRef | undefined): { written: string; message: string } | undefined {
    let n = this.unparenType(node as Any);
    for (let depth = 0; n?.kind === this.K.TypeReference && depth < MAX_DEPTH; depth++) {
      const sym = this.unaliased(this.symbolAt(n.typeName));
      if (!sym || this.declarations(sym).length === 0) {
        const sf = n.getSourceFile();
        const start = n.getStart(sf);
        const found = this.errorsOfFile(n).find((d) => d.start >= start && d.start < n.end);
        return found && { written: String(n.getText(sf)), message: found.text };
      }
      const decl = this.typeAliasDeclaration(sym);
      if (!decl) return undefined;
      n = this.unparenType(decl.type);
    }
    return undefined;
  }

  /** {@link TypeHost.typeDoc}: the JSDoc of the type's symbol, else of its alias. */
  typeDoc(t: TypeRef): RawDoc | undefined {
    const sym = this.symbolOf(t) ?? this.aliasSymbolOf(t);
    if (!sym) return undefined;
    const doc = this.firstDeclarationDoc(sym);
    if (doc) return doc;
    const alias = this.aliasSymbolOf(t);
    return alias && alias !== sym ? this.firstDeclarationDoc(alias) : undefined;
  }

  /** {@link TypeHost.declaredAt}: line 0 for a default-library declaration (messages name the file only). */
  declaredAt(t: TypeRef): SourceLocation | undefined {
    const sym = this.aliasSymbolOf(t) ?? this.symbolOf(t);
    const decl = sym ? this.declarations(sym)[0] : undefined;
    if (!decl) return undefined;
    if (fileOrigin(this.pathOf(decl)) === "lib") return { file: this.pathOf(decl), line: 0, column: 0 };
    const node = this.resolve(decl);
    return node ? this.loc(node.name ?? node) : undefined;
  }

  // ---- objects -------------------------------------------------------------------------------

  private objectFlags(t: Any): number {
    return (t as { objectFlags?: number }).objectFlags ?? 0;
  }

  /** A type reference that is not itself a class or interface (an instantiation such as `Box<string>`). */
  private isInstantiation(t: Any): boolean {
    const of = this.objectFlags(t);
    return !!(of & this.OF.Reference) && !(of & this.OF.ClassOrInterface);
  }

  /**
   * {@link TypeHost.object}: arrays, tuples, type arguments, name, call signatures, index
   * signatures (cached). Asks the checker only what the type can need (each question is an IPC
   * round trip on the 7.x backends): a reference's symbol is its target's, so only a reference
   * without a symbol can be a tuple and only one named `Array`/`ReadonlyArray` an array; type
   * arguments, signatures and index signatures are read when first used (a `Date` needs none).
   */
  object(t: TypeRef): ObjectShape {
    const type = t as Any;
    const cached = this.c.object.get(type.id);
    if (cached) {
      this.replayConsults(`named:${type.id}`); // what `named` below consulted
      return cached;
    }
    const shape = { tuple: false, named: this.namedOf(type) } as ObjectShape;
    const reference = !!(this.objectFlags(type) & this.OF.Reference);
    if (reference) {
      const sym = this.symbolOf(type);
      if (!sym) shape.tuple = this.isTupleType(type);
      else if ((sym.name === "Array" || sym.name === "ReadonlyArray") && this.isArrayType(type))
        shape.arrayElement = this.typeArguments(type)[0];
    }
    const plain = !shape.arrayElement && !shape.tuple;
    // A tuple's type arguments are its element types (spec §4a homogeneous tuples).
    lazy(shape, "typeArguments", () => (reference ? [...this.typeArguments(type)] : []));
    lazy(
      shape,
      "callable",
      () =>
        plain &&
        (this.signaturesOfType(type, "call").length > 0 || this.signaturesOfType(type, "construct").length > 0),
    );
    let index: { stringIndex?: TypeRef; otherIndex: boolean } | undefined;
    const indexes = () => {
      if (index) return index;
      index = { otherIndex: false };
      if (plain) {
        for (const info of this.indexSignatures(type)) {
          if (info.keyType.flags & this.TF.String) index.stringIndex = info.valueType;
          else index.otherIndex = true;
        }
      }
      return index;
    };
    lazy(shape, "stringIndex", () => indexes().stringIndex);
    lazy(shape, "otherIndex", () => indexes().otherIndex);
    this.c.object.set(type.id, shape);
    return shape;
  }

  /** {@link TypeHost.properties}: base (`extends`) first, then declaration order (cached). */
  properties(t: TypeRef): PropertyInfo[] {
    const type = t as Any;
    const key = `props:${type.id}`;
    const cached = this.c.props.get(type.id);
    if (cached) {
      this.replayConsults(key);
      return cached;
    }
    return this.recordConsults(key, () => {
      const ordered = this.baseFirst(type, this.listedProperties(type));
      const types = ordered.length ? this.typesOfSymbols(ordered) : [];
      const props = ordered.map((sym, i) => this.propertyInfo(sym, types[i]));
      this.c.props.set(type.id, props);
      return props;
    });
  }

  /** Orders properties base (`extends`) first, then declaration order. */
  private baseFirst(type: Any, symbols: Any[]): Any[] {
    const target = this.isInstantiation(type) ? this.referenceTarget(type) : type;
    if (!(this.objectFlags(target) & this.OF.ClassOrInterface)) return symbols;
    const baseNames: string[] = [];
    const collect = (t: Any, depth: number): void => {
      if (depth > MAX_BASE_DEPTH) return;
      for (const base of this.baseTypes(t)) {
        collect(this.isInstantiation(base) ? this.referenceTarget(base) : base, depth + 1);
        for (const p of this.propertiesOf(base)) if (!baseNames.includes(p.name)) baseNames.push(p.name);
      }
    };
    collect(target, 0);
    if (baseNames.length === 0) return symbols;
    const byName = new Map(symbols.map((s) => [s.name, s]));
    const out: Any[] = [];
    for (const n of baseNames) {
      const s = byName.get(n);
      if (s) out.push(s);
    }
    for (const s of symbols) if (!baseNames.includes(s.name)) out.push(s);
    return out;
  }

  private propertyKind(flags: number): PropertyInfo["kind"] {
    const SF = this.SF;
    if (flags & SF.Method) return "method";
    if (flags & SF.GetAccessor) return flags & SF.SetAccessor ? "getterSetter" : "getter";
    if (flags & SF.SetAccessor) return "setter";
    return flags & SF.Property ? "field" : "other";
  }

  private propertyInfo(sym: Any, type: Any): PropertyInfo {
    const K = this.K;
    const MF = this.MF;
    const decl = this.resolve(sym.valueDeclaration ?? this.declarations(sym)[0]);
    const mf = this.modifierFlags(decl);
    let visibility: PropertyInfo["visibility"] = "public";
    if (
      decl?.name?.kind === K.PrivateIdentifier ||
      sym.name.startsWith("#") ||
      String(sym.escapedName).startsWith("__#")
    )
      visibility = "hash";
    else if (mf & MF.Private) visibility = "private";
    else if (mf & MF.Protected) visibility = "protected";
    // A getter's documentation may be on the getter or the setter: take the first documented declaration.
    let doc = this.lastDoc(decl);
    if (!doc && this.declarations(sym).length > 1) doc = this.firstDeclarationDoc(sym);
    return {
      name: sym.name,
      type: type as never,
      optional: !!(sym.flags & this.SF.Optional),
      doc,
      typeNode: decl?.type as never,
      declaredAt: decl ? this.loc(decl.name ?? decl) : undefined,
      kind: this.propertyKind(sym.flags),
      visibility,
      isStatic: !!(mf & MF.Static),
      hasInitializer: decl?.kind === K.PropertyDeclaration && !!decl.initializer,
      parameterProperty: decl?.kind === K.Parameter,
    };
  }

  // ---- enums, tags, classes ------------------------------------------------------------------

  /** {@link TypeHost.enumOf}: the enum's members in declaration order (cached by symbol). */
  enumOf(t: TypeRef): EnumInfo | undefined {
    const member = this.symbolOf(t);
    const parent = member ? this.parentOf(member) : undefined;
    if (!parent) return undefined;
    const key = this.symbolKey(parent);
    if (this.c.enums.has(key)) {
      this.replayConsults(key);
      return this.c.enums.get(key);
    }
    return this.recordConsults(key, () => this.readEnum(parent, key));
  }

  /** The members of enum `parent` (cached under `key`), for {@link enumOf}. */
  private readEnum(parent: Any, key: unknown): EnumInfo | undefined {
    let info: EnumInfo | undefined;
    const memberNodes: Any[] = [];
    for (const d of this.declarations(parent)) {
      const node = this.resolve(d);
      if (node?.kind === this.K.EnumDeclaration) memberNodes.push(...(node.members as Any[]));
    }
    if (memberNodes.length) {
      const types = this.typesAt(memberNodes);
      info = {
        name: parent.name,
        members: memberNodes.map((m, i) => ({ name: m.name.text as string, value: types[i]?.value })),
      };
    }
    this.c.enums.set(key, info);
    return info;
  }

  /** {@link TypeHost.tags}: a typed-mcp phantom tag object's tags (cached). */
  tags(t: TypeRef): ReturnType<TypeHost["tags"]> {
    const TF = this.TF;
    const type = t as Any;
    if (this.c.tags.has(type.id)) return this.c.tags.get(type.id);
    let result: ReturnType<TypeHost["tags"]>;
    if (type.flags & TF.Object) {
      const props = this.propertiesOf(type);
      if (props.length > 0 && props.every((p) => p.name.startsWith(TAG_PREFIX))) {
        const types = this.typesOfSymbols([...props]);
        result = props.map((p, i) => ({ name: p.name.slice(TAG_PREFIX.length), value: this.tagValue(types[i]) }));
      }
    }
    this.c.tags.set(type.id, result);
    return result;
  }

  /** The literal a tag property is typed with (its non-`undefined` member when optional). */
  private tagValue(type: Any): string | number | boolean | undefined {
    const TF = this.TF;
    let pt = type;
    if (pt && pt.flags & TF.Union) pt = this.typeMembers(pt).find((m: Any) => !(m.flags & TF.Undefined));
    if (pt && pt.flags & (TF.StringLiteral | TF.NumberLiteral)) return pt.value;
    return pt && pt.flags & TF.BooleanLiteral ? pt.intrinsicName === "true" : undefined;
  }

  /** {@link TypeHost.classConstructor}: the class's constructor and how the tool's file imports the class. */
  classConstructor(t: TypeRef, fromFile: string): ConstructorInfo | undefined {
    const K = this.K;
    const MF = this.MF;
    const sym = this.symbolOf(t);
    if (!sym || !(sym.flags & this.SF.Class)) return undefined;
    const decl = this.resolve(sym.valueDeclaration ?? this.declarations(sym)[0]);
    if (!decl) return undefined;
    let ctor: Any;
    for (const m of decl.members as Any[]) if (m.kind === K.Constructor && m.body) ctor = m;
    const params = ((ctor?.parameters ?? []) as Any[]).map((p) => ({
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
    const from = exported ? moduleSpecifier(fromFile, declFile) : undefined;
    return {
      from,
      exportName: exported && from !== undefined ? (isDefault ? "default" : sym.name) : undefined,
      params,
      ...(doc ? { doc } : {}),
    };
  }
}
