/**
 * Random SUPPORTED parameter types (spec §4), generated as TypeScript source text.
 *
 * One small arbitrary per kind, all in the {@link KINDS} table: adding a kind (the unions and
 * tuples of §4a, say) is adding one entry. An arbitrary produces a {@link TypeNode}: a label (for
 * failure messages) and a `render` that writes the type as TypeScript, declaring any interfaces
 * and enums it needs through {@link Render}. Values for a type are NOT generated from the node but
 * from the model extraction reads back (see values.ts), so the node only has to be valid source.
 */
import fc from "fast-check";

/** Where a type is written: JSDoc validation tags are only possible on a parameter or a property. */
type Position = "param" | "prop" | "inner";

/** The TypeScript text of a type, plus JSDoc tag lines for its parameter/property (`@minimum 1`). */
interface Rendered {
  type: string;
  doc: string[];
}

interface TypeNode {
  /** Short description, for failure messages. */
  label: string;
  /** `true` for `T | null` (never wrapped again). */
  nullable?: boolean;
  /**
   * What keeps the type out of a §4a `T | T[]` (its members would not be told apart, or the union
   * would be refused): `"array"` for a JSON array (array, Set, tuple, `T | T[]`), `"numericEnum"`.
   */
  avoid?: "array" | "numericEnum";
  render(r: Render, at: Position): Rendered;
}

/** Collects the declarations (interfaces, enums) one module needs, with unique names. */
class Render {
  readonly decls: string[] = [];
  private n = 0;
  declare(prefix: string, body: (name: string) => string): string {
    const name = `${prefix}${this.n++}`;
    this.decls.push(body(name));
    return name;
  }
}

// ---- validation tags ------------------------------------------------------------------------

type Tag = [keyword: "minimum" | "maximum" | "minLength" | "maxLength" | "pattern" | "format", value: number | string];

const TYPE_TAG: Record<Tag[0], string> = {
  minimum: "Minimum",
  maximum: "Maximum",
  minLength: "MinLength",
  maxLength: "MaxLength",
  pattern: "Pattern",
  format: "Format",
};

/** Each tag as a type tag (`& MaxLength<3>`) or, where the position allows, a JSDoc tag. */
function withTags(base: string, tags: Tag[], asDoc: boolean[], at: Position, wrap = false): Rendered {
  const doc: string[] = [];
  const typeTags: string[] = [];
  tags.forEach(([k, v], i) => {
    if (asDoc[i] && at !== "inner" && !TYPE_TAG_PATTERNS.includes(String(v))) doc.push(`@${k} ${v}`);
    else typeTags.push(`${TYPE_TAG[k]}<${typeof v === "string" ? JSON.stringify(v) : v}>`);
  });
  if (typeTags.length === 0) return { type: base, doc };
  return { type: `${wrap ? `(${base})` : base} & ${typeTags.join(" & ")}`, doc };
}

const docFlags = (n: number) => fc.array(fc.boolean(), { minLength: n, maxLength: n });

/** Patterns that fast-check's `stringMatching` can also generate (no `@`, no `*\/`: they go into JSDoc too). */
const PATTERNS = [
  "^[a-z]+$",
  "^[A-Z]",
  "\\d",
  "^(ab)*$",
  "^.{0,3}$",
  "é",
  "^\\S+$",
  "^[^x]*x$",
  "^(?:a|bc)+$",
  "😀|^$",
  "^a/b",
  "[/]$",
  "\\/x",
];
/** Patterns only a type tag can carry (a line break, or the end of a comment). */
const TYPE_TAG_PATTERNS = ["a\nb|^$", "[\u2028]|^x", "^/\\*.*\\*/$", "\r"];

/** minLength/maxLength pair (either may be absent), min ≤ max. */
const lengthTags = fc
  .tuple(
    fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  )
  .map(([a, b]) => {
    const tags: Tag[] = [];
    if (a !== undefined && b !== undefined && a > b) [a, b] = [b, a];
    if (a !== undefined) tags.push(["minLength", a]);
    if (b !== undefined) tags.push(["maxLength", b]);
    return tags;
  });

const bound = (integer: boolean) =>
  integer
    ? fc.integer({ min: -50, max: 50 })
    : fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constantFrom(-2.5, 0.5, 1.25, 99.75));

