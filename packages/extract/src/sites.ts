/**
 * The site finder (spec §1, §8): one walk of oxc's AST finds every tool, resource and prompt
 * declaration site of a module, purely syntactically.
 *
 * - generator path: `@tool(...)`, `@resource(...)`, `@prompt(...)` on class members, where the
 *   decorator is imported from `"typed-mcp"` (renamed imports and namespace imports honoured);
 * - quick path candidates: `x.tool(name, [options,] fn)`, `x.resource(uriOrTemplate, [options,] fn)`
 *   and `x.prompt(name, [options,] fn)` calls with 2–3 arguments. Whether `x` is typed-mcp's
 *   `McpServer` is left to the type backend.
 *
 * What each kind accepts (option keys, diagnostic code) is the table in `site-options.ts`;
 * the member rules (OMCG0008) are {@link memberProblems}. Nothing here touches TypeScript.
 */
import { Visitor } from "oxc-parser";
import type { ParsedModule } from "./parse.js";
import type { Argument, CallExpression, Class, ClassElement, Expression, Program } from "oxc-parser";
import {
  DECLARATIONS,
  isSiteKind,
  readDecoratorOptions,
  readQuickOptions,
  type OptionsOf,
  type SiteKind,
  type SiteProblem,
} from "./site-options.js";
import { constantOf, unwrap, type ConstantReader } from "./constants.js";

/** The parts every site has. */
interface SiteBase<K extends SiteKind> {
  what: K;
  options: OptionsOf[K];
  /** Problems that make the site unusable (OMCG0008) or its options invalid; quick sites' are reported only once the receiver is an `McpServer`. */
  problems: SiteProblem[];
  /** Where the site starts: the decorator, or the call (option diagnostics, ordering). */
  offset: number;
  /** Offset of the first argument or the option that set the URI / name (resource URI diagnostics); `offset` otherwise. */
  uriOffset: number;
  /** An option value needs the checker to fold it (constant folding, spec §1): the options are complete only after a scan with a folder. */
  foldPending?: true;
}

/** A decorated class member (`@tool(...)`, `@resource(...)`, `@prompt(...)`). */
interface MethodSite<K extends SiteKind = SiteKind> extends SiteBase<K> {
  kind: "method";
  /** Offset just after the `{` of the class body. */
  classBodyStart: number;
  /** The member's written name: an identifier, a string-literal key, `#name`; `""` when computed. */
  member: string;
  /** `[start, end)` of the member name. */
  memberSpan: [number, number];
  /** A `static` method (registered by `addTools(Class)`, spec §1). */
  static: boolean;
  /** `[start, end)` of the decorator (removed by the splice). */
  decorator: [number, number];
}

/** A `x.tool(...)` / `x.resource(...)` / `x.prompt(...)` call candidate. */
interface QuickSite<K extends SiteKind = SiteKind> extends SiteBase<K> {
  kind: "quick";
  /** The function argument (the backend reads its signature). */
  fn: QuickFn;
  /** `[start, end)` of the receiver expression `x` (the backend decides whether it is an `McpServer`). */
  receiver: [number, number];
  /** Offset of the closing `)`, and whether a comma precedes it after the last argument (the splice writes there). */
  callEnd: number;
  trailingComma: boolean;
}

/** A declaration site of kind `K` (distributes, so `what` narrows `options`). */
export type Site<K extends SiteKind = SiteKind> = K extends SiteKind ? MethodSite<K> | QuickSite<K> : never;

/** A resource or prompt declaration site (spec §8). */
export type ResourceSite = Site<"resource" | "prompt">;

/**
 * `@complete(prompt, argument)` on a class method (docs/resources.md "Completion hooks"): the
 * method completes `argument` of the prompt declared by the method `prompt` of the same class.
 * Matched against the prompt sites by `completions.ts` (extract), which reports OMCG0012.
 */
