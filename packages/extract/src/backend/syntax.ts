/**
 * Syntax facts of the shared extraction algorithm: locations and attached JSDoc, finding nodes in
 * the module, default values readable from syntax (spec §3), children of type annotations, and the
 * literal values a union writes in source order (docs/mapping.md §4, "Order of `enum` values").
 */
import type { SourceLocation } from "@typed-mcp/model";
import type { DefaultInfo, EnumInfo, TypeNodeRef, TypeRef } from "./host.js";
import { ApiPrimitives, type Any } from "./primitives.js";
import { norm } from "./library.js";

/** How deep type aliases and literal unions are followed. */
const MAX_DEPTH = 20;

/** The syntax half of a session: everything decided on AST nodes (and the symbols they name). */
export abstract class SyntaxFacts extends ApiPrimitives {
  /** The enum a literal (of shape kind `enumLiteral`) belongs to; implemented by the type facts. */
  abstract enumOf(t: TypeRef): EnumInfo | undefined;

  // ---- locations, doc comments -----------------------------------------------------------------

  /** Where a node starts in the module (after trivia). */
  protected start(node: Any): number {
    return node.getStart(this.sf);
  }

  /** A node's location (1-based line and column). */
  protected loc(node: Any): SourceLocation {
    const sf = node.getSourceFile();
    const pos = node.getStart(sf);
    const lc = sf.getLineAndCharacterOfPosition(pos);
    return { file: norm(sf.fileName), line: lc.line + 1, column: lc.character + 1 };
  }

  /** The raw text of the last JSDoc block attached to a node (TypeScript's attachment rule). */
  protected lastDoc(node: Any): string | undefined {
    const docs = node?.jsDoc as Any[] | undefined;
    if (!docs || docs.length === 0) return undefined;
    const d = docs[docs.length - 1]!;
    const text = d.getSourceFile().text as string;
    return text.slice(d.pos, d.end);
  }