const rangeTags = (integer: boolean) =>
  fc
    .tuple(fc.option(bound(integer), { nil: undefined }), fc.option(bound(integer), { nil: undefined }))
    .map(([a, b]) => {
      const tags: Tag[] = [];
      if (a !== undefined && b !== undefined && a > b) [a, b] = [b, a];
      if (a !== undefined) tags.push(["minimum", a]);
      if (b !== undefined) tags.push(["maximum", b]);
      return tags;
    });

const stringTags = fc
  .tuple(
    lengthTags,
    fc.option(fc.constantFrom(...PATTERNS, ...TYPE_TAG_PATTERNS), { nil: undefined }),
    fc.option(fc.constantFrom("email", "uri"), { nil: undefined }),
  )
  .map(([len, pattern, format]) => {
    const tags: Tag[] = [...len];
    if (pattern !== undefined) tags.push(["pattern", pattern]);
    if (format !== undefined) tags.push(["format", format]);
    return tags;
  });

// ---- names ----------------------------------------------------------------------------------

/** Property / wire names, hostile ones included (quoted in the source when not identifiers). */
export const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  'q"uote',
  "a.b",
  "x y",
  "line\nbreak",
  "",
  "1",
  "é",
];
const PROP_NAMES = ["a", "b", "id", "name", "items", ...HOSTILE_KEYS];
/** String enum values / string literals, hostile ones included. */
const ENUM_STRINGS = ["a", "b", "low", "HIGH", "x y", "__proto__", "constructor", 'q"uote', "", "é", "😀"];

/** Numeric enum member names (the wire values), hostile ones included. */
const ENUM_MEMBER_NAMES = [
  "Low",
  "High",
  "M0",
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "é",
];

const IDENT = /^[A-Za-z_$][\w$]*$/;
const propKey = (name: string) => (IDENT.test(name) && name !== "__proto__" ? name : JSON.stringify(name));

/** `@jsonName` takes the rest of the line: only names without line breaks or spaces at the edges. */
function wireName(p: { name: string; wire?: string }): string {
  return p.wire !== undefined && !/\n/.test(p.wire) && p.wire.trim() === p.wire && p.wire !== "" ? p.wire : p.name;
}

function docComment(lines: string[], indent: string): string {
  return lines.length === 0 ? "" : `${indent}/**\n${lines.map((l) => `${indent} * ${l}\n`).join("")}${indent} */\n`;
}

// ---- the kinds ------------------------------------------------------------------------------

type KindArb = (sub: fc.Arbitrary<TypeNode>) => fc.Arbitrary<TypeNode>;

const leaf =
  (label: string, type: string): KindArb =>
  () =>
    fc.constant<TypeNode>({ label, render: () => ({ type, doc: [] }) });

/**
 * One arbitrary per §4 kind. `sub` is an arbitrary for a type one level deeper (a leaf at the
 * depth limit). `container: true` marks the kinds that use `sub` (left out at the depth limit).
 */
