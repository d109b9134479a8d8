/**
 * The whole fixture corpus gives byte-identical CLI listings on every backend (docs/extraction.md
 * "Backends"): the TypeScript 7.0 IPC backend, the 7.1 IPC backend (`typescript/sync`, on the
 * `typescript71` dev dependency: typescript@7.1.0-dev) and the classic TS 5/6 backend
 * (`@typescript/typescript6`, and TypeScript 5.9 through the `typescript5` dev dependency).
 * Modules with diagnostics compare codes and positions. The fast tier compares 7.0 with the
 * classic backend on TypeScript 6; the full tier (`npm run test:all`, test/helpers/tier.ts) also
 * 7.1 and TypeScript 5.9.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { MeasuredExtractor } from "../../packages/extract/src/index.js";
import { corpus, ROOT, viewAll, TYPESCRIPT5, TYPESCRIPT71 } from "./helpers.js";
import { FULL } from "../helpers/tier.ts";
import { relative } from "node:path";

const files = corpus();
let ts7: MeasuredExtractor;
let classic: MeasuredExtractor;
let ts71: MeasuredExtractor;
let ts5: MeasuredExtractor;
let views7: Record<string, string>;
let views6: Record<string, string>;
let views71: Record<string, string>;
let views5: Record<string, string>;

beforeAll(() => {
  ts7 = createExtractor({ cwd: ROOT, typescript: "7.0" });
  classic = createExtractor({ cwd: ROOT, typescript: "6" });
  views7 = viewAll(ts7, files);
  views6 = viewAll(classic, files);
  if (!FULL) return;
  ts71 = createExtractor({ cwd: ROOT, typescript: TYPESCRIPT71 });
  views71 = viewAll(ts71, files);
  ts5 = createExtractor({ cwd: ROOT, typescript: TYPESCRIPT5 });
  views5 = viewAll(ts5, files);
});
afterAll(() => {
  ts7?.close();
  classic?.close();
  ts71?.close();
  ts5?.close();
});

describe("backend selection", () => {
  it.skipIf(!FULL)("runs the forced backends: 7.1 over typescript@7.1, the classic one over TypeScript 5.9", () => {
    expect(ts5.stats()).toMatchObject({ backend: "6", typescriptVersion: expect.stringMatching(/^5\.9\./) });
    expect(ts71.stats()).toMatchObject({ backend: "7.1", typescriptVersion: expect.stringMatching(/^7\.1\./) });
  });

  it("runs the forced backends: 7.0 over typescript@7.0, the classic one over TypeScript 6", () => {
    expect(ts7.stats()).toMatchObject({ backend: "7.0", typescriptVersion: expect.stringMatching(/^7\.0\./) });
    expect(classic.stats()).toMatchObject({
      backend: "6",
      roundTrips: 0,
      typescriptVersion: expect.stringMatching(/^6\./),
    });
  });

  it("the corpus is the three fixture trees, with tools, resources and diagnostics to compare", () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
    const all = Object.values(views7).join("\n");
    // Spec §1: a listing has tool names; §10: the diagnostics fixtures report OMCG codes.
    expect(all.match(/"name": "/g)?.length ?? 0).toBeGreaterThanOrEqual(100);
    for (const code of [
      "OMCG0001",
      "OMCG0002",
      "OMCG0003",
      "OMCG0004",
      "OMCG0005",
      "OMCG0006",
      "OMCG0007",
      "OMCG0008",
      "OMCG0009",
    ]) {
      expect(all).toContain(code);
    }
    expect(all).toContain('"uri');
  });
});

describe("byte-identical listings (7.0 vs classic)", () => {
  for (const f of files) {
    const rel = relative(ROOT, f);
    it(rel, () => {
      expect(views6[rel]).toBe(views7[rel]);
    });
  }
});

describe.skipIf(!FULL)("byte-identical listings (7.0 vs 7.1)", () => {
  for (const f of files) {
    const rel = relative(ROOT, f);
    it(rel, () => {
      expect(views71[rel]).toBe(views7[rel]);
    });
  }
});

describe.skipIf(!FULL)("byte-identical listings (7.0 vs classic on TypeScript 5.9)", () => {
  for (const f of files) {
    const rel = relative(ROOT, f);
    it(rel, () => {
      expect(views5[rel]).toBe(views7[rel]);
    });
  }
});
