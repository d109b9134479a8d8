import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { createExtractor, mayDeclareTools } from "../../packages/extract/src/index.js";
import type { ObjectModel } from "@typed-mcp/model";
import { FIXTURES, fixture } from "./helpers.js";
import { childPids as children } from "../helpers/processes.ts";

const tmp = mkdtempSync(join(tmpdir(), "typed-mcp-extract-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("mayDeclareTools", () => {
  it("is a cheap syntactic filter", () => {
    expect(mayDeclareTools(`import { tool } from "typed-mcp"; class A { @tool() x() {} }`)).toBe(true);
    expect(mayDeclareTools(`server.tool("a", () => 1)`)).toBe(true);
    expect(mayDeclareTools(`export const x = 1;`)).toBe(false);
    expect(mayDeclareTools(`import { McpServer } from "typed-mcp"; new McpServer();`)).toBe(false);
  });
  it("extract skips modules that cannot declare tools without starting the sidecar", () => {
    const ex = createExtractor();
    const m = ex.extract(join(FIXTURES, "basic/none.ts"), "export const x = 1;\n");
    expect(m).toEqual({ file: join(FIXTURES, "basic/none.ts"), tools: [], diagnostics: [], consultedFiles: [] });
    expect(ex.stats().roundTrips).toBe(0);
    ex.close();
  });
});

describe("sidecar lifecycle", () => {
  it("one warm sidecar; close() ends it and leaves no child process; close is idempotent", () => {
    const before = children();
    const ex = createExtractor();
    const { file, code } = fixture("watch/tools.ts");
    ex.extract(file, code);
    const during = children().filter((p) => !before.includes(p));
    expect(during.length).toBe(1);
    ex.extract(file, code);
    expect(children().filter((p) => !before.includes(p))).toEqual(during);
    ex.close();
    ex.close();
    const deadline = Date.now() + 5000;
    let left = children().filter((p) => !before.includes(p));
    while (left.length && Date.now() < deadline) {
      execFileSync("sleep", ["0.05"]);
      left = children().filter((p) => !before.includes(p));
    }
    expect(left).toEqual([]);
  });
});

describe("module text overlay and watch invalidation", () => {
  it("extracts from the bundler's text, not the disk; picks up edits of imported files after invalidate()", () => {
    const dir = join(tmp, "watch");
    mkdirSync(dir, { recursive: true });
    mkdirSync(join(tmp, "typed-mcp", "src"), { recursive: true });
    // A self-contained project: stub typed-mcp next to it.
    writeFileSync(join(tmp, "typed-mcp", "src", "index.ts"), `export declare function tool(...a: unknown[]): any;\n`);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          noEmit: true,
          types: [],
          lib: ["es2023"],
          paths: { "typed-mcp": ["../typed-mcp/src/index.ts"] },
        },
        include: ["."],
      }),
    );
    copyFileSync(join(FIXTURES, "watch/tools.ts"), join(dir, "tools.ts"));
    copyFileSync(join(FIXTURES, "watch/shape.ts"), join(dir, "shape.ts"));
    const ex = createExtractor();
    try {
      const file = join(dir, "tools.ts");
      const disk = readFileSync(file, "utf8");
      const props = (m: ReturnType<typeof ex.extract>) =>
        ((m.tools[0]!.params[0] as { type: ObjectModel }).type.properties ?? []).map((p) => p.name);

      const first = ex.extract(file, disk);
      expect(first.diagnostics).toEqual([]);
      expect(props(first)).toEqual(["sides"]);
      expect(first.consultedFiles).toEqual([join(dir, "shape.ts")]);

      // The bundler's text differs from the disk: a renamed tool method.
      const edited = disk.replace("draw(shape", "paint(shape");
      const second = ex.extract(file, edited);
      expect(second.tools.map((t) => t.name)).toEqual(["paint"]);

      // An imported file changes on disk: stale until invalidated, fresh after.
      writeFileSync(
        join(dir, "shape.ts"),
        `export interface Shape {\n  sides: number;\n  /** The colour. */\n  color: string;\n}\n`,
      );
      ex.invalidate(join(dir, "shape.ts"));
      const third = ex.extract(file, edited);
      expect(props(third)).toEqual(["sides", "color"]);

      // Deleted file: the type no longer resolves → a diagnostic, never a throw.
      rmSync(join(dir, "shape.ts"));
      ex.invalidate(join(dir, "shape.ts"), true);
      const fourth = ex.extract(file, edited);
      expect(fourth.tools).toEqual([]);
      expect(fourth.diagnostics.map((d) => d.code)).toEqual(["OMCG0005"]);
    } finally {
      ex.close();
    }
  });
});
