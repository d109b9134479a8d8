/**
 * Tool assembly (spec §1, §3, §6): from a declaration site and its signature to a
 * {@link ToolModel}, plus diagnostics placed at the parameter (or return type) in the tool's file.
 */
import { assertNever, isValidToolName, toolNameFromMember } from "@typed-mcp/model";
import type { Diagnostic, DiagnosticCode, ParamModel, ResultModel, SourceLocation, ToolModel, ToolSite, TypeModel, ValueParam, DefaultValue } from "@typed-mcp/model";
import type { DefaultInfo, NamedInfo, ParamInfo, SignatureInfo, TypeHost, TypeNodeRef, TypeRef } from "./backend/host.js";
import { applyConstraints, convertResult, convertTop, convertType, docConstraints, isObjectShaped } from "./convert.js";
import type { ConvertContext } from "./convert.js";
import { docMainText, docParamText, docTagText, parseDocComment } from "./jsdoc.js";
import type { Site } from "./sites.js";

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

/**
 * Builds one tool. `at(offset)` maps an offset of the module to a location; `fnElsewhere` is set
 * when the function lives in another file (its diagnostics are then reported at the call).
 * Returns `undefined` when a diagnostic makes the tool unusable.
 */
export function buildTool(
  host: TypeHost,
  file: string,
  site: Site<"tool">,
  sig: SignatureInfo,
  at: (offset: number) => SourceLocation,
  sink: DiagnosticSink,
): ToolModel | undefined {
  let ok = true;
  const siteLoc = site.kind === "method" ? at(site.memberSpan[0]) : at(site.offset);
  const inFile = (loc: SourceLocation) => (loc.file === file ? loc : siteLoc);
  const report = (code: DiagnosticCode, loc: SourceLocation, message: string) => {
    ok = false;
    sink.add(code, inFile(loc), message);
  };

  // Name (spec §1).
  const name = site.options.name ?? (site.kind === "method" ? toolNameFromMember(site.member) : "");
  if (!isValidToolName(name)) {
    report(
      "OMCG0001",
      site.kind === "method" ? at(site.offset) : at(site.offset),
      `The tool name '${name}' is not valid: use 1 to 128 characters from A–Z a–z 0–9 _ - . (set it with @tool("name") or the options' name).`,
    );
  }
  if (site.kind === "method" && sig.hasTypeParameters) {
    report("OMCG0008", at(site.memberSpan[0]), `@tool on '${site.member}': a method with its own type parameters cannot be a tool; remove the type parameters.`);
  }

  const doc = sig.doc ? parseDocComment(sig.doc) : undefined;
  const description = site.options.description ?? docTagText(doc, "description") ?? docMainText(doc);

  // Parameters (spec §3).
  const params: ParamModel[] = [];
  let contexts = 0;
  let signals = 0;
  const listed = sig.params.filter((p) => !isRuntimeParam(host, p));
  for (const p of sig.params) {
    const label = p.name ?? (p.pattern === "object" ? "{…}" : "[…]");
    const subject = `Parameter '${label}' of tool '${name}'`;
    if (p.rest) {
      report("OMCG0004", p.loc, `${subject}: a rest parameter cannot be a tool parameter; take an array instead.`);
      continue;
    }
    if (p.pattern === "array") {
      report("OMCG0004", p.loc, `${subject}: an array destructuring pattern cannot be a tool parameter; name the parameter.`);
      continue;
    }
    const role = runtimeRole(host, p);
    if (role === "context") {
      if (++contexts > 1) report("OMCG0003", p.loc, `${subject}: a tool takes at most one RequestContext parameter; remove this one.`);
      params.push({ role: "context", name: p.name ?? "ctx" });
      continue;
    }
    if (role === "signal") {
      if (++signals > 1) report("OMCG0003", p.loc, `${subject}: a tool takes at most one AbortSignal parameter; remove this one.`);
      params.push({ role: "signal", name: p.name ?? "signal" });
      continue;
    }
    const ctx: ConvertContext = { host, mode: "input", subject, file, root: sink.root, problems: [], stack: [] };
    if (p.pattern === "object") {
      if (listed.length > 1) {
        report("OMCG0004", p.loc, `${subject}: a destructured object parameter must be the only listed parameter; name it, or merge the other parameters into its type.`);
        continue;
      }
      const d = destructured(host, ctx, p);
      for (const prob of ctx.problems) report(prob.code, p.loc, prob.message);
      if (ctx.problems.length === 0 && d) {
        params.push(d.param);
        for (const prob of d.bindingProblems) report("OMCG0004", prob.loc, prob.message);
      }
      continue;
    }
    const r = convertTop(ctx, p.type, p.typeNode, p.name!);
    const pdoc = p.doc ? parseDocComment(p.doc) : undefined;
    let model: TypeModel | undefined = r?.model;
    if (model) model = applyConstraints(ctx, p.name!, model, docConstraints(ctx, p.name!, pdoc), "JSDoc tag");
    for (const prob of ctx.problems) report(prob.code, p.loc, prob.message);
    if (!r || !model || ctx.problems.length) continue;
    const vp: ValueParam = { role: "value", name: p.name!, type: model, required: !(p.optional || r.includesUndefined || p.default) };
    const pd = docParamText(doc, p.name!) ?? docTagText(pdoc, "description") ?? docMainText(pdoc);
    if (pd !== undefined) vp.description = pd;
    const def = defaultValue(host, p.default, model);
    if (def !== undefined) vp.default = def;
    params.push(vp);
  }

  // Result (spec §6).
  const result = buildResult(host, file, sig, name, (code, message) => report(code, sig.returnLoc, message), sink.root);

  if (!ok || !result) return undefined;
  const siteModel: ToolSite =
    site.kind === "method"
      ? { kind: "method", member: site.member, static: site.static, classBodyStart: site.classBodyStart, decorator: site.decorator }
      : { kind: "quick", callEnd: site.callEnd, trailingComma: site.trailingComma };
  const tool: ToolModel = { name, params, result, site: siteModel, location: siteLoc };
  if (description !== undefined) tool.description = description;
  if (site.options.annotations) tool.annotations = site.options.annotations;
  if (site.options.ui) tool.ui = site.options.ui;
  // Key order as in the model's docs.
  return {
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.ui ? { ui: tool.ui } : {}),
    params: tool.params,
    result: tool.result,
    site: tool.site,
    location: tool.location,
  };
}

