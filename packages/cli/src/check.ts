/**
 * `typed-mcp check` after extraction: every module's diagnostics (spec §10), its code generation
 * run once, its build warnings and, with `--lint`, what a provider family would reject
 * (docs/cli.md).
 *
 * @module
 */
import {
  profiledListing,
  generatePrompt,
  generateResource,
  generateTool,
  lintListing,
  toolWarnings,
  type LintFamily,
  type Profile,
} from "@typed-mcp/codegen";
import { displayPath } from "@typed-mcp/extract";
import { formatDiagnostic, type ModuleModel, type ToolModel } from "@typed-mcp/model";
import { collectProblems, plural, problemSummary } from "./problems.js";
import { EXIT_DIAGNOSTICS, EXIT_OK, type CliIO } from "./io.js";

/** The options of `check`. */
export interface CheckOptions {
  /** `--profile`: the listing rewrite the warnings are computed on. */
  profile: Profile;
  /** `--lint`: the provider family whose rejections are reported. */
  lint?: LintFamily;
  /** `--strict`: warnings fail the run too. */
  strict: boolean;
}

/** A tool's warnings and `--lint` findings, as printable lines. */
function toolFindings(tool: ToolModel, options: CheckOptions, cwd: string, warnings: string[], lints: string[]): void {
  const built = profiledListing(tool, options.profile);
  generateTool(tool, { profile: options.profile });
  const where = displayPath(tool.location.file, cwd);
  for (const w of toolWarnings(tool, built.warnings)) warnings.push(formatDiagnostic(w, where));
  const loc = `${where}:${tool.location.line}:${tool.location.column}`;
  for (const f of options.lint ? lintListing(built.listing, options.lint) : []) {
    lints.push(
      `${loc} - lint ${options.lint}: tool '${f.tool}' ${f.keyword} at inputSchema${f.path === "" ? "" : " " + f.path}: ${f.rule}.`,
    );
  }
}

/**
 * Checks `models`: writes every problem to stdout and a summary to stderr and returns `1`; the
 * warnings and lint findings go to stderr (with `strict`, a warning returns `1`); with no
 * problem, writes one summary line to stdout and returns `0`.
 */
export function runCheck(models: readonly ModuleModel[], options: CheckOptions, io: CliIO): number {
  const warnings: string[] = [];
  /** `--lint` findings: printed with the warnings, never counted by `--strict`. */
  const lints: string[] = [];
  const counts = { tools: 0, resources: 0, prompts: 0 };
  const problems = collectProblems(models, io.cwd, (model, generate) => {
    for (const tool of model.tools) {
      counts.tools++;
      generate("tool", tool.name, tool.location, () => toolFindings(tool, options, io.cwd, warnings, lints));
    }
    for (const resource of model.resources ?? []) {
      counts.resources++;
      generate("resource", resource.name, resource.location, () => void generateResource(resource));
    }
    for (const prompt of model.prompts ?? []) {
      counts.prompts++;
      generate("prompt", prompt.name, prompt.location, () => void generatePrompt(prompt));
    }
  });
  if (warnings.length + lints.length > 0) io.stderr([...warnings, ...lints].map((w) => w + "\n").join(""));
  if (problems.lines.length === 0 && options.strict && warnings.length > 0) {
    io.stderr(`typed-mcp check: ${plural(warnings.length, "warning")} (--strict).\n`);
    return EXIT_DIAGNOSTICS;
  }
  if (problems.lines.length > 0) {
    io.stdout(problems.lines.map((p) => p + "\n").join(""));
    io.stderr(problemSummary("check", problems, models.length));
    return EXIT_DIAGNOSTICS;
  }
  const what = [plural(counts.tools, "tool"), plural(counts.resources, "resource"), plural(counts.prompts, "prompt")];
  io.stdout(`typed-mcp check: ${plural(models.length, "file")}, ${what.join(", ")}, no problems.\n`);
  return EXIT_OK;
}
