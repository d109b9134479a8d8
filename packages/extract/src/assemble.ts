/**
 * What tools, resources and prompts share between a declaration site and its model (spec §1,
 * §3, §6, §8): resolving each site's signature, the diagnostics of one declaration, its doc
 * comment (parsed once per signature), parameter roles (`RequestContext` / `AbortSignal` /
 * value, at most one of each runtime role), `Promise` unwrapping and the site model. `tools.ts`
 * and `resources-and-prompts.ts` add only what their kinds do differently.
 */
import { toolNameFromMember } from "@typed-mcp/model";
import type { DeclarationSite, DiagnosticCode, SourceLocation, TypeModel } from "@typed-mcp/model";
import type {
  ModuleSession,
  NamedInfo,
  ParamInfo,
  SignatureInfo,
  TypeHost,
  TypeNodeRef,
  TypeRef,
} from "./backend/host.js";
import { convertTop, type ConvertContext } from "./convert.js";
import { applyConstraints, docConstraints } from "./convert-constraints.js";
import { functionDocProblems } from "./jsdoc-tags.js";
import { docMainText, docParamText, docTagText, parseDocComment, type DocComment } from "./jsdoc.js";
import { typeParametersRule, type Site } from "./sites.js";

/** Collects diagnostics for one module. */
export interface DiagnosticSink {
  /** Adds a diagnostic at `loc`. */
  add(code: DiagnosticCode, loc: SourceLocation, message: string): void;
  /**
   * The project root (the extractor's `cwd`): files named inside messages ("declared at …")
   * are written relative to it, as the CLI writes diagnostic locations. Absolute when absent.
   */
  readonly root?: string;
}

/** The parts of a backend session ({@link ModuleSession}) that site resolution uses. */
export type SiteSession = Pick<ModuleSession, "host" | "methodSignature" | "quickSites" | "prefetchMethods">;

/** A site whose signature was read, ready to assemble. */
export interface Resolved<S extends Site> {
  site: S;
  sig: SignatureInfo;
}

/**
 * Reads the signature of each site in order (spec §1 both paths, §8), lazily: one site at a time,
 * as the caller builds its model (the quick-path receivers are resolved in one batch up front).
 * Reports to `sink`: a quick site whose receiver is not typed-mcp's `McpServer` is skipped silently; otherwise its
 * problems and the backend's OMCG0004 (why the function cannot be read) are reported and block
 * it. A method site's problems are reported; OMCG0008 ones (for resources and prompts: any)
 * block reading its signature; an unreadable signature, or one with type parameters, is OMCG0008.
 */
export function* resolveSites<S extends Site>(
  session: SiteSession,
  sites: S[],
  at: (offset: number) => SourceLocation,
  sink: DiagnosticSink,
): Generator<Resolved<S>> {
  const quick = sites.filter((s): s is Extract<S, { kind: "quick" }> => s.kind === "quick");
  const resolutions = session.quickSites(quick);
  session.prefetchMethods?.(sites.flatMap((s) => (s.kind === "method" && !s.problems.length ? [s.memberSpan] : [])));
  let next = 0;
  for (const site of sites) {
    if (site.kind === "quick") {
      const res = resolutions[next++]!;
      if (!res.isServer) continue;
      for (const p of site.problems) sink.add(p.code, at(p.offset), p.message);
      if (res.problem)
        sink.add("OMCG0004", at(site.fn.span[0]), res.problem.replace(/^server\.tool/, `server.${site.what}`));
      if (site.problems.length || res.problem || !res.signature) continue;
      yield { site, sig: res.signature };
      continue;
    }
    for (const p of site.problems) sink.add(p.code, at(p.offset), p.message);
    // Deliberate, kept byte-identical: a tool with only option problems still has its signature
    // read (an unreadable one is reported too); a resource or prompt with any problem does not.
    if (site.what === "tool" ? site.problems.some((p) => p.code === "OMCG0008") : site.problems.length) continue;
    const sig = session.methodSignature(site.memberSpan);
    const where = `@${site.what} on '${site.member}'`;
    if (!sig) sink.add("OMCG0008", at(site.memberSpan[0]), `${where}: the method's signature could not be read.`);
    else if (site.problems.length) continue;
    // The site finder already rejects written type parameters; this guards a backend that sees more.
    else if (sig.hasTypeParameters)
      sink.add("OMCG0008", at(site.memberSpan[0]), `${where}: ${typeParametersRule(site.what)}`);
    else yield { site, sig };
  }
}

/**
 * The assembly of one declaration from its site and signature: where its diagnostics go, and
 * whether any was reported (then the declaration is unusable and no model is built).
 */
