/**
 * `@typed-mcp/cli`: the `typed-mcp` command (spec §0, CLI row).
 *
 * ```sh
 * typed-mcp list  <file.ts…> [--project tsconfig.json]   # the listings, as JSON on stdout
 * typed-mcp check <file.ts…> [--project tsconfig.json]   # build diagnostics (spec §10)
 * ```
 *
 * Exit codes: `0` success, `1` a diagnostic (or, for `list`, anything that keeps a tool from
 * being listed), `2` bad usage (unknown command or option, no files, a file that cannot be read).
 * Documented in `docs/cli.md`.
 *
 * @packageDocumentation
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createExtractor, type Extractor } from "@typed-mcp/extract";
import { PROFILES, type LintFamily, type Profile } from "@typed-mcp/codegen";
import type { ModuleModel } from "@typed-mcp/model";
import { followImports } from "./follow.js";
import { runCheck } from "./check.js";
import { runList } from "./list.js";
import { EXIT_OK, EXIT_USAGE, processIO, type CliIO } from "./io.js";

export { EXIT_DIAGNOSTICS, EXIT_OK, EXIT_USAGE, processIO, type CliIO } from "./io.js";
export type { Listing } from "./list.js";

/** The `--help` text. */
export const USAGE = `Usage: typed-mcp <command> <file.ts…> [--project tsconfig.json]

Commands:
  list   Print the tools, resources, resource templates and prompts the files (and the
         modules they import through relative imports) declare, as
         JSON: {"tools":[…],"resources":[…],"resourceTemplates":[…],"prompts":[…]}, exactly as
         tools/list etc. answer a client on the newest revision with MCP Apps.
  check  Print build diagnostics as "file:line:column - CODE: message"; exit 1 if there is any.
  dev    Rebuild on change, restart the server, print the listing diff:
         typed-mcp dev <file.ts…> --build <command> --start <command> [--watch src]

Options:
  -p, --project <tsconfig.json>  The tsconfig.json the type checker uses
                                 (default: the nearest tsconfig.json above each file).
  --profile <name>               Build the listings for a client profile (spec §11):
                                 default, gemini, openai-strict or cursor.
  --lint <name>                  check: also report every listed node the provider family
                                 (gemini, openai-strict, cursor) would reject.
  --strict                       check: exit 1 on warnings (OMCW…) too.
  -h, --help                     Show this help.

Exit codes: 0 ok, 1 diagnostics, 2 bad usage.
`;

/** A problem with how the command was called: reported on stderr with exit code 2. */
class UsageError extends Error {}

interface Parsed {
  command: "list" | "check" | "help";
  files: string[];
  project?: string;
  profile: Profile;
  lint?: LintFamily;
  strict: boolean;
}

function profileValue(flag: string, v: string | undefined, allowDefault: boolean): Profile | undefined {
  if (v === undefined) return undefined;
  const names = PROFILES.filter((p) => allowDefault || p !== "default");
  if (!(names as readonly string[]).includes(v))
    throw new UsageError(`${flag} '${v}': expected one of ${names.join(", ")}.`);
  return v as Profile;
}

function parse(argv: string[]): Parsed {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        project: { type: "string", short: "p" },
        help: { type: "boolean", short: "h" },
        profile: { type: "string" },
        lint: { type: "string" },
        strict: { type: "boolean" },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const help: Parsed = { command: "help", files: [], profile: "default", strict: false };
  if (values.help) return help;
  const [command, ...files] = positionals;
  if (command === undefined) throw new UsageError("missing command: use 'list' or 'check'.");
  if (command === "help") return help;
  if (command !== "list" && command !== "check")
    throw new UsageError(`unknown command '${command}': use 'list', 'check' or 'dev'.`);
  if (files.length === 0) throw new UsageError(`'${command}' needs at least one .ts file.`);
  if (values.project !== undefined && values.project === "")
    throw new UsageError("--project needs a tsconfig.json path.");
  if (command === "list" && (values.lint !== undefined || values.strict))
    throw new UsageError("--lint and --strict are options of 'check'.");
  const profile = profileValue("--profile", values.profile, true) ?? "default";
  const lint = profileValue("--lint", values.lint, false) as LintFamily | undefined;
  return { command, files, project: values.project, profile, lint, strict: values.strict === true };
}

/**
 * Reads every file argument (resolved against `cwd`, duplicates dropped, order kept), then every
 * module they reach through static relative imports ({@link followImports}).
 */
function readSources(files: string[], cwd: string, tsconfig: string | undefined): { file: string; code: string }[] {
  const seen = new Set<string>();
  const out: { file: string; code: string }[] = [];
  for (const arg of files) {
    const file = resolve(cwd, arg);
    if (seen.has(file)) continue;
    seen.add(file);
    let stat;
    try {
      stat = statSync(file);
    } catch {
      throw new UsageError(`cannot read '${arg}': no such file.`);
    }
    if (!stat.isFile()) throw new UsageError(`'${arg}' is not a file.`);
    out.push({ file, code: readFileSync(file, "utf8") });
  }
  for (const file of followImports([...seen], tsconfig).slice(seen.size)) {
    try {
      out.push({ file, code: readFileSync(file, "utf8") });
    } catch {
      // deleted between the walk and this read: nothing to list
    }
  }
  return out;
}

