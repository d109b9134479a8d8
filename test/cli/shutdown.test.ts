/**
 * `typed-mcp list` never prints `context canceled` (issue 23): the TypeScript 7 sidecar inherits
 * the CLI's stderr, and tsgo prints that line when a SIGTERM reaches it before its last exchange
 * with the client is over — which the API's own close() risks (pipes closed, then SIGTERM at
 * once; seen 1 run in 16 under load). Forced deterministically, not by repetition
 * (test/cli/fixtures/shutdown/race.mjs):
 * - control: the losing order forced with the TypeScript API itself prints the line, so the
 *   capture below can see it;
 * - typed-mcp's extractor sends no signal at all on close(): the sidecar ends at the end of its
 *   input, and nothing reaches stderr;
 * - the CLI's stderr is empty on a real `list` with the sidecar (so `2>&1 | jq` works).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, ROOT } from "./helpers.ts";

const RACE = join(ROOT, "test/cli/fixtures/shutdown/race.mjs");
const dir = join(ROOT, "test/cli/fixtures/list");

/** Runs race.mjs; stderr is a pipe the sidecar inherits, read until every holder closed it. */
function race(mode: "control" | "extractor") {
  const r = spawnSync(process.execPath, [RACE, mode, dir, "weather.ts"], { encoding: "utf8", timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the TypeScript 7 sidecar's shutdown", () => {
  it("control: a SIGTERM before the sidecar's last exchange prints `context canceled` on the shared stderr", () => {
    const r = race("control");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("context canceled");
  }, 120_000);

  it("the extractor's close() sends the sidecar no signal; it ends at the end of its input, silently", () => {
    const r = race("extractor");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("signals: 0\nsidecar ended: yes\n");
    expect(r.stderr).toBe("");
  }, 120_000);

  it("typed-mcp list: stdout is the listing, stderr is empty", () => {
    const r = cli(["list", "weather.ts", "library.ts"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout).tools.length).toBeGreaterThan(0);
  }, 120_000);
});
