/**
 * Which test files run in a process of their own (vitest `isolate: true`) and which share their
 * worker's module cache with the files before them (`isolate: false`, the "shared" project of
 * vitest.config.ts; docs/contributing.md "Test tiers"). Sharing saves each file a new process and
 * a fresh import of the SDK, the client and the built packages (the suite's import phase, summed
 * over its files: 108 s → 17 s on a loaded 2-core machine).
 *
 * A file needs its own process when it, or a local module it imports (transitively, `./` and
 * `../` imports), has one of the {@link MARKERS}: it counts this process's child processes (the
 * TypeScript sidecars a file before it may have left warm, as a real build keeps them until the
 * process ends), or it replaces a module or a global (`vi.mock`, `vi.spyOn`, `vi.stub*`, fake
 * timers), which must not reach another file; or a helper it imports registers a vitest hook at
 * its top level ({@link HELPER_MARKERS}): a shared worker evaluates a helper once, for the first
 * file that imports it, so the hook would run for that file only. Computed, not listed, so a new
 * test of that kind is isolated without anyone remembering to.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** What makes a file need a process of its own (see the module comment). */
const MARKERS =
  /\b(?:childPids|sidecarPids|sidecarsGone)\b|\/proc\/self\/task|\bvi\.(?:mock|doMock|spyOn|stubEnv|stubGlobal|useFakeTimers)\b/;
/** What makes an imported helper (not a test file: those are evaluated once per file in either mode) need it too. */
const HELPER_MARKERS = /^(?:after|before)(?:All|Each)\(/m;
/** Relative module specifiers of static imports and re-exports. */
const IMPORTS = /\bfrom\s+["'](\.{1,2}\/[^"']+)["']/g;

/** The test files under `root`/test that need their own process, relative to `root`, sorted. */
export function isolatedTestFiles(root: string): string[] {
  const marked = new Map<string, boolean>();
  const visit = (file: string, stack: Set<string>): boolean => {
    const known = marked.get(file);
    if (known !== undefined) return known;
    if (stack.has(file)) return false; // a cycle: its other members decide
    stack.add(file);
    const text = source(file);
    if (text === undefined) return false; // not test code (a built package), or no such file
    let result = MARKERS.test(text) || (!file.endsWith(".test.ts") && HELPER_MARKERS.test(text));
    for (const [, spec] of text.matchAll(IMPORTS)) {
      if (result) break;
      const target = resolve(dirname(file), spec!);
      if (!target.startsWith(join(root, "test"))) continue;
      result = visit(target, stack);
    }
    stack.delete(file);
    marked.set(file, result);
    return result;
  };
  return testFiles(join(root, "test"))
    .filter((f) => visit(f, new Set()))
    .map((f) => relative(root, f))
    .sort();
}

/** The text of the module `file` names (`x.js` may be `x.ts`, and `x` may be `x.ts`), or `undefined`. */
function source(file: string): string | undefined {
  for (const candidate of [file, file.replace(/\.js$/, ".ts"), `${file}.ts`]) {
    try {
      return readFileSync(candidate, "utf8");
    } catch {
      // the next spelling
    }
  }
  return undefined;
}

/** Every `*.test.ts` under `dir`, but in node_modules and fixtures. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name.startsWith("fixture") ? [] : testFiles(path);
    return e.name.endsWith(".test.ts") ? [path] : [];
  });
}
