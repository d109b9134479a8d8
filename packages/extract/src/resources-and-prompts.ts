/**
 * Resource and prompt assembly (spec §8): from the resource and prompt sites of a module and
 * their signatures to {@link ResourceModel}s / {@link PromptModel}s, with OMCG0011 / OMCG0012
 * diagnostics at the URI, the parameter or the return type in the declaring file. The steps all
 * kinds share are `assemble.ts`.
 */
import type {
  PromptModel,
  PromptResultModel,
  ResourceModel,
  ResourceResultModel,
  SourceLocation,
  StringParam,
  StringParamModel,
  TypeModel,
} from "@typed-mcp/model";
import type { ParamInfo, SignatureInfo, TypeHost, TypeNodeRef, TypeRef } from "./backend/host.js";
import {
  DeclarationContext,
  assembleParams,
  awaited,
  convertParam,
  namesOneOf,
  resolveSites,
  type DiagnosticSink,
  type SiteSession,
} from "./assemble.js";
import type { ResourceSite } from "./sites.js";
import type { Site } from "./sites.js";
import { checkTemplate, isTemplate } from "./uri-template.js";

/**
 * Resolves every resource/prompt site of a module and builds the models (spec §8), reporting
 * diagnostics to `sink`. Quick-path calls whose receiver is not typed-mcp's `McpServer` are
 * skipped silently. Two resources with the same URI (template) or two prompts with the same
 * name in one file are OMCG0011 / OMCG0012 at the second.
 */
export function extractResourcesAndPrompts(
  session: SiteSession,
  file: string,
  sites: ResourceSite[],
  at: (offset: number) => SourceLocation,
  sink: DiagnosticSink,
): { resources: ResourceModel[]; prompts: PromptModel[] } {
  const resources: ResourceModel[] = [];
  const prompts: PromptModel[] = [];
  for (const { site, sig } of resolveSites(session, sites, at, sink)) {
    const a = new DeclarationContext(session.host, file, site, sig, at, sink);
    if (site.what === "resource") {
      const r = buildResource(a, site);
      if (!r) continue;
      const key = r.uri ?? r.uriTemplate!;
      if (resources.some((x) => (x.uri ?? x.uriTemplate) === key)) {
        sink.add("OMCG0011", a.siteLoc, `Two resources have the URI '${key}' in this file; give one a different URI.`);
        continue;
      }
      resources.push(r);
    } else {
      const p = buildPrompt(a, site);
      if (!p) continue;
      if (prompts.some((x) => x.name === p.name)) {
        sink.add("OMCG0012", a.siteLoc, `Two prompts are named '${p.name}' in this file; give one a different name.`);
        continue;
      }
      prompts.push(p);
    }
  }
  return { resources, prompts };
}

