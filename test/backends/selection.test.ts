/**
 * The backend is picked from the TypeScript the project has installed (resolved from the
 * tsconfig's directory), or forced with the `typescript` option (docs/extraction.md "Backends").
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createExtractor, familyOf, findTypeScript } from "../../packages/extract/src/index.js";
import type { MeasuredExtractor } from "../../packages/extract/src/index.js";
import type { ModuleModel } from "@typed-mcp/model";
import { cliView, ROOT, TYPESCRIPT71 } from "./helpers.js";

const AUTO = join(ROOT, "test/backends/fixtures/auto");
const FILE = join(AUTO, "tools.ts");
const TS6 = realpathSync(join(ROOT, "node_modules/@typescript/typescript6"));
const TS71 = realpathSync(TYPESCRIPT71);
/** A stand-in package that only says it is TypeScript 4.9.5 (nothing is loaded from it). */
const OLD_TS = join(ROOT, "test/backends/fixtures/typescript-4.9.5");

/**
 * A second project over the same module (its tsconfig includes `../auto/tools.ts`), for the
 * 7.1 cases: Node caches resolved symlinks per process, so one `node_modules/typescript` link is
 * never re-pointed within a test file.
 */
const AUTO71 = join(ROOT, "test/backends/fixtures/auto71");

/** Installs `target` as the project's `node_modules/typescript` (what `npm i typescript@x` gives). */
function installTypeScript(target: string | undefined, project = AUTO): void {
  rmSync(join(project, "node_modules"), { recursive: true, force: true });
  if (!target) return;
  mkdirSync(join(project, "node_modules"), { recursive: true });
  symlinkSync(target, join(project, "node_modules/typescript"), "dir");
}

let extractor: MeasuredExtractor | undefined;
/** The last model {@link run} extracted (its messages explain a failure). */
let lastModel: ModuleModel | undefined;
afterEach(() => {
  extractor?.close();
  extractor = undefined;
  installTypeScript(undefined);
  installTypeScript(undefined, AUTO71);
});

// Spec §1/§3: the greet tool as listed (name snake_case, description = JSDoc main text, @param
// description, `times = 1` optional with its default).
const greet = {
  name: "greet",
  description: "Greets someone.",
  inputSchema: {
    type: "object",
    properties: { name: { type: "string", description: "Who to greet." }, times: { type: "number", default: 1 } },
    required: ["name"],
    additionalProperties: false,
  },
};

function run(options: Parameters<typeof createExtractor>[0]): any {
  extractor = createExtractor({ cwd: ROOT, ...options });
  lastModel = extractor.extract(FILE, readFileSync(FILE, "utf8"));
  return cliView(lastModel);
}

describe("loading", () => {
  it("importing @typed-mcp/extract loads no TypeScript: every backend's package is required on first use", () => {
    // A project on TypeScript 6 has no typescript/unstable/sync; a static import would fail to load.
    const dir = join(ROOT, "packages/extract/dist");
    const files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".js"));
    expect(files).toContain("backend/ts7.js");
    for (const f of files) {
      const text = readFileSync(join(dir, f), "utf8");
      expect(text, f).not.toMatch(
        /^\s*import[^;]*from\s*["'](?:typescript|@typescript\/typescript6)(?:\/[^"']*)?["']/m,
      );
    }
  });
});

describe("familyOf", () => {
  it("maps versions to backend families", () => {
    expect(familyOf("7.0.2")).toBe("7.0");
    expect(familyOf("7.1.0-dev.20261021.1")).toBe("7.1");
    expect(familyOf("6.0.3")).toBe("6");
    expect(familyOf("5.9.3")).toBe("6");
    expect(familyOf("4.9.5")).toBeUndefined();
  });
});

describe("automatic choice from the project's typescript", () => {
  it("the project's typescript 6.x runs the classic backend on that package", () => {
    installTypeScript(TS6);
    expect(findTypeScript(AUTO)?.version).toMatch(/^6\./);
    expect(run({}).listing.tools).toEqual([greet]);
    expect(extractor!.stats()).toMatchObject({ backend: "6", roundTrips: 0 });
  });

  it("without a local typescript, the workspace's typescript 7.0 runs the 7.0 backend", () => {
    expect(findTypeScript(AUTO)?.version).toMatch(/^7\.0\./);
    expect(run({}).listing.tools).toEqual([greet]);
    expect(extractor!.stats()).toMatchObject({ backend: "7.0" });
    expect(extractor!.stats().roundTrips).toBeGreaterThan(0);
  });

  it("the project's typescript 7.1 runs the 7.1 backend (typescript/sync) on that package", () => {
    installTypeScript(TS71, AUTO71);
    // typescript is resolved from the tsconfig's directory.
    const v = run({ tsconfig: join(AUTO71, "tsconfig.json") });
    expect(v.listing?.tools, JSON.stringify(lastModel?.diagnostics)).toEqual([greet]);
    expect(extractor!.stats()).toMatchObject({ backend: "7.1", typescriptVersion: expect.stringMatching(/^7\.1\./) });
    expect(extractor!.stats().roundTrips).toBeGreaterThan(0);
  });

  it("a TypeScript older than 5 is OMCG0000 naming the version", () => {
    installTypeScript(OLD_TS, AUTO71);
    extractor = createExtractor({ cwd: ROOT, tsconfig: join(AUTO71, "tsconfig.json") });
    const model = extractor.extract(FILE, readFileSync(FILE, "utf8"));
    expect(model.tools).toEqual([]);
    expect(model.diagnostics).toHaveLength(1);
    expect(model.diagnostics[0]).toMatchObject({ code: "OMCG0000", line: 1, column: 1 });
    expect(model.diagnostics[0]!.message).toContain("4.9.5");
  });
});

describe("the typescript option forces a backend", () => {
  it('"7.0" over a project on 6.x', () => {
    installTypeScript(TS6);
    expect(run({ typescript: "7.0" }).listing.tools).toEqual([greet]);
    expect(extractor!.stats().backend).toBe("7.0");
  });

  it('"6" over a project on 7.0 uses @typescript/typescript6', () => {
    expect(run({ typescript: "6" }).listing.tools).toEqual([greet]);
    expect(extractor!.stats()).toMatchObject({ backend: "6", typescriptVersion: expect.stringMatching(/^6\./) });
  });

  it("a path to a TypeScript package directory", () => {
    expect(run({ typescript: TS6 }).listing.tools).toEqual([greet]);
    expect(extractor!.stats().backend).toBe("6");
  });

  it('"7.1" over a project on 7.1', () => {
    installTypeScript(TS71, AUTO71);
    expect(run({ typescript: "7.1", tsconfig: join(AUTO71, "tsconfig.json") }).listing.tools).toEqual([greet]);
    expect(extractor!.stats().backend).toBe("7.1");
  });

  it('"7.1" over a project on 7.0, and a path without package.json, are OMCG0000', () => {
    expect(run({ typescript: "7.1" }).diagnostics).toEqual(["test/backends/fixtures/auto/tools.ts:1:1 OMCG0000"]);
    extractor!.close();
    expect(run({ typescript: join(ROOT, "test") }).diagnostics).toEqual([
      "test/backends/fixtures/auto/tools.ts:1:1 OMCG0000",
    ]);
  });
});
