/**
 * `typed-mcp list` after extraction: the listings of every module, as `tools/list`,
 * `resources/list`, `resources/templates/list` and `prompts/list` answer (docs/cli.md).
 *
 * @module
 */
import {
  profiledListing,
  promptListing,
  resourceListing,
  type Profile,
  type PromptListing,
  type ResourceListing,
  type ResourceTemplateListing,
  type ToolListing,
} from "@typed-mcp/codegen";
import type { ModuleModel } from "@typed-mcp/model";
import { collectProblems, problemSummary } from "./problems.js";
import { EXIT_DIAGNOSTICS, EXIT_OK, type CliIO } from "./io.js";

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

/**
 * Writes the {@link Listing} of `models` (with `profile`'s rewrite) to stdout and returns `0`;
 * when a module has a problem, writes nothing to stdout, the problems and a summary to stderr,
 * and returns `1`.
 */
export function runList(models: readonly ModuleModel[], profile: Profile, io: CliIO): number {
  const listing: Listing = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  const problems = collectProblems(models, io.cwd, (model, generate) => {
    for (const tool of model.tools) {
      generate("tool", tool.name, tool.location, () => {
        listing.tools.push(profiledListing(tool, profile).listing);
      });
    }
    for (const resource of model.resources ?? []) {
      generate("resource", resource.name, resource.location, () => {
        const entry = resourceListing(resource);
        if ("uri" in entry) listing.resources.push(entry);
        else listing.resourceTemplates.push(entry);
      });
    }
    for (const prompt of model.prompts ?? []) {
      generate("prompt", prompt.name, prompt.location, () => {
        listing.prompts.push(promptListing(prompt));
      });
    }
  });
  if (problems.lines.length > 0) {
    io.stderr(problems.lines.map((p) => p + "\n").join("") + problemSummary("list", problems, models.length));
    return EXIT_DIAGNOSTICS;
  }
  io.stdout(JSON.stringify(listing, null, 2) + "\n");
  return EXIT_OK;
}
