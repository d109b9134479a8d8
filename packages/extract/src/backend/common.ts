/**
 * The part of the {@link TypeHost} algorithm shared by the IPC backend (`ts7.ts`, TypeScript
 * 7.0/7.1) and the classic backend (`classic.ts`, TypeScript 5/6). Both APIs have the same AST
 * shape and the same flag names (only the enum values differ, so they are passed in); what
 * differs — how a type's union members, alias symbol or a symbol's declarations are read, how a
 * declaration handle becomes a node, which checker calls are batched — is left to the small
 * abstract primitives each backend implements.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { SourceLocation } from "@typed-mcp/model";
import type {
  BindingInfo,
  ConstructorInfo,
  DefaultInfo,
  EnumInfo,
  ModuleSession,
  NamedInfo,
  ObjectShape,
  ParamInfo,
  PropertyInfo,
  TypeHost,
  TypeNodeRef,
  TypeRef,
  TypeShape,
} from "./host.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
/** A compiler node, type, symbol or declaration handle of either API. */
type Any = any;
/** An enum of flag or syntax-kind values (`TypeFlags`, `SyntaxKind`, …) of either API. */
type Enum = Record<string, any>;

export const norm = (f: string) => f.replace(/\\/g, "/");

/** A file belonging to the typed-mcp runtime package (installed or in the workspace). */
export function isTypedMcpFile(path: string): boolean {
  return /\/typed-mcp\/(?:src|dist)\/[^/]+\.(?:d\.)?[cm]?ts$/.test(norm(path)) || /\/node_modules\/typed-mcp\//.test(norm(path));
}