function stripUndefined(host: TypeHost, t: TypeRef): TypeRef[] {
  const s = host.shape(t);
  const members = s.kind === "union" ? s.members : [t];
  return members.filter((m) => {
    const k = host.shape(m).kind;
    return k !== "undefined" && k !== "null";
  });
}

function runtimeRole(host: TypeHost, p: ParamInfo): "context" | "signal" | undefined {
  if (p.pattern) return undefined;
  const members = stripUndefined(host, p.type);
  if (members.length !== 1) return undefined;
  const m = members[0]!;
  if (host.shape(m).kind !== "object") return undefined;
  const named = host.object(m).named;
  if (named?.name === "RequestContext" && named.typedMcp) return "context";
  if (named?.name === "AbortSignal" && named.builtin) return "signal";
  return undefined;
}

function isRuntimeParam(host: TypeHost, p: ParamInfo): boolean {
  return runtimeRole(host, p) !== undefined;
}

/** A destructured parameter: its type's properties become the tool's properties (spec §3). */
function destructured(
  host: TypeHost,
  ctx: ConvertContext,
  p: ParamInfo,
): { param: ParamModel; bindingProblems: { loc: SourceLocation; message: string }[] } | undefined {
  const bindingProblems: { loc: SourceLocation; message: string }[] = [];
  for (const b of p.bindings ?? []) {
    if (b.rest) bindingProblems.push({ loc: b.loc, message: `${ctx.subject}: a rest element in a destructured parameter is not supported; list the properties.` });
    else if (b.key === undefined) bindingProblems.push({ loc: b.loc, message: `${ctx.subject}: a computed key in a destructured parameter is not supported.` });
  }
  const r = convertTop(ctx, p.type, p.typeNode, "{…}");
  if (!r) return undefined;
  if (r.model.kind !== "object") {
    ctx.problems.push({ code: "OMCG0004", message: `${ctx.subject}: a destructured parameter needs an object type with properties; got '${host.text(p.type)}'.` });
    return undefined;
  }
  const properties: ValueParam[] = [];
  for (const prop of r.model.properties) {
    if (prop.readOnly) continue;
    const binding = p.bindings?.find((b) => b.key === prop.key);
    const vp: ValueParam = { role: "value", name: prop.name, key: prop.key, type: prop.type, required: prop.required && !binding?.default && !p.default };
    if (prop.description !== undefined) vp.description = prop.description;
    const def = defaultValue(host, binding?.default, prop.type);
    if (def !== undefined) vp.default = def;
    properties.push(vp);
  }
  return { param: { role: "destructured", properties }, bindingProblems };
}

