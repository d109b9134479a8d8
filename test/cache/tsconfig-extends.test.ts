/**
 * The cache key's tsconfig part (docs/bundlers.md "Watch mode and cache": the tsconfig and the
 * configs it extends) reads tsconfig files as JSONC: a commented-out `extends` (line or block
 * comment) is no `extends`, an `extends` array names every config, and trailing commas are
 * allowed. Changing a config that is really extended changes the key (a miss); changing one
 * that is only named in a comment does not (still a hit).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import type { ModuleModel } from "@typed-mcp/model";
import { ModelCache, tsconfigChain } from "../../packages/transform/dist/index.js";

const root = mkdtempSync(join(tmpdir(), "typed-mcp-extends-")).replace(/\\/g, "/");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (name: string, text: string) => writeFileSync(join(root, name), text);
write(
  "tsconfig.json",
  `{
  // "extends": "./other.json",
  /* "extends": "./old.json",
     an earlier setup */
  "extends": ["./base.json", "./strict"],
  "compilerOptions": { "strict": true, },
}
`,
);
write("base.json", `{ "compilerOptions": { "target": "es2022" } }`);
write("strict.json", `{ "extends": "./base.json", /* again */ "compilerOptions": { "noImplicitAny": true } }`);
write("other.json", `{ "compilerOptions": {} }`);
write("old.json", `{ "compilerOptions": {} }`);

it("lists the config and the configs its extends array names, not the commented-out ones", () => {
  expect(tsconfigChain(join(root, "tsconfig.json"))).toEqual([
    `${root}/tsconfig.json`,
    `${root}/base.json`,
    `${root}/strict.json`,
  ]);
});

it("changes the key when an extended config changes, not when a commented-out one does", () => {
  const cache = new ModelCache({ dir: join(root, ".cache"), root, tsconfig: join(root, "tsconfig.json") });
  const file = `${root}/src/tools.ts`;
  const code = "export const x = 1;\n";
  const model: ModuleModel = { file, tools: [], diagnostics: [], consultedFiles: [] };
  cache.store(file, code, model);
  expect(cache.lookup(file, code)?.model).toEqual(model);

  write("other.json", `{ "compilerOptions": { "strict": false } }`);
  write("old.json", `{ "compilerOptions": { "target": "es5" } }`);
  expect(cache.lookup(file, code)?.model).toEqual(model);

  write("strict.json", `{ "extends": "./base.json", "compilerOptions": { "noImplicitAny": false } }`);
  expect(cache.lookup(file, code)).toBeUndefined();
  cache.store(file, code, model);
  expect(cache.lookup(file, code)?.model).toEqual(model);

  write("base.json", `{ "compilerOptions": { "target": "es2023" } }`);
  expect(cache.lookup(file, code)).toBeUndefined();
});
