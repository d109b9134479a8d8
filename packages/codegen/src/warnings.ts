/**
 * Build warnings of one tool (spec §10 "Build warnings"), derived from the model and the
 * profile's rewrite on every build, cached or not. Shared by the bundler driver and the CLI.
 *
 * @module
 */
import type { BuildWarning, ToolModel, WarningCode } from "@typed-mcp/model";
import { profileWarnings, type Profile, type ProfileWarning } from "./profiles.js";

/** Longest tool name OpenAI, Anthropic and Bedrock accept (spec §10 OMCW0001). */
export const PROVIDER_NAME_LIMIT = 64;

/**
 * The warnings of `tool` at its source location: OMCW0001 (name longer than 64 characters or
 * containing `.`), OMCW0002 (a `T | null` object-shaped result, spec §6), then `profile`'s
 * OMCW0003 warnings; codes set to `false` in `silenced` are left out.
 */
export function toolWarnings(
  tool: ToolModel,
  profile: readonly ProfileWarning[],
  silenced: Partial<Record<WarningCode, boolean>> = {},
): BuildWarning[] {
  const out: BuildWarning[] = [];
  const add = (code: WarningCode, message: string) => {
    if (silenced[code] !== false) out.push({ ...tool.location, severity: "warning", code, message });
  };
  const n = tool.name;
  if (n.length > PROVIDER_NAME_LIMIT || n.includes(".")) {
    const why = n.includes(".") ? "contains '.'" : `is ${n.length} characters long (over ${PROVIDER_NAME_LIMIT})`;
    add(
      "OMCW0001",
      `Tool name '${n}' ${why}: OpenAI, Anthropic and Bedrock refuse it, and clients prefix it with the server's name.`,
    );
  }
  if (tool.result.kind === "structured" && tool.result.nullable) {
    add(
      "OMCW0002",
      `Tool '${n}' returns a T | null object-shaped result: the official client refuses the null answer (spec §6).`,
    );
  }
  for (const w of profile) add("OMCW0003", w.message);
  return out;
}

/**
 * Every warning of a module's tools built with `profile` (spec §10), in source order: what the
 * bundler plugins report on every build, cached or not.
 *
 * @throws CodegenError as `toolListing` does (not for extracted models); TypeError for an unknown profile.
 */
export function moduleWarnings(
  tools: readonly ToolModel[],
  profile: Profile = "default",
  silenced: Partial<Record<WarningCode, boolean>> = {},
): BuildWarning[] {
  return tools.flatMap((t) => toolWarnings(t, profileWarnings(t, profile), silenced));
}
