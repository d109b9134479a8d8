/**
 * `typed-mcp dev` with real rebuilds (issue 11): esbuild with the typed-mcp plugin rebuilds a
 * copy of fixtures/dev on each edit, the server restarts, and the listing diff is printed —
 * `+ tool x` for a new tool, `- tool y` for a removed one, `~ tool z: <dotted paths>` for a
 * changed listing (the MCP `Tool` field names: `inputSchema.properties.limit`). A build error is
 * printed as esbuild prints it and keeps the last server running.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffListings } from "../../packages/cli/dist/dev.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
let dir: string;
let dev: ChildProcessWithoutNullStreams;
let out = "";

/** Resolves once the dev output after `from` contains `text`; fails with the output after `ms`. */
async function waitFor(text: string | RegExp, from: number, ms = 30_000): Promise<string> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    const seen = out.slice(from);
    if (typeof text === "string" ? seen.includes(text) : text.test(seen)) return seen;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${String(text)} in typed-mcp dev's output:\n${out.slice(from)}`);
}
function edit(from: string, to: string): number {
  const file = join(dir, "src/server.ts");
  const mark = out.length;
  const text = readFileSync(file, "utf8");
  expect(text).toContain(from);
  // Saved the way editors and `sed -i` save: a new file renamed over the old one (a new inode), so
  // every edit after the first checks that the watch survives a replaced file.
  writeFileSync(`${file}.swp`, text.replace(from, to));
  renameSync(`${file}.swp`, file);
  return mark;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "typed-mcp-dev-"));
  cpSync(join(root, "test/cli/fixtures/dev"), dir, { recursive: true });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  dev = spawn(process.execPath, [join(root, "packages/cli/dist/bin.js"), "dev", "src/server.ts", "--build", "node build.mjs", "--start", "node dist/server.js"], { cwd: dir, detached: true });
  dev.stdout.setEncoding("utf8").on("data", (t: string) => (out += t));
  dev.stderr.setEncoding("utf8").on("data", (t: string) => (out += t));
});
afterAll(async () => {
  if (dev?.exitCode === null) {
    const exited = new Promise((r) => dev.once("exit", r));
    dev.kill("SIGTERM");
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("typed-mcp dev", () => {
  it("builds, prints the first listing as additions, and starts the server", async () => {
    const seen = await waitFor(/serving http:\/\/127\.0\.0\.1:\d+\/mcp/, 0);
    expect(seen).toContain("+ tool list_notes\n+ tool delete_note\n");
  });

  it("prints ~ with the changed paths after an edit that adds a parameter, and restarts", async () => {
    const mark = edit("listNotes(): string[] {", "listNotes(limit?: Int): string[] {");
    const seen = await waitFor("serving http://", mark);
    expect(seen).toContain("~ tool list_notes: inputSchema.properties.limit\n");
    expect(seen).not.toContain("delete_note");
  });

  it("prints + and - for added and removed tools", async () => {
    const mark = edit("deleteNote(id: Int): boolean {", "removeNote(id: Int): boolean {");
    const seen = await waitFor("serving http://", mark);
    expect(seen).toContain("+ tool remove_note\n- tool delete_note\n");
  });

  it("prints a build error as esbuild prints it, with the OMCG code, and keeps the server", async () => {
    const mark = edit("removeNote(id: Int): boolean {", "removeNote(id: any): boolean {");
    const seen = await waitFor("the last server keeps running", mark);
    expect(seen).toMatch(/✘ \[ERROR\][^\n]*\n?[^]*OMCG0005/);
    expect(seen).toMatch(/src\/server\.ts:13:\d+/);
  });
});

describe("diffListings", () => {
  const empty = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  it("names added, removed and changed entries of every list, by MCP field path", () => {
    const before = { ...empty, tools: [{ name: "a", inputSchema: { type: "object", properties: {} } }], prompts: [{ name: "p", arguments: [] }] } as never;
    const after = {
      ...empty,
      tools: [{ name: "a", description: "A.", inputSchema: { type: "object", properties: { limit: { type: "integer" } } } }],
      resourceTemplates: [{ uriTemplate: "notes://{id}", name: "note" }],
    } as never;
    expect(diffListings(before, after)).toEqual(["~ tool a: description, inputSchema.properties.limit", "+ resource template notes://{id}", "- prompt p"]);
    expect(diffListings(after, after)).toEqual([]);
  });
});
