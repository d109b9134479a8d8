/**
 * What a user sees when the plugin stops a build (spec §10: file, line, column, code and
 * message): the bundler's own header and our `file:line:column - CODE: message` line name the
 * same 1-based position, the code frame's caret sits under the parameter, and esbuild (which
 * draws its own caret from a 0-based column) gets the 0-based column. The webpack loader's error
 * (Turbopack, which prints an error's stack) has no frames of the loader under the line.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { build } from "vite";
import { build as esbuild } from "esbuild";
import typedMcp from "../../packages/unplugin/dist/vite.js";
import typedMcpEsbuild from "../../packages/unplugin/dist/esbuild.js";
import typedMcpLoader from "../../packages/unplugin/dist/loader.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "fixtures/error-location");
const file = join(root, "tools.ts");
// Line 3 is `server.tool("either", (x: string | Date) => String(x));`: `x` is at column 24.
const LINE = 3;
const COLUMN = 24;
const FRAME = [
  '1 | import { McpServer } from "typed-mcp";',
  '2 | const server = new McpServer({ name: "e", version: "1.0.0" });',
  '3 | server.tool("either", (x: string | Date) => String(x));',
  "  |                        ^",
  "4 | export { server };",
].join("\n");

/** What the loader's host gets in `callback` for `file` (the context a webpack-loader host, Turbopack's included, gives a loader). */
function runLoader(text: string): Promise<Error | null> {
  return new Promise((resolvePromise) => {
    typedMcpLoader.call(
      {
        resourcePath: file,
        rootContext: root,
        getOptions: () => ({ cache: false, idleTimeoutMs: 100 }),
        addDependency: () => undefined,
        emitWarning: () => undefined,
        callback: (error: Error | null) => resolvePromise(error),
      },
      text,
    );
  });
}

describe("the location of a build error", () => {
  it("the loader: the diagnostic line, with a stack of the message alone (Turbopack prints the stack)", async () => {
    const error = await runLoader(readFileSync(file, "utf8"));
    expect(error?.message.startsWith(`${file}:${LINE}:${COLUMN} - OMCG0005: `)).toBe(true);
    expect(error?.stack).toBe(`Error: ${error?.message}`);
    expect((error as { code?: string }).code).toBe("OMCG0005");
  });

  it("Vite: header, loc, our message line and frame agree on line 3, column 24", async () => {
    let error: any;
    try {
      await build({
        root,
        configFile: false,
        logLevel: "silent",
        plugins: [typedMcp()],
        ssr: { noExternal: true },
        build: { ssr: true, write: false, rollupOptions: { input: file } },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeDefined();
    const first = error.errors?.[0] ?? error;
    expect(first.loc).toEqual({ file, line: LINE, column: COLUMN });
    expect(first.frame).toBe(FRAME);
    expect(String(error.message)).toContain(`[plugin typed-mcp] ${file}:${LINE}:${COLUMN}\n`);
    expect(String(error.message)).toContain(`${file}:${LINE}:${COLUMN} - OMCG0005: Parameter 'x' of tool 'either'`);
  });

  it("esbuild: a 0-based location column (esbuild's convention), the 1-based one in our text", async () => {
    let error: any;
    try {
      await esbuild({
        entryPoints: [file],
        bundle: true,
        write: false,
        platform: "node",
        format: "esm",
        external: ["typed-mcp"],
        logLevel: "silent",
        plugins: [typedMcpEsbuild()],
      });
    } catch (e) {
      error = e;
    }
    expect(error?.errors?.[0]?.location).toMatchObject({ line: LINE, column: COLUMN - 1 });
    expect(error.errors[0].text).toContain(`${file}:${LINE}:${COLUMN} - OMCG0005`);
  });
});
