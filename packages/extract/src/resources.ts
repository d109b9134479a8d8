/**
 * Resource and prompt assembly (spec §8): from a declaration site (`resource-sites.ts`) and its
 * signature to a {@link ResourceModel} / {@link PromptModel}, with OMCG0011 / OMCG0012
 * diagnostics at the URI, the parameter or the return type in the declaring file.
 */
import { toolNameFromMember } from "@typed-mcp/model";
import type {
  DeclarationSite,
  DiagnosticCode,
  PromptModel,
  PromptResultModel,
  ResourceModel,
  ResourceResultModel,
  SourceLocation,
  StringParam,
  StringParamModel,
  TypeModel,
} from "@typed-mcp/model";
import type { NamedInfo, ParamInfo, SignatureInfo, TypeHost, TypeNodeRef, TypeRef } from "./backend/host.js";
import { applyConstraints, convertTop, docConstraints, type ConvertContext } from "./convert.js";
import { docMainText, docParamText, docTagText, parseDocComment } from "./jsdoc.js";
import type { ResourceSite } from "./resource-sites.js";
import type { DiagnosticSink } from "./tools.js";
import { checkTemplate, isTemplate } from "./uri-template.js";

/**
 * Builds one resource (spec §8). `at(offset)` maps a module offset to a location. Returns
 * `undefined` when a diagnostic (OMCG0011, or OMCG0003/0007 for the parameters) makes it unusable.
 */
export function buildResource(
  host: TypeHost,
  file: string,
  site: ResourceSite,
  sig: SignatureInfo,
  at: (offset: number) => SourceLocation,
  sink: DiagnosticSink,
): ResourceModel | undefined {
  let ok = true;
  const siteLoc = site.kind === "method" ? at(site.memberSpan[0]) : at(site.offset);
  const report = (code: DiagnosticCode, loc: SourceLocation, message: string) => {
    ok = false;
    sink.add(code, loc.file === file ? loc : siteLoc, message);
  };
  const uri = site.options.uri ?? "";
  const name = site.options.name ?? defaultName(site) ?? uri;
  const subject = `Resource '${name}'`;

  let variables: string[] = [];
  let uriOk = true;
  const template = isTemplate(uri);
  if (template) {
    const check = checkTemplate(uri);
    uriOk = check.ok;
    if (!check.ok) report("OMCG0011", at(site.uriOffset), `${subject}: the URI template '${uri}' is not valid: ${check.message}.`);
    else variables = check.variables;
  } else if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) {
    uriOk = false;
    report("OMCG0011", at(site.uriOffset), `${subject}: the URI '${uri}' is not valid: it does not start with a URI scheme (\`scheme:\`).`);
  }

  const params = buildParams(host, file, sig, subject, "OMCG0011", report, sink.root);
  // Variables and parameters are matched only against a valid URI (no cascade of follow-on errors).
  if (params && uriOk) {
    const listed = params.filter((p): p is StringParam => p.role === "value");
    for (const v of variables) {
      if (!listed.some((p) => p.name === v)) {
        report("OMCG0011", at(site.uriOffset), `${subject}: the template variable '${v}' has no parameter of that name; add a parameter '${v}'.`);
      }
    }
    for (const p of listed) {
      if (!variables.includes(p.name)) {
        const loc = sig.params.find((x) => x.name === p.name)?.loc ?? siteLoc;
        report(
          "OMCG0011",
          loc,
          template
            ? `${subject}: the parameter '${p.name}' is not a variable of the URI template '${uri}'; add '{${p.name}}' to the template or remove the parameter.`
            : `${subject}: the parameter '${p.name}' has no variable: the URI '${uri}' is fixed; make it a template ('{${p.name}}') or remove the parameter.`,
        );
      }
    }
  }

  const result = resourceResult(host, sig);
  if (!result) {
    report(
      "OMCG0011",
      sig.returnLoc,
      `${subject}: the return type '${host.text(sig.returnType)}' is not supported; return a string, a Uint8Array, a ReadResourceResult, or resource contents (one or an array).`,
    );
  }
  if (!ok || !params || !result) return undefined;

  const doc = sig.doc ? parseDocComment(sig.doc) : undefined;
  const description = site.options.description ?? docTagText(doc, "description") ?? docMainText(doc);
  return {
    ...(template ? { uriTemplate: uri } : { uri }),
    name,
    ...(site.options.title !== undefined && { title: site.options.title }),
    ...(description !== undefined && { description }),
    ...(site.options.mimeType !== undefined && { mimeType: site.options.mimeType }),
    params,
    result,
    site: siteModel(site),
    location: siteLoc,
  };
}

