/**
 * The differential test's machinery: random tool signatures (kinds.ts) → one TypeScript module
 * in a temp fixture folder → the REAL extraction (`createExtractor`, one warm extractor) → the
 * REAL codegen (`generateTool`, loaded by test/codegen/helpers.ts `load`) → for each tool, random
 * arguments (values.ts) read by the generated reader and judged by the oracle (oracle.ts).
 *
 * Property, per tool: the reader accepts (returns an argument array) exactly when the oracle
 * accepts; it never throws; and every accepted value survives reader → writer → reader unchanged.
 */
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createExtractor, type Extractor } from "../../packages/extract/dist/index.js";
import type { ToolModel, TypeModel, ValueParam } from "../../packages/model/src/index.ts";
import { fakeCtx, load, roundTripper, type Loaded } from "../codegen/helpers.ts";
import { renderModule, toolArb, type ToolNode } from "./kinds.ts";
import { compileOracle } from "./oracle.ts";
import { argsArb, listed } from "./values.ts";

const root = resolve(fileURLToPath(import.meta.url), "../../..");

/** Settings, from the environment (`FUZZ_*`), with the bounded suite's defaults. */
export interface FuzzConfig {
  /** Base seed: types come from it, tool `i`'s values from `seed + i` (batch `b` uses `seed + 1000 × b`). */
  seed: number;
  /** Random tools per module (batch). */
  tools: number;
  /** Argument values per tool. */
  runs: number;
  /** Container nesting depth. */
  depth: number;
  /** Keep running new batches (seed + 1000 × batch) until this many seconds have passed; 0 = one batch. */
  seconds: number;
  /** Replay: only this tool of the first batch, starting at this fast-check path. */
  tool?: number;
  path?: string;
}

export function config(env = process.env): FuzzConfig {
  const long = env.FUZZ_LONG === "1";
  const n = (k: string, d: number) => (env[k] !== undefined && env[k] !== "" ? Number(env[k]) : d);
  return {
    // The bounded suite is deterministic (a fixed seed); `pnpm fuzz` (FUZZ_LONG=1) draws a new one.
    seed: n("FUZZ_SEED", long ? (Date.now() % 2 ** 31) | 0 : 20261201),
    tools: n("FUZZ_TOOLS", 30),
    runs: n("FUZZ_RUNS", long ? 1000 : 200),
    depth: n("FUZZ_DEPTH", 2),
    seconds: n("FUZZ_SECONDS", long ? 600 : 0),
    tool: env.FUZZ_TOOL !== undefined ? Number(env.FUZZ_TOOL) : undefined,
    path: env.FUZZ_PATH || undefined,
  };
}

let extractor: Extractor | undefined;
export function closeExtractor(): void {
  extractor?.close();
  extractor = undefined;
}

const FIXTURE = join(root, ".tmp", "fuzz", String(process.pid));

/** Writes the fixture folder (strict tsconfig, as test/extract/fixtures) with one module, extracts it. */
export function extractModule(
  name: string,
  code: string,
): { file: string; tools: ToolModel[]; diagnostics: unknown[] } {
  mkdirSync(FIXTURE, { recursive: true });
  writeFileSync(
    join(FIXTURE, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "es2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        skipLibCheck: true,
        noEmit: true,
        lib: ["es2023", "dom"],
        types: [],
        strict: true,
      },
      include: ["."],
    }),
  );
  const file = join(FIXTURE, `${name}.ts`);
  writeFileSync(file, code);
  if (extractor === undefined) extractor = createExtractor();
  else extractor.invalidate(file);
  const m = extractor.extract(file, code);
  return { file, tools: m.tools, diagnostics: m.diagnostics };
}

export interface Built {
  index: number;
  /** The tool's method source (for messages). */
  source: string;
  model: ToolModel;
  loaded: Loaded;
  oracle: ReturnType<typeof compileOracle>;
  /** A round trip per listed parameter (same order as `listed(model.params)`). */
  trips: Awaited<ReturnType<typeof roundTripper>>[];
}

