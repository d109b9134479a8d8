/**
 * The content-hash model cache (docs/bundlers.md "Watch mode and cache"): a second cold build of
 * an unchanged project answers every module from the cache and starts no TypeScript sidecar; a
 * change to a declaration consulted by one module re-extracts that module only; the module's
 * own text and the tsconfig are part of the key; a corrupt entry is a miss, never a crash;
 * writes leave no temp files; `cache: false` writes nothing; Vite's default directory is
 * `<cacheDir>/typed-mcp`. Builds use Rolldown (the fastest) on a temp copy of the watch fixture.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rolldown } from "rolldown";
import { build as viteBuild } from "vite";
import typedMcp from "@typed-mcp/unplugin/rolldown";
import typedMcpVite from "@typed-mcp/unplugin/vite";
import {
  copyFixture,
  countListing,
  edit,
  Events,
  greetListing,
  listTools,
  removeCopy,
  sidecarPids,
} from "../watch/helpers.ts";

let root: string;
let cacheDir: string;
let n = 0;
beforeAll(async () => {
  root = await copyFixture("cache");
  cacheDir = join(root, ".cache/typed-mcp");
});
afterAll(async () => {
  await removeCopy(root);
});

const A = () => join(root, "src/a.ts");
const B = () => join(root, "src/b.ts");

/** One cold build (a fresh plugin instance, as in a new process); returns its events and listing. */
async function coldBuild(cache: boolean | { dir: string } = { dir: ".cache/typed-mcp" }) {
  const events = new Events();
  const file = join(root, `dist/server-${++n}.mjs`);
  const bundle = await rolldown({
    input: join(root, "src/server.ts"),
    cwd: root,
    platform: "node",
    logLevel: "silent",
    external: [/^typed-mcp/],
    tsconfig: join(root, "tsconfig.json"),
    plugins: [
      typedMcp({ cache: typeof cache === "boolean" ? cache : { dir: join(root, cache.dir) }, onEvent: events.onEvent }),
    ],
  });
  try {
    await bundle.write({ file, format: "es" });
  } finally {
    await bundle.close();
  }
  return { events, file, tools: await listTools(file) };
}

/**
 * `entry` as the cache writes it (docs/bundlers.md "The cache"): its JSON without `digest`, then
 * `digest`, the SHA-256 (hex) of that JSON, as the last property — so a test's edit of an entry
 * is read as the cache's own.
 */
function sealed(entry: Record<string, unknown>): string {
  const { digest: _, ...rest } = entry;
  const json = JSON.stringify(rest);
  return `${json.slice(0, -1)},"digest":"${createHash("sha256").update(json).digest("hex")}"}`;
}

/** Every entry (`.json`) and temp (`.tmp`) file under a cache directory. */
function entries(dir = cacheDir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json") || f.endsWith(".tmp"))
    .map((f) => join(dir, f));
}