const KINDS: Record<string, { container?: boolean; arb: KindArb }> = {
  string: {
    arb: () =>
      fc.tuple(stringTags, docFlags(4)).map(([tags, asDoc]) => ({
        label: `string${tags.map(([k, v]) => ` ${k}=${JSON.stringify(v)}`).join("")}`,
        render: (_r, at) => withTags("string", tags, asDoc, at),
      })),
  },
  number: {
    arb: () =>
      fc.tuple(rangeTags(false), docFlags(2)).map(([tags, asDoc]) => ({
        label: `number${tags.map(([k, v]) => ` ${k}=${v}`).join("")}`,
        render: (_r, at) => withTags("number", tags, asDoc, at),
      })),
  },
  Int: {
    arb: () =>
      fc.tuple(rangeTags(true), docFlags(2)).map(([tags, asDoc]) => ({
        label: `Int${tags.map(([k, v]) => ` ${k}=${v}`).join("")}`,
        render: (_r, at) => withTags("Int", tags, asDoc, at),
      })),
  },
  bigint: { arb: leaf("bigint", "bigint") },
  boolean: { arb: leaf("boolean", "boolean") },
  stringEnum: {
    arb: () =>
      fc.uniqueArray(fc.constantFrom(...ENUM_STRINGS), { minLength: 1, maxLength: 4 }).map((values) => ({
        label: `enum ${JSON.stringify(values)}`,
        render: (r) => ({
          type: r.declare(
            "S",
            (n) => `export enum ${n} { ${values.map((v, i) => `M${i} = ${JSON.stringify(v)}`).join(", ")} }`,
          ),
          doc: [],
        }),
      })),
  },
  stringUnion: {
    arb: () =>
      fc.uniqueArray(fc.constantFrom(...ENUM_STRINGS), { minLength: 1, maxLength: 10 }).map((values) => ({
        label: values.map((v) => JSON.stringify(v)).join(" | "),
        render: () => ({ type: values.map((v) => JSON.stringify(v)).join(" | "), doc: [] }),
      })),
  },
  numberUnion: {
    arb: () =>
      fc
        .uniqueArray(fc.oneof(fc.integer({ min: -5, max: 20 }), fc.constantFrom(0.5, -1.5, 2.25)), {
          minLength: 1,
          maxLength: 10,
        })
        .map((values) => ({
          label: values.join(" | "),
          render: () => ({ type: values.join(" | "), doc: [] }),
        })),
  },
  numericEnum: {
    arb: () =>
      fc
        .uniqueArray(fc.tuple(fc.constantFrom(...ENUM_MEMBER_NAMES), fc.integer({ min: -3, max: 9 })), {
          minLength: 1,
          maxLength: 4,
          selector: (m) => m[0],
        })
        .map((members) => ({
          label: `enum {${members.map(([k, v]) => `${k}=${v}`).join(",")}}`,
          avoid: "numericEnum" as const,
          render: (r) => ({
            type: r.declare("N", (n) => `export enum ${n} { ${members.map(([k, v]) => `${k} = ${v}`).join(", ")} }`),
            doc: [],
          }),
        })),
  },
  Date: { arb: leaf("Date", "Date") },
  URL: { arb: leaf("URL", "URL") },
  Uint8Array: { arb: leaf("Uint8Array", "Uint8Array") },
  array: {
    container: true,
    arb: (sub) =>
      fc
        .tuple(sub, fc.constantFrom("[]", "readonly []", "Array", "ReadonlyArray"), lengthTags, docFlags(2))
        .map(([item, form, tags, asDoc]) => ({
          label: `${form}<${item.label}>${tags.map(([k, v]) => ` ${k}=${v}`).join("")}`,
          avoid: "array" as const,
          render: (r, at) => {
            const t = item.render(r, "inner").type;
            const base = form === "[]" ? `(${t})[]` : form === "readonly []" ? `readonly (${t})[]` : `${form}<${t}>`;
            return withTags(base, tags, asDoc, at, true);
          },
        })),
  },
  set: {
    container: true,
    arb: (sub) =>
      fc
        .tuple(sub, fc.constantFrom("Set", "ReadonlySet"), lengthTags, docFlags(2))
        .map(([item, form, tags, asDoc]) => ({
          label: `${form}<${item.label}>${tags.map(([k, v]) => ` ${k}=${v}`).join("")}`,
          avoid: "array" as const,
          render: (r, at) => withTags(`${form}<${item.render(r, "inner").type}>`, tags, asDoc, at),
        })),
  },
  record: {
    container: true,
    arb: (sub) =>
      fc.tuple(sub, fc.boolean()).map(([v, index]) => ({
        label: `Record<string, ${v.label}>`,
        render: (r) => {
          const t = v.render(r, "inner").type;
          return { type: index ? `{ [k: string]: ${t} }` : `Record<string, ${t}>`, doc: [] };
        },
      })),
  },
  map: {
    container: true,
    arb: (sub) =>
      fc.tuple(sub, fc.constantFrom("Map", "ReadonlyMap")).map(([v, form]) => ({
        label: `${form}<string, ${v.label}>`,
        render: (r) => ({ type: `${form}<string, ${v.render(r, "inner").type}>`, doc: [] }),
      })),
  },
  object: {
    container: true,
    arb: (sub) =>
      fc
        .tuple(
          fc.uniqueArray(
            fc.record({
              name: fc.constantFrom(...PROP_NAMES),
              wire: fc.option(fc.constantFrom(...PROP_NAMES), { nil: undefined, freq: 4 }),
              type: sub,
              optional: fc.constantFrom("", "?", "| undefined"),
            }),
            { minLength: 1, maxLength: 4, selector: (p) => p.name },
          ),
          fc.constantFrom("interface", "inline", "alias"),
        )
        // Wire names must be unique too (OMCG0006).
        .filter(([props]) => new Set(props.map(wireName)).size === props.length)
        .map(([props, form]) => ({
          label: `{ ${props.map((p) => `${JSON.stringify(p.name)}${p.wire !== undefined ? `@${JSON.stringify(p.wire)}` : ""}${p.optional}: ${p.type.label}`).join("; ")} }`,
          render: (r) => {
            const members = (indent: string) =>
              props
                .map((p) => {
                  const t = p.type.render(r, "prop");
                  const doc = [...t.doc];
                  if (wireName(p) !== p.name) doc.push(`@jsonName ${p.wire}`);
                  const type = p.optional === "| undefined" ? `${t.type} | undefined` : t.type;
                  return `${docComment(doc, indent)}${indent}${propKey(p.name)}${p.optional === "?" ? "?" : ""}: ${type};\n`;
                })
                .join("");
            if (form === "inline") return { type: `{\n${members("    ")}  }`, doc: [] };
            if (form === "alias")
              return { type: r.declare("A", (n) => `export type ${n} = {\n${members("  ")}};`), doc: [] };
            return { type: r.declare("O", (n) => `export interface ${n} {\n${members("  ")}}`), doc: [] };
          },
        })),
  },
  /** An intersection of two object types with disjoint properties (§4 "object intersection"). */
  objectIntersection: {
    container: true,
    arb: (sub) =>
      fc.tuple(sub, fc.option(sub, { nil: undefined }), sub, fc.boolean()).map(([a, b, c, optional]) => ({
        label: `{ a: ${a.label}; b?: ${b?.label} } & { c: ${c.label} }`,
        render: (r) => {
          const left = `{ a: ${a.render(r, "inner").type}${b !== undefined ? `; b?: ${b.render(r, "inner").type}` : ""} }`;
          const right = r.declare(
            "I",
            (n) => `export interface ${n} {\n  c${optional ? "?" : ""}: ${c.render(r, "inner").type};\n}`,
          );
          return { type: `${left} & ${right}`, doc: [] };
        },
      })),
  },
  /** `Record<"k1" | "k2", T>`: an object type with those properties (§4). */
  literalRecord: {
    container: true,
    arb: (sub) =>
      fc
        .tuple(
          fc.uniqueArray(fc.constantFrom("a", "b", "x y", "constructor", "__proto__"), { minLength: 1, maxLength: 3 }),
          sub,
        )
        .map(([keys, v]) => ({
          label: `Record<${keys.map((k) => JSON.stringify(k)).join(" | ")}, ${v.label}>`,
          render: (r) => ({
            type: `Record<${keys.map((k) => JSON.stringify(k)).join(" | ")}, ${v.render(r, "inner").type}>`,
            doc: [],
          }),
        })),
  },
  /** An object type with properties and a string index signature; the properties share the index's value type. */
  objectWithIndex: {
    container: true,
    arb: (sub) =>
      fc
        .tuple(
          fc.uniqueArray(fc.constantFrom("id", "name", "x y", "constructor"), { minLength: 1, maxLength: 3 }),
          sub,
          fc.boolean(),
        )
        .map(([names, v, optional]) => ({
          label: `{ ${names.join("; ")}: ${v.label}; [k: string]: same }`,
          render: (r) => {
            const t = v.render(r, "inner").type;
            return {
              type: r.declare(
                "X",
                (n) =>
                  `export interface ${n} {\n${names.map((p, i) => `  ${propKey(p)}${optional && i > 0 ? "?" : ""}: ${t};\n`).join("")}  [k: string]: ${t};\n}`,
              ),
              doc: [],
            };
          },
        })),
  },
  nullable: {
    container: true,
    arb: (sub) =>
      sub
        .filter((n) => !n.nullable)
        .map((inner) => ({
          label: `${inner.label} | null`,
          nullable: true,
          render: (r, at) => {
            const t = inner.render(r, at);
            return { type: `(${t.type}) | null`, doc: t.doc };
          },
        })),
  },
};