/** Builds one prompt (spec §8); `undefined` when a diagnostic (OMCG0012, …) makes it unusable. */
export function buildPrompt(
  host: TypeHost,
  file: string,
  site: ResourceSite,
  sig: SignatureInfo,
  at: (offset: number) => SourceLocation,
  sink: DiagnosticSink,
): PromptModel | undefined {
  let ok = true;
  const siteLoc = site.kind === "method" ? at(site.memberSpan[0]) : at(site.offset);
  const report = (code: DiagnosticCode, loc: SourceLocation, message: string) => {
    ok = false;
    sink.add(code, loc.file === file ? loc : siteLoc, message);
  };
  const name = site.options.name ?? defaultName(site) ?? "";
  const subject = `Prompt '${name}'`;
  if (name === "") report("OMCG0012", at(site.offset), "A prompt needs a name: @prompt(\"name\") or server.prompt(\"name\", fn).");
  const params = buildParams(host, file, sig, subject, "OMCG0012", report, sink.root);
  const result = promptResult(host, sig);
  if (!result) {
    report(
      "OMCG0012",
      sig.returnLoc,
      `${subject}: the return type '${host.text(sig.returnType)}' is not supported; return a string, PromptMessage[] or a GetPromptResult.`,
    );
  }
  if (!ok || !params || !result) return undefined;
  const doc = sig.doc ? parseDocComment(sig.doc) : undefined;
  const description = site.options.description ?? docTagText(doc, "description") ?? docMainText(doc);
  return {
    name,
    ...(site.options.title !== undefined && { title: site.options.title }),
    ...(description !== undefined && { description }),
    params,
    result,
    site: siteModel(site),
    location: siteLoc,
  };
}

/** Name rule of §1 applied to §8: the method name (or the bound function's name) without `Async`, snake_case. */
function defaultName(site: ResourceSite): string | undefined {
  if (site.kind === "method") return toolNameFromMember(site.member);
  if (site.fn.kind === "identifier") return toolNameFromMember(site.fn.name);
  return undefined;
}

function siteModel(site: ResourceSite): DeclarationSite {
  return site.kind === "method"
    ? { kind: "method", member: site.member, static: site.static, classBodyStart: site.classBodyStart, decorator: site.decorator }
    : { kind: "quick", callEnd: site.callEnd, trailingComma: site.trailingComma };
}

const STRING_READ_KINDS = new Set(["string", "number", "integer", "boolean", "date"]);

/** Whether a model is read from a string (spec §8): string, number, Int, bigint, boolean, Date, a string enum. */
function readFromString(m: TypeModel): boolean {
  if (STRING_READ_KINDS.has(m.kind)) return true;
  return m.kind === "enum" && m.valueType === "string" && m.numeric === undefined;
}