/** The tsconfig for `file`: the fixed `options.tsconfig`, else the nearest `tsconfig.json` above it. */
export function findTsconfig(options: { tsconfig?: string; cwd?: string }, file: string): string | undefined {
  if (options.tsconfig) return norm(resolve(options.cwd ?? process.cwd(), options.tsconfig));
  let dir = dirname(file);
  for (;;) {
    const candidate = join(dir, "tsconfig.json");
    if (existsSync(candidate)) return norm(candidate);
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * Records `code` as the overlay of `file` unless it equals what the checker already sees (the
 * previous overlay, or the disk on first sight). Returns whether the overlay changed.
 */
export function setOverlay(overlays: Map<string, string>, file: string, code: string): boolean {
  const previous = overlays.get(file);
  if (previous === code) return false;
  let disk: string | undefined;
  if (previous === undefined) {
    try {
      disk = readFileSync(file, "utf8");
    } catch {
      disk = undefined;
    }
  }
  if (previous === undefined && disk === code) return false;
  overlays.set(file, code);
  return true;
}

/** A session of a module whose project is unusable (`message` is reported as OMCG0000). */
export function failedSession(message: string): ModuleSession {
  return {
    host: undefined as never,
    configProblem: message,
    methodSignature: () => undefined,
    quickSites: () => [],
    consulted: () => [],
  };
}

/** The message for a project without `strictNullChecks`. */
export const notStrictMessage = (config: string) =>
  `typed-mcp needs strictNullChecks: set "strict": true (or "strictNullChecks": true) in the compilerOptions of ${config}.`;

/** Per-program (per-snapshot) caches keyed by type / symbol id. */
export class Caches {
  shape = new Map<number, TypeShape>();
  object = new Map<number, ObjectShape>();
  props = new Map<number, PropertyInfo[]>();
  tags = new Map<number, ReturnType<TypeHost["tags"]>>();
  enums = new Map<unknown, EnumInfo | undefined>();
  named = new Map<number, NamedInfo | undefined>();
  text = new Map<number, string>();
  symbolIds = new Map<unknown, number>();
}

/** The enums a session reads (values from the backend's TypeScript module). */
export interface Enums {
  SyntaxKind: Enum;
  TypeFlags: Enum;
  SymbolFlags: Enum;
  ModifierFlags: Enum;
}

/** The shared half of a backend's session: everything decided on AST nodes, flags and symbols. */
export abstract class SessionBase {
  private readonly consultedFiles = new Set<string>();
  protected readonly K: Enum;
  protected readonly TF: Enum;
  protected readonly SF: Enum;
  protected readonly MF: Enum;

  constructor(
    protected readonly file: string,
    protected readonly c: Caches,
    enums: Enums,
    private readonly isLibFile: (path: string) => boolean,
  ) {
    this.K = enums.SyntaxKind;
    this.TF = enums.TypeFlags;
    this.SF = enums.SymbolFlags;
    this.MF = enums.ModifierFlags;
  }

  // ---- per-API primitives ------------------------------------------------------------------

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
  /** The parent symbol (an enum member's enum). */
  protected abstract parentOf(sym: Any): Any;
  /** A cache key for a symbol. */
  protected abstract symbolKey(sym: Any): unknown;
  /** A symbol's declarations (handles or nodes; `[]` for none). */
  protected abstract declarations(sym: Any): Any[];
  /** The node of a declaration (marks its file consulted). */
  protected abstract resolve(decl: Any): Any;
  /** The file of a declaration. */
  protected abstract pathOf(decl: Any): string;
  /** Modifier flags of a declaration node (0 for none). */
  protected abstract modifierFlags(node: Any): number;
  /** The symbol a node names. */
  protected abstract symbolAt(node: Any): Any;
  /** The symbol an import alias stands for. */
  protected abstract aliasedSymbol(sym: Any): Any;
  /** The type a type node denotes. */
  protected abstract typeFromTypeNode(node: Any): Any;
  /** The types at nodes (one batch where the API has one). */
  protected abstract typesAt(nodes: Any[]): Any[];
  /** The properties of a type. */
  protected abstract propertiesOf(type: Any): readonly Any[];
  /** The types of symbols (one batch where the API has one). */
  protected abstract typesOfSymbols(syms: Any[]): Any[];
  /** Calls `cb` on each child of `node` until it returns a truthy value. */
  protected abstract forEachChild(node: Any, cb: (child: Any) => unknown): void;
  /** The module's source file node. */
  protected abstract readonly sf: Any;

  // ---- consulted files, locations, doc comments --------------------------------------------

  consulted(): string[] {
    return [...this.consultedFiles].sort();
  }

  consult(file: string): void {
    const f = norm(file);
    if (f !== this.file && !this.isLibFile(f) && !/\/node_modules\//.test(f)) this.consultedFiles.add(f);
  }

  protected loc(node: Any): SourceLocation {
    const sf = node.getSourceFile();
    const pos = node.getStart(sf);
    const lc = sf.getLineAndCharacterOfPosition(pos);
    return { file: norm(sf.fileName), line: lc.line + 1, column: lc.character + 1 };
  }

  protected lastDoc(node: Any): string | undefined {
    const docs = node?.jsDoc as Any[] | undefined;
    if (!docs || docs.length === 0) return undefined;
    const d = docs[docs.length - 1]!;
    const text = d.getSourceFile().text as string;
    return text.slice(d.pos, d.end);
  }

  /** JSDoc of a tool function: its own, else its `const` statement's, else the enclosing call statement's. */
  protected docOfFunction(node: Any): string | undefined {
    const K = this.K;
    const own = this.lastDoc(node);
    if (own) return own;
    let p = node.parent as Any;
    while (p && p.kind === K.ParenthesizedExpression) p = p.parent;
    if (p?.kind === K.VariableDeclaration) return this.lastDoc(p.parent?.parent) ?? this.lastDoc(p);
    if (p?.kind === K.CallExpression) {
      let s = p.parent as Any;
      while (s && (s.kind === K.AwaitExpression || s.kind === K.ParenthesizedExpression)) s = s.parent;
      if (s?.kind === K.ExpressionStatement) return this.lastDoc(s);
    }
    return undefined;
  }

  // ---- finding nodes in the module -------------------------------------------------------

  protected findNode(start: number, end: number, pred: (n: Any) => boolean): Any {
    let found: Any;
    const visit = (n: Any): void => {
      if (found) return;
      this.forEachChild(n, (child: Any) => {
        if (found) return true;
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

  /** A tool function's parameter (`type` from the signature), its defaults read by `defaultOf`. */
  protected paramInfo(p: Any, type: Any, defaultOf: (init: Any) => DefaultInfo | undefined): ParamInfo {
    const K = this.K;
    const info: ParamInfo = {
      name: p.name.kind === K.Identifier ? p.name.text : undefined,
      rest: !!p.dotDotDotToken,
      optional: !!p.questionToken,
      type: type as never,
      typeNode: p.type as never,
      doc: this.lastDoc(p),
      loc: this.loc(p.name),
      default: defaultOf(p.initializer),
    };
    if (p.name.kind === K.ObjectBindingPattern) {
      info.pattern = "object";
      info.bindings = (p.name.elements as Any[]).map((el): BindingInfo => {
        const keyNode = el.propertyName ?? el.name;
        let key: string | undefined;
        if (keyNode?.kind === K.Identifier || keyNode?.kind === K.StringLiteral || keyNode?.kind === K.NumericLiteral) key = keyNode.text;
        return { key: el.dotDotDotToken ? undefined : key, rest: !!el.dotDotDotToken, default: defaultOf(el.initializer), loc: this.loc(el) };
      });
    } else if (p.name.kind === K.ArrayBindingPattern) {
      info.pattern = "array";
    }
    return info;
  }

  protected unparen(n: Any): Any {
    const K = this.K;
    while (
      n.kind === K.ParenthesizedExpression ||
      (n.kind === K.AsExpression && n.type?.kind === K.TypeReference && n.type.typeName?.text === "const")
    )
      n = n.expression;
    return n;
  }

  /** A default value readable from syntax alone (spec §3), or `undefined` when the checker must decide. */
  protected syntacticDefault(init: Any): DefaultInfo | undefined {
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

  // ---- TypeHost ------------------------------------------------------------------------------

  typeId(t: TypeRef): number {
    return (t as Any).id;
  }

  text(t: TypeRef): string {
    const type = t as Any;
    let s = this.c.text.get(type.id);
    if (s === undefined) {
      s = this.typeToString(type);
      this.c.text.set(type.id, s);
    }
    return s;
  }

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
    if (f & TF.EnumLiteral && f & (TF.StringLiteral | TF.NumberLiteral)) return { kind: "enumLiteral", value: type.value, enumId: this.enumId(type) };
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

  private namedFromSymbol(sym: Any, isClass: boolean): NamedInfo {
    const paths = this.declarations(sym).map((d) => this.pathOf(d));
    const typedMcp = paths.some(isTypedMcpFile);
    const builtin = paths.length > 0 && paths.every((p) => this.isLibFile(p) || /\/node_modules\//.test(p));
    return { name: sym.name, typedMcp, builtin: builtin && !typedMcp, isClass };
  }

  aliasNamed(t: TypeRef): NamedInfo | undefined {
    const sym = this.aliasSymbolOf(t);
    return sym ? this.namedFromSymbol(sym, false) : undefined;
  }

  referenceNamed(node: TypeNodeRef | undefined): NamedInfo | undefined {
    const K = this.K;
    let n = node as Any;
    while (n && n.kind === K.ParenthesizedType) n = n.type;
    if (!n || n.kind !== K.TypeReference) return undefined;
    let sym = this.symbolAt(n.typeName);
    if (!sym) return undefined;
    if (sym.flags & this.SF.Alias) sym = this.aliasedSymbol(sym);
    return this.namedFromSymbol(sym, !!(sym.flags & this.SF.Class));
  }

  typeDoc(t: TypeRef): string | undefined {
    const sym = this.symbolOf(t) ?? this.aliasSymbolOf(t);
    if (!sym) return undefined;
    for (const d of this.declarations(sym)) {
      const doc = this.lastDoc(this.resolve(d));
      if (doc) return doc;
    }
    const alias = this.aliasSymbolOf(t);
    if (alias && alias !== sym)
      for (const d of this.declarations(alias)) {
        const doc = this.lastDoc(this.resolve(d));
        if (doc) return doc;
      }
    return undefined;
  }

  protected namedOf(type: Any): NamedInfo | undefined {
    if (this.c.named.has(type.id)) return this.c.named.get(type.id);
    let info: NamedInfo | undefined;
    const sym = this.symbolOf(type);
    if (sym && !sym.name.startsWith("__")) {
      const paths = this.declarations(sym).map((d) => this.pathOf(d));
      const builtin = paths.length > 0 && paths.every((p) => this.isLibFile(p) || (/\/node_modules\//.test(p) && p.endsWith(".d.ts")));
      const typedMcp = paths.some(isTypedMcpFile);
      if (!builtin) for (const p of paths) this.consult(p);
      info = { name: sym.name, builtin: builtin && !typedMcp, typedMcp, isClass: !!(sym.flags & this.SF.Class) };
    }
    this.c.named.set(type.id, info);
    return info;
  }

  declaredAt(t: TypeRef): SourceLocation | undefined {
    const sym = this.aliasSymbolOf(t) ?? this.symbolOf(t);
    const decl = sym ? this.declarations(sym)[0] : undefined;
    if (!decl) return undefined;
    if (this.isLibFile(this.pathOf(decl))) return { file: this.pathOf(decl), line: 0, column: 0 };
    const node = this.resolve(decl);
    return node ? this.loc(node.name ?? node) : undefined;
  }

  protected propertyInfo(sym: Any, type: Any): PropertyInfo {
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
    // A getter's documentation may be on the getter or the setter: take the first documented declaration.
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
    const member = this.symbolOf(t);
    const parent = member ? this.parentOf(member) : undefined;
    if (!parent) return undefined;
    const key = this.symbolKey(parent);
    if (this.c.enums.has(key)) return this.c.enums.get(key);
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

  literalOrder(t: TypeRef, node: TypeNodeRef | undefined): (string | number)[] | undefined {
    const out: (string | number)[] = [];
    if (node) {
      if (this.collectLiterals(node as Any, out, 0)) return out;
      return undefined;
    }
    const alias = this.aliasSymbolOf(t);
    if (alias && this.aliasArgumentCount(t) === 0) {
      const decl = this.resolve(this.declarations(alias)[0]);
      if (decl?.kind === this.K.TypeAliasDeclaration && this.collectLiterals(decl.type, out, 0)) return out;
    }
    return undefined;
  }

  aliasTypeNode(t: TypeRef): TypeNodeRef | undefined {
    const K = this.K;
    const alias = this.aliasSymbolOf(t);
    const decl = alias ? this.resolve(this.declarations(alias)[0]) : undefined;
    if (decl?.kind !== K.TypeAliasDeclaration) return undefined;
    let n = decl.type as Any;
    for (let depth = 0; depth < 20; depth++) {
      while (n.kind === K.ParenthesizedType) n = n.type;
      if (n.kind !== K.TypeReference || n.typeArguments?.length) break;
      let sym = this.symbolAt(n.typeName);
      if (sym && sym.flags & this.SF.Alias) sym = this.aliasedSymbol(sym);
      const next = sym && sym.flags & this.SF.TypeAlias ? this.resolve(this.declarations(sym)[0]) : undefined;
      if (next?.kind !== K.TypeAliasDeclaration) break;
      n = next.type;
    }
    return n as never;
  }

  private collectLiterals(node: Any, out: (string | number)[], depth: number): boolean {
    const K = this.K;
    const SF = this.SF;
    if (depth > 20) return false;
    switch (node.kind) {
      case K.ParenthesizedType:
        return this.collectLiterals(node.type, out, depth + 1);
      case K.UnionType:
        return (node.types as Any[]).every((m) => this.collectLiterals(m, out, depth + 1));
      case K.NullKeyword:
      case K.UndefinedKeyword:
        return true;
      case K.LiteralType: {
        const lit = node.literal as Any;
        if (lit.kind === K.StringLiteral || lit.kind === K.NoSubstitutionTemplateLiteral) out.push(lit.text);
        else if (lit.kind === K.NumericLiteral) out.push(Number(String(lit.text).replace(/_/g, "")));
        else if (lit.kind === K.PrefixUnaryExpression && lit.operator === K.MinusToken && lit.operand.kind === K.NumericLiteral)
          out.push(-Number(lit.operand.text));
        else if (lit.kind !== K.NullKeyword && lit.kind !== K.TrueKeyword && lit.kind !== K.FalseKeyword) return false;
        return true;
      }
      case K.TypeReference: {
        if (node.typeArguments?.length) return false;
        let sym = this.symbolAt(node.typeName);
        if (!sym) return false;
        if (sym.flags & SF.Alias) sym = this.aliasedSymbol(sym);
        if (sym.flags & SF.TypeAlias) {
          const decl = this.resolve(this.declarations(sym)[0]);
          return decl?.kind === K.TypeAliasDeclaration ? this.collectLiterals(decl.type, out, depth + 1) : false;
        }
        if (sym.flags & SF.Enum || sym.flags & SF.EnumMember) {
          const t = this.typeFromTypeNode(node);
          const members: Any[] = t && t.flags & this.TF.Union ? this.typeMembers(t) : t ? [t] : [];
          const info = members[0] ? this.enumOf(members[0]) : undefined;
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
    let n = node as Any;
    while (n && n.kind === K.ParenthesizedType) n = n.type;
    if (!n) return undefined;
    if (which === "nonNull") {
      if (n.kind !== K.UnionType) return n as never;
      const rest = (n.types as Any[]).filter(
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
    const type = t as Any;
    if (this.c.tags.has(type.id)) return this.c.tags.get(type.id);
    let result: { name: string; value: string | number | boolean | undefined }[] | undefined;
    if (type.flags & TF.Object) {
      const props = this.propertiesOf(type);
      if (props.length > 0 && props.every((p) => p.name.startsWith("typed-mcp:"))) {
        const types = this.typesOfSymbols([...props]);
        result = props.map((p, i) => {
          let pt = types[i] as Any;
          if (pt && pt.flags & TF.Union) pt = this.typeMembers(pt).find((m: Any) => !(m.flags & TF.Undefined));
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
