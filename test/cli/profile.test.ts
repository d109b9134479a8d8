/**
 * `typed-mcp list|check --profile NAME`, `check --lint NAME` and `check --strict` (spec §10
 * build warnings, §11 profiles) on the profile fixture, with the real TypeScript checker.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, ROOT } from "./helpers.ts";

const dir = join(ROOT, "test/bundlers/fixtures/profile");
const W1 =
  "src/server.ts:5:1 - OMCW0001: Tool name 'notes.search' contains '.': OpenAI, Anthropic and Bedrock refuse it, and clients prefix it with the server's name.";
const W2 =
  "src/server.ts:6:1 - OMCW0002: Tool 'find' returns a T | null object-shaped result: the official client refuses the null answer (spec §6).";

describe("typed-mcp --profile / --lint / --strict", () => {
  it("list --profile openai-strict prints the rewritten listing", () => {
    const r = cli(["list", "src/server.ts", "--profile", "openai-strict"], dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).tools[0].inputSchema).toEqual({
      type: "object",
      properties: { query: { type: "string" }, limit: { type: ["number", "null"], description: "Default: 10." } },
      required: ["query", "limit"],
      additionalProperties: false,
    });
  });

  it("check prints OMCW0001 and OMCW0002 on stderr and exits 0; --strict exits 1", () => {
    const r = cli(["check", "src/server.ts"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`${W1}\n${W2}\n`);
    const strict = cli(["check", "src/server.ts", "--strict"], dir);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toBe(`${W1}\n${W2}\ntyped-mcp check: 2 warnings (--strict).\n`);
  });

  it("check --lint gemini names every node Gemini rejects in the default listing, and none after --profile gemini", () => {
    const r = cli(["check", "src/server.ts", "--lint", "gemini"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "src/server.ts:5:1 - lint gemini: tool 'notes.search' additionalProperties at inputSchema: Gemini refuses additionalProperties.",
    );
    expect(r.stderr).toContain(
      "src/server.ts:6:1 - lint gemini: tool 'find' additionalProperties at inputSchema: Gemini refuses additionalProperties.",
    );
    const after = cli(["check", "src/server.ts", "--lint", "gemini", "--profile", "gemini", "--strict"], dir);
    expect(after.stderr).toBe(`${W1}\n${W2}\ntyped-mcp check: 2 warnings (--strict).\n`);
    const lintOnly = cli(["check", "src/server.ts", "--lint", "openai-strict", "--profile", "openai-strict"], dir);
    expect(lintOnly.code).toBe(0);
    expect(lintOnly.stderr).toBe(`${W1}\n${W2}\n`);
  });

  it("check --profile openai-strict: no OMCW0003 for a nullable optional parameter defaulting to null (spec §11)", () => {
    const r = cli(["check", "tools.ts", "--profile", "openai-strict"], join(ROOT, "test/cli/fixtures/profile-null"));
    expect(r.code).toBe(0);
    // `tag: string | null = null` and `({ tag = null })` warn nothing; `note?: string | null` keeps null as a value.
    expect(r.stderr).toBe(
      "tools.ts:6:1 - OMCW0003: Tool 'tagged': the openai-strict profile lists an optional nullable property as required: null stays a value, not absent (required at inputSchema /properties/note).\n",
    );
  });

  it("an unknown profile or lint family is bad usage (exit 2)", () => {
    const r = cli(["list", "src/server.ts", "--profile", "claude"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "typed-mcp: --profile 'claude': expected one of default, gemini, openai-strict, cursor.",
    );
    expect(cli(["check", "src/server.ts", "--lint", "default"], dir).code).toBe(2);
    expect(cli(["list", "src/server.ts", "--strict"], dir).code).toBe(2);
  });
});
