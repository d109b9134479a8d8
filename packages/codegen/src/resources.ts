/**
 * Code generation for resources and prompts (spec §8): the listing entry, a reader of string
 * arguments (URI template variables or prompt arguments) and a result writer, as one ES2022
 * object-literal expression per resource / prompt — the same shape as `generateTool`.
 *
 * @module
 */
import { pathKey } from "typed-mcp/internal";
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
import { CodegenError, Lines, RUNTIME_ARGUMENT, helperCall, Scope, assemble, str, type ImportRequest } from "./emit.js";
import { readValue } from "./read.js";
import { failWith, fixed, listOr, oneOf, wrongType } from "./sentences.js";

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
 * `{ listing, read(a, ctx), write(value, uri), completions?, scopes?, member?, static? }` (`completions`:
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
  return assemble(listing, read, "write(value, uri) {", write, r.site, scope, completionValues(r.params), r.scopes);
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

/**
 * The body of `read(a, ctx)` for string arguments (spec §8): each listed parameter is looked
 * up as an own property of `a`; absent → the name when required, else `undefined` (or `null`
 * for a nullable parameter without a default); present → converted from the string by its
 * type and checked against its constraints (the same generated checks as tool readers).
 */
function stringReader(params: StringParamModel[], scope: Scope, refuseUnknown: boolean): Lines {
  const fail = (name: string, sentence: string) => failWith([{ text: pathKey(name, true) }], sentence);
  const out = new Lines();
  const c = { out, scope };
  out.line(`if (a === undefined || a === null) a = {};`);
  const args: string[] = [];
  const names: string[] = [];
  for (const p of params) {
    switch (p.role) {
      case "context":
      case "signal":
        args.push(RUNTIME_ARGUMENT[p.role]);
        continue;
      case "value":
        break;
      default:
        assertNever(p);
    }
    names.push(p.name);
    const s = scope.fresh("s");
    const v = scope.fresh("v");
    out.line(`const ${s} = Object.hasOwn(a, ${str(p.name)}) ? a[${str(p.name)}] : undefined;`);
    out.line(`let ${v};`);
    const absent = p.required
      ? fail(p.name, fixed("It is required."))
      : `${v} = ${p.absentAsNull ? "null" : "undefined"};`;
    out.open(`if (${s} === undefined) {`).line(absent).close("}");
    out.open("else {");
    const inner: TypeModel = p.type.kind === "nullable" ? p.type.inner : p.type;
    out.line(`if (typeof ${s} !== "string") ${fail(p.name, wrongType(["a string"], false, s))}`);
    if (inner.kind === "union") readUnionFromString(inner, s, v, p.name, c);
    else out.line(`${v} = ${readMember(inner, s, p.name, c, true)};`);
    out.close("}");
    args.push(v);
  }
  if (refuseUnknown) {
    const k = scope.fresh("k");
    const known = names.map((n) => `${k} !== ${str(n)}`).join(" && ");
    out.open(`for (const ${k} in a) {`);
    const unknown = failWith(
      [{ expr: helperCall("pathKey", k, "true") }],
      fixed("It is not an argument of this prompt."),
    );
    out.line(`if (Object.hasOwn(a, ${k})${known ? ` && ${known}` : ""}) ${unknown}`);
    out.close("}");
  }
  out.line(`return [${args.join(", ")}];`);
  return out;
}

/**
 * Reads the string `s` as a value of `t` (not a union): converted by its grammar, then checked as
 * a tool reader checks it. With `refuse`, a string the grammar does not take fails here; without,
 * the caller has already tested the grammar ({@link grammarTest}).
 */
function readMember(t: TypeModel, s: string, name: string, c: { out: Lines; scope: Scope }, refuse: boolean): string {
  if (t.kind === "integer" && t.bigint) {
    // A bigint read from a string keeps every digit: no detour through a number (spec §8).
    const n = c.scope.fresh("n");
    c.out.line(`const ${n} = ${helperCall("bigintFromString", s)};`);
    const k = t.constraints ?? {};
    if (refuse)
      c.out.line(`if (${n} === undefined) ${failWith([{ text: pathKey(name, true) }], fixed("Expected an integer."))}`);
    if (k.minimum !== undefined)
      c.out.line(
        `if (${n} < ${k.minimum}) ${failWith([{ text: pathKey(name, true) }], fixed(`Expected an integer of at least ${k.minimum}.`))}`,
      );
    if (k.maximum !== undefined)
      c.out.line(
        `if (${n} > ${k.maximum}) ${failWith([{ text: pathKey(name, true) }], fixed(`Expected an integer of at most ${k.maximum}.`))}`,
      );
    return n;
  }
  const x = fromString(t, s, name, c);
  return readValue(t, x, [{ text: pathKey(name, true) }], c);
}

/**
 * The string grammar of a union member (spec §8): `test`, code testing that the string `s` is in
 * it; `name`, what it takes, for the union's sentence (`an integer`, `one of "latest"`).
 *
 * @throws CodegenError for a kind that is not read from a string.
 */
function grammar(t: TypeModel, s: string): { test: string; name: string } {
  switch (t.kind) {
    case "integer":
      return {
        test: `${helperCall(t.bigint ? "bigintFromString" : "integerFromString", s)} !== undefined`,
        name: "an integer",
      };
    case "number":
      return { test: `${helperCall("numberFromString", s)} !== undefined`, name: "a number" };
    case "boolean":
      return { test: `(${s} === "true" || ${s} === "false")`, name: "true or false" };
    case "date":
      return { test: `${helperCall("readDateTime", s)} !== undefined`, name: "an RFC 3339 date-time" };
    case "enum":
      return {
        test: `(${t.values.map((v) => `${s} === ${str(String(v))}`).join(" || ")})`,
        name: oneOf(t.values).slice("Expected ".length, -1),
      };
    case "string":
      return { test: "true", name: "a string" };
    case "url":
    case "bytes":
    case "array":
    case "tuple":
    case "record":
    case "object":
    case "nullable":
    case "union":
      throw new CodegenError(`A ${t.kind} is not read from a string (spec §8).`);
    default:
      return assertNever(t);
  }
}

/**
 * A union read from a string (spec §8): the grammar of each member is tried in the order
 * written; the first that takes the string reads it (`string`, which takes everything, is last:
 * extraction refuses it elsewhere). None: `Expected an integer or one of "latest".`.
 */
function readUnionFromString(
  t: Extract<TypeModel, { kind: "union" }>,
  s: string,
  v: string,
  name: string,
  c: { out: Lines; scope: Scope },
): void {
  t.members.forEach((m, i) => {
    const head = `if (${grammar(m, s).test}) {`;
    if (i === 0) c.out.open(head);
    else c.out.reopen(`} else ${head}`);
    c.out.line(`${v} = ${readMember(m, s, name, c, false)};`);
  });
  c.out.reopen("} else {");
  c.out.line(
    failWith([{ text: pathKey(name, true) }], fixed(`Expected ${listOr(t.members.map((m) => grammar(m, s).name))}.`)),
  );
  c.out.close();
}

/** Converts the string in `s` to the JSON value a tool reader of type `t` expects; returns its expression. */
function fromString(t: TypeModel, s: string, name: string, c: { out: Lines; scope: Scope }): string {
  switch (t.kind) {
    case "string":
    case "date":
    case "enum":
      return s;
    case "number":
    case "integer": {
      const n = c.scope.fresh("n");
      c.out.line(`const ${n} = ${helperCall(t.kind === "number" ? "numberFromString" : "integerFromString", s)};`);
      c.out.line(
        `if (${n} === undefined) ${failWith([{ text: pathKey(name, true) }], fixed(t.kind === "number" ? "Expected a number." : "Expected an integer."))}`,
      );
      return n;
    }
    case "boolean": {
      const b = c.scope.fresh("b");
      c.out.line(`const ${b} = ${s} === "true" ? true : ${s} === "false" ? false : undefined;`);
      c.out.line(
        `if (${b} === undefined) ${failWith([{ text: pathKey(name, true) }], fixed("Expected true or false."))}`,
      );
      return b;
    }
    case "url":
    case "bytes":
    case "array":
    case "record":
    case "object":
    case "nullable":
    case "union":
    case "tuple":
      throw new CodegenError(`Parameter '${name}': a ${t.kind} is not read from a string (spec §8).`);
    default:
      return assertNever(t);
  }
}