/** Samples `count` signatures from `seed`, builds them as one module and loads every tool. */
export async function buildBatch(
  seed: number,
  count: number,
  depth: number,
): Promise<{ built: Built[]; code: string; file: string }> {
  const sigs: ToolNode[] = fc.sample(toolArb(depth), { seed, numRuns: count });
  const code = renderModule(sigs);
  const { file, tools, diagnostics } = extractModule("batch", code);
  if (diagnostics.length > 0)
    throw new Error(
      `Extraction reported diagnostics for supported types (FUZZ_SEED=${seed}):\n${JSON.stringify(diagnostics, null, 2)}\n--- module ---\n${code}`,
    );
  const methods = code.split("  @tool() ").slice(1);
  const built: Built[] = [];
  for (const model of tools) {
    const index = Number(model.name.slice(1));
    const loaded = await load(model);
    const trips = await Promise.all(listed(model.params).map((p) => roundTripper(p.type)));
    built.push({
      index,
      source: methods[index] ?? "",
      model,
      loaded,
      oracle: compileOracle(model, loaded.listing.inputSchema as Record<string, unknown>),
      trips,
    });
  }
  return { built, code, file };
}

const ctx = fakeCtx();

/**
 * Counts over a run: how many argument values the reader accepted and refused, and in how many
 * accepted ones at least one object was read with zero copy (returned as the parsed JSON object).
 */
export const stats = { accepted: 0, refused: 0, zeroCopy: 0 };

/** `JSON.parse` whose objects have no prototype: the reader must copy them (no zero copy), so this is the copy path. */
const parseWithoutPrototypes = (text: string): unknown =>
  JSON.parse(text, (_k, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v) ? Object.assign(Object.create(null), v) : v,
  );

/** The objects and arrays of a JSON value. */
function containers(v: unknown, into = new Set<object>()): Set<object> {
  if (typeof v !== "object" || v === null) return into;
  into.add(v);
  for (const x of Object.values(v)) containers(x, into);
  return into;
}

/** Whether the value read holds a plain object of the JSON value `input` itself (zero copy). */
function readWithZeroCopy(read: unknown, input: Set<object>, seen = new Set<unknown>()): boolean {
  if (typeof read !== "object" || read === null || seen.has(read)) return false;
  seen.add(read);
  if (!Array.isArray(read) && input.has(read)) return true;
  const values = read instanceof Map || read instanceof Set ? [...read.values()] : Object.values(read);
  return values.some((x) => readWithZeroCopy(x, input, seen));
}

/**
 * The zero-copy path against the copy path (docs/codegen.md "Zero copy"): the same arguments read
 * once from `JSON.parse` (objects may be returned as they are) and once from objects without a
 * prototype (always copied) give the same answer — the same error text, or values equal in
 * content and key order. Returns what differs, or `undefined`.
 */
function judgeZeroCopy(b: Built, text: string, got: unknown[] | string, parsed: unknown): string | undefined {
  let copied: unknown[] | string;
  try {
    copied = b.loaded.read(parseWithoutPrototypes(text), ctx);
  } catch (e) {
    return `the reader threw on the copy path: ${String(e)}`;
  }
  if (typeof got === "string" || typeof copied === "string")
    return got === copied ? undefined : `zero-copy path answered ${show(got)}, copy path ${show(copied)}`;
  if (show(got) !== show(copied)) return `zero-copy path read ${show(got)}, copy path ${show(copied)}`;
  if (readWithZeroCopy(got, containers(parsed))) stats.zeroCopy++;
  return undefined;
}