  /** The first JSDoc among the declarations of `sym` (a getter's may be on its setter). */
  protected firstDeclarationDoc(sym: Any): string | undefined {
    for (const d of this.declarations(sym)) {
      const doc = this.lastDoc(this.resolve(d));
      if (doc) return doc;
    }
    return undefined;
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

  // ---- nodes and symbols -----------------------------------------------------------------------

  /** The outermost node covering `[start, end)` of the module that satisfies `pred`. */
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

  /** The node of a symbol's first declaration. */
  protected firstDeclaration(sym: Any): Any {
    return this.resolve(this.declarations(sym)[0]);
  }

  /** The symbol an import alias stands for; any other symbol as it is. */
  protected unaliased(sym: Any): Any {
    return sym && sym.flags & this.SF.Alias ? this.aliasedSymbol(sym) : sym;
  }

  /** An expression without parentheses and `as const`. */
  protected unparen(n: Any): Any {
    const K = this.K;
    while (
      n.kind === K.ParenthesizedExpression ||
      (n.kind === K.AsExpression && n.type?.kind === K.TypeReference && n.type.typeName?.text === "const")
    )
      n = n.expression;
    return n;
  }

  /** A type node without parentheses. */
  protected unparenType(n: Any): Any {
    while (n && n.kind === this.K.ParenthesizedType) n = n.type;
    return n;
  }

  /** An arrow function or function expression. */
  protected isFunctionExpression(n: Any): boolean {
    return n.kind === this.K.ArrowFunction || n.kind === this.K.FunctionExpression;
  }

  // ---- defaults (spec §3) ----------------------------------------------------------------------

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

  // ---- type annotations (TypeHost) -------------------------------------------------------------

  /** {@link TypeHost.childNode}: `"element"`, `"nonNull"` or type argument n of an annotation. */
  childNode(node: TypeNodeRef | undefined, which: "element" | "nonNull" | number): TypeNodeRef | undefined {
    const K = this.K;
    const n = this.unparenType(node as Any);
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

  /** {@link TypeHost.aliasTypeNode}: the annotation of the type's alias declaration, through plain alias references. */
  aliasTypeNode(t: TypeRef): TypeNodeRef | undefined {
    const K = this.K;
    const alias = this.aliasSymbolOf(t);
    const decl = alias ? this.firstDeclaration(alias) : undefined;
    if (decl?.kind !== K.TypeAliasDeclaration) return undefined;
    let n = decl.type as Any;
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      n = this.unparenType(n);
      if (n.kind !== K.TypeReference || n.typeArguments?.length) break;
      const sym = this.unaliased(this.symbolAt(n.typeName));
      const next = sym && sym.flags & this.SF.TypeAlias ? this.firstDeclaration(sym) : undefined;
      if (next?.kind !== K.TypeAliasDeclaration) break;
      n = next.type;
    }
    return n as never;
  }

  /** {@link TypeHost.literalOrder}: the literal values of a union as written (in `node`, else in the type's alias). */
  literalOrder(t: TypeRef, node: TypeNodeRef | undefined): (string | number)[] | undefined {
    const out: (string | number)[] = [];
    if (node) {
      if (this.collectLiterals(node as Any, out, 0)) return out;
      return undefined;
    }
    const alias = this.aliasSymbolOf(t);
    if (alias && this.aliasArgumentCount(t) === 0) {
      const decl = this.firstDeclaration(alias);
      if (decl?.kind === this.K.TypeAliasDeclaration && this.collectLiterals(decl.type, out, 0)) return out;
    }
    return undefined;
  }

  /** {@link TypeHost.unionOrder}: the members of a union as written (in `node`, else in the type's alias). */
  unionOrder(t: TypeRef, node: TypeNodeRef | undefined): { type: TypeRef; node?: TypeNodeRef; slot: number }[] | undefined {
    const n = (node as Any) ?? this.aliasTypeNode(t);
    if (!n) return undefined;
    const out: { type: TypeRef; node?: TypeNodeRef; slot: number }[] = [];
    return this.collectMembers(n, out, 0) ? out : undefined;
  }

  /** Appends the members a union type node writes to `out`; `false` when a member's type cannot be read. */
  private collectMembers(node: Any, out: { type: TypeRef; node?: TypeNodeRef; slot: number }[], depth: number): boolean {
    const K = this.K;
    if (depth > MAX_DEPTH) return false;
    const n = this.unparenType(node);
    if (n.kind === K.UnionType) return (n.types as Any[]).every((m) => this.collectMembers(m, out, depth + 1));
    if (n.kind === K.TypeReference && !n.typeArguments?.length) {
      const sym = this.unaliased(this.symbolAt(n.typeName));
      const decl = sym && sym.flags & this.SF.TypeAlias ? this.firstDeclaration(sym) : undefined;
      if (decl?.kind === K.TypeAliasDeclaration && this.unparenType(decl.type)?.kind === K.UnionType) return this.collectMembers(decl.type, out, depth + 1);
    }
    const type = this.typeFromTypeNode(n);
    if (!type) return false;
    const slot = out.length === 0 ? 0 : out[out.length - 1]!.slot + 1;
    if (type.flags & this.TF.Union) for (const m of this.typeMembers(type)) out.push({ type: m, slot });
    else out.push({ type, node: n, slot });
    return true;
  }

  /** Appends the literals a type node writes to `out`; `false` when it writes something else. */
  private collectLiterals(node: Any, out: (string | number)[], depth: number): boolean {
    const K = this.K;
    if (depth > MAX_DEPTH) return false;
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
      case K.TypeReference:
        return this.collectReferenceLiterals(node, out, depth);
      default:
        return false;
    }
  }

  /** {@link collectLiterals} of a reference: a type alias of literals, an enum, or an enum member. */
  private collectReferenceLiterals(node: Any, out: (string | number)[], depth: number): boolean {
    const SF = this.SF;
    if (node.typeArguments?.length) return false;
    const sym = this.unaliased(this.symbolAt(node.typeName));
    if (!sym) return false;
    if (sym.flags & SF.TypeAlias) {
      const decl = this.firstDeclaration(sym);
      return decl?.kind === this.K.TypeAliasDeclaration ? this.collectLiterals(decl.type, out, depth + 1) : false;
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
}