function buildParams(
  host: TypeHost,
  file: string,
  sig: SignatureInfo,
  subject: string,
  code: "OMCG0011" | "OMCG0012",
  report: (code: DiagnosticCode, loc: SourceLocation, message: string) => void,
  root: string | undefined,
): StringParamModel[] | undefined {
  let ok = true;
  const fail = (c: DiagnosticCode, loc: SourceLocation, message: string) => {
    ok = false;
    report(c, loc, message);
  };
  const params: StringParamModel[] = [];
  let contexts = 0;
  let signals = 0;
  for (const p of sig.params) {
    const label = p.name ?? (p.pattern === "object" ? "{…}" : "[…]");
    const who = `${subject}, parameter '${label}'`;
    if (p.rest || p.pattern) {
      fail(code, p.loc, `${who}: ${p.rest ? "a rest parameter" : "a destructuring pattern"} cannot be read from a string; name the parameter and give it a string-readable type.`);
      continue;
    }
    const role = runtimeRole(host, p);
    if (role) {
      if ((role === "context" ? ++contexts : ++signals) > 1) fail("OMCG0003", p.loc, `${who}: at most one ${role === "context" ? "RequestContext" : "AbortSignal"} parameter; remove this one.`);
      params.push({ role, name: p.name! });
      continue;
    }
    const ctx: ConvertContext = { host, mode: "input", subject: who, file, root, problems: [], stack: [] };
    const r = convertTop(ctx, p.type, p.typeNode, p.name!);
    const pdoc = p.doc ? parseDocComment(p.doc) : undefined;
    let model = r?.model;
    if (model) model = applyConstraints(ctx, p.name!, model, docConstraints(ctx, p.name!, pdoc), "JSDoc tag");
    const inner = model?.kind === "nullable" ? model.inner : model;
    if (!r || !model || !inner || !readFromString(inner) || ctx.problems.some((x) => x.code === "OMCG0005")) {
      fail(
        code,
        p.loc,
        `${who}: the type '${host.text(p.type)}' is not read from a string; use string, number, Int, bigint, boolean, Date, or a string enum / union of string literals.`,
      );
      continue;
    }
    if (ctx.problems.length) {
      for (const prob of ctx.problems) fail(prob.code, p.loc, prob.message);
      continue;
    }
    const nullable = model.kind === "nullable";
    const optional = p.optional || r.includesUndefined || !!p.default;
    const sp: StringParam = { role: "value", name: p.name!, type: model, required: !(optional || nullable) };
    const doc = sig.doc ? parseDocComment(sig.doc) : undefined;
    const description = docParamText(doc, p.name!) ?? docTagText(pdoc, "description") ?? docMainText(pdoc);
    if (description !== undefined) sp.description = description;
    if (nullable && !optional) sp.absentAsNull = true;
    params.push(sp);
  }
  return ok ? params : undefined;
}

function runtimeRole(host: TypeHost, p: ParamInfo): "context" | "signal" | undefined {
  if (p.pattern) return undefined;
  const s = host.shape(p.type);
  const members = (s.kind === "union" ? s.members : [p.type]).filter((m) => {
    const k = host.shape(m).kind;
    return k !== "undefined" && k !== "null";
  });
  if (members.length !== 1 || host.shape(members[0]!).kind !== "object") return undefined;
  const named = host.object(members[0]!).named;
  if (named?.name === "RequestContext" && named.typedMcp) return "context";
  if (named?.name === "AbortSignal" && named.builtin) return "signal";
  return undefined;
}

/** The awaited return type and its annotation node (`Promise<T>` unwrapped). */
function awaited(host: TypeHost, sig: SignatureInfo): { t: TypeRef; node: TypeNodeRef | undefined } {
  let t = sig.returnType;
  let node = sig.returnTypeNode;
  if (host.shape(t).kind === "object") {
    const o = host.object(t);
    if (o.named?.builtin && o.named.name === "Promise" && o.typeArguments[0]) {
      t = o.typeArguments[0];
      node = host.childNode(node, 0);
    }
  }
  return { t, node };
}

/** Whether `t` (or its annotation `node`) names one of `names`, declared by typed-mcp or the SDK. */
function isNamed(host: TypeHost, t: TypeRef, node: TypeNodeRef | undefined, names: string[]): boolean {
  const fits = (n: NamedInfo | undefined) => !!n && names.includes(n.name) && (n.typedMcp || n.builtin);
  if (node && fits(host.referenceNamed(node))) return true;
  if (fits(host.aliasNamed(t))) return true;
  if (host.shape(t).kind === "object" && fits(host.object(t).named)) return true;
  const s = host.shape(t);
  // A union alias such as `ResourceContents = TextResourceContents | BlobResourceContents` expanded by the checker.
  if (s.kind === "union") return s.members.every((m) => isNamed(host, m, undefined, names));
  return false;
}

function arrayOf(host: TypeHost, t: TypeRef, node: TypeNodeRef | undefined): { t: TypeRef; node: TypeNodeRef | undefined } | undefined {
  if (host.shape(t).kind !== "object") return undefined;
  const el = host.object(t).arrayElement;
  return el ? { t: el, node: host.childNode(node, "element") } : undefined;
}

const CONTENTS = ["ResourceContents", "TextResourceContents", "BlobResourceContents"];

