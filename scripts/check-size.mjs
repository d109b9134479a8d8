#!/usr/bin/env node
// `pnpm lint:size`: no source file of `packages/*/src` over 450 lines and no function over 80
// (docs/contributing.md "Sizes"). Lines are counted on the formatted source (`pnpm format` first);
// a function's lines run from its first to its last line, nested functions included, and each
// nested function is checked on its own. Exits 1, naming file:line and the count, on any excess.
// The limits are a sign that a file or a function does two jobs: split it by job, never pack it.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const { parseSync } = createRequire(join(root, "packages/extract/package.json"))("oxc-parser");
const MAX_FILE = 450;
const MAX_FUNCTION = 80;
const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

function* sources(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.(ts|mts|tsx)$/.test(e.name) && !e.name.endsWith(".d.ts")) yield p;
  }
}

const problems = [];
for (const pkg of readdirSync(join(root, "packages"))) {
  let files;
  try {
    files = [...sources(join(root, "packages", pkg, "src"))];
  } catch {
    continue;
  }
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
    const lineOf = (offset) => {
      let lo = 0;
      let hi = lineStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (lineStarts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      return lo + 1;
    };
    const rel = relative(root, file);
    const lines = text.endsWith("\n") ? lineStarts.length - 1 : lineStarts.length;
    if (lines > MAX_FILE) problems.push(`${rel}: ${lines} lines (at most ${MAX_FILE})`);
    const { program } = parseSync(file, text);
    const stack = [program];
    while (stack.length > 0) {
      const node = stack.pop();
      if (Array.isArray(node)) {
        for (const n of node) stack.push(n);
        continue;
      }
      if (node === null || typeof node !== "object") continue;
      if (FUNCTIONS.has(node.type) && node.body) {
        const first = lineOf(node.start);
        const count = lineOf(node.end) - first + 1;
        if (count > MAX_FUNCTION)
          problems.push(`${rel}:${first}: a function of ${count} lines (at most ${MAX_FUNCTION})`);
      }
      for (const key in node) if (key !== "parent") stack.push(node[key]);
    }
  }
}
for (const p of problems) console.error(p);
console.log(`lint:size: ${problems.length} over the limits`);
process.exit(problems.length > 0 ? 1 : 0);
