/**
 * The webpack-loader entry `@typed-mcp/unplugin/loader` (issue 21) in webpack's `compiler.watch()`
 * — a webpack-loader host like Turbopack and Rspack, without the typed-mcp plugin: the loader
 * alone reports every file a module's model depends on with `this.addDependency` (type-only
 * imports are gone from the graph once swc-loader stripped them), so an edit to an imported
 * interface re-runs it and the next listing changes in the same process; a diagnostic fails the
 * rebuild as `file:line:column - OMCGnnnn: message`. (The listing and answers of a loader build
 * byte for byte against the Vite build: test/bundlers/bundlers.test.ts, "webpack+loader" and
 * "rspack+loader".)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import webpack from "webpack";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  Builds,
  built,
  copyFixture,
  countListing,
  edit,
  greetListing,
  listTools,
  removeCopy,
  type BuildResult,
} from "../watch/helpers.ts";

const loader = fileURLToPath(import.meta.resolve("@typed-mcp/unplugin/loader"));
const swc = { loader: "swc-loader", options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" } } };

let root: string;
let watching: { close(cb: () => void): void } | undefined;
const builds = new Builds();
/** Per finished build: the files webpack watches for it (`compilation.fileDependencies`). */
const dependencies: Set<string>[] = [];

function compiler(dir: string, use: object[]) {
  return webpack({
    context: dir,
    mode: "development",
    devtool: false,
    target: "node20",
    entry: join(dir, "src/server.ts"),
    output: {
      path: join(dir, "dist"),
      filename: "server.mjs",
      module: true,
      chunkFormat: "module",
      library: { type: "module" },
    },
    experiments: { outputModule: true },
    externalsType: "module",
    externals: [/^typed-mcp(?:\/|$)/],
    resolve: { extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } },
    module: { rules: [{ test: /\.ts$/, exclude: /node_modules/, use }] },
    infrastructureLogging: { level: "none" },
    stats: "none",
  });
}

beforeAll(async () => {
  root = await copyFixture("loader");
  const c = compiler(root, [swc, { loader, options: { cache: false, idleTimeoutMs: 60_000 } }]);
  watching = c.watch({ aggregateTimeout: 30 }, (err, stats) => {
    if (err) return builds.push({ ok: false, error: String(err.stack ?? err) });
    dependencies.push(new Set(stats!.compilation.fileDependencies));
    if (stats!.hasErrors())
      builds.push({
        ok: false,
        error: (stats!.toJson({ all: false, errors: true }).errors ?? []).map((e) => e.message).join("\n"),
      });
    else builds.push(built(bundle()));
  });
});
afterAll(async () => {
  if (watching) await new Promise<void>((r) => watching!.close(() => r()));
  await removeCopy(root);
});

const bundle = () => join(root, "dist/server.mjs");
const listed = (nameType: "string" | "number") => async (r: BuildResult) =>
  r.ok && JSON.stringify(await listTools(bundle(), r)) === JSON.stringify([greetListing(nameType), countListing()]);

it("lists the tools, and reports the type-only imports and the tsconfig as dependencies", async () => {
  await builds.until(listed("string"));
  const deps = dependencies.at(-1)!;
  for (const f of ["src/types.ts", "src/counts.ts", "tsconfig.json"]) expect(deps.has(join(root, f)), f).toBe(true);
});

it("without the loader, webpack does not watch the type-only imports (the control)", async () => {
  const c = compiler(root, [swc]);
  const deps = await new Promise<Set<string>>((resolve, reject) =>
    c.run((err, stats) => c.close(() => (err ? reject(err) : resolve(new Set(stats!.compilation.fileDependencies))))),
  );
  expect(deps.has(join(root, "src/a.ts"))).toBe(true);
  expect(deps.has(join(root, "src/types.ts"))).toBe(false);
});

it("re-lists a parameter whose interface changed in a type-only import, without a restart", async () => {
  builds.drain();
  await edit(join(root, "src/types.ts"), "name: string;", "name: number;");
  await builds.until(listed("number"));
});

it("fails the rebuild with file:line:column - OMCG0005, and recovers once fixed", async () => {
  const a = join(root, "src/a.ts");
  builds.drain();
  await edit(a, "greet(who: Person): string", "greet(who: Person, x: string | Date): string");
  // The parameter `x` of the edited line: line and column from the file's text (1-based).
  const lines = readFileSync(a, "utf8").split("\n");
  const line = lines.findIndex((l) => l.includes("x: string | Date")) + 1;
  const column = lines[line - 1]!.indexOf("x: string | Date") + 1;
  await builds.until((r) => !r.ok && r.error.includes(`${a}:${line}:${column} - OMCG0005: `));
  await edit(a, "greet(who: Person, x: string | Date): string", "greet(who: Person): string");
  await builds.until(listed("number"));
});
