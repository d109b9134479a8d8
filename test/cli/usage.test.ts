import { describe, expect, it } from "vitest";
import { childPids as children } from "../helpers/processes.ts";
import { FIXTURES, cli, cliProcess } from "./helpers.js";

const HINT = "Run 'typed-mcp --help' for usage.\n";

describe("typed-mcp usage: exit 2 with a clear message", () => {
  it.each([
    [[], /^typed-mcp: missing command/],
    [["lint", "a.ts"], /^typed-mcp: unknown command 'lint'/],
    [["list"], /^typed-mcp: 'list' needs at least one \.ts file\./],
    [["check"], /^typed-mcp: 'check' needs at least one \.ts file\./],
    [["list", "--verbose", "list/second.ts"], /^typed-mcp: Unknown option '--verbose'/],
    [["list", "list/second.ts", "--project"], /^typed-mcp: Option '-p, --project <value>' argument missing/],
    [["check", "missing.ts"], /^typed-mcp: cannot read 'missing\.ts': no such file\./],
    [["check", "diag"], /^typed-mcp: 'diag' is not a file\./],
    [
      ["list", "list/second.ts", "--project", "nowhere/tsconfig.json"],
      /^typed-mcp: --project 'nowhere\/tsconfig\.json': no such file\./,
    ],
  ])("%j", (args, message) => {
    const r = cli(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(r.stderr.endsWith(HINT)).toBe(true);
  });

  it("--help, -h and help print the usage and exit 0", () => {
    for (const args of [["--help"], ["-h"], ["help"], ["list", "--help"]]) {
      const r = cli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: typed-mcp <command> <file\.ts…> \[--project tsconfig\.json\]\n/);
      expect(r.stdout).toMatch(/\n {2}list {3}/);
      expect(r.stdout).toMatch(/\n {2}check {2}/);
      expect(r.stdout).toMatch(/Exit codes: 0 ok, 1 diagnostics, 2 bad usage\./);
    }
  });
});

describe("typed-mcp leaves no process behind", () => {
  it("runCli closes the TypeScript sidecar before it returns", async () => {
    const { runCli } = await import("../../packages/cli/dist/index.js");
    const before = children();
    let out = "";
    const io = { stdout: (t: string) => void (out += t), stderr: () => {}, cwd: FIXTURES };
    expect(runCli(["list", "list/second.ts"], io)).toBe(0);
    expect(out).toMatch(/"second\.tool"/);
    expect(runCli(["check", "diag/d0002.ts"], io)).toBe(1);
    const deadline = Date.now() + 5000;
    let left = children().filter((p) => !before.includes(p));
    while (left.length && Date.now() < deadline) {
      await new Promise((ok) => setTimeout(ok, 50));
      left = children().filter((p) => !before.includes(p));
    }
    expect(left).toEqual([]);
  });
});

// The other CLI tests call runCli in this process with one warm type-checker (helpers.ts `cli`);
// these three start the real executable, one per exit code (docs/cli.md: 0 ok, 1 diagnostics,
// 2 bad usage), and require the same status, stdout and stderr as the in-process run.
describe("the typed-mcp executable answers as runCli does", () => {
  it.each([
    [["list", "list/weather.ts"], 0],
    [["check", "diag/d0002.ts"], 1],
    [["lint", "a.ts"], 2],
  ] as [string[], number][])("%j exits %i", (args, code) => {
    const real = cliProcess(args);
    expect(real.code).toBe(code);
    expect(real).toEqual(cli(args));
  });
});
