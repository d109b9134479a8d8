/**
 * What a client library did to one tool's `inputSchema` (test/oracles/clients.test.ts): the
 * schema typed-mcp listed is walked node by node (JSON Pointer paths, RFC 6901) beside the schema
 * the library would send, and every keyword, type, property or `required` name the library
 * dropped, and every `additionalProperties: false` it loosened, is a loss. A loss is "said" when
 * the node's description as sent carries the keyword's spec §11 sentence (or the client's own
 * statement of the value: Mastra's `constraints: …`); otherwise it is "lossy".
 */
import { sentence } from "../../packages/codegen/dist/index.js";

type Node = Record<string, unknown>;

/** One keyword a library dropped or changed at `path` (inside `inputSchema`). */
export interface Loss {
  path: string;
  keyword: string;
  said: boolean;
}

/** Per tool: refused by the library, lost something unsaid, lost only what the description says, or kept everything. */
export type Verdict = "rejected" | "lossy" | "said" | "unchanged";

/** Keywords compared by value; each with a §11 sentence is "said" when that sentence is in the sent description. */
const VALUED = [
  "format",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "pattern",
  "contentEncoding",
  "default",
  "const",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
] as const;
const SAYABLE = new Set<string>([...VALUED.slice(0, 11)]);

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);
const json = (v: unknown) => JSON.stringify(v);

/** The node's non-null types, lower-cased (Gemini's `Schema` spells them `STRING`, …). */
function types(n: Node): string[] {
  const t = n.type;
  const list = Array.isArray(t) ? t : typeof t === "string" ? [t] : [];
  return list.map((x) => String(x).toLowerCase()).filter((x) => x !== "null");
}

/** Whether the node admits `null`: a `"null"` type, `nullable: true`, a null member of `anyOf`, or `null` in `enum`. */
function admitsNull(n: Node): boolean {
  const t = Array.isArray(n.type) ? n.type : [n.type];
  if (t.some((x) => String(x).toLowerCase() === "null") || n.nullable === true) return true;
  if (Array.isArray(n.anyOf) && n.anyOf.some((m) => isNode(m) && m.type === "null")) return true;
  return Array.isArray(n.enum) && n.enum.includes(null);
}

/** The losses from `listed` (what typed-mcp listed) to `sent` (what the library would send). */
export function losses(listed: Node, sent: unknown): Loss[] {
  const out: Loss[] = [];
  // A function declaration without parameters (the AI SDK 3.x, LangChain) means what an object with no properties does.
  const empty = isNode(listed.properties) && Object.keys(listed.properties).length === 0;
  if (sent === undefined && empty) return out;
  walk(listed, sent, "", out);
  return out;
}

function walk(a: Node, sent: unknown, path: string, out: Loss[]): void {
  if (!isNode(sent)) {
    out.push({ path, keyword: "schema", said: false });
    return;
  }
  const b = sent;
  const description = typeof b.description === "string" ? b.description : "";
  const lose = (keyword: string, said = false) => out.push({ path, keyword, said });
  // Said by §11's sentence, or by the client itself (Mastra's "constraints: a valid email", "greater than or equal to 0").
  const own = description.includes("constraints:") && !String(a.description ?? "").includes("constraints:");
  const sayable = (keyword: string, value: unknown) =>
    (SAYABLE.has(keyword) && description.includes(sentence(keyword as "format", value))) ||
    (own && typeof value !== "object" && description.includes(String(value)));
  if (typeof a.description === "string" && !description.includes(a.description)) lose("description");
  const bt = types(b);
  for (const t of types(a)) if (!bt.includes(t) && !(t === "integer" && bt.includes("number"))) lose("type");
  if (admitsNull(a) && !admitsNull(b)) lose("nullable", description.includes(sentence("null", null)));
  if (!admitsNull(a) && admitsNull(b) && types(a).length) lose("nullable");
  compareEnum(a, b, lose, sayable);
  for (const k of VALUED) {
    if (!(k in a) || json(a[k]) === json(b[k])) continue;
    // Dropped or changed (LangChain turns a nested array default into objects): said if the description has the listed value.
    lose(k, sayable(k, a[k]));
  }
  const required = Array.isArray(b.required) ? b.required : [];
  for (const r of (a.required as string[] | undefined) ?? []) if (!required.includes(r)) lose(`required ${r}`);
  if (a.additionalProperties === false && b.additionalProperties !== false) lose("additionalProperties");
  children(a, b, path, out);
}

function compareEnum(
  a: Node,
  b: Node,
  lose: (keyword: string, said?: boolean) => void,
  sayable: (keyword: string, value: unknown) => boolean,
): void {
  if (!Array.isArray(a.enum)) return;
  const values = a.enum.filter((v) => v !== null);
  if (!Array.isArray(b.enum)) {
    lose("enum", sayable("enum", values));
    return;
  }
  const sent = new Set(b.enum.filter((v) => v !== null).map(json));
  const mine = new Set(values.map(json));
  if (values.some((v) => !sent.has(json(v))) || [...sent].some((v) => !mine.has(v))) lose("enum");
}

/** Recurses into `properties`, `items`, a schema-valued `additionalProperties` and the members of `anyOf`/`oneOf`/`allOf`. */
function children(a: Node, b: Node, path: string, out: Loss[]): void {
  if (isNode(a.properties)) {
    const bp = isNode(b.properties) ? b.properties : {};
    for (const [k, v] of Object.entries(a.properties))
      if (isNode(v)) walk(v, bp[k], `${path}/properties/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, out);
  }
  if (isNode(a.items)) walk(a.items, b.items, `${path}/items`, out);
  if (isNode(a.additionalProperties))
    walk(a.additionalProperties, b.additionalProperties, `${path}/additionalProperties`, out);
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    const members = a[k];
    if (!Array.isArray(members)) continue;
    const theirs = Array.isArray(b[k]) ? (b[k] as unknown[]) : [];
    // A null member (`{"type":"null"}`) is compared as the node's nullability, above.
    const mine = members.filter((m) => !(isNode(m) && m.type === "null"));
    const sentMembers = theirs.filter((m) => !(isNode(m) && m.type === "null"));
    if (!sentMembers.length && mine.length) {
      out.push({ path, keyword: k, said: false });
      continue;
    }
    mine.forEach((m, i) => {
      if (isNode(m)) walk(m, sentMembers[i], `${path}/${k}/${i}`, out);
    });
  }
}

/** The verdict for one tool: `error` (the library refused it) or the losses of its schema. */
export function verdict(result: { schema?: unknown; error?: string }, found: Loss[]): Verdict {
  if (result.error !== undefined) return "rejected";
  if (found.some((l) => !l.said)) return "lossy";
  return found.length ? "said" : "unchanged";
}
