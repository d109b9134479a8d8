// The real-shaped benchmark project of `pnpm bench` (issue 26): N tools over ⌈N/10⌉ modules of 10,
// each tool taking 2–6 parameters drawn from shared interfaces in four domain files (nested
// objects, arrays of objects, a money / date-range / pagination family, an address inside a
// contact inside an order), JSDoc on every parameter and property, validation tags (`@minLength`,
// `@maxLength`, `@minimum`, `@maximum`, `@pattern`, `@format`), string-literal unions, nullable
// fields, date-times, defaults, and an object result. `AuditInfo` (src/domain/audit.ts) is
// imported, type-only, by exactly the 10 tools of module 0: the interface the watch edit loop
// edits. Two flavours, as their authors would write them (scripts/bench/project.mjs): `typed`
// (typed-mcp `@tool()` methods, built with the plugin) and `zod` (the SDK's `registerTool` + zod 4,
// `.describe()` on every field, the same constraints, `outputSchema`).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The domain modules (path → text) of a flavour; `variant` 1 is the watch edit of `AuditInfo`. */
function domainModules(flavor, variant = 0) {
  if (flavor === "typed") {
    return {
      "src/domain/common.ts": `import type { Int } from "typed-mcp";

/** An amount of money. */
export interface Money {
  /** The amount in minor units (cents). @minimum 0 @maximum 1000000000 */
  amount: Int;
  /** The ISO 4217 currency code. @pattern ^[A-Z]{3}$ */
  currency: string;
}

/** A range of instants. */
export interface DateRange {
  /** The first instant (inclusive). */
  from: Date;
  /** The last instant (exclusive). */
  to: Date;
}

/** One page of a listing. */
export interface Page {
  /** Items per page. @minimum 1 @maximum 100 */
  limit: Int;
  /** The opaque cursor of the previous page, or null for the first. @maxLength 200 */
  cursor: string | null;
}

/** A postal address. */
export interface Address {
  /** Street and number. @minLength 1 @maxLength 200 */
  street: string;
  /** The city. @minLength 1 @maxLength 100 */
  city: string;
  /** The postal code. @pattern ^[0-9A-Z -]{3,10}$ */
  postcode: string;
  /** The country. */
  country: "DE" | "FR" | "GB" | "NL" | "US";
}
`,
      "src/domain/people.ts": `import type { Address } from "./common.js";

/** Someone to reach. */
export interface Contact {
  /** The full name. @minLength 1 @maxLength 120 */
  name: string;
  /** The e-mail address. @format email */
  email: string;
  /** The phone number, or null when unknown. @maxLength 30 */
  phone: string | null;
  /** The postal address. */
  address: Address;
}
`,
      "src/domain/orders.ts": `import type { Int } from "typed-mcp";
import type { Money } from "./common.js";
import type { Contact } from "./people.js";

/** Where an order is. */
export type Status = "draft" | "open" | "paid" | "shipped" | "closed";

/** One line of an order. */
export interface LineItem {
  /** The stock-keeping unit. @pattern ^[A-Z0-9-]{3,20}$ */
  sku: string;
  /** How many. @minimum 1 @maximum 999 */
  quantity: Int;
  /** The price of one. */
  unitPrice: Money;
  /** A note for the packer, or null. @maxLength 500 */
  note: string | null;
}

/** An order. */
export interface Order {
  /** The order id. @minLength 1 @maxLength 40 */
  id: string;
  /** Where the order is. */
  status: Status;
  /** Who placed it. */
  customer: Contact;
  /** What was ordered. @minLength 1 @maxLength 200 */
  items: LineItem[];
  /** When it was placed. */
  placedAt: Date;
}

/** What a tool answers. */
export interface Summary {
  /** The id of what was touched. */
  id: string;
  /** Its status. */
  status: Status;
  /** The total. */
  total: Money;
  /** When it last changed. */
  updatedAt: Date;
  /** How many items. */
  count: Int;
}
`,
      "src/domain/audit.ts": `/** Who asks, and why (recorded with the change). */
export interface AuditInfo {
  /** The acting user. @minLength 1 @maxLength 80 */
  actor: string;
  /** Why, in a sentence. @maxLength ${variant === 1 ? 400 : 300} */
  reason: string;
  /** When the request was made. */
  at: Date;
}
`,
    };
  }
  return {
    "src/domain/common.ts": `import { z } from "zod";

/** An amount of money. */
export const Money = z.object({ amount: z.int().min(0).max(1000000000).describe("The amount in minor units (cents)."), currency: z.string().regex(/^[A-Z]{3}$/).describe("The ISO 4217 currency code.") }).describe("An amount of money.");
/** A range of instants. */
export const DateRange = z.object({ from: z.iso.datetime({ offset: true }).describe("The first instant (inclusive)."), to: z.iso.datetime({ offset: true }).describe("The last instant (exclusive).") }).describe("A range of instants.");
/** One page of a listing. */
export const Page = z.object({ limit: z.int().min(1).max(100).describe("Items per page."), cursor: z.string().max(200).nullable().describe("The opaque cursor of the previous page, or null for the first.") }).describe("One page of a listing.");
/** A postal address. */
export const Address = z.object({ street: z.string().min(1).max(200).describe("Street and number."), city: z.string().min(1).max(100).describe("The city."), postcode: z.string().regex(/^[0-9A-Z -]{3,10}$/).describe("The postal code."), country: z.enum(["DE", "FR", "GB", "NL", "US"]).describe("The country.") }).describe("A postal address.");
`,
    "src/domain/people.ts": `import { z } from "zod";
import { Address } from "./common.js";

/** Someone to reach. */
export const Contact = z.object({ name: z.string().min(1).max(120).describe("The full name."), email: z.email().describe("The e-mail address."), phone: z.string().max(30).nullable().describe("The phone number, or null when unknown."), address: Address.describe("The postal address.") }).describe("Someone to reach.");
`,
    "src/domain/orders.ts": `import { z } from "zod";
import { Money } from "./common.js";
import { Contact } from "./people.js";

/** Where an order is. */
export const Status = z.enum(["draft", "open", "paid", "shipped", "closed"]);
/** One line of an order. */
export const LineItem = z.object({ sku: z.string().regex(/^[A-Z0-9-]{3,20}$/).describe("The stock-keeping unit."), quantity: z.int().min(1).max(999).describe("How many."), unitPrice: Money.describe("The price of one."), note: z.string().max(500).nullable().describe("A note for the packer, or null.") }).describe("One line of an order.");
/** An order. */
export const Order = z.object({ id: z.string().min(1).max(40).describe("The order id."), status: Status.describe("Where the order is."), customer: Contact.describe("Who placed it."), items: z.array(LineItem).min(1).max(200).describe("What was ordered."), placedAt: z.iso.datetime({ offset: true }).describe("When it was placed.") }).describe("An order.");
/** What a tool answers. */
export const Summary = z.object({ id: z.string().describe("The id of what was touched."), status: Status.describe("Its status."), total: Money.describe("The total."), updatedAt: z.iso.datetime().describe("When it last changed."), count: z.int().describe("How many items.") });
`,
    "src/domain/audit.ts": `import { z } from "zod";

/** Who asks, and why (recorded with the change). */
export const AuditInfo = z.object({ actor: z.string().min(1).max(80).describe("The acting user."), reason: z.string().max(${variant === 1 ? 400 : 300}).describe("Why, in a sentence."), at: z.iso.datetime({ offset: true }).describe("When the request was made.") }).describe("Who asks, and why (recorded with the change).");
`,
  };
}

