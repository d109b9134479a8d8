/**
 * `@typed-mcp/babel` with `profile` (spec §11) and build warnings (spec §10): Babel has no
 * warning channel for plugins, so each warning goes to `console.warn` as
 * `file:line:column - OMCW000n: message`; the profile rewrites the spliced listing, and the
 * model cache keys on the profile (a second profile never reuses the first one's entry).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it, vi } from "vitest";
import { transformFileAsync } from "@babel/core";
import typedMcpBabel, { closeAll, type TypedMcpBabelOptions } from "@typed-mcp/babel";
import { propertySchemaText } from "./listing-text.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "../bundlers/fixtures/profile");
const file = join(root, "src/server.ts");
const cacheDir = mkdtempSync(join(tmpdir(), "typed-mcp-babel-profile-"));
afterAll(() => {
  closeAll();
  rmSync(cacheDir, { recursive: true, force: true });
});

async function build(options: TypedMcpBabelOptions): Promise<{ code: string; warned: string[] }> {
  const spy = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    const result = await transformFileAsync(file, {
      cwd: root,
      configFile: false,
      babelrc: false,
      presets: ["@babel/preset-typescript"],
      plugins: [[typedMcpBabel, { idleTimeoutMs: 60_000, cache: { dir: cacheDir }, ...options }]],
    });
    return { code: result!.code!, warned: spy.mock.calls.map((c) => String(c[0])) };
  } finally {
    spy.mockRestore();
  }
}

it("warns with console.warn in the §10 format, on every build, cached or not", async () => {
  for (let i = 0; i < 2; i++) {
    const { warned } = await build({});
    expect(warned[0]).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:5:1 - OMCW0001: Tool name 'notes.search' contains '.'`,
      ),
    );
    expect(warned[1]).toContain(`${file}:6:1 - OMCW0002: Tool 'find' returns a T | null object-shaped result`);
  }
  expect(
    (await build({ warnings: { OMCW0002: false } })).warned.map((w) => w.slice(file.length + 1, file.length + 15)),
  ).toEqual(["5:1 - OMCW0001"]);
}, 120_000);

it("openai-strict rewrites the spliced listing; the cache keeps one entry per profile", async () => {
  const before = readdirSync(cacheDir, { recursive: true }).filter((f) => String(f).endsWith(".json")).length;
  const { code } = await build({ profile: "openai-strict" });
  expect(code).toContain("Default: 10.");
  expect(propertySchemaText(code, "limit")).toMatch(/^\{\s*"?type"?:\s*\[\s*"number",\s*"null"\s*\]/);
  const after = readdirSync(cacheDir, { recursive: true }).filter((f) => String(f).endsWith(".json")).length;
  expect(after).toBe(before + 1);
  await expect(build({ profile: "claude" as never })).rejects.toThrow(
    /unknown profile "claude"; expected one of default, gemini, openai-strict, cursor/,
  );
}, 120_000);
