/**
 * The site finder for resources and prompts (spec §8), purely syntactic (oxc), alongside the
 * tool site finder in `sites.ts`:
 *
 * - generator path: `@resource("uri")`, `@resource({ uri, name, title, description, mimeType })`,
 *   `@prompt()`, `@prompt("name")`, `@prompt({ name, title, description })` on class members,
 *   where `resource` / `prompt` are imported from `"typed-mcp"` (renames and namespace imports
 *   honoured);
 * - quick path candidates: `x.resource(uriOrTemplate, [options,] fn)` and
 *   `x.prompt(name, [options,] fn)` with 2–3 arguments. Whether `x` is typed-mcp's `McpServer`
 *   is left to the type backend.
 *
 * Options must be literals. Option problems are OMCG0011 (resources) / OMCG0012 (prompts);
 * member problems (private, accessor, …) are OMCG0008, as for tools.
 */
import type { DiagnosticCode } from "@typed-mcp/model";
import {
  hasTrailingComma,
  literalString,
  memberNameOf,
  parseModule,
  quickFnOf,
  typedMcpImports,
  unwrap,
  walk,
  type AnyNode,
  type ParsedModule,
  type QuickFn,
  type SiteProblem,
} from "./sites.js";

/** What a resource/prompt site declares. */
export type ResourceKind = "resource" | "prompt";

/** Options read from the literals of a resource or prompt site. Only assigned keys are present. */
export interface ResourceOptions {
  /** Resource: the URI or URI template. */
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  /** Resource only. */
  mimeType?: string;
}

/** A decorated class member (`@resource(...)` / `@prompt(...)`). */
export interface ResourceMethodSite {
  kind: "method";
  what: ResourceKind;
  className: string | undefined;
  classBodyStart: number;
  member: string;
  memberSpan: [number, number];
  static: boolean;
  decorator: [number, number];
  options: ResourceOptions;
  problems: SiteProblem[];
  /** Offset of the decorator (option diagnostics, invalid names). */
  offset: number;
  /** Offset of the URI argument or `uri` option (template diagnostics); the decorator otherwise. */
  uriOffset: number;
}

/** A `x.resource(...)` / `x.prompt(...)` call candidate. */
export interface ResourceQuickSite {
  kind: "quick";
  what: ResourceKind;
  callSpan: [number, number];
  callEnd: number;
  trailingComma: boolean;
  receiver: [number, number];
  fn: QuickFn;
  options: ResourceOptions;
  problems: SiteProblem[];
  offset: number;
  uriOffset: number;
}

/** A resource or prompt declaration site. */
export type ResourceSite = ResourceMethodSite | ResourceQuickSite;

const RESOURCE_KEYS = ["uri", "name", "title", "description", "mimeType"];
const PROMPT_KEYS = ["name", "title", "description"];

/** Cheap filter: could the module declare resources or prompts? */
export function mayDeclareResources(code: string): boolean {
  return /\b(?:resource|prompt)\b/.test(code);
}

/**
 * Finds the resource and prompt sites of one module, in source order (spec §8). `parsed` is the
 * module's one oxc parse ({@link parseModule}), shared with the tool finder; parsed here when
 * absent. Never throws; a module that does not parse gives no sites (the tool finder reports its
 * syntax errors).
 */
