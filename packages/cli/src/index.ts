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
import { createExtractor, displayPath, type Extractor } from "@typed-mcp/extract";
import {
  applyProfile,
  CodegenError,
  lintListing,
  PROFILES,
  toolWarnings,
  type LintFamily,
  type Profile,
  generatePrompt,
  generateResource,
  generateTool,
  promptListing,
  resourceListing,
  toolListing,
  type PromptListing,
  type ResourceListing,
  type ResourceTemplateListing,
  type ToolListing,
} from "@typed-mcp/codegen";
import { formatDiagnostic, type ModuleModel, type SourceLocation } from "@typed-mcp/model";
import { followImports } from "./follow.js";

/** Exit code of a successful run. */
export const EXIT_OK = 0;
/** Exit code when a file has a build diagnostic (spec §10), or `list` cannot list a tool. */
export const EXIT_DIAGNOSTICS = 1;
/** Exit code of bad usage: unknown command or option, no files, a file that cannot be read. */
export const EXIT_USAGE = 2;

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

/**
 * The listing `typed-mcp list` prints (spec §0): one array per MCP list request, each with the
 * entries of every file (files in the order given, entries in source order).
 */
export interface Listing {
  /** `tools/list` (spec §1): `toolListing` of each tool. */
  tools: ToolListing[];
  /** `resources/list` (spec §8): `resourceListing` of each resource with a fixed URI. */
  resources: ResourceListing[];
  /** `resources/templates/list` (spec §8): `resourceListing` of each resource with a URI template. */
  resourceTemplates: ResourceTemplateListing[];
  /** `prompts/list` (spec §8): `promptListing` of each prompt. */
  prompts: PromptListing[];
}

/** Where the CLI writes and which directory relative paths start from. */
export interface CliIO {
  /** Receives standard output text. */
  stdout(text: string): void;
  /** Receives standard error text. */
  stderr(text: string): void;
  /** The working directory: file arguments are resolved and printed relative to it. */
  cwd: string;
}

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
  let parsed: Parsed;
  let sources: { file: string; code: string }[];
  let tsconfig: string | undefined;
  try {
    parsed = parse(argv);
    if (parsed.command === "help") {
      io.stdout(USAGE);
      return EXIT_OK;
    }
    tsconfig = checkProject(parsed.project, io.cwd);
    sources = readSources(parsed.files, io.cwd, tsconfig);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`typed-mcp: ${e.message}\nRun 'typed-mcp --help' for usage.\n`);
    return EXIT_USAGE;
  }

  const models = extractAll(sources, tsconfig, io.cwd, options);
  const problems: string[] = [];
  const warnings: string[] = [];
  /** `--lint` findings: printed with the warnings, never counted by `--strict`. */
  const lints: string[] = [];
  const listing: Listing = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  const counts = { tools: 0, resources: 0, prompts: 0 };
  let filesWithProblems = 0;
  const list = parsed.command === "list";
  /** Runs `f`; a `CodegenError` becomes a problem line at `where`. */
  const generate = (kind: string, name: string, where: SourceLocation, f: () => void) => {
    try {
      f();
    } catch (e) {
      if (!(e instanceof CodegenError)) throw e;
      problems.push(
        `${displayPath(where.file, io.cwd)}:${where.line}:${where.column} - error: ${kind} '${name}': ${e.message}`,
      );
    }
  };
  for (const model of models) {
    const before = problems.length;
    for (const d of model.diagnostics) problems.push(formatDiagnostic(d, displayPath(d.file, io.cwd)));
    if (model.diagnostics.length === 0) {
      for (const tool of model.tools) {
        counts.tools++;
        generate("tool", tool.name, tool.location, () => {
          const built = applyProfile(toolListing(tool), parsed.profile);
          if (list) return void listing.tools.push(built.listing);
          generateTool(tool, { profile: parsed.profile });
          const where = displayPath(tool.location.file, io.cwd);
          for (const w of toolWarnings(tool, built.warnings)) warnings.push(formatDiagnostic(w, where));
          const loc = `${where}:${tool.location.line}:${tool.location.column}`;
          for (const f of parsed.lint ? lintListing(built.listing, parsed.lint) : []) {
            lints.push(
              `${loc} - lint ${parsed.lint}: tool '${f.tool}' ${f.keyword} at inputSchema${f.path === "" ? "" : " " + f.path}: ${f.rule}.`,
            );
          }
        });
      }
      for (const resource of model.resources ?? []) {
        counts.resources++;
        generate("resource", resource.name, resource.location, () => {
          if (!list) return void generateResource(resource);
          const entry = resourceListing(resource);
          if ("uri" in entry) listing.resources.push(entry);
          else listing.resourceTemplates.push(entry);
        });
      }
      for (const prompt of model.prompts ?? []) {
        counts.prompts++;
        generate("prompt", prompt.name, prompt.location, () => {
          if (list) listing.prompts.push(promptListing(prompt));
          else generatePrompt(prompt);
        });
      }
    }
    if (problems.length > before) filesWithProblems++;
  }

  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const files = plural(models.length, "file");
  if (warnings.length + lints.length > 0) io.stderr([...warnings, ...lints].map((w) => w + "\n").join(""));
  if (problems.length === 0 && parsed.strict && warnings.length > 0) {
    io.stderr(`typed-mcp check: ${plural(warnings.length, "warning")} (--strict).\n`);
    return EXIT_DIAGNOSTICS;
  }
  if (problems.length > 0) {
    const summary = `typed-mcp ${parsed.command}: ${plural(problems.length, "error")} in ${filesWithProblems} of ${files}.\n`;
    if (parsed.command === "check") {
      io.stdout(problems.map((p) => p + "\n").join(""));
      io.stderr(summary);
    } else {
      io.stderr(problems.map((p) => p + "\n").join("") + summary);
    }
    return EXIT_DIAGNOSTICS;
  }
  if (list) {
    io.stdout(JSON.stringify(listing, null, 2) + "\n");
  } else {
    const what = [
      plural(counts.tools, "tool"),
      plural(counts.resources, "resource"),
      plural(counts.prompts, "prompt"),
    ].join(", ");
    io.stdout(`typed-mcp check: ${files}, ${what}, no problems.\n`);
  }
  return EXIT_OK;
}

/** The process's stdout, stderr and working directory as a {@link CliIO}. */
export function processIO(): CliIO {
  return {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    cwd: process.cwd(),
  };
}
