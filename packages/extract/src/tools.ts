/**
 * Tool assembly (spec §1, §3, §6): from the tool sites of a module and their signatures to
 * {@link ToolModel}s, plus diagnostics placed at the site, the parameter or the return type in
 * the tool's file. The steps all kinds share are `assemble.ts`.
 */
import { isValidToolName } from "@typed-mcp/model";
import type { Diagnostic, ParamModel, ResultModel, SourceLocation, ToolModel, ValueParam } from "@typed-mcp/model";
import type { ParamInfo, TypeHost, TypeNodeRef, TypeRef } from "./backend/host.js";
import { convertResult, convertTop, isObjectShaped, type ConvertContext } from "./convert.js";
import { defaultOutside, defaultValue } from "./defaults.js";
import {
  DeclarationContext,
  assembleParams,
  awaited,
  convertParam,
  isKnownNamed,
  namesOneOf,
  resolveSites,
  runtimeRole,
  type DiagnosticSink,
  type SiteSession,
} from "./assemble.js";
import type { Site } from "./sites.js";

/**
 * Resolves and builds every tool site of a module, in order (spec §1), yielding each tool as it
 * is built and reporting diagnostics to `sink`. A second tool with the same name in the file
 * (even one that failed to build) is OMCG0002 at its site and left out.
 */
export function* extractTools(
  session: SiteSession,
  file: string,
  sites: Site<"tool">[],
  at: (offset: number) => SourceLocation,
  sink: DiagnosticSink,
): Generator<ToolModel> {
  const seen = new Set<string>();
  for (const { site, sig } of resolveSites(session, sites, at, sink)) {
    const a = new DeclarationContext(session.host, file, site, sig, at, sink);
    const tool = buildTool(a, site);
    const name = tool?.name ?? site.options.name;
    if (name !== undefined) {
      if (seen.has(name)) {
        sink.add(
          "OMCG0002",
          a.siteLoc,
          `Two tools are named '${name}' in this file; give one a different name (@tool("other_name") or the quick path's first argument).`,
        );
        continue;
      }
      seen.add(name);
    }
    if (tool) yield tool;
  }
}

/** Builds one tool (spec §1, §3, §6); `undefined` when a diagnostic makes it unusable. */
function buildTool(a: DeclarationContext, site: Site<"tool">): ToolModel | undefined {
  const { host, sig } = a;
  // Name (spec §1).
  const name = site.options.name ?? a.defaultName() ?? "";
  if (!isValidToolName(name)) {
    a.report(
      "OMCG0001",
      a.at(site.offset),
      `The tool name '${name}' is not valid: use 1 to 128 characters from A–Z a–z 0–9 _ - . (set it with @tool("name") or the options' name).`,
    );
  }
  const description = a.description();
  a.checkOwnDoc(`Tool '${name}'`);

  // Parameters (spec §3).
  const listed = sig.params.filter((p) => runtimeRole(host, p) === undefined);
  const { params } = assembleParams<ParamModel>(a, {
    subject: (label) => `Parameter '${label}' of tool '${name}'`,
    form: (p, subject) =>
      p.rest
        ? {
            code: "OMCG0004",
            message: `${subject}: a rest parameter cannot be a tool parameter; take an array instead.`,
          }
        : p.pattern === "array"
          ? {
              code: "OMCG0004",
              message: `${subject}: an array destructuring pattern cannot be a tool parameter; name the parameter.`,
            }
          : undefined,
    tooMany: (role, subject) =>
      `${subject}: a tool takes at most one ${role === "context" ? "RequestContext" : "AbortSignal"} parameter; remove this one.`,
    value: (p, subject) =>
      p.pattern === "object" ? destructuredParam(a, p, subject, listed.length) : valueParam(a, p, subject),
  });

  // Result (spec §6).
  const result = buildResult(a, name);
  if (a.errors || !result) return undefined;
  // Key order as in the model's docs.
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    ...(site.options.annotations ? { annotations: site.options.annotations } : {}),
    ...(site.options.ui ? { ui: site.options.ui } : {}),
    ...(site.options.execution ? { execution: site.options.execution } : {}),
    ...(site.options.scopes ? { scopes: site.options.scopes } : {}),
    params,
    result,
    site: a.siteModel(),
    location: a.siteLoc,
  };
}

