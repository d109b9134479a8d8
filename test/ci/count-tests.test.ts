/**
 * The `N passed, N failed` line of .ci/run (scripts/count-tests.mjs) over vitest JSON reports:
 * failed tests count, and so does a file that failed before any test ran (a `beforeAll` that
 * threw: vitest reports the file `failed` and its tests `skipped`, with `numFailedTests` 0), and a
 * missing report. The reports below have the fields of vitest 4's JSON reporter.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../scripts/count-tests.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "typed-mcp-count-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const test = (status: string) => ({ status, title: "t", fullName: "t", ancestorTitles: [], failureMessages: [] });
function report(name: string, body: object): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(body));
  return file;
}
/** Runs the script on `files`; its stdout (what it names goes to stderr, not checked here). */
function count(...files: string[]): { stdout: string } {
  return {
    stdout: execFileSync(process.execPath, [SCRIPT, ...files], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }),
  };
}

it("counts passed and failed tests over every report", () => {
  const a = report("a.json", {
    numPassedTests: 3,
    numFailedTests: 1,
    testResults: [
      { name: "/r/a.test.ts", status: "failed", message: "", assertionResults: [test("passed"), test("failed")] },
    ],
  });
  const b = report("b.json", {
    numPassedTests: 2,
    numFailedTests: 0,
    testResults: [{ name: "/r/b.test.ts", status: "passed", message: "", assertionResults: [test("passed")] }],
  });
  expect(count(a, b).stdout).toBe("5 passed, 1 failed\n");
});

it("counts a file whose beforeAll threw (its tests skipped) as one failure", () => {
  const r = report("hook.json", {
    numPassedTests: 4,
    numFailedTests: 0,
    testResults: [
      { name: "/r/ok.test.ts", status: "passed", message: "", assertionResults: [test("passed")] },
      {
        name: "/r/browser.test.ts",
        status: "failed",
        message: "Chromium is not installed",
        assertionResults: [test("skipped"), test("skipped")],
      },
    ],
  });
  expect(count(r).stdout).toBe("4 passed, 1 failed\n");
});

it("counts a missing report (that run did not finish) as one failure", () => {
  const a = report("only.json", { numPassedTests: 1, numFailedTests: 0, testResults: [] });
  expect(count(a, join(dir, "missing.json")).stdout).toBe("1 passed, 1 failed\n");
});