export interface CompletionSite {
  classBodyStart: number;
  /** The hook method's written name; `""` when computed. */
  member: string;
  static: boolean;
  decorator: [number, number];
  /** The prompt method's name and the argument, when written as string constants, each with its offset. */
  prompt: { value?: string; offset: number };
  argument: { value?: string; offset: number };
  /** The hook's parameters after the first (`value`): their names (`undefined` for a pattern or rest), in order. */
  given: Array<{ name?: string; offset: number }>;
  /** OMCG0008 (member rules) and OMCG0012 (arguments) problems found syntactically. */
  problems: SiteProblem[];
}

/** How a quick path's last argument names its function (spec §1): inline, an identifier, or other. */
type QuickFn =
  | { kind: "inline"; span: [number, number] }
  | { kind: "identifier"; name: string; span: [number, number] }
  | { kind: "other"; span: [number, number] };

/** Result of {@link scanModule}: the sites in source order, and oxc's syntax errors (OMCG0000, first offset and message). */
export interface SiteScan<K extends SiteKind = "tool"> {
  sites: Site<K>[];
  /** `@complete(prompt, argument)` on class methods (docs/resources.md "Completion hooks"), in source order. */
  completions: CompletionSite[];
  parseErrors: SiteProblem[];
  /** Some site's options need the checker's fold (spec §1): scan again with the session's `foldConstant`. */
  foldPending?: true;
}

/** Cheap filter: could the module declare resources or prompts? Without the words, no resource or prompt site is kept. */
function mayDeclareResources(code: string): boolean {
  return /\b(?:resource|prompt)\b/.test(code);
}

/**
 * Every declaration site of one module, all kinds, in source order (spec §1, §8), found in
 * one walk of `parsed` (the module's one oxc parse, {@link parseModule}). Resource and prompt
 * sites are kept only when {@link mayDeclareResources}. Never throws: syntax errors come back
 * in `parseErrors` (sites are still found in what oxc recovered). Option values that are not
 * literals are folded by `fold` (the session's `foldConstant`, spec §1); without it they are
 * left out and the scan is `foldPending`, for the caller to scan again with one.
 */
export function scanModule(code: string, parsed: ParsedModule, fold?: ConstantReader["fold"]): SiteScan<SiteKind> {
  const { program, parseErrors } = parsed;
  if (!program) return { sites: [], completions: [], parseErrors };
  const decorators = typedMcpDecorators(program);
  const sites: Site[] = [];
  const completions: CompletionSite[] = [];
  const visitClass = (cls: Class) => {
    for (const member of cls.body.body) {
      sites.push(...memberSites(cls, member, decorators, fold));
      completions.push(...completionSites(cls, member, decorators, fold));
    }
  };
  new Visitor({
    ClassDeclaration: visitClass,
    ClassExpression: visitClass,
    CallExpression(call) {
      const site = quickSite(code, call, fold);
      if (site) sites.push(site);
    },
  }).visit(program);
  sites.sort((a, b) => a.offset - b.offset);
  const resources = mayDeclareResources(code);
  const kept = resources ? sites : sites.filter((s) => s.what === "tool");
  completions.sort((a, b) => a.decorator[0] - b.decorator[0]);
  return { sites: kept, completions, parseErrors, ...(kept.some((s) => s.foldPending) && { foldPending: true }) };
}

/** How a decorator expression names a declaration kind: the local names and namespaces imported from `"typed-mcp"`. */
interface TypedMcpDecorators {
  /** Local name → kind (`import { tool as t }` → `t` → `tool`). */
  named: Map<string, SiteKind>;
  /** Local names of `complete` (`import { complete as c }` → `c`). */
  completes: Set<string>;
  /** Local names of `import * as ns`. */
  namespaces: Set<string>;
}