function checkProject(project: string | undefined, cwd: string): string | undefined {
  if (project === undefined) return undefined;
  const abs = resolve(cwd, project);
  let ok = false;
  try {
    ok = statSync(abs).isFile();
  } catch {
    ok = false;
  }
  if (!ok) throw new UsageError(`--project '${project}': no such file.`);
  return abs;
}

/** Extracts every module with one extractor, closed before returning (no process left). */
function extractAll(
  sources: { file: string; code: string }[],
  tsconfig: string | undefined,
  cwd: string,
  options: CliOptions,
): ModuleModel[] {
  if (options.extractor) {
    const shared = options.extractor({ cwd, tsconfig });
    return sources.map((s) => shared.extract(s.file, s.code));
  }
  let extractor: Extractor | undefined;
  try {
    extractor = createExtractor({ cwd, tsconfig });
    return sources.map((s) => extractor!.extract(s.file, s.code));
  } finally {
    extractor?.close();
  }
}

/** How {@link runCli} gets its type-checker; the default (`{}`) is what the `typed-mcp` executable does. */
export interface CliOptions {
  /**
   * Supplies the extractor for a run's `cwd` (absolute, `io.cwd`) and `tsconfig` (absolute path
   * of `--project`, or `undefined`: the nearest tsconfig.json above each file) instead of
   * creating one and closing it before returning. The caller owns what it returns: `runCli`
   * never closes it, so one warm TypeScript sidecar can serve many runs (the test suite keeps
   * one per `cwd` + `tsconfig`). It must have been made with the same `cwd` and `tsconfig`
   * (`createExtractor({ cwd, tsconfig })`), and files it already read must not have changed on
   * disk since (or call its `invalidate(file)` first).
   */
  extractor?: (project: { cwd: string; tsconfig: string | undefined }) => Extractor;
}

/**
 * Runs the `typed-mcp` command with `argv` (the arguments after the program name) and returns
 * the exit code; it never calls `process.exit` and leaves no child process behind (the
 * extractor's TypeScript sidecar is closed before returning, unless `options.extractor`
 * supplied it).
 *
 * - Every command reads the files given and every module they reach through static relative
 *   imports and re-exports ({@link followImports}; docs/cli.md "Which files are listed").
 * - `list <file.ts…> [--project p]`: writes `JSON.stringify(listing, null, 2)` and a newline to
 *   stdout ({@link Listing}; entries from `toolListing`, `resourceListing` and `promptListing` of
 *   `@typed-mcp/codegen`, files in the order given then the imported ones, entries in source order) and returns `0`. If any file has a diagnostic, nothing is
 *   written to stdout, the diagnostics go to stderr (`formatDiagnostic` of `@typed-mcp/model`, files relative to the working directory) and it returns `1`.
 * - `check <file.ts…> [--project p]`: writes every diagnostic (spec §10) to stdout, one
 *   `file:line:column - CODE: message` line each (files in the order given, diagnostics in
 *   source order), then a summary line to stderr, and returns `1`; with none it writes one
 *   summary line to stdout (`typed-mcp check: 2 files, 5 tools, 1 resource, 0 prompts, no
 *   problems.`) and returns `0`. Code generation is run too, so a model that code generation
 *   rejects (`CodegenError`, not expected for extracted models) is reported as
 *   `file:line:column - error: message`.
 * - `--help` / `-h` / `help`: writes the usage to stdout and returns `0`.
 * - Bad usage (no or unknown command, unknown option, no files, a missing file or `--project`):
 *   writes `typed-mcp: <problem>` and a hint to stderr and returns `2`.
 *
 * @param argv Arguments after the program name, e.g. `["list", "src/tools.ts"]`.
 * @param io Output sinks and working directory; default: the process's.
 * @param options Where the type-checker comes from ({@link CliOptions}); default: a new one per run, closed before returning.
 */
export function runCli(argv: string[], io: CliIO = processIO(), options: CliOptions = {}): number {
  let request: { parsed: Parsed; sources: { file: string; code: string }[]; tsconfig: string | undefined };
  try {
    const parsed = parse(argv);
    if (parsed.command === "help") {
      io.stdout(USAGE);
      return EXIT_OK;
    }
    const tsconfig = checkProject(parsed.project, io.cwd);
    request = { parsed, sources: readSources(parsed.files, io.cwd, tsconfig), tsconfig };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`typed-mcp: ${e.message}\nRun 'typed-mcp --help' for usage.\n`);
    return EXIT_USAGE;
  }
  const { parsed, sources, tsconfig } = request;
  const models = extractAll(sources, tsconfig, io.cwd, options);
  return parsed.command === "list" ? runList(models, parsed.profile, io) : runCheck(models, parsed, io);
}