function resourceResult(host: TypeHost, sig: SignatureInfo): ResourceResultModel | undefined {
  const { t, node } = awaited(host, sig);
  const s = host.shape(t);
  if (s.kind === "string") return { kind: "text" };
  if (s.kind === "object") {
    const named = host.object(t).named;
    if (named?.builtin && named.name === "Uint8Array") return { kind: "bytes" };
  }
  if (isNamed(host, t, node, ["ReadResourceResult", ...CONTENTS])) return { kind: "passthrough" };
  const el = arrayOf(host, t, node);
  if (el && isNamed(host, el.t, el.node, CONTENTS)) return { kind: "passthrough" };
  return undefined;
}

function promptResult(host: TypeHost, sig: SignatureInfo): PromptResultModel | undefined {
  const { t, node } = awaited(host, sig);
  if (host.shape(t).kind === "string") return { kind: "text" };
  if (isNamed(host, t, node, ["GetPromptResult"])) return { kind: "passthrough" };
  const el = arrayOf(host, t, node);
  if (el && isNamed(host, el.t, el.node, ["PromptMessage"])) return { kind: "messages" };
  return undefined;
}

/** The parts of a backend session {@link extractResourcesAndPrompts} uses. */
interface SessionLike {
  host: TypeHost;
  methodSignature(nameSpan: [number, number]): SignatureInfo | undefined;
  quickSites(sites: { receiver: [number, number]; fn: { kind: string; span: [number, number] } }[]): { isServer: boolean; signature?: SignatureInfo; problem?: string }[];
}

/**
 * Resolves every resource/prompt site of a module and builds the models (spec §8), reporting
 * diagnostics to `sink`. Quick-path calls whose receiver is not typed-mcp's `McpServer` are
 * skipped silently. Two resources with the same URI (template) or two prompts with the same
 * name in one file are OMCG0011 / OMCG0012 at the second.
 */
export function extractResourcesAndPrompts(
  session: SessionLike,
  file: string,
  sites: ResourceSite[],
  at: (offset: number) => SourceLocation,
  sink: DiagnosticSink,
): { resources: ResourceModel[]; prompts: PromptModel[] } {
  const resources: ResourceModel[] = [];
  const prompts: PromptModel[] = [];
  const quick = sites.filter((s) => s.kind === "quick");
  const resolutions = session.quickSites(quick);
  for (const site of sites) {
    let sig: SignatureInfo | undefined;
    if (site.kind === "quick") {
      const res = resolutions[quick.indexOf(site)]!;
      if (!res.isServer) continue;
      for (const p of site.problems) sink.add(p.code, at(p.offset), p.message);
      if (res.problem) sink.add("OMCG0004", at(site.fn.span[0]), res.problem.replace(/^server\.tool/, `server.${site.what}`));
      if (site.problems.length || res.problem || !res.signature) continue;
      sig = res.signature;
    } else {
      for (const p of site.problems) sink.add(p.code, at(p.offset), p.message);
      if (site.problems.length) continue;
      sig = session.methodSignature(site.memberSpan);
      if (!sig) {
        sink.add("OMCG0008", at(site.memberSpan[0]), `@${site.what} on '${site.member}': the method's signature could not be read.`);
        continue;
      }
      if (sig.hasTypeParameters) {
        sink.add("OMCG0008", at(site.memberSpan[0]), `@${site.what} on '${site.member}': a method with its own type parameters cannot be a ${site.what}; remove the type parameters.`);
        continue;
      }
    }
    const where = site.kind === "method" ? at(site.memberSpan[0]) : at(site.offset);
    if (site.what === "resource") {
      const r = buildResource(session.host, file, site, sig, at, sink);
      if (!r) continue;
      const key = r.uri ?? r.uriTemplate!;
      if (resources.some((x) => (x.uri ?? x.uriTemplate) === key)) {
        sink.add("OMCG0011", where, `Two resources have the URI '${key}' in this file; give one a different URI.`);
        continue;
      }
      resources.push(r);
    } else {
      const p = buildPrompt(session.host, file, site, sig, at, sink);
      if (!p) continue;
      if (prompts.some((x) => x.name === p.name)) {
        sink.add("OMCG0012", where, `Two prompts are named '${p.name}' in this file; give one a different name.`);
        continue;
      }
      prompts.push(p);
    }
  }
  return { resources, prompts };
}