/**
 * The §4a kinds (unions and tuples), part of every run (`FUZZ_4A=0` leaves them out). Their
 * values come from `validArb` (values.ts, `union` and `tuple` models); the oracle's `departures`
 * (oracle.ts) walk `anyOf` members and tuple items.
 */
const KINDS_4A: Record<string, { container?: boolean; arb: KindArb }> = {
  /** `string | number`, `Int | boolean`, … (§4a scalars of different JSON types). */
  scalarUnion: {
    arb: () =>
      fc
        .uniqueArray(fc.constantFrom("string", "number", "Int", "boolean"), {
          minLength: 2,
          maxLength: 3,
          selector: (t) => (t === "Int" ? "number" : t),
        })
        .map((ts) => ({
          label: ts.join(" | "),
          render: () => ({ type: ts.join(" | "), doc: [] }),
        })),
  },
  /** `T | T[]` (§4a members of different JSON kinds). */
  itemOrArray: {
    container: true,
    arb: (sub) =>
      sub
        .filter((n) => !n.nullable && n.avoid === undefined)
        .map((item) => ({
          label: `${item.label} | ${item.label}[]`,
          avoid: "array" as const,
          render: (r) => {
            const t = item.render(r, "inner").type;
            return { type: `(${t}) | (${t})[]`, doc: [] };
          },
        })),
  },
  /** `(string & MaxLength<3>) | Int`: a member with a keyword makes the union `anyOf` (§4a). */
  taggedScalarUnion: {
    arb: () =>
      fc
        .tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: -5, max: 5 }), fc.boolean())
        .map(([len, min, stringFirst]) => {
          const members = [`(string & MaxLength<${len}>)`, `(Int & Minimum<${min}>)`];
          if (!stringFirst) members.reverse();
          return { label: members.join(" | "), render: () => ({ type: members.join(" | "), doc: [] }) };
        }),
  },
  /**
   * A discriminated union of 2–3 object types (§4a): the discriminator typed by string, number or
   * boolean literals (one or two per member), at the first or last position, each member with
   * one more property of a random type.
   */
  discriminated: {
    container: true,
    arb: (sub) =>
      fc
        .tuple(
          fc.constantFrom("string", "number", "boolean"),
          fc.integer({ min: 2, max: 3 }),
          fc.boolean(),
          fc.boolean(),
          fc.array(sub, { minLength: 3, maxLength: 3 }),
          fc.constantFrom("kind", "type", "ok"),
        )
        .map(([litType, count, first, pairs, subs, key]) => {
          const n = litType === "boolean" ? 2 : count;
          const literals = Array.from({ length: n }, (_, i): string[] => {
            if (litType === "boolean") return [i === 0 ? "true" : "false"];
            const one = litType === "string" ? JSON.stringify(`m${i}`) : String(i * 2);
            const two = litType === "string" ? JSON.stringify(`n${i}`) : String(i * 2 + 1);
            return pairs && i === 0 ? [one, two] : [one];
          });
          return {
            label: `union by ${key}: ${literals.map((l, i) => `${l.join("|")} + ${subs[i]!.label}`).join(" ; ")}`,
            render: (r: Render) => {
              const members = literals.map((l, i) => {
                const d = `${key}: ${l.join(" | ")}`;
                const v = `v${i}${i === 1 ? "?" : ""}: ${subs[i]!.render(r, "inner").type}`;
                return `{ ${first ? `${d}; ${v}` : `${v}; ${d}`} }`;
              });
              return { type: r.declare("U", (name) => `export type ${name} = ${members.join(" | ")};`), doc: [] };
            },
          };
        }),
  },
  /** `[T, T]`, `readonly [T, T, T]` (§4a homogeneous tuples). */
  tuple: {
    container: true,
    arb: (sub) =>
      fc.tuple(sub, fc.integer({ min: 1, max: 3 }), fc.boolean()).map(([item, n, ro]) => ({
        label: `${ro ? "readonly " : ""}[${item.label} × ${n}]`,
        avoid: "array" as const,
        render: (r) => {
          const t = item.render(r, "inner").type;
          return { type: `${ro ? "readonly " : ""}[${Array.from({ length: n }, () => t).join(", ")}]`, doc: [] };
        },
      })),
  },
};