/**
 * The parameter templates tools draw from: name, TypeScript parameter text (with its inline
 * validation JSDoc), `@param` text, the zod field, the domain type it needs (module, name), and
 * whether it is optional (`?`: listed last).
 */
const PARAMS = [
  { name: "order", ts: "order: Order", doc: "The order.", zod: "Order", type: ["orders", "Order"] },
  { name: "range", ts: "range: DateRange", doc: "The period.", zod: "DateRange", type: ["common", "DateRange"] },
  { name: "page", ts: "page: Page", doc: "Which page.", zod: "Page", type: ["common", "Page"] },
  { name: "contact", ts: "contact: Contact", doc: "Whom to reach.", zod: "Contact", type: ["people", "Contact"] },
  { name: "amount", ts: "amount: Money", doc: "How much.", zod: "Money", type: ["common", "Money"] },
  {
    name: "status",
    ts: 'status: Status = "open"',
    doc: "The status to filter on.",
    zod: 'Status.default("open")',
    type: ["orders", "Status"],
  },
  {
    name: "query",
    ts: "/** @minLength 1 @maxLength 100 */ query: string",
    doc: "Free text to search for.",
    zod: "z.string().min(1).max(100)",
  },
  {
    name: "limit",
    ts: "/** @minimum 1 @maximum 100 */ limit: Int = 20",
    doc: "How many results at most.",
    zod: "z.int().min(1).max(100).default(20)",
  },
  {
    name: "since",
    ts: "since: Date | null",
    doc: "Only what changed after this instant, or null for everything.",
    zod: "z.iso.datetime({ offset: true }).nullable()",
  },
  {
    name: "homepage",
    ts: "/** @format uri */ homepage?: string",
    doc: "A page to link.",
    zod: "z.url().optional()",
    optional: true,
  },
];
const AUDIT = {
  name: "audit",
  ts: "audit: AuditInfo",
  doc: "Who asks, and why.",
  zod: "AuditInfo",
  type: ["audit", "AuditInfo"],
};

