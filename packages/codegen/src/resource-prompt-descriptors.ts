/**
 * The descriptors of resources and prompts (spec §8): the listing entry, the reader of string
 * arguments (URI template variables or prompt arguments, read-strings.ts) and a result writer,
 * as one ES2022 object-literal expression per resource / prompt — the same shape as `generateTool`.
 *
 * @module
 */
import {
  assertNever,
  type PromptListing,
  type PromptModel,
  type ResourceListing,
  type ResourceTemplateListing,
  type ResourceModel,
  type StringParam,
  type StringParamModel,
  type TypeModel,
} from "@typed-mcp/model";
import { CodegenError, Lines, helperCall, Scope, assemble, str, type ImportRequest } from "./emit.js";
import { stringReader } from "./read-strings.js";

/** The listing entry types (spec §8), defined once in `@typed-mcp/model`. */
export type { PromptListing, ResourceListing, ResourceTemplateListing };

/**
 * The listing entry of a resource (fixed `uri`) or a template (`uriTemplate`), keys in spec §8
 * order; absent parts left out.
 *
 * @throws CodegenError when the model has neither or both of `uri` and `uriTemplate`.
 */
export function resourceListing(r: ResourceModel): ResourceListing | ResourceTemplateListing {
  if ((r.uri === undefined) === (r.uriTemplate === undefined))
    throw new CodegenError(`Resource '${r.name}' needs exactly one of uri and uriTemplate.`);
  const out: Record<string, unknown> = r.uri !== undefined ? { uri: r.uri } : { uriTemplate: r.uriTemplate };
  out.name = r.name;
  if (r.title !== undefined) out.title = r.title;
  if (r.description !== undefined) out.description = r.description;
  if (r.mimeType !== undefined) out.mimeType = r.mimeType;
  return out as unknown as ResourceListing | ResourceTemplateListing;
}

/**
 * The listing entry of a prompt, keys in spec §8 order. `arguments` lists the string
 * parameters in declaration order (left out when there are none); each argument writes
 * `required` always.
 */
export function promptListing(p: PromptModel): PromptListing {
  const out: PromptListing = { name: p.name };
  if (p.title !== undefined) out.title = p.title;
  if (p.description !== undefined) out.description = p.description;
  const args = p.params.filter((x): x is StringParam => x.role === "value");
  if (args.length > 0) {
    out.arguments = args.map((a) => ({
      name: a.name,
      ...(a.description !== undefined && { description: a.description }),
      required: a.required,
    }));
  }
  return out;
}

/**
 * Generates a JavaScript expression evaluating to a `GeneratedResource` (`typed-mcp/internal`):
 * `{ listing, read(a, ctx), write(value, uri), completions?, scopes?, template?, params?, member?, static? }` (`completions`:
 * see {@link completionValues}).
 *
 * - `read(a, ctx)`: `a` holds the template variables (already percent-decoded strings); returns
 *   the argument array, or the name of the first variable that does not parse (spec §8).
 * - `write(value, uri)`: the `ReadResourceResult` for the requested `uri`: a string as one text
 *   contents (`mimeType` the option's, else `text/plain`), a `Uint8Array` as one blob contents
 *   (`mimeType` the option's, else `application/octet-stream`), anything else passed to
 *   `__tmcp.resourceResult` (a `ReadResourceResult`, or contents — one or an array).
 *
 * @throws CodegenError when the model breaks the contract.
 */
export function generateResource(r: ResourceModel): { code: string; imports: ImportRequest[] } {
  const scope = new Scope();
  const listing = resourceListing(r);
  const read = stringReader(r.params, scope, false);
  const write = new Lines();
  switch (r.result.kind) {
    case "text":
      write.line(`return { contents: [{ uri, mimeType: ${str(r.mimeType ?? "text/plain")}, text: value }] };`);
      break;
    case "bytes":
      write.line(
        `return { contents: [{ uri, mimeType: ${str(r.mimeType ?? "application/octet-stream")}, blob: ${helperCall("toBase64", "value")} }] };`,
      );
      break;
    case "passthrough":
      write.line(`return ${helperCall("resourceResult", "value", "uri")};`);
      break;
    default:
      return assertNever(r.result);
  }
  // The variables in parameter order, for `typed-mcp/testing`'s positional reads.
  const params = r.params.flatMap((q) => (q.role === "value" ? [q.name] : []));
  return assemble(
    listing,
    read,
    "write(value, uri) {",
    write,
    r.site,
    scope,
    completionValues(r.params),
    r.scopes,
    undefined,
    { params },
    // A template carries its RFC 6570 matcher (docs/codegen.md "What a descriptor carries").
    r.uriTemplate !== undefined ? { template: "uriTemplate" } : undefined,
  );
}

/**
 * Generates a JavaScript expression evaluating to a `GeneratedPrompt` (`typed-mcp/internal`):
 * `{ listing, read(a, ctx), write(value), completions?, scopes?, member?, static? }` (`completions`: see
 * {@link completionValues}). `read` reads the prompt's
 * `arguments` (strings; unknown names refused after all parameters passed) and returns the
 * argument array or the name of the first invalid argument. `write` returns a `GetPromptResult`:
 * a string becomes one user text message, `PromptMessage[]` the messages, a `GetPromptResult`
 * is returned as is.
 *
 * @throws CodegenError when the model breaks the contract.
 */
export function generatePrompt(p: PromptModel): { code: string; imports: ImportRequest[] } {
  const scope = new Scope();
  const listing = promptListing(p);
  const read = stringReader(p.params, scope, true);
  const write = new Lines();
  switch (p.result.kind) {
    case "text":
      write.line(`return { messages: [{ role: "user", content: { type: "text", text: value } }] };`);
      break;
    case "messages":
      write.line(`return { messages: value };`);
      break;
    case "passthrough":
      write.line(`return value;`);
      break;
    default:
      return assertNever(p.result);
  }
  return assemble(listing, read, "write(value) {", write, p.site, scope, completionValues(p.params), p.scopes);
}

/**
 * The finite value sets of a resource's or prompt's string parameters, for `completion/complete`
 * (docs/resources.md, Completion): parameter name → the values in source order. A string enum or
 * a union of string literals gives its wire values; `boolean` gives `["true", "false"]`; `T | null`
 * is read as `T`. Parameters of any other type (`string`, `number`, `Int`, `bigint`, `Date`) have
 * no finite set and are left out. `undefined` when no parameter has one (the descriptor then has
 * no `completions` part).
 */
export function completionValues(params: StringParamModel[]): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  let any = false;
  for (const p of params) {
    if (p.role !== "value") continue;
    const t: TypeModel = p.type.kind === "nullable" ? p.type.inner : p.type;
    let values: string[] | undefined;
    if (t.kind === "boolean") values = ["true", "false"];
    else if (t.kind === "enum" && t.values.every((v) => typeof v === "string")) values = t.values as string[];
    if (values === undefined) continue;
    if (p.name === "__proto__")
      Object.defineProperty(out, p.name, { value: [...values], enumerable: true, configurable: true, writable: true });
    else out[p.name] = [...values];
    any = true;
  }
  return any ? out : undefined;
}
