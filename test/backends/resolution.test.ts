/**
 * Module resolution a real project uses reaches the checker on every backend: a tool's
 * parameter type from a tsconfig `paths`-mapped module, from a referenced project (project
 * references, read from its sources, not built), and from a workspace package linked into
 * `node_modules` the way pnpm does (a symlink to the package's folder).
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { MeasuredExtractor } from "../../packages/extract/src/index.js";
import { cliView, ROOT, TYPESCRIPT71 } from "./helpers.js";

const FIX = join(ROOT, "test/backends/fixtures");
const APP_MODULES = join(FIX, "workspace/packages/app/node_modules");

const backends = ["7.0", "7.1", "6"] as const;
/** The `typescript` option of each backend (7.1: the `typescript71` dev dependency, typescript@7.1.0-dev). */
const choice = (b: string) => (b === "7.1" ? TYPESCRIPT71 : b);
const extractors = new Map<string, MeasuredExtractor>();

beforeAll(() => {
  // pnpm links a workspace dependency as node_modules/<name> → the package's folder.
  rmSync(APP_MODULES, { recursive: true, force: true });
  mkdirSync(join(APP_MODULES, "@acme"), { recursive: true });
  symlinkSync("../../../types", join(APP_MODULES, "@acme/types"), "dir");
  for (const b of backends) extractors.set(b, createExtractor({ cwd: ROOT, typescript: choice(b) }));
});
afterAll(() => {
  for (const e of extractors.values()) e.close();
  rmSync(APP_MODULES, { recursive: true, force: true });
});

function view(backend: string, rel: string): any {
  const file = join(FIX, rel);
  return cliView(extractors.get(backend)!.extract(file, readFileSync(file, "utf8")));
}

// Expected listings from shared/spec/mapping.md: §1 name (snake_case of the method) and
// description (JSDoc main text); §3 every parameter required unless `?`/default, object
// wrapper closed; §4 interfaces become objects with property descriptions from their JSDoc,
// `Int` → integer, string literal unions / string enums → enum in declared order, optional
// properties not required; §2 validation tags (`@minimum`, `@format`) become keywords.
const placeOrder = {
  name: "place_order",
  description: "Places an order.",
  inputSchema: {
    type: "object",
    properties: {
      order: {
        type: "object",
        properties: {
          id: { type: "string", description: "The order id." },
          qty: { type: "integer", description: "How many.", minimum: 1 },
          status: { type: "string", enum: ["open", "closed"] },
        },
        required: ["id", "qty", "status"],
      },
    },
    required: ["order"],
    additionalProperties: false,
  },
};

const area = {
  name: "area",
  description: "Computes an area.",
  inputSchema: {
    type: "object",
    properties: {
      rect: {
        type: "object",
        properties: {
          width: { type: "number", description: "Width in px." },
          height: { type: "number", description: "Height in px." },
          unit: { type: "string", enum: ["px", "em"] },
        },
        required: ["width", "height"],
      },
    },
    required: ["rect"],
    additionalProperties: false,
  },
};

const addCustomer = {
  name: "add_customer",
  description: "Adds a customer.",
  inputSchema: {
    type: "object",
    properties: {
      customer: {
        type: "object",
        properties: {
          name: { type: "string", description: "Full name." },
          email: { type: "string", format: "email" },
          tier: { type: "string", enum: ["free", "pro"] },
        },
        required: ["name", "email", "tier"],
      },
      tier: { type: "string", enum: ["free", "pro"], default: "free" },
    },
    required: ["customer"],
    additionalProperties: false,
  },
};

describe.each(backends)("resolution on the %s backend", (backend) => {
  it("a parameter type from a tsconfig paths-mapped module (@shared/* → ./shared/*)", () => {
    const v = view(backend, "paths/tools.ts");
    expect(v.listing?.tools, JSON.stringify(v)).toMatchObject([placeOrder]);
    expect(v.consulted).toEqual(["test/backends/fixtures/paths/shared/order.ts"]);
  });

  it("a module its tsconfig does not include (nor import) is OMCG0000 at the first site, even with the bundler's own text", () => {
    const file = join(FIX, "paths/outside.ts");
    const code = readFileSync(file, "utf8").replace("lonely(", "alone(");
    const model = extractors.get(backend)!.extract(file, code);
    expect(model.tools).toEqual([]);
    // §10: OMCG0000 for project problems; at the first declaration site (its `@tool()`).
    expect(model.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["OMCG0000", 5, 3]]);
    expect(model.diagnostics[0]!.message).toContain("is not part of the TypeScript project");
  });

  it("a parameter type from a referenced project (references, not built)", () => {
    const v = view(backend, "refs/app/src/tools.ts");
    expect(v.listing?.tools, JSON.stringify(v)).toMatchObject([area]);
    expect(v.consulted).toEqual(["test/backends/fixtures/refs/lib/src/shape.ts"]);
  });

  it("a parameter type from a workspace package symlinked into node_modules (pnpm layout)", () => {
    const v = view(backend, "workspace/packages/app/src/tools.ts");
    expect(v.listing?.tools, JSON.stringify(v)).toMatchObject([addCustomer]);
    // The symlink is followed to the package's real folder, which is watched like user code.
    expect(v.consulted).toEqual(["test/backends/fixtures/workspace/packages/types/src/index.ts"]);
  });
});