/** The parameters of tool `i`: 2–6 templates (module 0's tools start with `audit`), optional ones last. */
function toolParams(i) {
  const count = 2 + (i % 5);
  const ps = [];
  if (i < 10) ps.push(AUDIT);
  for (let k = 0; ps.length < count; k++) ps.push(PARAMS[(i * 3 + k) % PARAMS.length]);
  return [...ps.filter((p) => !p.optional), ...ps.filter((p) => p.optional)];
}

/** `import type { … } from "./domain/<file>.js";` lines for the domain types `params` need (plus `extra`). */
function domainImports(params, extra, typeOnly) {
  const by = new Map();
  for (const [file, name] of [...params.flatMap((p) => (p.type ? [p.type] : [])), ...extra]) {
    if (!by.has(file)) by.set(file, new Set());
    by.get(file).add(name);
  }
  return [...by]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([file, names]) =>
        `import ${typeOnly ? "type " : ""}{ ${[...names].sort().join(", ")} } from "./domain/${file}.js";`,
    );
}

/** The text of tool module `m` (tools `10m … 10m+9`). */
function toolsModule(flavor, n, m) {
  const ids = [];
  for (let i = m * 10; i < Math.min(n, m * 10 + 10); i++) ids.push(i);
  const all = ids.map(toolParams);
  if (flavor === "typed") {
    const methods = ids.map((i, j) => {
      const ps = all[j];
      const docs = ps.map((p) => `   * @param ${p.name} ${p.doc}`).join("\n");
      return `  /**\n   * Tool ${i}: updates the records it is given and answers a summary.\n${docs}\n   */\n  @tool()\n  tool${i}(${ps.map((p) => p.ts).join(", ")}): Summary {\n    return { id: "t${i}", status: "open", total: { amount: ${i}, currency: "EUR" }, updatedAt: new Date(0), count: ${ps.length} };\n  }`;
    });
    return `import { tool, type Int } from "typed-mcp";\n${domainImports(all.flat(), [["orders", "Summary"]], true).join("\n")}\n\nexport class Tools${m} {\n${methods.join("\n\n")}\n}\n`;
  }
  const calls = ids.map((i, j) => {
    const fields = all[j].map((p) => `${p.name}: ${p.zod}.describe(${JSON.stringify(p.doc)})`).join(", ");
    return `  server.registerTool("tool${i}", { description: "Tool ${i}: updates the records it is given and answers a summary.", inputSchema: z.object({ ${fields} }), outputSchema: Summary }, async () => {\n    const summary = { id: "t${i}", status: "open" as const, total: { amount: ${i}, currency: "EUR" }, updatedAt: new Date(0).toISOString(), count: ${all[j].length} };\n    return { content: [{ type: "text", text: JSON.stringify(summary) }], structuredContent: summary };\n  });`;
  });
  return `import { z } from "zod";\nimport type { McpServer } from "@modelcontextprotocol/server";\n${domainImports(all.flat(), [["orders", "Summary"]], false).join("\n")}\n\nexport function register${m}(server: McpServer): void {\n${calls.join("\n")}\n}\n`;
}

/**
 * Writes the real-shaped project of `n` tools in `dir` (the server entry and tsconfig are
 * scripts/bench/project.mjs's, passed as `common`). @returns the tool module paths (absolute).
 */
export function writeRealProject(dir, flavor, n, common) {
  mkdirSync(join(dir, "src/domain"), { recursive: true });
  common.writeBase(dir);
  for (const [path, text] of Object.entries(domainModules(flavor))) writeFileSync(join(dir, path), text);
  const files = [];
  for (let m = 0; m < Math.ceil(n / 10); m++) {
    const file = join(dir, `src/tools${m}.ts`);
    writeFileSync(file, toolsModule(flavor, n, m));
    files.push(file);
  }
  writeFileSync(join(dir, "src/server.ts"), common.serverModule(flavor, Math.ceil(n / 10)));
  return files;
}

/** The watch edit of the real-shaped project: `[path, text]` of src/domain/audit.ts in `variant` 0 or 1 (`AuditInfo.reason`'s `@maxLength` 300 ↔ 400). */
export function realEdit(flavor, variant) {
  const path = "src/domain/audit.ts";
  return [path, domainModules(flavor, variant)[path]];
}