export class DeclarationContext {
  /** Where the declaration is: the member name, or the start of the quick-path call. */
  readonly siteLoc: SourceLocation;
  /** The declaration's doc comment, parsed once (spec §4 "Doc comments"). */
  readonly doc: DocComment | undefined;
  #errors = 0;

  /** `at(offset)` maps an offset of the module to a location. */
  constructor(
    readonly host: TypeHost,
    readonly file: string,
    readonly site: Site,
    readonly sig: SignatureInfo,
    readonly at: (offset: number) => SourceLocation,
    readonly sink: DiagnosticSink,
  ) {
    this.siteLoc = site.kind === "method" ? at(site.memberSpan[0]) : at(site.offset);
    this.doc = sig.doc ? parseDocComment(sig.doc) : undefined;
  }

  /** How many diagnostics {@link report} made so far (`0`: usable). */
  get errors(): number {
    return this.#errors;
  }

  /** Reports a diagnostic that makes the declaration unusable; a location in another file is moved to the site. */
  report(code: DiagnosticCode, loc: SourceLocation, message: string): void {
    this.#errors++;
    this.sink.add(code, loc.file === this.file ? loc : this.siteLoc, message);
  }

  /** Spec §1 "Description": the options' `description`, else the `@description` tag, else the main text. */
  description(): string | undefined {
    return this.site.options.description ?? docTagText(this.doc, "description") ?? docMainText(this.doc);
  }

  /**
   * Reports the tag problems of the declaration's own doc comment as OMCG0007 at the site (spec §4
   * "Validation tags": a typo is never silently ignored; a validation tag there applies to no
   * parameter), a `@default` / `@defaultValue` at the tag (spec §3). `subject` begins each message (`Tool 'add'`, `Resource 'r'`).
   */
  checkOwnDoc(subject: string): void {
    for (const m of functionDocProblems(this.doc))
      this.report("OMCG0007", m.loc ?? this.siteLoc, `${subject}: ${m.message}`);
  }

  /** Spec §1 "Name" default (§8 too): the method name, or the quick path's bound function name, without `Async`, snake_case. */
  defaultName(): string | undefined {
    if (this.site.kind === "method") return toolNameFromMember(this.site.member);
    if (this.site.fn.kind === "identifier") return toolNameFromMember(this.site.fn.name);
    return undefined;
  }

  /** The site as the splice needs it (model `ToolSite` / `DeclarationSite`). */
  siteModel(): DeclarationSite {
    const site = this.site;
    return site.kind === "method"
      ? {
          kind: "method",
          member: site.member,
          static: site.static,
          classBodyStart: site.classBodyStart,
          decorator: site.decorator,
        }
      : { kind: "quick", callEnd: site.callEnd, trailingComma: site.trailingComma };
  }

  /** A conversion context for a parameter (or the result) whose messages begin with `subject`. */
  context(mode: ConvertContext["mode"], subject: string): ConvertContext {
    return { host: this.host, mode, subject, file: this.file, root: this.sink.root, problems: [], stack: [] };
  }
}

/** A parameter the runtime fills (spec §3): `RequestContext` or `AbortSignal`. */
export type RuntimeParam = { role: "context" | "signal"; name: string };

/** What one declaration kind does with its parameters, for {@link assembleParams}. */
export interface ParamRules<P> {
  /** The subject of a parameter's messages, from its label (its name, `{…}` or `[…]`). */
  subject(label: string): string;
  /** A form the kind rules out before anything else (rest, patterns): its diagnostic, reported at the parameter. */
  form(p: ParamInfo, subject: string): { code: DiagnosticCode; message: string } | undefined;
  /** The OMCG0003 message for a second parameter of a runtime role. */
  tooMany(role: RuntimeParam["role"], subject: string): string;
  /** Builds any other parameter, reporting its own problems; `undefined` leaves it out. */
  value(p: ParamInfo, subject: string): P | undefined;
}

/**
 * Assembles the parameters of a signature in order (spec §3, §8): a ruled-out form is
 * reported; a `RequestContext` / `AbortSignal` parameter becomes its runtime role (a second
 * one of a role is OMCG0003); any other goes to `rules.value`. `ok` is false when any of them
 * reported a diagnostic.
 */