/** A named value parameter (spec §3): its type, requiredness, description and default. */
function valueParam(a: DeclarationContext, p: ParamInfo, subject: string): ValueParam | undefined {
  const c = convertParam(a, p, subject);
  for (const prob of c.ctx.problems) a.report(prob.code, prob.loc ?? p.loc, prob.message);
  if (!c.model || c.ctx.problems.length) return undefined;
  const vp: ValueParam = { role: "value", name: p.name!, type: c.model, required: !c.optional };
  if (c.description !== undefined) vp.description = c.description;
  const def = defaultValue(a.host, p.default, c.model);
  const outside = def === undefined ? undefined : defaultOutside(def, c.model);
  if (outside !== undefined) {
    a.report("OMCG0007", p.default?.loc ?? p.loc, outsideMessage(subject, outside));
    return undefined;
  }
  if (def !== undefined) vp.default = def;
  if (p.default?.kind === "null") vp.nullDefault = true;
  return vp;
}

/** A destructured object parameter (spec §3): allowed only as the only listed parameter. */
function destructuredParam(
  a: DeclarationContext,
  p: ParamInfo,
  subject: string,
  listed: number,
): ParamModel | undefined {
  if (listed > 1) {
    a.report(
      "OMCG0004",
      p.loc,
      `${subject}: a destructured object parameter must be the only listed parameter; name it, or merge the other parameters into its type.`,
    );
    return undefined;
  }
  const ctx = a.context("input", subject);
  const d = destructured(a.host, ctx, p);
  for (const prob of ctx.problems) a.report(prob.code, prob.loc ?? p.loc, prob.message);
  if (ctx.problems.length || !d) return undefined;
  for (const prob of d.bindingProblems) a.report(prob.code, prob.loc, prob.message);
  return d.param;
}

/** A problem of one element of a destructured parameter: a rest or computed key (OMCG0004), a default outside its constraints (OMCG0007). */
interface BindingProblem {
  code: "OMCG0004" | "OMCG0007";
  loc: SourceLocation;
  message: string;
}

/** OMCG0007 for a written default outside the parameter's own listed constraints (spec §3). */
function outsideMessage(subject: string, why: string): string {
  return `${subject}: the default is outside the parameter's own constraints (${why}); change the default or the constraint, since the listing would advertise a value the reader refuses.`;
}

function destructured(
  host: TypeHost,
  ctx: ConvertContext,
  p: ParamInfo,
): { param: ParamModel; bindingProblems: BindingProblem[] } | undefined {
  const bindingProblems: BindingProblem[] = [];
  for (const b of p.bindings ?? []) {
    if (b.rest)
      bindingProblems.push({
        code: "OMCG0004",
        loc: b.loc,
        message: `${ctx.subject}: a rest element in a destructured parameter is not supported; list the properties.`,
      });
    else if (b.key === undefined)
      bindingProblems.push({
        code: "OMCG0004",
        loc: b.loc,
        message: `${ctx.subject}: a computed key in a destructured parameter is not supported.`,
      });
  }
  // Spec §4a: a union is always a named parameter, never destructured (OMCG0004, before the union is read).
  const shape = host.shape(p.type);
  const members =
    shape.kind === "union"
      ? shape.members.filter((m) => !["undefined", "null", "void"].includes(host.shape(m).kind))
      : [];
  if (members.length > 1 && !members.every((m) => host.shape(m).kind === "booleanLiteral")) {
    ctx.problems.push({
      code: "OMCG0004",
      message: `${ctx.subject}: a destructured parameter cannot have a union type ('${host.text(p.type)}'); name the parameter (spec §4a: a union is always a property, never the whole input).`,
    });
    return undefined;
  }
  const r = convertTop(ctx, p.type, p.typeNode, "{…}");
  if (!r) return undefined;
  if (r.model.kind !== "object") {
    ctx.problems.push({
      code: "OMCG0004",
      message: `${ctx.subject}: a destructured parameter needs an object type with properties; got '${host.text(p.type)}'.`,
    });
    return undefined;
  }
  const properties: ValueParam[] = [];
  for (const prop of r.model.properties) {
    if (prop.readOnly) continue;
    const binding = p.bindings?.find((b) => b.key === prop.key);
    const vp: ValueParam = {
      role: "value",
      name: prop.name,
      key: prop.key,
      type: prop.type,
      required: prop.required && !binding?.default && !p.default,
    };
    if (prop.description !== undefined) vp.description = prop.description;
    const def = defaultValue(host, binding?.default, prop.type);
    const outside = def === undefined ? undefined : defaultOutside(def, prop.type);
    if (outside !== undefined)
      bindingProblems.push({
        code: "OMCG0007",
        loc: binding?.default?.loc ?? p.loc,
        message: outsideMessage(`${ctx.subject}: property '${prop.name}'`, outside),
      });
    if (def !== undefined) vp.default = def;
    if (binding?.default?.kind === "null") vp.nullDefault = true;
    properties.push(vp);
  }
  return { param: { role: "destructured", properties }, bindingProblems };
}

