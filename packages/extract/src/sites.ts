/**
 * The site finder (spec §1): finds tool declaration sites with oxc, purely syntactically.
 *
 * - generator path: `@tool(...)` on class members, where `tool` is imported from `"typed-mcp"`
 *   (renamed imports and namespace imports honoured);
 * - quick path candidates: `x.tool(name, [options,] fn)` calls with 2–3 arguments. Whether `x`
 *   is typed-mcp's `McpServer` is left to the type backend.
 *
 * Decorator and quick-path options must be literals; they are read here. Nothing in this module
 * touches TypeScript.
 */
import { parseSync } from "oxc-parser";
import type { AnnotationsModel, DiagnosticCode } from "@typed-mcp/model";

/** A problem found syntactically, reported at `offset` of the module text. */
export interface SiteProblem {
  code: DiagnosticCode;
  offset: number;
  message: string;
}

/** Tool options read from a literal (spec §1, §9). Only the keys the source assigns are present. */
export interface ToolOptions {
  name?: string;
  description?: string;
  annotations?: AnnotationsModel;
  ui?: { resourceUri: string; visibility?: ("model" | "app")[] };
}

/** A `@tool(...)` decorated class member. */
export interface MethodSiteInfo {
  kind: "method";
  /** The class name, if any (for messages). */
  className: string | undefined;
  /** Start offset of the class (groups tools per class for OMCG0002). */
  classStart: number;
  /** Offset just after the `{` of the class body. */
  classBodyStart: number;
  member: string;
  /** `[start, end)` of the member name. */
  memberSpan: [number, number];
  /** `[start, end)` of the whole member (method) declaration. */
  memberNodeSpan: [number, number];
  static: boolean;
  decorator: [number, number];
  options: ToolOptions;
  /** Problems that make the site unusable (OMCG0008) or its options invalid. */
  problems: SiteProblem[];
  /** Offset of the decorator (for option diagnostics). */
  offset: number;
}

/** A `x.tool(...)` call candidate. */
export interface QuickSiteInfo {
  kind: "quick";
  callSpan: [number, number];
  /** Offset of the closing `)`. */
  callEnd: number;
  trailingComma: boolean;
  /** `[start, end)` of the receiver expression `x`. */
  receiver: [number, number];
  /** The function argument: an inline function (span) or an identifier (span and name). */
  fn: QuickFn;
  options: ToolOptions;
  /** Problems, reported only once the receiver is confirmed to be an `McpServer`. */
  problems: SiteProblem[];
  offset: number;
}

export type SiteInfo = MethodSiteInfo | QuickSiteInfo;

/** Result of {@link findSites}. `parseErrors` are oxc's syntax errors (first offset and message). */
export interface SiteScan {
  sites: SiteInfo[];
  parseErrors: SiteProblem[];
}

/**
 * Cheap syntactic filter (no parsing): could this module declare tools? True when the text
 * mentions `typed-mcp` and contains a `@` (a decorator may be a renamed import), or contains
 * a `.tool(`, `.resource(` or `.prompt(` call (spec §8) (the quick path's receiver may be imported from a module that does not
 * mention typed-mcp).
 */
export function mayDeclareTools(code: string): boolean {
  return (code.includes("typed-mcp") && code.includes("@")) || /\.\s*(?:tool|resource|prompt)\s*\(/.test(code);
}

export type AnyNode = { type: string; start: number; end: number; [k: string]: any };

/** One oxc parse of a module, shared by the tool and the resource/prompt site finders. */
export interface ParsedModule {
  /** The ESTree program; `undefined` when oxc threw. */
  program: AnyNode | undefined;
  /** oxc's syntax errors (first label offset and message), OMCG0000. */
  parseErrors: SiteProblem[];
}

/**
 * Parses a module once with oxc (spec §1, §8: sites are found syntactically). `file` only
 * selects the dialect (`.tsx` → TSX, `.js`/`.jsx`/`.mjs`/`.cjs` → JSX, else TS). Never throws:
 * an oxc failure gives no program and one OMCG0000 problem at offset 0.
 */
export function parseModule(file: string, code: string): ParsedModule {
  const lang = /\.tsx$/i.test(file) ? "tsx" : /\.[cm]?jsx?$/i.test(file) ? "jsx" : "ts";
  let result;
  try {
    result = parseSync(file, code, { sourceType: "module", lang: lang as "ts" });
  } catch (e) {
    return { program: undefined, parseErrors: [{ code: "OMCG0000", offset: 0, message: `Could not parse the module: ${String(e)}` }] };
  }
  const parseErrors: SiteProblem[] = result.errors
    .filter((e) => e.severity === "Error")
    .map((e) => ({ code: "OMCG0000" as const, offset: e.labels[0]?.start ?? 0, message: `Syntax error: ${e.message}` }));
  return { program: result.program as unknown as AnyNode, parseErrors };
}

/**
 * The value imports from `"typed-mcp"` of a program: `named` maps each local name to the
 * imported name (`import { tool as t }` → `t` → `tool`); `namespaces` holds the local names of
 * `import * as ns`. `import type` (whole or per specifier) is ignored.
 */
export function typedMcpImports(program: AnyNode): { named: Map<string, string>; namespaces: Set<string> } {
  const named = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const stmt of program.body as AnyNode[]) {
    if (stmt.type !== "ImportDeclaration" || stmt.source?.value !== "typed-mcp" || stmt.importKind === "type") continue;
    for (const spec of stmt.specifiers as AnyNode[]) {
      if (spec.type === "ImportSpecifier" && spec.importKind !== "type") {
        named.set(spec.local.name, spec.imported.type === "Identifier" ? spec.imported.name : spec.imported.value);
      } else if (spec.type === "ImportNamespaceSpecifier") {
        namespaces.add(spec.local.name);
      }
    }
  }
  return { named, namespaces };
}