/** The value imports from `"typed-mcp"` that name a declaration kind. `import type` (whole or per specifier) is ignored. */
function typedMcpDecorators(program: Program): TypedMcpDecorators {
  const named = new Map<string, SiteKind>();
  const completes = new Set<string>();
  const namespaces = new Set<string>();
  for (const stmt of program.body) {
    if (stmt.type !== "ImportDeclaration" || stmt.source.value !== "typed-mcp" || stmt.importKind === "type") continue;
    for (const spec of stmt.specifiers) {
      if (spec.type === "ImportSpecifier" && spec.importKind !== "type") {
        const imported = spec.imported.type === "Literal" ? spec.imported.value : spec.imported.name;
        if (isSiteKind(imported)) named.set(spec.local.name, imported);
        else if (imported === "complete") completes.add(spec.local.name);
      } else if (spec.type === "ImportNamespaceSpecifier") {
        namespaces.add(spec.local.name);
      }
    }
  }
  return { named, completes, namespaces };
}

/** The kind a decorator's callee names (`tool`, `t` for a renamed import, `ns.tool`), if any. */
function decoratorKind(e: Expression, imports: TypedMcpDecorators): SiteKind | undefined {
  if (e.type === "Identifier") return imports.named.get(e.name);
  if (
    e.type === "MemberExpression" &&
    !e.computed &&
    e.object.type === "Identifier" &&
    imports.namespaces.has(e.object.name)
  ) {
    return isSiteKind(e.property.name) ? e.property.name : undefined;
  }
  return undefined;
}

/** The sites of the typed-mcp decorators on one class member. */
function memberSites(
  cls: Class,
  member: ClassElement,
  imports: TypedMcpDecorators,
  fold: ConstantReader["fold"],
): Site[] {
  if (member.type === "StaticBlock" || member.type === "TSIndexSignature") return [];
  const sites: Site[] = [];
  for (const dec of member.decorators) {
    const expr = unwrap(dec.expression);
    const isCall = expr.type === "CallExpression";
    const what = decoratorKind(isCall ? unwrap(expr.callee) : expr, imports);
    if (!what) continue;
    const problems = memberProblems(what, member);
    const reader: ConstantReader = { fold, pending: false };
    const read = readDecoratorOptions(what, isCall ? expr.arguments : [], problems, reader);
    const rules = DECLARATIONS[what];
    const assigned = (read.options as Record<string, unknown>)[rules.firstKey] !== undefined;
    if (rules.requiredMessage && !assigned && !problems.some((p) => p.code !== "OMCG0008")) {
      problems.push({ code: rules.code, offset: dec.start, message: rules.requiredMessage });
    }
    sites.push({
      kind: "method",
      what,
      classBodyStart: cls.body.start + 1,
      member: memberNameOf(member),
      memberSpan: [member.key.start, member.key.end],
      static: !!member.static,
      decorator: [dec.start, dec.end],
      options: read.options,
      problems,
      offset: dec.start,
      uriOffset: read.firstOffset ?? dec.start,
      ...(reader.pending && { foldPending: true }),
    } as Site);
  }
  return sites;
}

/** Whether a decorator's callee is typed-mcp's `complete` (`complete`, a renamed import, `ns.complete`). */
function isComplete(e: Expression, imports: TypedMcpDecorators): boolean {
  if (e.type === "Identifier") return imports.completes.has(e.name);
  return (
    e.type === "MemberExpression" &&
    !e.computed &&
    e.object.type === "Identifier" &&
    imports.namespaces.has(e.object.name) &&
    e.property.name === "complete"
  );
}

/**
 * The `@complete(prompt, argument)` decorators on one class member: the two string constants
 * and the hook's parameter names after the first; problems: the member rules (OMCG0008, as for
 * `@prompt`), arguments that are not two string constants, a hook without the `value`
 * parameter, and a given parameter that is a pattern or a rest (OMCG0012).
 */