/** The result of a tool (spec §6): void, passthrough, text, structured or JSON. Problems are reported at the return type. */
function buildResult(a: DeclarationContext, name: string): ResultModel | undefined {
  const { host } = a;
  const declared = awaited(host, a.sig);
  const custom = withContentOf(host, declared.t, declared.node);
  if (custom) return customContentResult(a, name, custom);
  const { t, node } = declared;
  const s = host.shape(t);
  if (s.kind === "void" || s.kind === "undefined") return { kind: "void" };
  if (isPassthrough(host, t, node)) return { kind: "passthrough" };
  const members = s.kind === "union" ? s.members : [t];
  const kinds = members.map((m) => host.shape(m).kind);
  if (kinds.includes("string") && kinds.every((k) => k === "string" || k === "null")) return { kind: "text" };
  const ctx = a.context("output", `The return type of tool '${name}'`);
  const model = convertResult(ctx, t, node, "return");
  for (const p of ctx.problems) a.report(p.code, a.sig.returnLoc, p.message);
  if (!model || ctx.problems.length) return undefined;
  if (isObjectShaped(model)) return { kind: "structured", type: model, nullable: false };
  if (model.kind === "nullable" && isObjectShaped(model.inner))
    return { kind: "structured", type: model.inner, nullable: true };
  return { kind: "json", type: model };
}

/** `T` of a return type `WithContent<T>` (typed-mcp's), with its annotation node; `undefined` for any other type. */
function withContentOf(
  host: TypeHost,
  t: TypeRef,
  node: TypeNodeRef | undefined,
): { t: TypeRef; node: TypeNodeRef | undefined } | undefined {
  if (host.shape(t).kind !== "object") return undefined;
  const o = host.object(t);
  if (!o.named?.typedMcp || o.named.name !== "WithContent" || !o.typeArguments[0]) return undefined;
  const written = isKnownNamed(host.referenceNamed(node), ["WithContent"]);
  return { t: o.typeArguments[0], node: written ? host.childNode(node, 0) : undefined };
}

/**
 * A `WithContent<T>` result (docs/runtime.md "Custom text beside a typed result"): structured from
 * `T` as §6 writes it, with the tool's own content blocks; `T` must be object-shaped (OMCG0009).
 */
function customContentResult(
  a: DeclarationContext,
  name: string,
  value: { t: TypeRef; node: TypeNodeRef | undefined },
): ResultModel | undefined {
  const ctx = a.context("output", `The return type of tool '${name}'`);
  const model = convertResult(ctx, value.t, value.node, "return");
  for (const p of ctx.problems) a.report(p.code, a.sig.returnLoc, p.message);
  if (!model || ctx.problems.length) return undefined;
  const inner = model.kind === "nullable" ? model.inner : model;
  if (!isObjectShaped(inner)) {
    a.report(
      "OMCG0009",
      a.sig.returnLoc,
      `The return type of tool '${name}': WithContent<${a.host.text(value.t)}> needs an object-shaped value (an object, a record or map, or a discriminated union), whose outputSchema it keeps; for other values return the content blocks or a CallToolResult.`,
    );
    return undefined;
  }
  return { kind: "structured", type: inner, nullable: model.kind === "nullable", customContent: true };
}

const PASSTHROUGH = ["CallToolResult", "ContentBlock"];

/** `CallToolResult`, a `ContentBlock` or an array of them, as exported by typed-mcp (spec §6). */
function isPassthrough(host: TypeHost, t: TypeRef, node: TypeNodeRef | undefined): boolean {
  const written = (n: TypeNodeRef | undefined) => isKnownNamed(host.referenceNamed(n), PASSTHROUGH);
  if (node && (written(node) || written(host.childNode(node, "element")))) return true;
  if (namesOneOf(host, t, undefined, PASSTHROUGH)) return true;
  const el = host.shape(t).kind === "object" ? host.object(t).arrayElement : undefined;
  return !!el && namesOneOf(host, el, undefined, PASSTHROUGH);
}

/** Sorts diagnostics by file position. */
export function sortDiagnostics(d: Diagnostic[]): Diagnostic[] {
  return d.sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}
