/**
 * The shared algorithm's module session ({@link ModuleSession} + {@link TypeHost}): reading a tool
 * function's signature — parameters, destructuring, defaults (spec §3), return type, JSDoc — for
 * decorated methods and for quick-path `server.tool(...)` calls, whose receiver must be typed-mcp's
 * `McpServer` (docs/extraction.md, "Quick-path receiver"). Each backend's session extends it with
 * its API primitives only.
 */
import type {
  BindingInfo,
  DefaultInfo,
  ModuleSession,
  ParamInfo,
  QuickResolution,
  SignatureInfo,
  TypeHost,
} from "./host.js";
import type { Any } from "./primitives.js";
import { TypeFacts } from "./types.js";

/** A quick-path candidate as `sites.ts` finds it: the receiver's span and the function argument. */
type QuickSite = Parameters<ModuleSession["quickSites"]>[0][number];

/** A session of one module over one program; a backend's session supplies the API primitives. */
export abstract class SessionBase extends TypeFacts implements ModuleSession, TypeHost {
  /** The session is its own type host. */
  readonly host: TypeHost = this;

  /** {@link ModuleSession.methodSignature}: the method whose name spans `nameSpan`. */
  methodSignature(nameSpan: [number, number]): SignatureInfo | undefined {
    const node = this.findNode(
      nameSpan[0],
      nameSpan[1],
      (n) => n.kind === this.K.MethodDeclaration && this.start(n.name) === nameSpan[0],
    );
    return node ? this.signatureOf(node) : undefined;
  }

  /**
   * {@link ModuleSession.prefetchMethods}: the parameters (named by an identifier, `this` aside)
   * of the methods whose names span `nameSpans`, asked in one batch before their signatures are
   * read one by one.
   */
  prefetchMethods(nameSpans: [number, number][]): void {
    const K = this.K;
    const names = nameSpans.flatMap((span) =>
      this.parameterNames(
        this.findNode(span[0], span[1], (n) => n.kind === K.MethodDeclaration && this.start(n.name) === span[0]),
      ),
    );
    this.prefetchParameters(names);
  }

  /** {@link ModuleSession.quickSites}: the receivers' types in one batch (where the API batches), then each function. */
  quickSites(sites: QuickSite[]): QuickResolution[] {
    if (sites.length === 0) return [];
    const receivers = sites.map((s) =>
      this.findNode(s.receiver[0], s.receiver[1], (n) => this.start(n) === s.receiver[0] && n.end === s.receiver[1]),
    );
    const receiverType = this.typesAtEach(receivers);
    const fns = sites.map((s, i) => {
      const t = receivers[i] ? receiverType(i) : undefined;
      const named = t ? this.namedOf(t) : undefined;
      return !!named && named.name === "McpServer" && named.typedMcp ? this.quickFunction(s.fn) : null;
    });
    this.prefetchParameters(fns.flatMap((fn) => (fn && typeof fn !== "string" ? this.parameterNames(fn) : [])));
    return fns.map((fn) => {
      if (fn === null) return { isServer: false };
      if (typeof fn === "string") return { isServer: true, problem: fn };
      if (!fn) return { isServer: true, problem: "server.tool: the function argument could not be read." };
      return { isServer: true, signature: this.signatureOf(fn) };
    });
  }

  /** The identifiers naming a function node's parameters (`this` and binding patterns aside). */
  private parameterNames(fn: Any): Any[] {
    const K = this.K;
    return ((fn?.parameters ?? []) as Any[])
      .filter((p) => p.name.kind === K.Identifier && p.name.text !== "this")
      .map((p) => p.name);
  }

