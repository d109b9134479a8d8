/**
 * Watch mode on every backend (docs/extraction.md "Backends"): the bundler's module text is
 * overlaid over the disk, an edit of an imported file is picked up after `invalidate()`, a
 * deleted one gives a diagnostic (never a throw) and recovers when it is back, a module created
 * after the project was loaded belongs to it; `close()` leaves
 * no child process (the IPC backends' sidecar; the classic backend runs in-process).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ModuleModel, ObjectModel } from "@typed-mcp/model";
import { createExtractor } from "../../packages/extract/src/index.js";
import { childPids as children } from "../helpers/processes.ts";
import { TYPESCRIPT71 } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "typed-mcp-backends-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const backends = ["7.0", "7.1", "6"] as const;
const choice = (b: string) => (b === "7.1" ? TYPESCRIPT71 : b);

const TOOLS = `import { tool } from "typed-mcp";
import type { Shape } from "./shape.js";

export class Watch {
  @tool() draw(shape: Shape): void {}
}
`;
const SHAPE = `export interface Shape {\n  sides: number;\n}\n`;

/** A self-contained project in a temporary directory, with a stub of typed-mcp's `tool`. */
function project(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "typed-mcp"), { recursive: true });
  writeFileSync(join(dir, "typed-mcp", "index.ts"), `export declare function tool(...a: unknown[]): any;\n`);
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
        paths: { "typed-mcp": ["./typed-mcp/index.ts"] },
      },
      include: ["."],
    }),
  );
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  writeFileSync(join(dir, "shape.ts"), SHAPE);
  return dir;
}

const props = (m: ModuleModel) =>
  ((m.tools[0]?.params[0] as { type: ObjectModel } | undefined)?.type.properties ?? []).map((p) => p.name);

function waitGone(pids: number[]): number[] {
  const deadline = Date.now() + 5000;
  let left = children().filter((p) => pids.includes(p));
  while (left.length && Date.now() < deadline) {
    execFileSync("sleep", ["0.05"]);
    left = children().filter((p) => pids.includes(p));
  }
  return left;
}

describe.each(backends)("the %s backend in watch mode", (backend) => {
  it("overlay, invalidate after an edit, deletion and recovery, memo, close", () => {
    const dir = project(`p${backend.replace(".", "")}`);
    const file = join(dir, "tools.ts");
    const before = children();
    const ex = createExtractor({ cwd: dir, typescript: choice(backend) });
    try {
      const first = ex.extract(file, TOOLS);
      expect(first.diagnostics).toEqual([]);
      expect(first.tools.map((t) => t.name)).toEqual(["draw"]);
      expect(props(first)).toEqual(["sides"]);
      expect(first.consultedFiles).toEqual([join(dir, "shape.ts")]);
      expect(ex.stats().backend).toBe(backend);
      const sidecars = children().filter((p) => !before.includes(p));
      expect(sidecars.length).toBe(backend === "6" ? 0 : 1);

      // The bundler's text differs from the disk: a renamed tool method.
      const edited = TOOLS.replace("draw(shape", "paint(shape");
      expect(ex.extract(file, edited).tools.map((t) => t.name)).toEqual(["paint"]);
      // Unchanged text, nothing invalidated: the same model again.
      expect(ex.extract(file, edited)).toEqual(ex.extract(file, edited));

      // An imported file changes on disk and is invalidated.
      writeFileSync(
        join(dir, "shape.ts"),
        `export interface Shape {\n  sides: number;\n  /** The colour. */\n  color: string;\n}\n`,
      );
      ex.invalidate(join(dir, "shape.ts"));
      expect(props(ex.extract(file, edited))).toEqual(["sides", "color"]);

      // Deleted: the type no longer resolves → OMCG0005 at the parameter, never a throw.
      rmSync(join(dir, "shape.ts"));
      ex.invalidate(join(dir, "shape.ts"), true);
      const gone = ex.extract(file, edited);
      expect(gone.tools).toEqual([]);
      expect(gone.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["OMCG0005", 5, 17]]);

      // A module created after the project was loaded (include: ["."]) is part of it.
      const extra = join(dir, "extra.ts");
      const EXTRA = `import { tool } from "typed-mcp";\n\nexport class Extra {\n  @tool() count(n: number): void {}\n}\n`;
      writeFileSync(extra, EXTRA);
      const created = ex.extract(extra, EXTRA);
      expect(created.diagnostics).toEqual([]);
      expect(created.tools.map((t) => t.name)).toEqual(["count"]);

      // Back again.
      writeFileSync(join(dir, "shape.ts"), SHAPE);
      ex.invalidate(join(dir, "shape.ts"));
      const back = ex.extract(file, edited);
      expect(back.diagnostics).toEqual([]);
      expect(props(back)).toEqual(["sides"]);
    } finally {
      ex.close();
      ex.close();
    }
    expect(waitGone(children().filter((p) => !before.includes(p)))).toEqual([]);
  });
});