/** What went wrong for one argument text, or `undefined` when reader and oracle agree. */
function judge(b: Built, text: string): string | undefined {
  let got: unknown[] | string;
  const parsed: unknown = JSON.parse(text);
  try {
    got = b.loaded.read(parsed, ctx);
  } catch (e) {
    return `the reader threw ${String(e)}`;
  }
  const { ok, errors } = b.oracle(JSON.parse(text));
  const accepted = Array.isArray(got);
  stats[accepted ? "accepted" : "refused"]++;
  if (accepted !== ok) {
    return accepted
      ? `the reader accepted, the oracle refused: ${JSON.stringify(errors)}`
      : `the reader refused (${got as string}), the oracle accepted`;
  }
  const zeroCopy = judgeZeroCopy(b, text, got, parsed);
  if (zeroCopy !== undefined) return zeroCopy;
  if (!accepted) return undefined;
  // Round trip: each present value → writer → JSON → reader gives the same value.
  const params = listed(b.model.params);
  // A destructured parameter is one object under the TypeScript keys (§3); otherwise one value per parameter.
  const d = b.model.params[0]?.role === "destructured" ? ((got as unknown[])[0] as Record<string, unknown>) : undefined;
  for (let i = 0; i < params.length; i++) {
    const v =
      d !== undefined
        ? Object.hasOwn(d, params[i]!.key ?? params[i]!.name)
          ? d[params[i]!.key ?? params[i]!.name]
          : undefined
        : (got as unknown[])[i];
    if (v === undefined) continue;
    let back: ReturnType<Built["trips"][number]>;
    try {
      back = b.trips[i]!(v);
    } catch (e) {
      return `round trip of ${(params[i] as ValueParam).name}: the writer threw ${String(e)}`;
    }
    // Departure 1 (oracle.ts): a Set read from a JSON array with duplicates may hold fewer items
    // than its listed minItems, so its written form can be refused. Not a round trip the contract promises.
    if (!Array.isArray(back.read) && hasSetWithMinItems(params[i]!.type)) continue;
    if (!Array.isArray(back.read))
      return `round trip of ${params[i]!.name}: the writer wrote ${JSON.stringify(back.wire)}, which the reader refuses: ${back.read}`;
    if (back.structured !== undefined && !isDeepStrictEqual(back.structured, back.wire))
      return `round trip of ${params[i]!.name}: structuredContent differs from the text`;
    if (!isDeepStrictEqual(back.read[0], v))
      return `round trip of ${params[i]!.name}: read back ${show(back.read[0])}, first read ${show(v)}`;
  }
  return undefined;
}

/** Whether `t` contains a `Set` with `minItems` (see departure 1 in oracle.ts). */
function hasSetWithMinItems(t: TypeModel): boolean {
  switch (t.kind) {
    case "array":
      return (t.set === true && (t.constraints?.minLength ?? 0) > 1) || hasSetWithMinItems(t.items);
    case "record":
      return hasSetWithMinItems(t.values);
    case "nullable":
      return hasSetWithMinItems(t.inner);
    case "tuple":
      return hasSetWithMinItems(t.items);
    case "union":
      return t.members.some(hasSetWithMinItems);
    case "object":
      return (
        t.properties.some((p) => hasSetWithMinItems(p.type)) ||
        (t.additionalProperties !== undefined && hasSetWithMinItems(t.additionalProperties))
      );
    default:
      return false;
  }
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    typeof x === "bigint" ? `${x}n` : x instanceof Set ? { Set: [...x] } : x instanceof Map ? { Map: [...x] } : x,
  );
}

/** Runs the property for one tool; returns a failure report (with the replay command) or undefined. */
export function runTool(b: Built, cfg: FuzzConfig, batchSeed: number): { failure?: string; runs: number } {
  const seed = (batchSeed + b.index) | 0;
  let why: string | undefined;
  const out = fc.check(
    fc.property(argsArb(b.model.params), (text) => {
      why = judge(b, text);
      return why === undefined;
    }),
    { seed, numRuns: cfg.runs, ...(cfg.path !== undefined ? { path: cfg.path } : {}) },
  );
  if (!out.failed) return { runs: out.numRuns };
  const text = (out.counterexample as [string])[0];
  why = judge(b, text);
  return {
    runs: out.numRuns,
    failure:
      `tool t${b.index}: ${why}\n  arguments: ${text}\n  inputSchema: ${JSON.stringify(b.loaded.listing.inputSchema)}\n  source: ${b.source.trim()}\n` +
      `  replay: FUZZ_SEED=${batchSeed} FUZZ_TOOL=${b.index} FUZZ_PATH=${out.counterexamplePath} pnpm fuzz (fast-check seed ${seed})`,
  };
}
