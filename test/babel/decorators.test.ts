/**
 * Decorator syntax: Babel 7 parses `@tool()` only with a decorator syntax plugin. Without one in
 * the configuration, `@typed-mcp/babel` adds `decorators` for files that may declare tools;
 * with one (legacy or current, e.g. from `@babel/plugin-proposal-decorators`), it leaves parsing
 * alone — adding a second would make `@babel/parser` refuse the mix. Either way no typed-mcp
 * decorator reaches the output, and the class gets its `defineTools` block (docs/bundlers.md, Babel).
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { transformFileAsync, type ParserOptions } from "@babel/core";
import typedMcpBabel, { closeAll } from "@typed-mcp/babel";

const here = dirname(fileURLToPath(import.meta.url));
const tools = join(here, "../bundlers/fixtures/server/src/tools.ts");
afterAll(() => closeAll());

describe.each<[string, ParserOptions["plugins"]]>([
  ["no decorator syntax configured", undefined],
  ["decorators-legacy configured", ["decorators-legacy"]],
  ["decorators configured", [["decorators", { decoratorsBeforeExport: true }]]],
])("%s", (_, plugins) => {
  it("parses the file, removes the @tool() decorators and defines the three tools", async () => {
    const result = await transformFileAsync(tools, {
      configFile: false,
      babelrc: false,
      presets: ["@babel/preset-typescript"],
      plugins: [typedMcpBabel],
      ...(plugins ? { parserOpts: { plugins } } : {}),
    });
    const code = result!.code!;
    expect(code).not.toMatch(/@tool\b/);
    expect(code).toMatch(/static \{\s*__tmcp\.defineTools\(this, \[/);
    // The fixture's three @tool() methods, named as spec §1 says (snake_case).
    for (const name of ["read_temperature", "countdown", "explode"]) expect(code).toContain(`"name": "${name}"`);
  });
});