/** A random supported type, containers nested at most `depth` levels. */
function typeArb(
  depth: number,
  kinds: typeof KINDS = process.env.FUZZ_4A === "0" ? KINDS : { ...KINDS, ...KINDS_4A },
): fc.Arbitrary<TypeNode> {
  const leaves = Object.values(kinds).filter((k) => !k.container);
  const leafArb = fc.oneof(
    ...leaves.map((k) => k.arb(fc.constant({ label: "never", render: () => ({ type: "never", doc: [] }) }))),
  );
  if (depth <= 0) return leafArb;
  const sub = typeArb(depth - 1, kinds);
  return fc.oneof(...Object.values(kinds).map((k) => k.arb(sub)));
}

/** One parameter: a type and how it is made optional. */
export interface ParamNode {
  type: TypeNode;
  /** `""` required, `"?"` optional, `"| undefined"` optional through its type, `"default"` a default value where the type has one. */
  optional: "" | "?" | "| undefined" | "default";
}

const paramArb = (depth: number): fc.Arbitrary<ParamNode> =>
  fc.record({
    type: typeArb(depth),
    optional: fc.constantFrom<ParamNode["optional"]>("", "", "?", "| undefined", "default"),
  });

/** A tool signature: 1–3 parameters, or (`destructured`) one object pattern `({ p0, p1 = … }: { … })`. */
export interface ToolNode {
  params: ParamNode[];
  destructured: boolean;
}

