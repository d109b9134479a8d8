// Micro-benchmark of one generated reader and writer (docs/codegen.md "Measured speed").
// Run after building: node packages/codegen/bench/read-write.mjs
import { mkdirSync } from "node:fs";
mkdirSync(new URL("../../../.tmp/", import.meta.url), { recursive: true });
import { generateTool } from "../dist/index.js";
import { writeFileSync } from "node:fs";
const o = (props) => ({ kind: "object", properties: props });
const p = (name, type, required = true) => ({ name, key: name, type, required });
const tool = {
  name: "place_order", params: [
    { role: "value", name: "items", required: true, type: { kind: "array", items: o([p("sku", { kind: "string", constraints: { pattern: "^[A-Z]+-\\d+$" } }), p("qty", { kind: "integer", constraints: { minimum: 1 } }), p("note", { kind: "nullable", inner: { kind: "string", constraints: { maxLength: 200 } } }, false)]) } },
    { role: "value", name: "rush", required: false, type: { kind: "boolean" } },
    { role: "value", name: "customer", required: true, type: o([p("name", { kind: "string", constraints: { minLength: 1, maxLength: 100 } }), p("email", { kind: "string", constraints: { format: "email" } }), p("tier", { kind: "enum", valueType: "string", values: ["free", "pro", "team"] })]) },
    { role: "context", name: "ctx" }],
  result: { kind: "structured", nullable: false, type: o([p("id", { kind: "string" }), p("total", { kind: "number" }), p("at", { kind: "date" })]) },
  site: { kind: "quick", callEnd: 0, trailingComma: false }, location: { file: "/x", line: 1, column: 1 },
};
const internal = new URL("../../typed-mcp/dist/internal.js", import.meta.url).href;
writeFileSync(new URL("../../../.tmp/codegen-bench-gen.mjs", import.meta.url), `import * as __tmcp from ${JSON.stringify(internal)};\nexport default ${generateTool(tool).code};\n`);
const t = (await import("../../../.tmp/codegen-bench-gen.mjs")).default;
const args = { items: [{ sku: "AB-1", qty: 2 }, { sku: "CD-22", qty: 1, note: "gift" }, { sku: "EF-3", qty: 5, note: null }], rush: true, customer: { name: "Ada", email: "ada@example.org", tier: "pro" } };
const ctx = {};
for (const [label, fn] of [["read", () => t.read(args, ctx)], ["write", () => t.write({ id: "o1", total: 12.5, at: new Date(0), extra: 1 })]]) {
  for (let i = 0; i < 2e5; i++) fn();
  const N = 2e6, t0 = performance.now();
  for (let i = 0; i < N; i++) fn();
  console.log(label, Math.round(N / ((performance.now() - t0) / 1000)).toLocaleString(), "ops/s");
}
