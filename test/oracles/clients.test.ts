/**
 * Real client libraries as oracles (issue 23, spec §11; full tier): every tool of the fixture
 * corpus (test/backends' corpus, extracted by the real TypeScript 7.0 checker) is listed with
 * each profile as the build plugins list it (codegen's `profiledListing`) and run through the
 * schema converters its target clients ship (test/oracles/clients/run.mjs, pinned versions,
 * the libraries' own functions under Node 22, no provider called). Each tool's result is
 * rejected, lossy, said or unchanged (./compare.ts). Allowed: a loss at a node an OMCW0003 names,
 * and LangChain's `ChatGoogleGenerativeAI` own union handling (docs/profiles.md states it as that
 * client's limit, with its version). The default listing reaches its targets unchanged. The
 * table in docs/profiles.md is this test's (`TYPED_MCP_ORACLES_WRITE=1` rewrites it).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintListing, profiledListing, type ProfileWarning } from "../../packages/codegen/dist/index.js";
import { createExtractor } from "../../packages/extract/src/index.js";
import type { ToolListing } from "../../packages/model/src/index.ts";
import { corpus, ROOT } from "../backends/helpers.ts";
import { NODE22 } from "../helpers/node22.ts";
import { FULL } from "../helpers/tier.ts";
import { losses, verdict, type Loss, type Verdict } from "./compare.ts";
import { installClients, ORACLES_DIR, RUNNER } from "./install.ts";
import { oracleTable, type Row } from "./table.ts";

const PROFILES = ["default", "gemini", "openai-strict", "cursor"] as const;
/** The clients whose own handling of a node is a limit no listing works around (docs/profiles.md "Client limits"). */
const LANGCHAIN = ["LangChain ChatGoogleGenerativeAI", "LangChain ChatOpenAI strict"];
const AI_SDK_3 = "@ai-sdk/google 3.x";

interface Listed {
  listing: ToolListing;
  warnings: ProfileWarning[];
}
interface Answer {
  versions: Record<string, string>;
  results: Record<string, { schema?: unknown; error?: string }[]>;
}
const rows: Row[] = [];
/** The default listing through the openai-strict targets: what `--lint openai-strict` is checked against. */
let lintCheck: { listing: ToolListing; results: Record<string, { error?: string }> }[] = [];
const detail: Record<string, string[]> = {};

/** Every test/<area>/fixtures tree: the fixture corpus of the whole suite. */
const FIXTURE_DIRS = readdirSync(join(ROOT, "test"))
  .filter((d) => existsSync(join(ROOT, "test", d, "fixtures")))
  .map((d) => `test/${d}/fixtures`);

/** The corpus's tools, as models, from every module that builds (no diagnostics). */
function corpusTools() {
  const extractor = createExtractor({ cwd: ROOT, typescript: "7.0" });
  try {
    return corpus(FIXTURE_DIRS).flatMap((f) => {
      const m = extractor.extract(f, readFileSync(f, "utf8"));
      return m.diagnostics.length ? [] : m.tools.map((t) => ({ file: relative(ROOT, f), tool: t }));
    });
  } finally {
    extractor.close();
  }
}

