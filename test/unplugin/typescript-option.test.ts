/**
 * The plugin's `typescript` option reaches the extractor: the classic backend (TypeScript 6)
 * lists the same tool byte for byte as the default (TypeScript 7.0), and a choice that cannot be
 * satisfied fails the build with OMCG0000 (spec §10) instead of silently using another TypeScript.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";
import { build } from "vite";
import typedMcp from "../../packages/unplugin/dist/vite.js";

const fixture = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/legacy-decorators");
const outs: string[] = [];

afterAll(async () => {
  await Promise.all(outs.map((o) => rm(o, { recursive: true, force: true })));
});

let closes: { backend?: string; typescriptVersion?: string }[] = [];

async function buildWith(typescript: string | undefined): Promise<Record<string, any>> {
  closes = [];
  const out = await mkdtemp(join(tmpdir(), "typed-mcp-tsopt-"));
  outs.push(out);
  await build({
    root: fixture,
    configFile: false,
    logLevel: "silent",
    plugins: [
      typedMcp({
        typescript: typescript as never,
        cache: false,
        onEvent: (e) => {
          if (e.type === "sidecar-close") closes.push({ backend: e.backend, typescriptVersion: e.typescriptVersion });
        },
      }),
    ],
    ssr: { noExternal: true },
    build: {
      ssr: join(fixture, "tools.ts"),
      outDir: out,
      target: "node20",
      rollupOptions: { output: { entryFileNames: "tools.js" } },
    },
  });
  return import(pathToFileURL(join(out, "tools.js")).href);
}

const GREET =
  '{"name":"greet","description":"Greets someone.","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Who to greet."}},"required":["name"],"additionalProperties":false},"annotations":{"readOnlyHint":true}}';

it("lists the same tool with the classic TypeScript 6 backend", async () => {
  const mod = await buildWith("6");
  expect(JSON.stringify(mod.Greeter[Symbol.for("typed-mcp.tools")][0].listing)).toBe(GREET);
  expect(closes).toEqual([{ backend: "6", typescriptVersion: expect.stringMatching(/^6\./) }]);
  const byDefault = await buildWith(undefined);
  expect(JSON.stringify(byDefault.Greeter[Symbol.for("typed-mcp.tools")][0].listing)).toBe(GREET);
  expect(closes).toEqual([{ backend: "7.0", typescriptVersion: "7.0.2" }]);
}, 120_000);

it("fails the build with OMCG0000 when the chosen TypeScript cannot be found", async () => {
  await expect(buildWith("/nonexistent/typescript")).rejects.toThrow(/OMCG0000/);
});
