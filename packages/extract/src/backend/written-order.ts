/**
 * The order a union's members are written in the source (docs/mapping.md §4 "Order of `enum`
 * values", §4a "Order"): through type annotations, type aliases and enum declarations, and into
 * the `const` declarations a union is indexed out of — the elements of a `const` array or tuple,
 * `(typeof KINDS)[number]`, and the property values of a `const` object, `(typeof Kind)[keyof
 * typeof Kind]`. The checker does not keep a union's source order, so these are read from
 * declarations; a union the source does not write out (`keyof`, `Exclude`, mapped types) has no
 * written order here and its callers sort it.
 */
import type { ConstantValue, TypeNodeRef, TypeRef, TypeShape } from "./host.js";
import type { Any } from "./primitives.js";
import { MAX_DEPTH, SyntaxFacts } from "./syntax.js";

/** A literal value a `const` declaration writes: a string, number or boolean. */
type Written = string | number | boolean;

/** The order facts of a session, over its syntax facts. */
export abstract class WrittenOrderFacts extends SyntaxFacts {
  /** The kind of a type (implemented by the type facts). */
  abstract shape(t: TypeRef): TypeShape;

  /** {@link TypeHost.literalOrder}: the literal values of a union as written (in `node`, else in the type's alias). */
  literalOrder(t: TypeRef, node: TypeNodeRef | undefined): (string | number)[] | undefined {
    const out: (string | number)[] = [];
    if (node) {
      if (this.collectLiterals(node as Any, out, 0)) return out;
      return undefined;
    }
    const alias = this.aliasSymbolOf(t);
    if (alias && this.aliasArgumentCount(t) === 0) {
      const decl = this.typeAliasDeclaration(alias);
      if (decl && this.collectLiterals(decl.type, out, 0)) return out;
    }
    return undefined;
  }

  /** {@link TypeHost.unionOrder}: the members of a union as written (in `node`, else in the type's alias). */
  unionOrder(
    t: TypeRef,
    node: TypeNodeRef | undefined,
  ): { type: TypeRef; node?: TypeNodeRef; slot: number }[] | undefined {
    const n = (node as Any) ?? this.aliasTypeNode(t);
    if (!n) return undefined;
    const out: { type: TypeRef; node?: TypeNodeRef; slot: number }[] = [];
    return this.collectMembers(n, out, 0) ? out : undefined;
  }