export function findResourceSites(file: string, code: string, parsed?: ParsedModule): ResourceSite[] {
  if (!mayDeclareResources(code)) return [];
  const { program, parseErrors } = parsed ?? parseModule(file, code);
  if (!program || parseErrors.length) return [];

  const imports = typedMcpImports(program);
  const locals = new Map<string, ResourceKind>();
  for (const [local, imported] of imports.named) if (imported === "resource" || imported === "prompt") locals.set(local, imported);
  const namespaces = imports.namespaces;
  const kindOf = (e: AnyNode): ResourceKind | undefined => {
    if (e.type === "Identifier") return locals.get(e.name);
    if (e.type === "MemberExpression" && !e.computed && e.object.type === "Identifier" && namespaces.has(e.object.name)) {
      const n = e.property.name;
      return n === "resource" || n === "prompt" ? n : undefined;
    }
    return undefined;
  };

  const sites: ResourceSite[] = [];
  const visitClass = (cls: AnyNode): void => {
    const body = cls.body as AnyNode;
    for (const member of body.body as AnyNode[]) {
      for (const dec of (member.decorators ?? []) as AnyNode[]) {
        const expr = unwrap(dec.expression);
        const isCall = expr.type === "CallExpression";
        const what = kindOf(isCall ? unwrap(expr.callee) : expr);
        if (!what) continue;
        const problems: SiteProblem[] = [];
        const key = member.key as AnyNode | undefined;
        const memberName = memberNameOf(member);
        const unsupported = (why: string) =>
          problems.push({ code: "OMCG0008", offset: key?.start ?? member.start, message: `@${what} on '${memberName || "(computed)"}': ${why}` });
        if (member.type === "MethodDefinition" || member.type === "TSAbstractMethodDefinition") {
          if (member.kind === "get" || member.kind === "set") unsupported(`an accessor cannot be a ${what}; declare a method instead.`);
          else if (member.kind === "constructor") unsupported(`a constructor cannot be a ${what}.`);
          if (key?.type === "PrivateIdentifier") unsupported(`a #private method cannot be a ${what}; make it public.`);
          else if (member.accessibility === "private" || member.accessibility === "protected")
            unsupported(`a ${member.accessibility} method cannot be a ${what}; make it public.`);
          else if (member.computed && !(key?.type === "Literal" && typeof key.value === "string"))
            unsupported(`a method with a computed name cannot be a ${what}; give it a plain name.`);
          if (member.value?.typeParameters) unsupported(`a method with its own type parameters cannot be a ${what}; remove the type parameters.`);
        } else {
          unsupported(`only methods can be ${what}s; declare a method instead.`);
        }
        const args = isCall ? (expr.arguments as AnyNode[]) : [];
        const read = readResourceOptions(what, args, problems, `@${what}`, true);
        if (what === "resource" && read.options.uri === undefined && !problems.some((p) => p.code !== "OMCG0008")) {
          problems.push({ code: "OMCG0011", offset: dec.start, message: `@resource needs a URI: @resource("scheme://path/{var}") or @resource({ uri: "…" }).` });
        }
        sites.push({
          kind: "method",
          what,
          className: cls.id?.name,
          classBodyStart: body.start + 1,
          member: memberName,
          memberSpan: [key?.start ?? member.start, key?.end ?? member.end],
          static: !!member.static,
          decorator: [dec.start, dec.end],
          options: read.options,
          problems,
          offset: dec.start,
          uriOffset: read.uriOffset ?? dec.start,
        });
      }
    }
  };

  const visitCall = (call: AnyNode): void => {
    const callee = unwrap(call.callee);
    if (callee.type !== "MemberExpression" || callee.computed) return;
    const what = callee.property?.name;
    if (what !== "resource" && what !== "prompt") return;
    const args = call.arguments as AnyNode[];
    if (args.length < 2 || args.length > 3 || args.some((a) => a.type === "SpreadElement")) return;
    const diagnosticCode: DiagnosticCode = what === "resource" ? "OMCG0011" : "OMCG0012";
    const problems: SiteProblem[] = [];
    const fn = quickFnOf(args[args.length - 1]!);
    if (fn.kind === "other") {
      problems.push({
        code: "OMCG0004",
        offset: fn.span[0],
        message: `server.${what}: the last argument must be an arrow function, a function expression, or the name of a function declaration or const arrow function.`,
      });
    }
    const first = unwrap(args[0]!);
    const firstValue = literalString(first);
    const options: ResourceOptions = args.length === 3 ? readResourceOptions(what, [args[1]!], problems, `server.${what}`, false).options : {};
    if (firstValue === undefined) {
      problems.push({
        code: diagnosticCode,
        offset: first.start,
        message: `server.${what}: the ${what === "resource" ? "URI" : "prompt name"} must be a string literal (or a template literal without substitutions), so that it is known at build time.`,
      });
    } else if (what === "resource") options.uri = firstValue;
    else options.name = firstValue;
    const callEnd = call.end - 1;
    sites.push({
      kind: "quick",
      what,
      callSpan: [call.start, call.end],
      callEnd,
      trailingComma: hasTrailingComma(code, args[args.length - 1]!, callEnd),
      receiver: [callee.object.start, callee.object.end],
      fn,
      options,
      problems,
      offset: call.start,
      uriOffset: first.start,
    });
  };

  walk(program, (node) => {
    if (node.type === "ClassDeclaration" || node.type === "ClassExpression") visitClass(node);
    else if (node.type === "CallExpression") visitCall(node);
  });
  sites.sort((a, b) => a.offset - b.offset);
  return sites;
}

/**
 * Reads decorator arguments / quick-path options. `decorator`: a first string argument is the
 * URI (`@resource`) or the name (`@prompt`).
 */
function readResourceOptions(
  what: ResourceKind,
  args: AnyNode[],
  problems: SiteProblem[],
  label: string,
  decorator: boolean,
): { options: ResourceOptions; uriOffset?: number } {
  const code: DiagnosticCode = what === "resource" ? "OMCG0011" : "OMCG0012";
  const options: ResourceOptions = {};
  if (args.length === 0) return { options };
  if (args.length > 1) problems.push({ code, offset: args[1]!.start, message: `${label}: takes at most one argument.` });
  const arg = unwrap(args[0]!);
  const s = literalString(arg);
  if (s !== undefined && decorator) {
    if (what === "resource") options.uri = s;
    else options.name = s;
    return { options, uriOffset: arg.start };
  }
  if (arg.type !== "ObjectExpression") {
    problems.push({
      code,
      offset: arg.start,
      message: decorator
        ? `${label}: the argument must be a string literal (the ${what === "resource" ? "URI" : "prompt name"}) or an object literal of options, so that it can be read at build time.`
        : `${label}: the options must be an object literal, so that they can be read at build time.`,
    });
    return { options };
  }
  const allowed = (what === "resource" ? RESOURCE_KEYS : PROMPT_KEYS).filter((k) => decorator || (k !== "uri" && !(what === "prompt" && k === "name")));
  let uriOffset: number | undefined;
  for (const prop of arg.properties as AnyNode[]) {
    if (prop.type !== "Property" || prop.computed || prop.kind !== "init" || prop.method) {
      problems.push({ code, offset: prop.start, message: `${label}: options must be plain properties with literal values (no spread, computed keys or methods).` });
      continue;
    }
    const key: string = prop.key.type === "Identifier" ? prop.key.name : String(prop.key.value);
    if (!allowed.includes(key)) {
      problems.push({ code, offset: prop.key.start, message: `${label}: unknown option '${key}'; the options are ${allowed.join(", ")}.` });
      continue;
    }
    const value = unwrap(prop.value);
    const v = literalString(value);
    if (v === undefined) {
      problems.push({ code, offset: value.start, message: `${label}: option '${key}' must be a string literal, so that it can be read at build time.` });
      continue;
    }
    (options as Record<string, string>)[key] = v;
    if (key === "uri") uriOffset = value.start;
  }
  return { options, ...(uriOffset !== undefined && { uriOffset }) };
}