/** The written name of a class member: an identifier, a string-literal key, `#name`; else `""` (computed). */
export function memberNameOf(member: AnyNode): string {
  const key = member.key as AnyNode | undefined;
  if (key && !member.computed && key.type === "Identifier") return key.name;
  if (key && key.type === "Literal" && typeof key.value === "string") return key.value;
  if (key && key.type === "PrivateIdentifier") return "#" + key.name;
  return "";
}

/** How a quick path's last argument names its function (spec §1): inline, an identifier, or other. */
export type QuickFn =
  | { kind: "inline"; span: [number, number] }
  | { kind: "identifier"; name: string; span: [number, number] }
  | { kind: "other"; span: [number, number] };

/** Classifies a quick path's function argument (parentheses and `!` looked through). */
export function quickFnOf(arg: AnyNode): QuickFn {
  const fnArg = unwrap(arg);
  if (fnArg.type === "ArrowFunctionExpression" || fnArg.type === "FunctionExpression") return { kind: "inline", span: [fnArg.start, fnArg.end] };
  if (fnArg.type === "Identifier") return { kind: "identifier", name: fnArg.name, span: [fnArg.start, fnArg.end] };
  return { kind: "other", span: [fnArg.start, fnArg.end] };
}

/** Whether a comma (outside comments) follows the call's last argument before the closing `)` at `callEnd`. */
export function hasTrailingComma(code: string, lastArg: AnyNode, callEnd: number): boolean {
  return code.slice(lastArg.end, callEnd).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "").includes(",");
}

/**
 * Finds the tool declaration sites of one module (spec §1). `file` only selects the dialect
 * (`.tsx` → JSX). `parsed` is the module's one oxc parse ({@link parseModule}), shared with the
 * resource/prompt finder; parsed here when absent. Never throws: syntax errors come back in
 * `parseErrors`.
 */
