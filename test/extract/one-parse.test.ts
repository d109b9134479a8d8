// One oxc parse per module serves both site finders (tools, and resources/prompts).
import { afterAll, describe, expect, it, vi } from "vitest";

const counter = vi.hoisted(() => ({ parses: 0, files: [] as string[] }));
// The extract package's own oxc-parser (the workspace root has none to resolve a bare name to).
vi.mock("../../packages/extract/node_modules/oxc-parser/src-js/index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("oxc-parser")>();
  return {
    ...real,
    parseSync: (...args: Parameters<typeof real.parseSync>) => {
      counter.parses++;
      counter.files.push(String(args[0]));
      return real.parseSync(...args);
    },
  };
});

const { createExtractor } = await import("../../packages/extract/src/index.js");
const { scanModule } = await import("../../packages/extract/src/sites.js");
const { parseModule } = await import("../../packages/extract/src/parse.js");
const { fixture } = await import("./helpers.js");

const code = `import { McpServer, tool, resource, prompt } from "typed-mcp";
const server = new McpServer({ name: "n", version: "1" });
class A {
  @tool() add(a: number): number { return a; }
  @resource("note://{id}") note(id: string): string { return id; }
  @prompt() greet(who: string): string { return who; }
}
server.tool("echo", (t: string) => t,);
server.resource("x://y", () => "y");
export { A };
`;

describe("one oxc parse per module", () => {
  const ex = createExtractor();
  afterAll(() => ex.close());

  it("one walk of a given parse finds every kind of site, in source order", () => {
    const parsed = parseModule("/m.ts", code);
    counter.parses = 0;
    const scan = scanModule(code, parsed);
    expect(counter.parses).toBe(0);
    const tools = { sites: scan.sites.filter((s) => s.what === "tool") };
    const resources = scan.sites.filter((s) => s.what !== "tool");
    expect(tools.sites.map((s) => (s.kind === "method" ? s.member : s.options.name))).toEqual(["add", "echo"]);
    expect(tools.sites[1]).toMatchObject({ kind: "quick", trailingComma: true });
    expect(
      resources.map((s) => [s.what, s.kind, s.options.uri ?? s.options.name ?? (s.kind === "method" ? s.member : "")]),
    ).toEqual([
      ["resource", "method", "note://{id}"],
      ["prompt", "method", "greet"],
      ["resource", "quick", "x://y"],
    ]);
    expect(scanModule(code, parseModule("/m.ts", code))).toEqual(scan);
  });

  it("extracting a module parses it once", () => {
    const src = fixture("docs/docs.ts");
    counter.files = [];
    const model = ex.extract(src.file, src.code + `\n// mentions a resource and a prompt, so both finders look\n`);
    expect(model.tools.length).toBeGreaterThan(0);
    expect(counter.files.filter((f) => f === src.file)).toHaveLength(1);
    // Each file it consulted is parsed once more, for its declaration table (docs/bundlers.md
    // "Invalidation per declaration"), and only once.
    expect(counter.files.filter((f) => f !== src.file).sort()).toEqual(model.consultedFiles);
  });
});