/**
 * A default written as `default` (spec §3): string / number / negated number / boolean /
 * no-substitution template, an enum member (its wire value), or a `const` of such a literal type.
 */
function defaultValue(host: TypeHost, d: DefaultInfo | undefined, model: TypeModel): DefaultValue | undefined {
  if (!d) return undefined;
  if (d.kind === "const") return d.value;
  if (d.kind !== "type") return undefined;
  const s = host.shape(d.type);
  switch (s.kind) {
    case "stringLiteral":
    case "numberLiteral":
      return s.value;
    case "booleanLiteral":
      return s.value;
    case "enumLiteral": {
      if (typeof s.value === "string") return s.value;
      const inner = model.kind === "nullable" ? model.inner : model;
      if (inner.kind === "enum" && inner.numeric) {
        const i = inner.numeric.indexOf(s.value);
        return i >= 0 ? (inner.values[i] as string) : undefined;
      }
      const info = host.enumOf(d.type);
      return info?.members.find((m) => m.value === s.value)?.name;
    }
    case "string":
    case "number":
    case "bigint":
    case "boolean":
    case "null":
    case "undefined":
    case "void":
    case "any":
    case "unknown":
    case "never":
    case "symbol":
    case "nonPrimitive":
    case "bigintLiteral":
    case "union":
    case "intersection":
    case "object":
    case "typeParameter":
    case "other":
      return undefined;
    default:
      return assertNever(s);
  }
}

function buildResult(
  host: TypeHost,
  file: string,
  sig: SignatureInfo,
  name: string,
  report: (code: DiagnosticCode, message: string) => void,
  root: string | undefined,
): ResultModel | undefined {
  let t = sig.returnType;
  let node = sig.returnTypeNode;
  // Promise<T> is unwrapped.
  if (host.shape(t).kind === "object") {
    const o = host.object(t);
    if (o.named?.builtin && o.named.name === "Promise" && o.typeArguments[0]) {
      t = o.typeArguments[0];
      node = host.childNode(node, 0);
    }
  }
  const s = host.shape(t);
  if (s.kind === "void" || s.kind === "undefined") return { kind: "void" };
  if (isPassthrough(host, t, node)) return { kind: "passthrough" };
  const members = s.kind === "union" ? s.members : [t];
  const kinds = members.map((m) => host.shape(m).kind);
  if (kinds.includes("string") && kinds.every((k) => k === "string" || k === "null")) return { kind: "text" };
  const ctx: ConvertContext = { host, mode: "output", subject: `The return type of tool '${name}'`, file, root, problems: [], stack: [] };
  const model = convertResult(ctx, t, node, "return");
  for (const p of ctx.problems) report(p.code, p.message);
  if (!model || ctx.problems.length) return undefined;
  if (isObjectShaped(model)) return { kind: "structured", type: model, nullable: false };
  if (model.kind === "nullable" && isObjectShaped(model.inner)) return { kind: "structured", type: model.inner, nullable: true };
  return { kind: "json", type: model };
}

/** `CallToolResult`, a `ContentBlock` or an array of them, as exported by typed-mcp (spec §6). */
function isPassthrough(host: TypeHost, t: TypeRef, node: TypeNodeRef | undefined): boolean {
  const namedOk = (n: NamedInfo | undefined) => !!n && (n.name === "CallToolResult" || n.name === "ContentBlock") && (n.typedMcp || n.builtin);
  if (node && (namedOk(host.referenceNamed(node)) || namedOk(host.referenceNamed(host.childNode(node, "element"))))) return true;
  const isBlockOrResult = (x: TypeRef): boolean => {
    const alias = host.aliasNamed(x);
    if (alias && (alias.name === "CallToolResult" || alias.name === "ContentBlock") && (alias.typedMcp || alias.builtin)) return true;
    if (host.shape(x).kind === "object") {
      const n = host.object(x).named;
      if (n && (n.name === "CallToolResult" || n.name === "ContentBlock") && (n.typedMcp || n.builtin)) return true;
    }
    return false;
  };
  if (isBlockOrResult(t)) return true;
  if (host.shape(t).kind === "object") {
    const el = host.object(t).arrayElement;
    if (el && isBlockOrResult(el)) return true;
  }
  return false;
}

/** Sorts diagnostics by file position. */
export function sortDiagnostics(d: Diagnostic[]): Diagnostic[] {
  return d.sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}
