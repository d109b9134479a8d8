// The official MCP conformance suite (@modelcontextprotocol/conformance, server leg) against a
// fixture server written as ordinary typed-mcp code (test/conformance/fixture/src), built with
// Vite + the typed-mcp plugin and served over HTTP on 127.0.0.1 by typed-mcp/node's serveHttp.
// For each revision the suite runs exactly what that revision requires (`--requirements`).
// Every scenario must pass except those in expected-failures.json, and every listed one must
// still fail, so the list stays honest. Extension scenarios (the tasks extension, SEP-2663: not
// scored by the suite, optional by definition) are asserted the same way, since typed-mcp
// implements tasks (docs/runtime.md "Tasks"). See docs/conformance.md.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUITE_VERSION, buildFixture, runSuite, startFixture, type FixtureServer, type SuiteRun } from "./run.js";

const here = dirname(fileURLToPath(import.meta.url));
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
const expectedFailures: Record<string, Record<string, string>> = JSON.parse(
  readFileSync(join(here, "expected-failures.json"), "utf8"),
);
/**
 * Per-scenario timeout given to the suite. Every passing scenario finishes in well under a second
 * on an idle machine, and no expected failure is a timeout, so the bound only stops a hang; at
 * 5 s, `tasks-lifecycle` (it polls a running task) timed out once at load 8–12 on 2 cores.
 */
const SCENARIO_TIMEOUT_MS = 30_000;

let work: string;
let server: FixtureServer | undefined;
const runs = new Map<string, SuiteRun>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "typed-mcp-conformance-"));
  const entry = await buildFixture(join(work, "dist"));
  server = await startFixture(entry);
  const results = await Promise.all(
    REVISIONS.map((rev) => runSuite(server!.url, rev, join(work, `results-${rev}`), SCENARIO_TIMEOUT_MS)),
  );
  for (const run of results) {
    runs.set(run.revision, run);
    const line = (ok: boolean) =>
      run.scenarios
        .filter((s) => s.passed === ok)
        .map((s) => s.scenario + (run.notScored[s.scenario] ? ` (${run.notScored[s.scenario]})` : ""));
    console.log(
      `conformance ${SUITE_VERSION} ${run.revision}: ${line(true).length} passed, ${line(false).length} failed\n` +
        `  passed: ${line(true).join(", ")}\n  failed: ${line(false).join(", ")}`,
    );
  }
}, 110_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.each(REVISIONS)("official MCP conformance suite, server scenarios, %s", (revision) => {
  const expected = expectedFailures[revision] ?? {};
  const run = (): SuiteRun => {
    const r = runs.get(revision);
    if (r === undefined) throw new Error(`no suite run for ${revision}`);
    return r;
  };
  const asserted = () => run().scenarios;

  it("ran every scenario the suite announced for the revision", () => {
    expect(run().scenarios.length).toBe(run().announced);
    // The revision's required core is there (a suite that silently ran nothing would fail here).
    const names = run().scenarios.map((s) => s.scenario);
    for (const core of [
      "tools-list",
      "tools-call-simple-text",
      "resources-read-text",
      "prompts-get-with-args",
      "dns-rebinding-protection",
    ]) {
      expect(names).toContain(core);
    }
    // 2026-07-28 runs the tasks extension's scenarios (SEP-2663), which the fixture's task tools serve.
    if (revision === "2026-07-28") expect(names.filter((n) => n.startsWith("tasks-")).length).toBe(10);
  });

  it("every scenario not listed in expected-failures.json passes", () => {
    const unexpected = asserted()
      .filter((s) => !(s.scenario in expected) && !s.passed)
      .map((s) => `${s.scenario}: ${s.failures.join(" | ")}`);
    expect(unexpected).toEqual([]);
  });

  it("every scenario listed in expected-failures.json still fails (else remove it from the list)", () => {
    const names = new Set(asserted().map((s) => s.scenario));
    const stale = Object.keys(expected).filter((name) => !names.has(name));
    expect(stale, "listed scenarios the suite did not run for this revision").toEqual([]);
    const nowPassing = asserted()
      .filter((s) => s.scenario in expected && s.passed)
      .map((s) => s.scenario);
    expect(nowPassing).toEqual([]);
  });

  it("every expected failure has a reason", () => {
    for (const [name, reason] of Object.entries(expected)) expect(reason.length, name).toBeGreaterThan(20);
  });
});