export function assembleParams<P>(
  a: DeclarationContext,
  rules: ParamRules<P>,
): { params: (P | RuntimeParam)[]; ok: boolean } {
  const before = a.errors;
  const counts = { context: 0, signal: 0 };
  const params: (P | RuntimeParam)[] = [];
  for (const p of a.sig.params) {
    const subject = rules.subject(p.name ?? (p.pattern === "object" ? "{…}" : "[…]"));
    const ruledOut = rules.form(p, subject);
    if (ruledOut) {
      a.report(ruledOut.code, p.loc, ruledOut.message);
      continue;
    }
    const role = runtimeRole(a.host, p);
    if (role) {
      if (++counts[role] > 1) a.report("OMCG0003", p.loc, rules.tooMany(role, subject));
      params.push({ role, name: p.name ?? (role === "context" ? "ctx" : "signal") });
      continue;
    }
    const value = rules.value(p, subject);
    if (value !== undefined) params.push(value);
  }
  return { params, ok: a.errors === before };
}

/** A named value parameter converted (spec §3, §4), with its inline JSDoc constraints applied. */
export interface ConvertedParam {
  /** The conversion's context: its `problems` are the parameter's. */
  ctx: ConvertContext;
  /** `undefined` when the type could not be converted. */
  model: TypeModel | undefined;
  /** Declared `?`, typed with `undefined`, or defaulted. */
  optional: boolean;
  /** `@param` of the declaration, else the parameter's own `@description` or main text (spec §3). */
  description: string | undefined;
}

/**
 * Converts the type of a named parameter `p` for an input (spec §3, §4); problems stay in
 * `ctx.problems`. `fromString`: read from a string (spec §8), see {@link ConvertContext.fromString}.
 */
export function convertParam(a: DeclarationContext, p: ParamInfo, subject: string, fromString = false): ConvertedParam {
  const name = p.name!;
  const ctx = a.context("input", subject);
  if (fromString) ctx.fromString = true;
  const r = convertTop(ctx, p.type, p.typeNode, name);
  const pdoc = p.doc ? parseDocComment(p.doc) : undefined;
  const model = r ? applyConstraints(ctx, name, r.model, docConstraints(ctx, name, pdoc), "JSDoc tag") : undefined;
  const description = docParamText(a.doc, name) ?? docTagText(pdoc, "description") ?? docMainText(pdoc);
  return { ctx, model, optional: p.optional || !!r?.includesUndefined || !!p.default, description };
}

/** The runtime role of a parameter whose type, without `undefined`/`null`, is typed-mcp's `RequestContext` or the built-in `AbortSignal`. */
export function runtimeRole(host: TypeHost, p: ParamInfo): RuntimeParam["role"] | undefined {
  if (p.pattern) return undefined;
  const members = withoutNullish(host, p.type);
  if (members.length !== 1 || host.shape(members[0]!).kind !== "object") return undefined;
  const named = host.object(members[0]!).named;
  if (named?.name === "RequestContext" && named.typedMcp) return "context";
  if (named?.name === "AbortSignal" && named.builtin) return "signal";
  return undefined;
}

/** The members of `t` (itself when not a union) other than `undefined` and `null`. */
function withoutNullish(host: TypeHost, t: TypeRef): TypeRef[] {
  const s = host.shape(t);
  return (s.kind === "union" ? s.members : [t]).filter((m) => {
    const k = host.shape(m).kind;
    return k !== "undefined" && k !== "null";
  });
}

/** The awaited return type of a signature and its annotation node: `Promise<T>` (the built-in) unwrapped to `T` (spec §6, §8). */
export function awaited(host: TypeHost, sig: SignatureInfo): { t: TypeRef; node: TypeNodeRef | undefined } {
  const t = sig.returnType;
  if (host.shape(t).kind === "object") {
    const o = host.object(t);
    if (o.named?.builtin && o.named.name === "Promise" && o.typeArguments[0])
      return { t: o.typeArguments[0], node: host.childNode(sig.returnTypeNode, 0) };
  }
  return { t, node: sig.returnTypeNode };
}

/** Whether a declaration is one of `names` and declared by typed-mcp or in a built-in / package `.d.ts` (the SDK's types; spec §6, §8). */
export function isKnownNamed(n: NamedInfo | undefined, names: string[]): boolean {
  return !!n && names.includes(n.name) && (n.typedMcp || n.builtin);
}

/** Whether `t` names one of `names` ({@link isKnownNamed}): through its annotation `node`'s reference, its type alias, or its object type's symbol. */
export function namesOneOf(host: TypeHost, t: TypeRef, node: TypeNodeRef | undefined, names: string[]): boolean {
  if (node && isKnownNamed(host.referenceNamed(node), names)) return true;
  if (isKnownNamed(host.aliasNamed(t), names)) return true;
  return host.shape(t).kind === "object" && isKnownNamed(host.object(t).named, names);
}