/** Builds one resource (spec §8); `undefined` when a diagnostic (OMCG0011, or OMCG0003/0007 for the parameters) makes it unusable. */
function buildResource(a: DeclarationContext, site: Site<"resource">): ResourceModel | undefined {
  const { host, sig } = a;
  const uri = site.options.uri ?? "";
  const name = site.options.name ?? a.defaultName() ?? uri;
  const subject = `Resource '${name}'`;
  a.checkOwnDoc(subject);
  const uriAt = a.at(site.uriOffset);

  let variables: string[] = [];
  let uriOk = true;
  const template = isTemplate(uri);
  if (template) {
    const check = checkTemplate(uri);
    uriOk = check.ok;
    if (!check.ok) a.report("OMCG0011", uriAt, `${subject}: the URI template '${uri}' is not valid: ${check.message}.`);
    else variables = check.variables;
  } else if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) {
    uriOk = false;
    a.report(
      "OMCG0011",
      uriAt,
      `${subject}: the URI '${uri}' is not valid: it does not start with a URI scheme (\`scheme:\`).`,
    );
  }

  const params = stringParams(a, subject, "OMCG0011");
  // Variables and parameters are matched only against a valid URI (no cascade of follow-on errors).
  if (params && uriOk) {
    const listed = params.filter((p): p is StringParam => p.role === "value");
    for (const v of variables) {
      if (!listed.some((p) => p.name === v)) {
        a.report(
          "OMCG0011",
          uriAt,
          `${subject}: the template variable '${v}' has no parameter of that name; add a parameter '${v}'.`,
        );
      }
    }
    for (const p of listed) {
      if (!variables.includes(p.name)) {
        a.report(
          "OMCG0011",
          sig.params.find((x) => x.name === p.name)?.loc ?? a.siteLoc,
          template
            ? `${subject}: the parameter '${p.name}' is not a variable of the URI template '${uri}'; add '{${p.name}}' to the template or remove the parameter.`
            : `${subject}: the parameter '${p.name}' has no variable: the URI '${uri}' is fixed; make it a template ('{${p.name}}') or remove the parameter.`,
        );
      }
    }
  }

  const result = resourceResult(host, sig);
  if (!result) {
    a.report(
      "OMCG0011",
      sig.returnLoc,
      `${subject}: the return type '${host.text(sig.returnType)}' is not supported; return a string, a Uint8Array, a ReadResourceResult, or resource contents (one or an array).`,
    );
  }
  if (a.errors || !params || !result) return undefined;
  const description = a.description();
  return {
    ...(template ? { uriTemplate: uri } : { uri }),
    name,
    ...(site.options.title !== undefined && { title: site.options.title }),
    ...(description !== undefined && { description }),
    ...(site.options.mimeType !== undefined && { mimeType: site.options.mimeType }),
    ...(site.options.scopes !== undefined && { scopes: site.options.scopes }),
    params,
    result,
    site: a.siteModel(),
    location: a.siteLoc,
  };
}

/** Builds one prompt (spec §8); `undefined` when a diagnostic (OMCG0012, …) makes it unusable. */
function buildPrompt(a: DeclarationContext, site: Site<"prompt">): PromptModel | undefined {
  const { host, sig } = a;
  const name = site.options.name ?? a.defaultName() ?? "";
  const subject = `Prompt '${name}'`;
  a.checkOwnDoc(subject);
  if (name === "")
    a.report("OMCG0012", a.at(site.offset), 'A prompt needs a name: @prompt("name") or server.prompt("name", fn).');
  const params = stringParams(a, subject, "OMCG0012");
  const result = promptResult(host, sig);
  if (!result) {
    a.report(
      "OMCG0012",
      sig.returnLoc,
      `${subject}: the return type '${host.text(sig.returnType)}' is not supported; return a string, PromptMessage[] or a GetPromptResult.`,
    );
  }
  if (a.errors || !params || !result) return undefined;
  const description = a.description();
  return {
    name,
    ...(site.options.title !== undefined && { title: site.options.title }),
    ...(description !== undefined && { description }),
    ...(site.options.scopes !== undefined && { scopes: site.options.scopes }),
    params,
    result,
    site: a.siteModel(),
    location: a.siteLoc,
  };
}

const STRING_READ_KINDS = new Set(["string", "number", "integer", "boolean", "date"]);

/**
 * Whether a model is read from a string (spec §8): string, number, Int, bigint, boolean, Date, a
 * string enum, or a union of these (tried in the order written).
 */
function readFromString(m: TypeModel): boolean {
  if (STRING_READ_KINDS.has(m.kind)) return true;
  if (m.kind === "union") return m.discriminator === undefined && m.members.every(readFromString);
  return m.kind === "enum" && m.valueType === "string" && m.numeric === undefined;
}

/** The parameters of a resource or prompt (spec §8): each named and read from a string; `undefined` when any is not. */
function stringParams(
  a: DeclarationContext,
  subject: string,
  code: "OMCG0011" | "OMCG0012",
): StringParamModel[] | undefined {
  const { params, ok } = assembleParams<StringParam>(a, {
    subject: (label) => `${subject}, parameter '${label}'`,
    form: (p, who) =>
      p.rest || p.pattern
        ? {
            code,
            message: `${who}: ${p.rest ? "a rest parameter" : "a destructuring pattern"} cannot be read from a string; name the parameter and give it a string-readable type.`,
          }
        : undefined,
    tooMany: (role, who) =>
      `${who}: at most one ${role === "context" ? "RequestContext" : "AbortSignal"} parameter; remove this one.`,
    value: (p, who) => stringParam(a, p, who, code),
  });
  return ok ? params : undefined;
}