function completionSites(
  cls: Class,
  member: ClassElement,
  imports: TypedMcpDecorators,
  fold: ConstantReader["fold"],
): CompletionSite[] {
  if (member.type === "StaticBlock" || member.type === "TSIndexSignature") return [];
  const out: CompletionSite[] = [];
  for (const dec of member.decorators) {
    const expr = unwrap(dec.expression);
    if (!isComplete(expr.type === "CallExpression" ? unwrap(expr.callee) : expr, imports)) continue;
    const problems = memberProblems("complete", member);
    const args = expr.type === "CallExpression" ? expr.arguments : [];
    const reader: ConstantReader = { fold, pending: false };
    const text = (i: number): { value?: string; offset: number } => {
      const arg = args[i];
      const c = arg && arg.type !== "SpreadElement" ? constantOf(unwrap(arg), reader) : undefined;
      return {
        ...(c && "value" in c && typeof c.value === "string" && { value: c.value }),
        offset: arg?.start ?? dec.start,
      };
    };
    const prompt = text(0);
    const argument = text(1);
    if (args.length !== 2 || prompt.value === undefined || argument.value === undefined) {
      problems.push({
        code: "OMCG0012",
        offset: dec.start,
        message:
          "@complete(prompt, argument): both must be string constants — the name of a @prompt method of this class and one of its parameters.",
      });
    }
    const params = member.type === "MethodDefinition" ? member.value.params : [];
    if (params.length === 0 && member.type === "MethodDefinition") {
      problems.push({
        code: "OMCG0012",
        offset: member.key.start,
        message: `@complete on '${memberNameOf(member)}': the first parameter receives the value being completed (value: string); declare it.`,
      });
    }
    const given = params.slice(1).map((p) => {
      const id = p.type === "AssignmentPattern" ? p.left : p;
      if (id.type === "Identifier") return { name: id.name, offset: p.start };
      problems.push({
        code: "OMCG0012",
        offset: p.start,
        message: `@complete on '${memberNameOf(member)}': a parameter after the first must be a plain name, one of the prompt's other arguments (it receives that argument's value as sent).`,
      });
      return { offset: p.start };
    });
    out.push({
      classBodyStart: cls.body.start + 1,
      member: memberNameOf(member),
      static: !!member.static,
      decorator: [dec.start, dec.end],
      prompt,
      argument,
      given,
      problems,
    });
  }
  return out;
}

type DecoratedMember = Exclude<ClassElement, { type: "StaticBlock" | "TSIndexSignature" }>;

/**
 * The OMCG0008 rules (spec §10): a declaration decorator may sit only on a public, non-accessor,
 * non-constructor method with a plain name and no type parameters of its own. One problem per
 * broken rule, at the member name.
 */
function memberProblems(what: SiteKind | "complete", member: DecoratedMember): SiteProblem[] {
  const problems: SiteProblem[] = [];
  const where = `'${memberNameOf(member) || "(computed)"}'`;
  const unsupported = (why: string) =>
    problems.push({ code: "OMCG0008", offset: member.key.start, message: `@${what} on ${where}: ${why}` });
  const key = member.key;
  if (member.type === "MethodDefinition" || member.type === "TSAbstractMethodDefinition") {
    if (member.kind === "get" || member.kind === "set")
      unsupported(`an accessor cannot be a ${what}; declare a method instead.`);
    else if (member.kind === "constructor") unsupported(`a constructor cannot be a ${what}.`);
    if (key.type === "PrivateIdentifier") unsupported(`a #private method cannot be a ${what}; make it public.`);
    else if (member.accessibility === "private" || member.accessibility === "protected")
      unsupported(`a ${member.accessibility} method cannot be a ${what}; make it public.`);
    else if (member.computed && !(key.type === "Literal" && typeof key.value === "string"))
      unsupported(`a method with a computed name cannot be a ${what}; give it a plain name.`);
    if (member.value.typeParameters) unsupported(typeParametersRule(what));
  } else if ((member.type === "AccessorProperty" || member.type === "TSAbstractAccessorProperty") && what === "tool") {
    // Deliberate exception, kept byte-identical: resources and prompts have always called an
    // `accessor` field "only methods can be …" (the next branch); tools name it an accessor.
    unsupported(`an accessor cannot be a ${what}; declare a method instead.`);
  } else {
    unsupported(`only methods can be ${what}s; declare a method instead.`);
  }
  return problems;
}