  /** Appends the members a union type node writes to `out`; `false` when a member's type cannot be read. */
  private collectMembers(
    node: Any,
    out: { type: TypeRef; node?: TypeNodeRef; slot: number }[],
    depth: number,
  ): boolean {
    const K = this.K;
    if (depth > MAX_DEPTH) return false;
    const n = this.unparenType(node);
    if (n.kind === K.UnionType) return (n.types as Any[]).every((m) => this.collectMembers(m, out, depth + 1));
    if (n.kind === K.IndexedAccessType && this.collectConstMembers(n, out)) return true;
    if (n.kind === K.TypeReference && !n.typeArguments?.length) {
      const sym = this.unaliased(this.symbolAt(n.typeName));
      const decl = this.typeAliasDeclaration(sym);
      if (decl && this.unparenType(decl.type)?.kind === K.UnionType)
        return this.collectMembers(decl.type, out, depth + 1);
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
        else if (
          lit.kind === K.PrefixUnaryExpression &&
          lit.operator === K.MinusToken &&
          lit.operand.kind === K.NumericLiteral
        )
          out.push(-Number(lit.operand.text));
        else if (lit.kind !== K.NullKeyword && lit.kind !== K.TrueKeyword && lit.kind !== K.FalseKeyword) return false;
        return true;
      }
      case K.TypeReference:
        return this.collectReferenceLiterals(node, out, depth);
      case K.IndexedAccessType: {
        const written = this.constIndexedValues(node);
        if (!written) return false;
        for (const v of written) if (typeof v !== "boolean") out.push(v);
        return true;
      }
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
      const decl = this.typeAliasDeclaration(sym);
      return decl ? this.collectLiterals(decl.type, out, depth + 1) : false;
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

  /**
   * The literals `(typeof KINDS)[number]` of a `const` array or tuple, or `(typeof Kind)[keyof
   * typeof Kind]` of a `const` object, indexes out of the declaration, in source order (spec §4);
   * `undefined` for any other node, or when the declaration does not write literals.
   */
  private constIndexedValues(node: Any): Written[] | undefined {
    const K = this.K;
    if (node.kind !== K.IndexedAccessType) return undefined;
    const query = this.unparenType(node.objectType);
    if (query?.kind !== K.TypeQuery || query.typeArguments?.length) return undefined;
    const decl = this.constDeclaration(query.exprName);
    if (!decl) return undefined;
    const index = this.unparenType(node.indexType);
    if (index?.kind === K.NumberKeyword) return this.constElements(decl);
    if (index?.kind !== K.TypeOperator || index.operator !== K.KeyOfKeyword) return undefined;
    const keysOf = this.unparenType(index.type);
    if (keysOf?.kind !== K.TypeQuery || keysOf.typeArguments?.length) return undefined;
    return this.constDeclaration(keysOf.exprName) === decl ? this.constPropertyValues(decl) : undefined;
  }

  /** The `const` variable declaration `typeof name` refers to (through imports), if it is one. */
  private constDeclaration(name: Any): Any {
    const K = this.K;
    const sym = this.unaliased(this.symbolAt(name.kind === K.QualifiedName ? name.right : name));
    const decl = sym ? this.valueDeclaration(sym) : undefined;
    return decl?.kind === K.VariableDeclaration && decl.parent?.flags & this.NF.Const ? decl : undefined;
  }

  /** A `const` declaration's initializer without parentheses, `as const` and `satisfies`. */
  private constInitializer(decl: Any): Any {
    let e = decl.initializer as Any;
    while (e) {
      e = this.unparen(e);
      if (e.kind !== this.K.SatisfiesExpression) return e;
      e = e.expression;
    }
    return undefined;
  }

  /** The elements of a `const` array or tuple in source order: its tuple annotation, else its array literal. */
  private constElements(decl: Any): Written[] | undefined {
    const K = this.K;
    if (decl.type) {
      let t = this.unparenType(decl.type);
      if (t?.kind === K.TypeOperator && t.operator === K.ReadonlyKeyword) t = this.unparenType(t.type);
      if (t?.kind !== K.TupleType) return undefined;
      const out: (string | number)[] = [];
      return (t.elements as Any[]).every((el) => this.collectLiterals(el, out, 1)) ? out : undefined;
    }
    const init = this.constInitializer(decl);
    if (init?.kind !== K.ArrayLiteralExpression) return undefined;
    return this.foldedValues(init.elements as Any[]);
  }

  /** The property values of a `const` object in property order: its type-literal annotation, else its object literal. */
  private constPropertyValues(decl: Any): Written[] | undefined {
    const K = this.K;
    if (decl.type) {
      const t = this.unparenType(decl.type);
      if (t?.kind !== K.TypeLiteral) return undefined;
      const out: (string | number)[] = [];
      const members = t.members as Any[];
      const ok = members.every((m) => m.kind === K.PropertySignature && m.type && this.collectLiterals(m.type, out, 1));
      return ok ? out : undefined;
    }
    const init = this.constInitializer(decl);
    if (init?.kind !== K.ObjectLiteralExpression) return undefined;
    const values: Any[] = [];
    for (const p of init.properties as Any[]) {
      if (p.kind === K.PropertyAssignment) values.push(p.initializer);
      else if (p.kind === K.ShorthandPropertyAssignment) values.push(p.name);
      else return undefined; // a spread, method or accessor: not written out as literals here
    }
    return this.foldedValues(values);
  }

  /** The constants (spec §1) of `nodes` in order; `undefined` when one is not a string, number, boolean or `null` (left out). */
  private foldedValues(nodes: Any[]): Written[] | undefined {
    const out: Written[] = [];
    for (const n of nodes) {
      if (n.kind === this.K.SpreadElement) return undefined;
      const f = this.foldNode(n);
      if ("error" in f || Array.isArray(f.value)) return undefined;
      if (f.value !== null) out.push(f.value as Exclude<ConstantValue, null | ConstantValue[]>);
    }
    return out;
  }

  /**
   * {@link collectMembers} of `(typeof KINDS)[number]` / `(typeof Kind)[keyof typeof Kind]`: its
   * literal members each in its own slot, in the declaration's order; `false` when `n` is not one.
   */
  private collectConstMembers(n: Any, out: { type: TypeRef; node?: TypeNodeRef; slot: number }[]): boolean {
    const written = this.constIndexedValues(n);
    const type = written ? this.typeFromTypeNode(n) : undefined;
    if (!written || !type) return false;
    const base = out.length === 0 ? 0 : out[out.length - 1]!.slot + 1;
    const members: TypeRef[] = type.flags & this.TF.Union ? this.typeMembers(type) : [type];
    const placed = members.map((m) => {
      const s = this.shape(m);
      const literal = s.kind === "stringLiteral" || s.kind === "numberLiteral" || s.kind === "booleanLiteral";
      const at = literal ? written.indexOf(s.value) : -1;
      // A literal takes the slot of its first element; anything else (an enum member) follows them, as one slot.
      return at < 0 ? { type: m, slot: base + written.length } : { type: m, node: n as TypeNodeRef, slot: base + at };
    });
    out.push(...placed.sort((a, b) => a.slot - b.slot));
    return true;
  }
}
