/**
 * `@tool()` is a build-time marker (spec §1): the plugin removes it, so a project compiled with
 * `experimentalDecorators: true` gets the same tool as one with standard decorators, and the
 * output contains no decorator call at all.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";
import { build } from "vite";
import typedMcp from "../../packages/unplugin/dist/vite.js";

const fixture = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/legacy-decorators");
let out: string | undefined;

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

it("lists and calls a tool from a project with experimentalDecorators", async () => {
  out = await mkdtemp(join(tmpdir(), "typed-mcp-legacy-"));
  await build({
    root: fixture,
    configFile: false,
    logLevel: "silent",
    plugins: [typedMcp()],
    ssr: { noExternal: true },
    build: {
      ssr: join(fixture, "tools.ts"),
      outDir: out,
      target: "node20",
      rollupOptions: { output: { entryFileNames: "tools.js" } },
    },
  });
  const text = await readFile(join(out, "tools.js"), "utf8");
  expect(text).not.toMatch(/__decorate|__esDecorate|_decorate\(/);
  const mod = await import(pathToFileURL(join(out, "tools.js")).href);
  const [greet] = mod.Greeter[Symbol.for("typed-mcp.tools")];
  expect(JSON.stringify(greet.listing)).toBe(
    '{"name":"greet","description":"Greets someone.","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Who to greet."}},"required":["name"],"additionalProperties":false},"annotations":{"readOnlyHint":true}}',
  );
  const args = greet.read({ name: "Ada" }, {} as never);
  expect(new mod.Greeter().greet(...args)).toBe("Hello, Ada!");
  expect(greet.write("Hello, Ada!")).toEqual({ content: [{ type: "text", text: "Hello, Ada!" }] });
});