/** The OMCG0008 reason for a method with its own type parameters (also checked on the signature). */
export function typeParametersRule(what: SiteKind | "complete"): string {
  return `a method with its own type parameters cannot be a ${what}; remove the type parameters.`;
}

/** The written name of a class member: an identifier, a string-literal key, `#name`; else `""` (computed). */
function memberNameOf(member: DecoratedMember): string {
  const key = member.key;
  if (!member.computed && key.type === "Identifier") return key.name;
  if (key.type === "Literal" && typeof key.value === "string") return key.value;
  if (key.type === "PrivateIdentifier") return "#" + key.name;
  return "";
}

/** A quick-path candidate: `x.<kind>(first, [options,] fn)` with 2–3 arguments and no spread. */
function quickSite(code: string, call: CallExpression, fold: ConstantReader["fold"]): Site | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== "MemberExpression" || callee.computed || !isSiteKind(callee.property.name)) return undefined;
  const what = callee.property.name;
  const args = call.arguments;
  if (args.length < 2 || args.length > 3 || args.some((a) => a.type === "SpreadElement")) return undefined;
  const rules = DECLARATIONS[what];
  const problems: SiteProblem[] = [];
  const last = args[args.length - 1]!;
  const fn = quickFnOf(last);
  if (fn.kind === "other") {
    problems.push({
      code: "OMCG0004",
      offset: fn.span[0],
      message: `server.${what}: the last argument must be an arrow function, a function expression, or the name of a function declaration or const arrow function.`,
    });
  }
  const first = unwrap(args[0]!);
  const reader: ConstantReader = { fold, pending: false };
  const firstValue = constantOf(first, reader);
  const options = (args.length === 3 ? readQuickOptions(what, args[1]!, problems, reader) : {}) as Record<
    string,
    unknown
  >;
  if (firstValue && "value" in firstValue && typeof firstValue.value === "string") {
    options[rules.firstKey] = firstValue.value;
  } else if (firstValue) {
    problems.push({
      code: rules.code,
      offset: first.start,
      message: `server.${what}: the ${rules.firstLabel} must be a string constant (spec §1), so that it is known at build time${"error" in firstValue ? `; ${firstValue.error}` : ""}.`,
    });
  }
  const callEnd = call.end - 1;
  return {
    kind: "quick",
    what,
    callEnd,
    trailingComma: hasTrailingComma(code, last, callEnd),
    receiver: [callee.object.start, callee.object.end],
    fn,
    options,
    problems,
    offset: call.start,
    uriOffset: first.start,
    ...(reader.pending && { foldPending: true }),
  } as Site;
}

/** Classifies a quick path's function argument (parentheses and `!` looked through). */
function quickFnOf(arg: Argument): QuickFn {
  const fnArg = unwrap(arg);
  if (fnArg.type === "ArrowFunctionExpression" || fnArg.type === "FunctionExpression")
    return { kind: "inline", span: [fnArg.start, fnArg.end] };
  if (fnArg.type === "Identifier") return { kind: "identifier", name: fnArg.name, span: [fnArg.start, fnArg.end] };
  return { kind: "other", span: [fnArg.start, fnArg.end] };
}

/** Whether a comma (outside comments) follows the call's last argument before the closing `)` at `callEnd`. */
function hasTrailingComma(code: string, lastArg: Argument, callEnd: number): boolean {
  return code
    .slice(lastArg.end, callEnd)
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "")
    .includes(",");
}