/** Paths of the nodes with an `anyOf` in a schema (where LangChain's union handling applies). */
function unionPaths(n: unknown, path = "", out: string[] = []): string[] {
  if (typeof n !== "object" || n === null) return out;
  if (Array.isArray(n)) {
    n.forEach((m, i) => {
      unionPaths(m, `${path}/${i}`, out);
    });
  } else {
    if ("anyOf" in n) out.push(path);
    for (const [k, v] of Object.entries(n)) unionPaths(v, `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, out);
  }
  return out;
}
/** Whether `path` is one of `roots` or inside one (JSON Pointers). */
const under = (path: string, roots: string[]) => roots.some((r) => path === r || path.startsWith(`${r}/`) || r === "");

/** The node at a JSON Pointer of a schema (RFC 6901), or undefined. */
function at(schema: unknown, path: string): Record<string, unknown> | undefined {
  let n: unknown = schema;
  for (const k of path
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~")))
    n = typeof n === "object" && n !== null ? (n as Record<string, unknown>)[k] : undefined;
  return typeof n === "object" && n !== null ? (n as Record<string, unknown>) : undefined;
}

/**
 * A loss is allowed when an OMCW0003 names its node (or an ancestor), or it is a client's stated
 * limit: LangChain's union handling (`simplifyJsonSchemaForLLM` of `@langchain/mcp-adapters`) at or
 * under an `anyOf`, and the AI SDK 3.x dropping `nullable` beside a single `type` (§11 says no sentence there).
 */
function allowed(l: Loss, library: string, listed: Listed): boolean {
  const schema = listed.listing.inputSchema;
  if (
    under(
      l.path,
      listed.warnings.map((w) => w.path),
    )
  )
    return true;
  if (LANGCHAIN.includes(library) && under(l.path, unionPaths(schema))) return true;
  const node = at(schema, l.path);
  return library === AI_SDK_3 && l.keyword === "nullable" && node?.nullable === true && typeof node.type === "string";
}

function classify(profile: string, listed: Listed[], answer: Answer): void {
  for (const [library, results] of Object.entries(answer.results)) {
    const count: Record<Verdict | "allowed", number> = { rejected: 0, lossy: 0, said: 0, unchanged: 0, allowed: 0 };
    const bad: string[] = [];
    results.forEach((r, i) => {
      const found =
        r.error === undefined ? losses(listed[i].listing.inputSchema as Record<string, unknown>, r.schema) : [];
      const open = found.filter((l) => !l.said && !allowed(l, library, listed[i]));
      const v = verdict(r, found);
      count[v]++;
      // A rejected tool is allowed when an OMCW0003 says what of it the profile cannot express.
      const named = v === "rejected" ? listed[i].warnings.length > 0 : v === "lossy" && !open.length;
      if (named) count.allowed++;
      const name = listed[i].listing.name;
      if (r.error !== undefined && !named) bad.push(`${name}: rejected: ${r.error}`);
      else if (open.length) bad.push(`${name}: ${open.map((l) => `${l.keyword} at ${l.path || "/"}`).join(", ")}`);
      // The default listing reaches its targets byte for byte (they send `parametersJsonSchema`).
      else if (profile === "default" && JSON.stringify(r.schema) !== JSON.stringify(listed[i].listing.inputSchema))
        bad.push(`${name}: ${v}, not the listed bytes`);
    });
    rows.push({ library, version: answer.versions[library], profile, ...count });
    detail[`${profile} × ${library}`] = bad;
  }
}

/** Runs `listed` through the target libraries of `profile` (one Node 22 subprocess). */
function run(profile: string, listed: Listed[]): Answer {
  const input = listed.map(({ listing: l }) => ({
    name: l.name,
    description: l.description,
    inputSchema: l.inputSchema,
  }));
  const out = execFileSync(NODE22, [RUNNER], {
    cwd: ORACLES_DIR,
    input: JSON.stringify({ profile, tools: input }),
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out.toString()) as Answer;
}

beforeAll(() => {
  if (!FULL) return;
  installClients();
  const tools = corpusTools();
  for (const profile of PROFILES) {
    const listed = tools.map(({ tool }) => profiledListing(tool, profile) as Listed);
    const answer = run(profile, listed);
    classify(profile, listed, answer);
    if (profile !== "default") continue;
    const strict = run("openai-strict", listed);
    lintCheck = listed.map(({ listing }, i) => ({
      listing,
      results: Object.fromEntries(Object.entries(strict.results).map(([lib, r]) => [lib, r[i]])),
    }));
  }
}, 600_000);

afterAll(() => {
  if (FULL && process.env.TYPED_MCP_ORACLES_WRITE === "1") {
    const doc = join(ROOT, "docs/profiles.md");
    writeFileSync(doc, oracleTable.replace(readFileSync(doc, "utf8"), rows));
  }
});

describe.skipIf(!FULL)("the fixture corpus through the client libraries of each profile", () => {
  it("runs every target library of every profile on the whole corpus (cursor: none public)", () => {
    expect(rows.filter((r) => r.profile === "default").map((r) => r.library)).toEqual([
      "@ai-sdk/google",
      "@google/genai mcpToTool",
    ]);
    expect(rows.filter((r) => r.profile === "gemini")).toHaveLength(4);
    expect(rows.filter((r) => r.profile === "openai-strict")).toHaveLength(4);
    expect(rows.filter((r) => r.profile === "cursor")).toEqual([]);
    for (const r of rows) expect(r.rejected + r.lossy + r.said + r.unchanged).toBeGreaterThanOrEqual(190);
  });

  for (const profile of PROFILES.filter((p) => p !== "cursor"))
    it(`${profile}: no library rejects a tool or loses what the description does not say, but what is named`, () => {
      const open = Object.entries(detail).filter(([k, v]) => k.startsWith(`${profile} ×`) && v.length);
      expect(Object.fromEntries(open.map(([k, v]) => [k, v.slice(0, 10)]))).toEqual({});
    });

  it("--lint openai-strict flags every default-listing tool the strict converters refuse, naming the node they name", () => {
    const refusing = ["openai toStrictJsonSchema", "@openai/agents convertSchemasToStrict"];
    const refused = lintCheck.filter((c) => refusing.some((lib) => c.results[lib].error !== undefined));
    expect(refused.length).toBeGreaterThan(20);
    for (const c of refused) {
      const findings = lintListing(c.listing, "openai-strict");
      expect(findings.length, c.listing.name).toBeGreaterThan(0);
      // toStrictJsonSchema names the node ("Object schema at `properties/x` …"); the lint reports it or its object.
      const named = /at `([^`]*)`/.exec(c.results["openai toStrictJsonSchema"].error ?? "")?.[1];
      if (named !== undefined)
        expect(
          findings.some((f) => under(named ? `/${named}` : "", [f.path])),
          `${c.listing.name}: ${named}`,
        ).toBe(true);
    }
  });

  it("a default-listing tool the lint passes, the strict converters take as strict", () => {
    const clean = lintCheck.filter((c) => lintListing(c.listing, "openai-strict").length === 0);
    expect(clean.length).toBeGreaterThan(0);
    for (const c of clean)
      for (const [lib, r] of Object.entries(c.results)) expect(r.error, `${lib}: ${c.listing.name}`).toBeUndefined();
  });

  it("docs/profiles.md has this run's table", () => {
    expect(readFileSync(join(ROOT, "docs/profiles.md"), "utf8")).toBe(
      oracleTable.replace(readFileSync(join(ROOT, "docs/profiles.md"), "utf8"), rows),
    );
  });
});
