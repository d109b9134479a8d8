/**
 * The bundle cache of the fast tier (./cache.ts) reuses a bundle only for byte-identical inputs:
 * its key changes with a fixture file's bytes, a file added, the plugin options and the bundler,
 * and stays the same for unchanged inputs.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { bundleKey } from "./cache.ts";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "fixtures/server");
// Inside the repository's .tmp, as the cache itself: keys name files relative to the repository.
const tmp = join(fixture, "../../../../.tmp");
mkdirSync(tmp, { recursive: true });
const root = mkdtempSync(join(tmp, "bundle-key-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
cpSync(fixture, root, { recursive: true });
const input = { root, entry: join(root, "src/server.ts"), outDir: join(root, "out") };

it("is 32 hex digits, the same for unchanged inputs, and new for any changed input", () => {
  const base = bundleKey("vite", input);
  expect(base).toMatch(/^[0-9a-f]{32}$/);
  expect(bundleKey("vite", input)).toBe(base);
  expect(bundleKey("rollup", input)).not.toBe(base);
  expect(bundleKey("vite", { ...input, options: { profile: "openai-strict" } })).not.toBe(base);
  writeFileSync(join(root, "src/tools.ts"), " ", { flag: "a" }); // one byte more
  const edited = bundleKey("vite", input);
  expect(edited).not.toBe(base);
  writeFileSync(join(root, "src/extra.ts"), "export {};\n");
  expect(bundleKey("vite", input)).not.toBe(edited);
});