export function findSites(file: string, code: string, parsed: ParsedModule = parseModule(file, code)): SiteScan {
  const { program, parseErrors } = parsed;
  if (!program) return { sites: [], parseErrors };

  // Local names of `tool` imported from typed-mcp, and namespace imports of typed-mcp.
  const imports = typedMcpImports(program);
  const toolLocals = new Set([...imports.named].filter(([, imported]) => imported === "tool").map(([local]) => local));
  const namespaces = imports.namespaces;

  const sites: SiteInfo[] = [];
  const isToolRef = (e: AnyNode): boolean =>
    (e.type === "Identifier" && toolLocals.has(e.name)) ||
    (e.type === "MemberExpression" && !e.computed && e.object.type === "Identifier" && namespaces.has(e.object.name) && e.property.name === "tool");

  const visitClass = (cls: AnyNode): void => {
    const body = cls.body as AnyNode;
    for (const member of body.body as AnyNode[]) {
      const decorators = (member.decorators ?? []) as AnyNode[];
      for (const dec of decorators) {
        const expr = unwrap(dec.expression);
        const isCall = expr.type === "CallExpression";
        const callee = isCall ? unwrap(expr.callee) : expr;
        if (!isToolRef(callee)) continue;
        const problems: SiteProblem[] = [];
        const key = member.key as AnyNode | undefined;
        const memberName = memberNameOf(member);
        const where = `'${memberName || "(computed)"}'`;
        const unsupported = (why: string) =>
          problems.push({ code: "OMCG0008", offset: key?.start ?? member.start, message: `@tool on ${where}: ${why}` });
        if (member.type === "MethodDefinition" || member.type === "TSAbstractMethodDefinition") {
          if (member.kind === "get" || member.kind === "set") unsupported("an accessor cannot be a tool; declare a method instead.");
          else if (member.kind === "constructor") unsupported("a constructor cannot be a tool.");
          if (key?.type === "PrivateIdentifier") unsupported("a #private method cannot be a tool; make it public.");
          else if (member.accessibility === "private" || member.accessibility === "protected")
            unsupported(`a ${member.accessibility} method cannot be a tool; make it public.`);
          else if (member.computed && !(key?.type === "Literal" && typeof key.value === "string"))
            unsupported("a method with a computed name cannot be a tool; give it a plain name.");
          if (member.value?.typeParameters) unsupported("a method with its own type parameters cannot be a tool; remove the type parameters.");
        } else if (member.type === "AccessorProperty" || member.type === "TSAbstractAccessorProperty") {
          unsupported("an accessor cannot be a tool; declare a method instead.");
        } else {
          unsupported("only methods can be tools; declare a method instead.");
        }
        const options = isCall ? readOptions(expr.arguments as AnyNode[], expr, problems, "@tool") : {};
        sites.push({
          kind: "method",
          className: cls.id?.name,
          classStart: cls.start,
          classBodyStart: body.start + 1,
          member: memberName,
          memberSpan: [key?.start ?? member.start, key?.end ?? member.end],
          memberNodeSpan: [member.start, member.end],
          static: !!member.static,
          decorator: [dec.start, dec.end],
          options,
          problems,
          offset: dec.start,
        });
      }
    }
  };

  const visitCall = (call: AnyNode): void => {
    const callee = unwrap(call.callee);
    if (callee.type !== "MemberExpression" || callee.computed || callee.property?.name !== "tool") return;
    const args = call.arguments as AnyNode[];
    if (args.length < 2 || args.length > 3 || args.some((a) => a.type === "SpreadElement")) return;
    const problems: SiteProblem[] = [];
    const fn = quickFnOf(args[args.length - 1]!);
    if (fn.kind === "other") {
      problems.push({
        code: "OMCG0004",
        offset: fn.span[0],
        message: "server.tool: the last argument must be an arrow function, a function expression, or the name of a function declaration or const arrow function.",
      });
    }
    const nameArg = unwrap(args[0]!);
    const name = literalString(nameArg);
    const options: ToolOptions =
      args.length === 3 ? readOptions([args[1]!], call, problems, "server.tool") : {};
    if (name === undefined) {
      problems.push({
        code: "OMCG0001",
        offset: nameArg.start,
        message: "server.tool: the tool name must be a string literal (or a template literal without substitutions), so that it is known at build time.",
      });
    } else {
      options.name = name;
    }
    const callEnd = call.end - 1;
    sites.push({
      kind: "quick",
      callSpan: [call.start, call.end],
      callEnd,
      trailingComma: hasTrailingComma(code, args[args.length - 1]!, callEnd),
      receiver: [callee.object.start, callee.object.end],
      fn,
      options,
      problems,
      offset: call.start,
    });
  };

  walk(program, (node) => {
    if (node.type === "ClassDeclaration" || node.type === "ClassExpression") visitClass(node);
    else if (node.type === "CallExpression") visitCall(node);
  });
  sites.sort((a, b) => a.offset - b.offset);
  return { sites, parseErrors };
}

const OPTION_KEYS = ["name", "description", "title", "readOnly", "destructive", "idempotent", "openWorld", "uiResource", "uiVisibility"];

