/**
 * Syntax facts of the shared extraction algorithm: locations and attached JSDoc, finding nodes in
 * the module, default values readable from syntax (spec §3) and children of type annotations. The
 * order a union's members are written in is `written-order.ts`.
 */
import type { DefaultValue, SourceLocation } from "@typed-mcp/model";
import type { ConstantValue, DefaultInfo, EnumInfo, FoldResult, RawDoc, TypeNodeRef, TypeRef } from "./host.js";
import { ApiPrimitives, type Any } from "./primitives.js";
import { norm } from "./library.js";

/** How deep type aliases and literal unions are followed. */
export const MAX_DEPTH = 20;

/** How deeply nested a compile-time constant's expression (spec §1) may be (a `+` chain of that many lines). */
const MAX_FOLD_NESTING = 1000;

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

  /** The raw text of the last JSDoc block attached to a node (TypeScript's attachment rule) and where it starts. */
  protected lastDoc(node: Any): RawDoc | undefined {
    const docs = node?.jsDoc as Any[] | undefined;
    if (!docs || docs.length === 0) return undefined;
    const d = docs[docs.length - 1]!;
    const sf = d.getSourceFile();
    const lc = sf.getLineAndCharacterOfPosition(d.pos);
    const at = { file: norm(sf.fileName), line: lc.line + 1, column: lc.character + 1 };
    return { text: (sf.text as string).slice(d.pos, d.end), at };
  }

  /** The first JSDoc among the declarations of `sym` (a getter's may be on its setter). */
  protected firstDeclarationDoc(sym: Any): RawDoc | undefined {
    for (const d of this.declarations(sym)) {
      const doc = this.lastDoc(this.resolve(d));
      if (doc) return doc;
    }
    return undefined;
  }

  /** JSDoc of a tool function: its own, else its `const` statement's, else the enclosing call statement's. */
  protected docOfFunction(node: Any): RawDoc | undefined {
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

  /**
   * The declaration of the value a symbol names. A name can be a `const` and a type alias at once
   * (`const Color = {…} as const; type Color = (typeof Color)[keyof typeof Color]`), one merged
   * symbol whose first declaration may be either: a value is read from its value declaration.
   */
  protected valueDeclaration(sym: Any): Any {
    return sym.valueDeclaration ? this.resolve(sym.valueDeclaration) : this.firstDeclaration(sym);
  }

  /** The type alias declaration of a symbol (see {@link valueDeclaration}: it may be a `const` too), if it is a type alias. */
  protected typeAliasDeclaration(sym: Any): Any {
    if (!sym || !(sym.flags & this.SF.TypeAlias)) return undefined;
    for (const d of this.declarations(sym)) {
      const n = this.resolve(d);
      if (n?.kind === this.K.TypeAliasDeclaration) return n;
    }
    return undefined;
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
        if (e.operator === K.MinusToken && o.kind === K.NumericLiteral)
          return { kind: "const", value: -Number(o.text) };
        return { kind: "other" };
      }
      case K.Identifier:
      case K.PropertyAccessExpression:
        return undefined;
      default:
        return { kind: "other" };
    }
  }

  // ---- compile-time constants (spec §1) -------------------------------------------------------

  /**
   * {@link ModuleSession.foldConstant}: folds the expression spanning `span` of the module (spec
   * §1): literals, string-enum members, template literals of constants, `+` of constants,
   * parentheses, arrays of constants, and references to a `const` initialised with a constant,
   * followed through imports and re-exports by the checker's symbols. Anything else is an error
   * naming the expression. Bounded: at most {@link MAX_FOLD_DEPTH} steps of nesting and
   * references, and a declaration met twice ("refers to itself") stops.
   */
  foldConstant(span: [number, number]): FoldResult {
    const node = this.findNode(span[0], span[1], (n) => this.start(n) === span[0] && n.end === span[1]);
    return node ? this.foldNode(node) : { error: "the expression could not be read" };
  }

  /** {@link foldConstant} of an expression node (of any file of the program). */
  protected foldNode(node: Any): FoldResult {
    return this.fold(node, 0, 0, new Set());
  }

  /**
   * A default (spec §3) folded as §1 folds option values, when it is a string, number or boolean
   * constant (`"a" + B`, `` `v${N}` ``, a `const` of those) or an array of these (nested arrays
   * included, `as const` or not); `undefined` otherwise — `null` as an array element included.
   */
  protected foldedDefault(init: Any): DefaultInfo | undefined {
    const f = this.foldNode(init);
    if ("error" in f) return undefined;
    if (f.value === null) return { kind: "null" };
    return withoutNull(f.value) ? { kind: "const", value: f.value as DefaultValue } : undefined;
  }

  /** One step of {@link foldConstant} (constant folding: evaluating an expression of constants at build time). */
  private fold(n: Any, depth: number, hops: number, seen: Set<Any>): FoldResult {
    const K = this.K;
    const e = this.unparen(n);
    const text = (): string => {
      const t = String(e.getText(e.getSourceFile())).replace(/\s+/g, " ");
      return "`" + (t.length > 60 ? t.slice(0, 59) + "…" : t) + "`";
    };
    if (depth > MAX_FOLD_NESTING) return { error: `${text()} is nested more than ${MAX_FOLD_NESTING} deep` };
    switch (e.kind) {
      case K.StringLiteral:
      case K.NoSubstitutionTemplateLiteral:
        return { value: e.text };
      case K.NumericLiteral:
        return { value: Number(String(e.text).replace(/_/g, "")) };
      case K.TrueKeyword:
        return { value: true };
      case K.FalseKeyword:
        return { value: false };
      case K.NullKeyword:
        return { value: null };
      case K.PrefixUnaryExpression: {
        const o = this.fold(e.operand, depth + 1, hops, seen);
        if ("error" in o) return o;
        return e.operator === K.MinusToken && typeof o.value === "number"
          ? { value: -o.value }
          : { error: `${text()} is not a constant` };
      }
      case K.TemplateExpression: {
        let out = e.head.text as string;
        for (const part of e.templateSpans as Any[]) {
          const v = this.fold(part.expression, depth + 1, hops, seen);
          if ("error" in v) return v;
          if (typeof v.value === "object") return { error: `${text()} substitutes an array or null` };
          out += String(v.value) + part.literal.text;
        }
        return { value: out };
      }
      case K.BinaryExpression: {
        if (e.operatorToken.kind !== K.PlusToken) return { error: `${text()} is not a \`+\` of constants` };
        const l = this.fold(e.left, depth + 1, hops, seen);
        if ("error" in l) return l;
        const r = this.fold(e.right, depth + 1, hops, seen);
        if ("error" in r) return r;
        if (typeof l.value === "string" || typeof r.value === "string") {
          if (typeof l.value === "object" || typeof r.value === "object")
            return { error: `${text()} adds an array or null` };
          return { value: String(l.value) + String(r.value) };
        }
        if (typeof l.value === "number" && typeof r.value === "number") return { value: l.value + r.value };
        return { error: `${text()} is not a \`+\` of strings or numbers` };
      }
      case K.ArrayLiteralExpression: {
        const out: ConstantValue[] = [];
        for (const el of e.elements as Any[]) {
          const v = this.fold(el, depth + 1, hops, seen);
          if ("error" in v) return v;
          out.push(v.value);
        }
        return { value: out };
      }
      case K.Identifier:
      case K.PropertyAccessExpression:
        return this.foldReference(e, text(), depth + 1, hops + 1, seen);
      case K.CallExpression:
      case K.NewExpression:
        return { error: `${text()} is a function call, not a compile-time constant` };
      default:
        return { error: `${text()} is not a compile-time constant` };
    }
  }

  /** {@link fold} of a name: a `const` with a constant initialiser, or an enum member. `seen` holds the declarations on the current chain. */
  private foldReference(e: Any, text: string, depth: number, hops: number, seen: Set<Any>): FoldResult {
    const K = this.K;
    if (hops > MAX_DEPTH) return { error: `the chain of constants through ${text} is more than ${MAX_DEPTH} deep` };
    const sym = this.unaliased(this.symbolAt(e.kind === K.PropertyAccessExpression ? e.name : e));
    const decl = sym ? this.valueDeclaration(sym) : undefined;
    if (!decl) return { error: `${text} does not name a declaration TypeScript can resolve` };
    if (seen.has(decl)) return { error: `${text} refers to itself` };
    const isConst = decl.kind === K.VariableDeclaration && decl.parent?.flags & this.NF.Const;
    if (decl.kind === K.EnumMember || isConst) {
      if (!decl.initializer) {
        if (decl.kind === K.EnumMember) return this.autoEnumValue(decl, text, depth, hops, seen);
        return { error: `${text} has no initialiser` };
      }
      seen.add(decl);
      const folded = this.fold(decl.initializer, depth, hops, seen);
      seen.delete(decl);
      return folded;
    }
    if (decl.kind === K.VariableDeclaration) return { error: `${text} is a \`let\` or \`var\`, not a \`const\`` };
    if (e.kind === K.PropertyAccessExpression)
      return { error: `${text} is a property of an object, not a compile-time constant` };
    return { error: `${text} is not a \`const\` initialised with a constant` };
  }

  /**
   * The value TypeScript gives an enum member without an initializer: 0 for the first member,
   * else the previous member's value plus one when that is a number — found by walking back to
   * the nearest member with an initializer (folded like any member), without recursion.
   */
  private autoEnumValue(decl: Any, text: string, depth: number, hops: number, seen: Set<Any>): FoldResult {
    const members = decl.parent?.members as Any[] | undefined;
    let i = members ? members.indexOf(decl) : -1;
    if (i < 0) return { error: `${text} has no initialiser` };
    let steps = 0;
    while (i > 0 && !members![i - 1].initializer) {
      i--;
      steps++;
    }
    if (i === 0) return { value: steps };
    seen.add(decl);
    const base = this.fold(members![i - 1].initializer, depth + 1, hops + 1, seen);
    seen.delete(decl);
    if ("error" in base) return base;
    return typeof base.value === "number" ? { value: base.value + steps + 1 } : { error: `${text} has no initialiser` };
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
        (m) =>
          m.kind !== K.UndefinedKeyword &&
          m.kind !== K.NullKeyword &&
          !(m.kind === K.LiteralType && m.literal.kind === K.NullKeyword),
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
    const decl = this.typeAliasDeclaration(alias);
    if (!decl) return undefined;
    let n = decl.type as Any;
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      n = this.unparenType(n);
      if (n.kind !== K.TypeReference || n.typeArguments?.length) break;
      const sym = this.unaliased(this.symbolAt(n.typeName));
      const next = this.typeAliasDeclaration(sym);
      if (!next) break;
      n = next.type;
    }
    return n as never;
  }
}

/** Whether a folded constant holds no `null` (spec §3: `null` as an array element writes no default). */
function withoutNull(v: ConstantValue): boolean {
  return v !== null && (!Array.isArray(v) || v.every(withoutNull));
}