  /**
   * The function node of a quick-path call's function argument: inline, or an identifier bound to
   * a function declaration or a `const` arrow / function expression. A string is the OMCG0004 problem.
   */
  private quickFunction(fn: QuickSite["fn"]): Any {
    const K = this.K;
    if (fn.kind === "inline")
      return this.findNode(fn.span[0], fn.span[1], (n) => this.isFunctionExpression(n) && this.start(n) === fn.span[0]);
    if (fn.kind !== "identifier") return undefined;
    const sym = this.unaliased(this.symbolAtPosition(fn.span));
    const decl = this.resolve(sym?.valueDeclaration);
    if (decl?.kind === K.FunctionDeclaration) return decl;
    if (
      decl?.kind === K.VariableDeclaration &&
      decl.parent.flags & this.NF.Const &&
      decl.initializer &&
      this.isFunctionExpression(this.unparen(decl.initializer))
    )
      return this.unparen(decl.initializer);
    return `server.tool: '${this.sf.text.slice(fn.span[0], fn.span[1])}' must be bound to a function declaration or a const arrow function (or pass the function inline).`;
  }

  /** The signature of a function-like node; defaults that need the checker are typed in one batch. */
  protected signatureOf(node: Any): SignatureInfo | undefined {
    const K = this.K;
    const sig = this.signatureOfDeclaration(node);
    if (!sig) return undefined;
    const paramNodes = (node.parameters as Any[]).filter(
      (p) => !(p.name.kind === K.Identifier && p.name.text === "this"),
    );
    const symbols = this.signatureParameters(sig);
    const types = symbols.length ? this.typesOfSymbols(symbols) : [];
    const returnType = this.returnTypeOf(sig);
    // Defaults that need the checker (identifiers, enum members): typed after all parameters are
    // read; other non-literal defaults are folded as constants (spec §1, §3).
    const needType: Any[] = [];
    const defaultOf = (init: Any): DefaultInfo | undefined => {
      if (!init) return undefined;
      const loc = this.loc(init);
      const d = this.syntacticDefault(init);
      if (d?.kind === "other") return { ...(this.foldedDefault(init) ?? d), loc };
      if (d) return { ...d, loc };
      const e = this.unparen(init);
      needType.push(e);
      return { kind: "type", type: e as never, loc };
    };
    const params: ParamInfo[] = paramNodes.map((p, i) => this.paramInfo(p, types[i] ?? this.anyType(), defaultOf));
    if (needType.length) this.typeDefaults(params, needType);
    return {
      params,
      returnType: returnType as never,
      returnTypeNode: node.type as never,
      returnLoc: this.loc(node.type ?? node.name ?? node),
      doc: this.docOfFunction(node),
      hasTypeParameters: !!node.typeParameters?.length,
    };
  }

  /** Replaces the `{ kind: "type" }` defaults (holding their expression node) by the expressions' types. */
  private typeDefaults(params: ParamInfo[], nodes: Any[]): void {
    const resolved = this.typesAt(nodes);
    const byNode = new Map(nodes.map((n, i) => [n, resolved[i]]));
    const fix = (d: DefaultInfo | undefined): DefaultInfo | undefined => {
      if (d?.kind !== "type") return d;
      const t = byNode.get(d.type);
      // A literal or enum-member type decides (numeric enum members are written by name); a
      // `const` typed `string` (`const A = "a" + "b"`) is folded from its initializer (spec §1).
      const literal =
        t && ["stringLiteral", "numberLiteral", "booleanLiteral", "enumLiteral"].includes(this.shape(t as never).kind);
      const loc = d.loc;
      if (literal) return { kind: "type", type: t as never, loc };
      return { ...(this.foldedDefault(d.type) ?? (t ? { kind: "type", type: t as never } : { kind: "other" })), loc };
    };
    for (const p of params) {
      p.default = fix(p.default);
      if (p.bindings) for (const b of p.bindings) b.default = fix(b.default);
    }
  }

  /** A tool function's parameter (`type` from the signature), its defaults read by `defaultOf`. */
  private paramInfo(p: Any, type: Any, defaultOf: (init: Any) => DefaultInfo | undefined): ParamInfo {
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
        if (keyNode?.kind === K.Identifier || keyNode?.kind === K.StringLiteral || keyNode?.kind === K.NumericLiteral)
          key = keyNode.text;
        return {
          key: el.dotDotDotToken ? undefined : key,
          rest: !!el.dotDotDotToken,
          default: defaultOf(el.initializer),
          loc: this.loc(el),
        };
      });
    } else if (p.name.kind === K.ArrayBindingPattern) {
      info.pattern = "array";
    }
    return info;
  }
}