function readOptions(args: AnyNode[], call: AnyNode, problems: SiteProblem[], what: string): ToolOptions {
  const options: ToolOptions = {};
  if (args.length === 0) return options;
  if (args.length > 1) {
    problems.push({ code: "OMCG0001", offset: args[1]!.start, message: `${what}: takes at most one argument (a name or an options object literal).` });
  }
  const arg = unwrap(args[0]!);
  const str = literalString(arg);
  if (str !== undefined && what === "@tool") {
    options.name = str;
    return options;
  }
  if (arg.type !== "ObjectExpression") {
    problems.push({
      code: "OMCG0001",
      offset: arg.start,
      message:
        what === "@tool"
          ? "@tool: the argument must be a string literal (the tool name) or an object literal of options, so that it can be read at build time."
          : "server.tool: the options must be an object literal, so that they can be read at build time.",
    });
    return options;
  }
  const ann: Record<string, string | boolean> = {};
  let visibility: ("model" | "app")[] | undefined;
  let resource: string | undefined;
  let resourceOffset = arg.start;
  for (const prop of arg.properties as AnyNode[]) {
    if (prop.type !== "Property" || prop.computed || prop.kind !== "init" || prop.method) {
      problems.push({ code: "OMCG0001", offset: prop.start, message: `${what}: options must be plain properties with literal values (no spread, computed keys or methods).` });
      continue;
    }
    const key: string = prop.key.type === "Identifier" ? prop.key.name : String(prop.key.value);
    const value = unwrap(prop.value);
    if (!OPTION_KEYS.includes(key)) {
      problems.push({ code: "OMCG0001", offset: prop.key.start, message: `${what}: unknown option '${key}'; the options are ${OPTION_KEYS.join(", ")}.` });
      continue;
    }
    const nonLiteral = (kind: string, code: DiagnosticCode = "OMCG0001") =>
      problems.push({ code, offset: value.start, message: `${what}: option '${key}' must be ${kind} literal, so that it can be read at build time.` });
    switch (key) {
      case "name":
      case "description":
      case "title": {
        const s = literalString(value);
        if (s === undefined) nonLiteral("a string");
        else if (key === "name") options.name = s;
        else if (key === "description") options.description = s;
        else ann.title = s;
        break;
      }
      case "readOnly":
      case "destructive":
      case "idempotent":
      case "openWorld": {
        if (value.type === "Literal" && typeof value.value === "boolean") ann[key] = value.value;
        else nonLiteral("a boolean");
        break;
      }
      case "uiResource": {
        const s = literalString(value);
        if (s === undefined) nonLiteral("a string", "OMCG0010");
        else {
          resource = s;
          resourceOffset = value.start;
          if (!s.startsWith("ui://")) problems.push({ code: "OMCG0010", offset: value.start, message: `${what}: uiResource '${s}' must be a ui:// URI.` });
        }
        break;
      }
      case "uiVisibility": {
        if (value.type !== "ArrayExpression") {
          nonLiteral("an array", "OMCG0010");
          break;
        }
        visibility = [];
        for (const el of value.elements as (AnyNode | null)[]) {
          const s = el ? literalString(unwrap(el)) : undefined;
          if (s === "model" || s === "app") visibility.push(s);
          else problems.push({ code: "OMCG0010", offset: el?.start ?? value.start, message: `${what}: uiVisibility entries must be the literals "model" or "app".` });
        }
        break;
      }
    }
  }
  const annotations: AnnotationsModel = {};
  if (ann.title !== undefined) annotations.title = ann.title as string;
  if (ann.readOnly !== undefined) annotations.readOnlyHint = ann.readOnly as boolean;
  if (ann.destructive !== undefined) annotations.destructiveHint = ann.destructive as boolean;
  if (ann.idempotent !== undefined) annotations.idempotentHint = ann.idempotent as boolean;
  if (ann.openWorld !== undefined) annotations.openWorldHint = ann.openWorld as boolean;
  if (Object.keys(annotations).length > 0) options.annotations = annotations;
  if (resource !== undefined) options.ui = visibility ? { resourceUri: resource, visibility } : { resourceUri: resource };
  else if (visibility) problems.push({ code: "OMCG0010", offset: resourceOffset, message: `${what}: uiVisibility needs a uiResource.` });
  return options;
}

/** A string literal or a template literal without substitutions; else `undefined`. */
export function literalString(node: AnyNode): string | undefined {
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0]?.value?.cooked ?? undefined;
  return undefined;
}

/** The expression inside parentheses and non-null assertions (`((x)!)` → `x`). */
export function unwrap(node: AnyNode): AnyNode {
  while (node && (node.type === "ParenthesizedExpression" || node.type === "TSNonNullExpression")) node = node.expression;
  return node;
}

/** Visits every ESTree node under `node` (itself included), parents before children, in source order. */
export function walk(node: unknown, visit: (n: AnyNode) => void): void {
  if (Array.isArray(node)) {
    for (const c of node) walk(c, visit);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const n = node as AnyNode;
  if (typeof n.type === "string") visit(n);
  for (const key in n) {
    if (key === "start" || key === "end" || key === "type" || key === "parent") continue;
    const v = n[key];
    if (v !== null && typeof v === "object") walk(v, visit);
  }
}
