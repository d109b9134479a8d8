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
import { diffListings } from "../../packages/cli/dist/listing-diff.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** A `typed-mcp dev src/server.ts` process over a temporary copy of fixtures/dev (overlaid with `overlay`'s files). */
class DevSession {
  dir = "";
  out = "";
  private dev?: ChildProcessWithoutNullStreams;

  constructor(private readonly overlay?: string) {}

  start(): void {
    this.dir = mkdtempSync(join(tmpdir(), "typed-mcp-dev-"));
    cpSync(join(root, "test/cli/fixtures/dev"), this.dir, { recursive: true });
    if (this.overlay) cpSync(join(root, "test/cli/fixtures", this.overlay), this.dir, { recursive: true });
    symlinkSync(join(root, "node_modules"), join(this.dir, "node_modules"));
    const dev = spawn(
      process.execPath,
      [
        join(root, "packages/cli/dist/bin.js"),
        "dev",
        "src/server.ts",
        "--build",
        "node build.mjs",
        "--start",
        "node dist/server.js",
      ],
      { cwd: this.dir, detached: true },
    );
    dev.stdout.setEncoding("utf8").on("data", (t: string) => (this.out += t));
    dev.stderr.setEncoding("utf8").on("data", (t: string) => (this.out += t));
    this.dev = dev;
  }

  async stop(): Promise<void> {
    const dev = this.dev;
    if (dev?.exitCode === null) {
      const exited = new Promise((r) => dev.once("exit", r));
      dev.kill("SIGTERM");
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Resolves once the dev output after `from` contains `text`; fails with the output after `ms`. */
  async waitFor(text: string | RegExp, from: number, ms = 30_000): Promise<string> {
    const start = Date.now();
    while (Date.now() - start < ms) {
      const seen = this.out.slice(from);
      if (typeof text === "string" ? seen.includes(text) : text.test(seen)) return seen;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${String(text)} in typed-mcp dev's output:\n${this.out.slice(from)}`);
  }

  /** Replaces `from` by `to` in `rel` (default src/server.ts); returns the output offset before the edit. */
  edit(from: string, to: string, rel = "src/server.ts"): number {
    const file = join(this.dir, rel);
    const mark = this.out.length;
    const text = readFileSync(file, "utf8");
    expect(text).toContain(from);
    // Saved the way editors and `sed -i` save: a new file renamed over the old one (a new inode), so
    // every edit after the first checks that the watch survives a replaced file.
    writeFileSync(`${file}.swp`, text.replace(from, to));
    renameSync(`${file}.swp`, file);
    return mark;
  }
}

describe("typed-mcp dev", () => {
  const session = new DevSession();
  beforeAll(() => session.start());
  afterAll(() => session.stop());
  const waitFor = session.waitFor.bind(session);
  const edit = (from: string, to: string) => session.edit(from, to);

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
    expect(seen).toMatch(/✘ \[ERROR\][^\n]*\n?[\s\S]*OMCG0005/);
    expect(seen).toMatch(/src\/server\.ts:13:\d+/);
  });
});

describe("typed-mcp dev on an entry that only imports its tool modules", () => {
  // fixtures/dev-imports: src/server.ts registers Orders (./orders.js, whose parameter type is
  // the interface in ./types.ts) and Totals (./totals.js) and declares no tool itself.
  const session = new DevSession("dev-imports");
  beforeAll(() => session.start());
  afterAll(() => session.stop());

  it("prints every imported module's tool with + on the first build", async () => {
    const seen = await session.waitFor(/serving http:\/\/127\.0\.0\.1:\d+\/mcp/, 0);
    expect(seen).toContain("+ tool place_order\n+ tool sum\n");
    expect(seen).not.toContain("listing unchanged");
  });

  it("prints ~ tool place_order after a property is added to the imported interface file", async () => {
    const mark = session.edit("sku: string;", "sku: string;\n  note?: string;", "src/types.ts");
    const seen = await session.waitFor("serving http://", mark);
    expect(seen).toContain("~ tool place_order: inputSchema.properties.input.properties.note\n");
    expect(seen).not.toContain("tool sum");
  });
});

describe("diffListings", () => {
  const empty = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  it("names added, removed and changed entries of every list, by MCP field path", () => {
    const before = {
      ...empty,
      tools: [{ name: "a", inputSchema: { type: "object", properties: {} } }],
      prompts: [{ name: "p", arguments: [] }],
    } as never;
    const after = {
      ...empty,
      tools: [
        { name: "a", description: "A.", inputSchema: { type: "object", properties: { limit: { type: "integer" } } } },
      ],
      resourceTemplates: [{ uriTemplate: "notes://{id}", name: "note" }],
    } as never;
    expect(diffListings(before, after)).toEqual([
      "~ tool a: description, inputSchema.properties.limit",
      "+ resource template notes://{id}",
      "- prompt p",
    ]);
    expect(diffListings(after, after)).toEqual([]);
  });
});