/** One named parameter read from a string (spec §8): required unless optional, defaulted or nullable. */
function stringParam(
  a: DeclarationContext,
  p: ParamInfo,
  who: string,
  code: "OMCG0011" | "OMCG0012",
): StringParam | undefined {
  const c = convertParam(a, p, who, true);
  const unresolved = c.ctx.problems.find((x) => x.unresolved);
  if (unresolved) {
    a.report(unresolved.code, p.loc, unresolved.message);
    return undefined;
  }
  const model = c.model;
  const inner = model?.kind === "nullable" ? model.inner : model;
  if (!model || !inner || !readFromString(inner) || c.ctx.problems.some((x) => x.code === "OMCG0005")) {
    a.report(
      code,
      p.loc,
      `${who}: the type '${a.host.text(p.type)}' is not read from a string; use string, number, Int, bigint, boolean, Date, a string enum / union of string literals, or a union of these.`,
    );
    return undefined;
  }
  if (c.ctx.problems.length) {
    for (const prob of c.ctx.problems) a.report(prob.code, prob.loc ?? p.loc, prob.message);
    return undefined;
  }
  if (inner.kind === "union" && inner.members.slice(0, -1).some((m) => m.kind === "string")) {
    // Spec §8: members are tried in the order written, and `string` takes every string.
    a.report(
      code,
      p.loc,
      `${who}: in '${a.host.text(p.type)}', \`string\` must come last: the members are tried in the order written and \`string\` takes every value; move it to the end.`,
    );
    return undefined;
  }
  const nullable = model.kind === "nullable";
  const sp: StringParam = { role: "value", name: p.name!, type: model, required: !(c.optional || nullable) };
  if (c.description !== undefined) sp.description = c.description;
  if (nullable && !c.optional) sp.absentAsNull = true;
  return sp;
}

/** Whether `t` (or its annotation `node`) names one of `names`, declared by typed-mcp or the SDK; a union when all its members do. */
function isNamed(host: TypeHost, t: TypeRef, node: TypeNodeRef | undefined, names: string[]): boolean {
  if (namesOneOf(host, t, node, names)) return true;
  const s = host.shape(t);
  // A union alias such as `ResourceContents = TextResourceContents | BlobResourceContents` expanded by the checker.
  return s.kind === "union" && s.members.every((m) => isNamed(host, m, undefined, names));
}

/** The element type of an array type `t`, with the annotation's element node. */
function arrayOf(
  host: TypeHost,
  t: TypeRef,
  node: TypeNodeRef | undefined,
): { t: TypeRef; node: TypeNodeRef | undefined } | undefined {
  if (host.shape(t).kind !== "object") return undefined;
  const el = host.object(t).arrayElement;
  return el ? { t: el, node: host.childNode(node, "element") } : undefined;
}

/** The SDK's resource contents types (spec §8). */
const CONTENTS = ["ResourceContents", "TextResourceContents", "BlobResourceContents"];

/** How a resource's awaited return value is written (spec §8); `undefined` when not supported. */
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

/** How a prompt's awaited return value is written (spec §8); `undefined` when not supported. */
function promptResult(host: TypeHost, sig: SignatureInfo): PromptResultModel | undefined {
  const { t, node } = awaited(host, sig);
  if (host.shape(t).kind === "string") return { kind: "text" };
  if (isNamed(host, t, node, ["GetPromptResult"])) return { kind: "passthrough" };
  const el = arrayOf(host, t, node);
  if (el && isNamed(host, el.t, el.node, ["PromptMessage"])) return { kind: "messages" };
  return undefined;
}
