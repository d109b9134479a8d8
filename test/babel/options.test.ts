/**
 * `@typed-mcp/babel`'s `typescript` and `cache` options mean what the bundler plugin's do
 * (docs/bundlers.md, Babel): with `typescript: "6"` the classic backend (in-process, no `tsc
 * --api` sidecar) extracts, and the build lists the same bytes as the default TypeScript 7.0
 * build; with `cache`, a second cold Babel build of an unchanged project answers every file
 * from the cache and starts no TypeScript sidecar. Builds transform the watch fixture's files
 * (a temp copy, test/watch/helpers.ts) one by one, as a Babel user would, and list the result.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { transformFileAsync } from "@babel/core";
import typedMcpBabel, { closeAll, type TypedMcpBabelOptions } from "@typed-mcp/babel";
import {
  copyFixture,
  countListing,
  greetListing,
  listTools,
  removeCopy,
  sidecarPids,
  sidecarsGone,
} from "../watch/helpers.ts";

let root: string;
let n = 0;
beforeAll(async () => {
  root = await copyFixture("babel-options");
});
afterAll(async () => {
  closeAll();
  await removeCopy(root);
});

/**
 * Transforms every `src/*.ts` with Babel (`cwd` = the project) into a fresh `out-<n>/` and lists
 * the tools of its `server.js`; `sidecars` are the TypeScript sidecars running right after the
 * last file (the idle timeout is a minute, so a started one is still there).
 */
async function babelBuild(
  options: TypedMcpBabelOptions,
): Promise<{ tools: Record<string, any>[]; sidecars: number[] }> {
  const out = join(root, `out-${++n}`);
  mkdirSync(out);
  for (const name of readdirSync(join(root, "src")).filter((f) => f.endsWith(".ts"))) {
    const result = await transformFileAsync(join(root, "src", name), {
      cwd: root,
      configFile: false,
      babelrc: false,
      presets: ["@babel/preset-typescript"],
      plugins: [[typedMcpBabel, { idleTimeoutMs: 60_000, ...options }]],
    });
    writeFileSync(join(out, name.replace(/\.ts$/, ".js")), result!.code!);
  }
  const sidecars = sidecarPids();
  return { tools: await listTools(join(out, "server.js")), sidecars };
}

it('typescript: "6" lists the same bytes as the default backend, without a TypeScript 7 sidecar', async () => {
  const byDefault = await babelBuild({ cache: false });
  expect(byDefault.tools).toEqual([greetListing("string"), countListing()]);
  expect(byDefault.sidecars.length).toBeGreaterThan(0);
  closeAll();
  expect(await sidecarsGone()).toEqual([]);

  const classic = await babelBuild({ cache: false, typescript: "6" });
  expect(JSON.stringify(classic.tools)).toBe(JSON.stringify(byDefault.tools));
  expect(classic.sidecars).toEqual([]);
  closeAll();
}, 120_000);

it("cache: a second cold Babel build of an unchanged project starts no TypeScript sidecar", async () => {
  const cache = { dir: ".cache/typed-mcp-babel" };
  const first = await babelBuild({ cache });
  expect(first.tools).toEqual([greetListing("string"), countListing()]);
  expect(first.sidecars.length).toBeGreaterThan(0);
  closeAll();
  expect(await sidecarsGone()).toEqual([]);
  expect(
    readdirSync(join(root, cache.dir), { recursive: true }).filter((f) => String(f).endsWith(".json")),
  ).toHaveLength(2);

  const second = await babelBuild({ cache });
  expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
  expect(second.sidecars).toEqual([]);
}, 120_000);