describe("cache", () => {
  it("a second cold build of an unchanged project answers from the cache and starts no sidecar", async () => {
    const first = await coldBuild();
    expect(first.tools).toEqual([greetListing("string"), countListing()]);
    expect(first.events.count("cache-miss", A())).toBe(1);
    expect(first.events.count("cache-miss", B())).toBe(1);
    expect(first.events.count("sidecar-start")).toBe(1);
    expect(entries().filter((f) => f.endsWith(".json"))).toHaveLength(2);

    const second = await coldBuild();
    expect(second.tools).toEqual([greetListing("string"), countListing()]);
    expect(second.events.count("cache-hit", A())).toBe(1);
    expect(second.events.count("cache-hit", B())).toBe(1);
    expect(second.events.count("extract")).toBe(0);
    expect(second.events.count("sidecar-start")).toBe(0);
    expect(sidecarPids()).toEqual([]);
  });

  it("stores each module's generated code with its model; a warm build's bundle is the cold build's, byte for byte", async () => {
    rmSync(cacheDir, { recursive: true, force: true });
    const cold = await coldBuild();
    const warm = await coldBuild();
    expect(warm.events.count("extract")).toBe(0);
    expect(readFileSync(warm.file, "utf8")).toBe(readFileSync(cold.file, "utf8"));
    for (const f of entries()) {
      const entry = JSON.parse(readFileSync(f, "utf8"));
      const models =
        entry.model.tools.length + (entry.model.resources ?? []).length + (entry.model.prompts ?? []).length;
      expect(entry.code.codes).toHaveLength(models);
      for (const [key, code] of entry.code.codes) {
        expect(key).toMatch(/^(tool|shared-tool|resource|prompt):[\w-]{43}$/);
        // Every unit a code names is stored once, in the entry's `units`.
        for (const id of code.units ?? []) expect(entry.code.units[id].id).toBe(id);
      }
    }
  });

  it("a warm build takes the generated code from the entry instead of generating it again", async () => {
    const [entryOfB] = entries().filter((f) => JSON.parse(readFileSync(f, "utf8")).file === B());
    const entry = JSON.parse(readFileSync(entryOfB!, "utf8"));
    for (const c of entry.code.codes) c[1].code = c[1].code.replaceAll("Counts.", "Counts, from the stored code.");
    writeFileSync(entryOfB!, sealed(entry));
    const warm = await coldBuild();
    expect(warm.events.count("cache-hit", B())).toBe(1);
    expect(warm.tools.find((t) => t.name === "count")?.description).toBe("Counts, from the stored code.");
    // An entry whose code names a unit it does not hold generates that code again (and stores it).
    for (const c of entry.code.codes) c[1].units = [...(c[1].units ?? []), "0000000000000000"];
    writeFileSync(entryOfB!, sealed(entry));
    const again = await coldBuild();
    expect(again.events.count("cache-hit", B())).toBe(1);
    expect(again.tools.find((t) => t.name === "count")?.description).toBe("Counts.");
    expect(JSON.parse(readFileSync(entryOfB!, "utf8")).code.units).not.toHaveProperty("0000000000000000");
    // A unit that refers to a unit the code does not list is generated again too.
    const dangling = JSON.parse(readFileSync(entryOfB!, "utf8"));
    for (const u of Object.values(dangling.code.units) as { deps: string[] }[]) u.deps = ["ffffffffffffffff"];
    writeFileSync(entryOfB!, sealed(dangling));
    const healed = await coldBuild();
    expect(healed.tools.find((t) => t.name === "count")?.description).toBe("Counts.");
    // Code items that are not well-formed are generated again, never a crash.
    const stored = JSON.parse(readFileSync(entryOfB!, "utf8"));
    stored.code.codes = [
      [1, null],
      ["tool:x", { code: 5 }],
      [stored.code.codes[0][0], { code: "x", imports: [null] }],
    ];
    writeFileSync(entryOfB!, sealed(stored));
    const mended = await coldBuild();
    expect(mended.events.count("cache-hit", B())).toBe(1);
    expect(mended.tools).toEqual([greetListing("string"), countListing()]);
  });

  it("a change to an interface used by a.ts only re-extracts a.ts; b.ts comes from the cache", async () => {
    await edit(join(root, "src/types.ts"), "name: string;", "name: number;");
    const build = await coldBuild();
    expect(build.tools).toEqual([greetListing("number"), countListing()]);
    expect(build.events.count("extract", A())).toBe(1);
    expect(build.events.count("cache-hit", B())).toBe(1);
    expect(build.events.count("extract", B())).toBe(0);
    // …and the new entry is used by the next cold build.
    const again = await coldBuild();
    expect(again.tools).toEqual([greetListing("number"), countListing()]);
    expect(again.events.count("extract")).toBe(0);
  });

  it("keys on the module's own text", async () => {
    await edit(B(), "Counts.", "Counts up.");
    const build = await coldBuild();
    expect(build.events.count("extract", B())).toBe(1);
    expect(build.events.count("cache-hit", A())).toBe(1);
    const count = build.tools.find((t) => t.name === "count");
    expect(count?.description).toBe("Counts up.");
    await edit(B(), "Counts up.", "Counts.");
  });

  it("keys on the tsconfig: a changed config re-extracts every module", async () => {
    await coldBuild(); // restore entries for the current texts
    await edit(join(root, "tsconfig.json"), '"strict": true,', '"strict": true,\n    "noUnusedLocals": false,');
    const build = await coldBuild();
    expect(build.events.count("extract", A())).toBe(1);
    expect(build.events.count("extract", B())).toBe(1);
    expect(build.tools).toEqual([greetListing("number"), countListing()]);
  });

  it("treats a corrupt or foreign entry as a miss and rewrites it", async () => {
    rmSync(cacheDir, { recursive: true, force: true });
    await coldBuild();
    const files = entries().filter((f) => f.endsWith(".json"));
    expect(files).toHaveLength(2);
    for (const [i, f] of files.entries()) {
      writeFileSync(
        f,
        i % 2 === 0 ? '{"format":1,"key":"tru' : JSON.stringify({ format: 1, key: "other", model: null }),
      );
    }
    const build = await coldBuild();
    expect(build.tools).toEqual([greetListing("number"), countListing()]);
    expect(build.events.count("extract", A())).toBe(1);
    expect(build.events.count("extract", B())).toBe(1);
    const again = await coldBuild();
    expect(again.events.count("extract")).toBe(0);
  });

  it("an entry damaged into other well-formed JSON (code items reordered, a model's tool replaced) is a miss", async () => {
    await coldBuild();
    for (const f of entries()) {
      const entry = JSON.parse(readFileSync(f, "utf8"));
      entry.code.codes.reverse();
      entry.model.tools[0] = null;
      const { digest, ...rest } = entry;
      writeFileSync(f, `${JSON.stringify(rest).slice(0, -1)},"digest":"${digest}"}`); // the old digest
    }
    const build = await coldBuild();
    expect(build.events.count("cache-hit")).toBe(0);
    expect(build.events.count("extract", A())).toBe(1);
    expect(build.tools).toEqual([greetListing("number"), countListing()]);
  });

  it("writes atomically: no temp file is left, every entry is a whole JSON model", () => {
    const all = entries();
    expect(all.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    for (const f of all) {
      // The plain model, the consulted files' hashes and the code generated from the model.
      const entry = JSON.parse(readFileSync(f, "utf8"));
      expect(Object.keys(entry).sort()).toEqual(["code", "consulted", "digest", "file", "format", "key", "model"]);
      // The digest is the SHA-256 of the entry's JSON without it, and its last property.
      expect(readFileSync(f, "utf8")).toBe(sealed(entry));
      // A model that consulted other files records the declarations it depends on (docs/bundlers.md "Invalidation per declaration").
      const declarations = entry.model.consultedFiles.length > 0 ? ["declarations"] : [];
      expect(Object.keys(entry.model).sort()).toEqual([
        "consultedFiles",
        ...declarations,
        "diagnostics",
        "file",
        "tools",
      ]);
    }
  });

  it("does not store a model with diagnostics", async () => {
    const before = entries().length;
    await edit(A(), "greet(who: Person): string", "greet(who: Person, x: string | Date): string");
    await expect(coldBuild()).rejects.toThrow(/OMCG0005/);
    expect(entries().length).toBe(before);
    const again = coldBuild();
    await expect(again).rejects.toThrow(/OMCG0005/);
    await edit(A(), "greet(who: Person, x: string | Date): string", "greet(who: Person): string");
  });

  it("cache: false reads and writes nothing", async () => {
    await edit(join(root, "src/types.ts"), "name: number;", "name: string;"); // a state not cached yet
    const before = entries();
    const build = await coldBuild(false);
    expect(build.tools).toEqual([greetListing("string"), countListing()]);
    expect(build.events.count("cache-hit") + build.events.count("cache-miss")).toBe(0);
    expect(build.events.count("extract")).toBe(2);
    expect(entries()).toEqual(before);
  });

  it("by default keeps the cache in <root>/node_modules/.cache/typed-mcp (Rolldown: root = cwd)", async () => {
    const dir = join(root, "node_modules/.cache/typed-mcp");
    const first = await coldBuild(true);
    expect(first.events.count("cache-miss")).toBe(2);
    expect(entries(dir).filter((f) => f.endsWith(".json"))).toHaveLength(2);
    const second = await coldBuild(true);
    expect(second.events.count("cache-hit")).toBe(2);
  });

  it("Vite keeps the cache in its cacheDir (<cacheDir>/typed-mcp)", async () => {
    const viteCache = join(root, ".vite-cache");
    const run = async () => {
      const events = new Events();
      await viteBuild({
        root,
        configFile: false,
        logLevel: "silent",
        cacheDir: viteCache,
        plugins: [typedMcpVite({ onEvent: events.onEvent })],
        build: {
          ssr: join(root, "src/server.ts"),
          outDir: join(root, "dist-vite"),
          emptyOutDir: true,
          rollupOptions: { external: [/^typed-mcp/] },
        },
        ssr: { external: ["typed-mcp"] },
      });
      return events;
    };
    const first = await run();
    expect(first.count("cache-miss")).toBe(2);
    expect(entries(join(viteCache, "typed-mcp")).filter((f) => f.endsWith(".json"))).toHaveLength(2);
    const second = await run();
    expect(second.count("cache-hit")).toBe(2);
    expect(second.count("sidecar-start")).toBe(0);
  });
});