export const toolArb = (depth: number): fc.Arbitrary<ToolNode> =>
  fc.record({
    params: fc.array(paramArb(depth), { minLength: 1, maxLength: 3 }),
    destructured: fc.nat(3).map((n) => n === 0),
  });

/**
 * Default expressions for the types that have an obvious one (others fall back to `?`). None
 * where the JSDoc tags constrain the value (`@maximum`, `@pattern`, …): a default outside its own
 * constraints is OMCG0007 (spec §3, §10), and these fixed defaults do not know the bounds.
 */
function defaultFor(type: string, doc: readonly string[]): string | undefined {
  if (
    doc.some((line) =>
      /@(?:minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|minLength|maxLength|pattern|format)\b/.test(
        line,
      ),
    )
  )
    return undefined;
  if (type === "string") return `"d"`;
  if (type === "number" || type === "Int") return "-1";
  if (type === "boolean") return "true";
  if (type === "Date") return "new Date(0)";
  return undefined;
}

/** The source of one tool method `t<i>(…)` (inside `class Tools`). */
function renderTool(r: Render, name: string, tool: ToolNode): string {
  const params = tool.params;
  if (tool.destructured) {
    // ({ p0, p1 = default }: { /** tags */ p0: T; p1?: U }): the properties become the arguments (§3).
    const fields: string[] = [];
    const pattern: string[] = [];
    params.forEach((p, i) => {
      const t = p.type.render(r, "prop");
      const def = p.optional === "default" ? defaultFor(t.type, t.doc) : undefined;
      const opt = p.optional === "" ? "" : p.optional === "| undefined" ? "| undefined" : "?";
      fields.push(
        `${docComment(t.doc, "    ")}    p${i}${opt === "?" ? "?" : ""}: ${t.type}${opt === "| undefined" ? " | undefined" : ""};\n`,
      );
      pattern.push(def !== undefined ? `p${i} = ${def}` : `p${i}`);
    });
    return `  @tool() ${name}({ ${pattern.join(", ")} }: {\n${fields.join("")}  }): void {}\n`;
  }
  const ps = params.map((p, i) => {
    const t = p.type.render(r, "param");
    const doc = t.doc.length > 0 ? `/** ${t.doc.join(" ")} */ ` : "";
    let opt = p.optional;
    let def: string | undefined;
    if (opt === "default") {
      def = defaultFor(t.type, t.doc);
      if (def === undefined) opt = "?";
    }
    // A required parameter cannot follow an optional one: `p?: T` becomes `p: T | undefined` there.
    if (opt === "?" && params.slice(i + 1).some((q) => q.optional === "" || q.optional === "| undefined"))
      opt = "| undefined";
    if (opt === "?") return `${doc}p${i}?: ${t.type}`;
    if (opt === "| undefined") return `${doc}p${i}: ${t.type} | undefined`;
    if (opt === "default") return `${doc}p${i}: ${t.type} = ${def}`;
    return `${doc}p${i}: ${t.type}`;
  });
  return `  @tool() ${name}(\n    ${ps.join(",\n    ")},\n  ): void {}\n`;
}

/** A whole tool module: declarations, then one class holding every tool. */
export function renderModule(tools: ToolNode[]): string {
  const r = new Render();
  const methods = tools.map((t, i) => renderTool(r, `t${i}`, t));
  return [
    `import { tool, type Int, type Minimum, type Maximum, type MinLength, type MaxLength, type Pattern, type Format } from "typed-mcp";`,
    ...r.decls,
    `export class Tools {\n${methods.join("")}}`,
    "",
  ].join("\n");
}
