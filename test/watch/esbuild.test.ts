/**
 * esbuild `context().watch()` (docs/bundlers.md "Watch mode and cache"). esbuild tells plugins
 * nothing about changes (no `watchChange`) nor about watch mode, so the plugin ends its sidecar
 * after every build (`onEnd`) and the cache decides what a rebuild re-extracts: files reported
 * with `addWatchFile` become the `watchFiles` of the module's `onLoad`, so esbuild re-runs it when
 * one changes, and the cache entry, checked against the content hashes of the consulted files,
 * misses for the changed module only.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { context, type BuildContext } from "esbuild";
import typedMcp from "@typed-mcp/unplugin/esbuild";
import {
  Builds,
  built,
  copyFixture,
  countListing,
  edit,
  Events,
  greetListing,
  listTools,
  removeCopy,
  sidecarsGone,
} from "./helpers.ts";

let root: string;
let ctx: BuildContext | undefined;
const builds = new Builds();
const events = new Events();
let file: string;

beforeAll(async () => {
  root = await copyFixture("esbuild");
  file = join(root, "dist/server.mjs");
  ctx = await context({
    absWorkingDir: root,
    entryPoints: [join(root, "src/server.ts")],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
    external: ["typed-mcp", "typed-mcp/*"],
    plugins: [
      typedMcp({ cache: { dir: ".cache/typed-mcp" }, onEvent: events.onEvent }),
      {
        name: "report",
        setup(build) {
          build.onEnd((result) => {
            builds.push(
              result.errors.length ? { ok: false, error: result.errors.map((e) => e.text).join("\n") } : built(file),
            );
          });
        },
      },
    ],
  });
  await ctx.watch();
});
afterAll(async () => {
  await ctx?.dispose();
  await removeCopy(root);
});

const listing = async (check: (tools: Record<string, any>[]) => boolean) =>
  builds.until(async (r) => r.ok && check(await listTools(file, r)));

it("lists the tools after the first build, extracting both modules", async () => {
  await listing((t) => JSON.stringify(t) === JSON.stringify([greetListing("string"), countListing()]));
  expect(events.count("extract")).toBe(2);
  // `cache.dir` is relative to the project root, which for esbuild is `absWorkingDir`.
  expect(
    readdirSync(join(root, ".cache/typed-mcp"), { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".json"),
    ),
  ).toHaveLength(2);
});

it("relists a changed interface from a type-only import; the other module reuses its model", async () => {
  const before = events.all.length;
  await new Promise((r) => setTimeout(r, 80));
  await edit(join(root, "src/types.ts"), "name: string;", "name: number;");
  await listing((t) => JSON.stringify(t) === JSON.stringify([greetListing("number"), countListing()]));
  const since = events.all.slice(before).map((e) => `${e.type} ${e.file ?? ""}`.trim());
  // esbuild re-runs every onLoad on a rebuild: b.ts reuses its model of the session (same text,
  // nothing it depends on changed: a `reuse` event, no disk read), a.ts (whose consulted
  // types.ts changed) is extracted by a new sidecar, which ends with the build.
  expect(since.sort()).toEqual(
    [
      `reuse ${join(root, "src/b.ts")}`,
      `cache-miss ${join(root, "src/a.ts")}`,
      `extract ${join(root, "src/a.ts")}`,
      "sidecar-close",
      "sidecar-start",
    ].sort(),
  );
});

it("leaves no sidecar between rebuilds nor after dispose", async () => {
  expect(await sidecarsGone()).toEqual([]);
  await ctx!.dispose();
  ctx = undefined;
  expect(await sidecarsGone()).toEqual([]);
});
