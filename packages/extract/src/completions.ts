/**
 * `@complete(prompt, argument)` hooks (docs/resources.md "Completion hooks"): each is matched
 * with the `@prompt` method of the same class whose member name it gives, and checked at build
 * time — the prompt exists, `argument` is one of its listed parameters, and each hook parameter
 * after the first (`value`) names one of its other listed parameters (it receives that
 * argument's value as the client sent it). Every failure is OMCG0012 at the offending literal
 * or parameter; a hook that fails is left out (the build then fails on the diagnostic).
 */
import type { CompletionHookModel, PromptModel, SourceLocation } from "@typed-mcp/model";
import type { DiagnosticSink } from "./assemble.js";
import type { ResourceSite } from "./sites.js";
import type { CompletionSite } from "./sites.js";

const quoted = (names: readonly string[]): string => names.map((n) => `'${n}'`).join(", ") || "none";

/**
 * The completion hook models of a module.
 *
 * @param sites The module's `@complete` sites.
 * @param promptSites The module's resource and prompt sites (to tell a missing prompt from one whose own diagnostics already failed).
 * @param prompts The prompts that were built.
 */
export function extractCompletions(
  sites: readonly CompletionSite[],
  promptSites: readonly ResourceSite[],
  prompts: readonly PromptModel[],
  at: (offset: number) => SourceLocation,
  sink: DiagnosticSink,
): CompletionHookModel[] {
  const out: CompletionHookModel[] = [];
  for (const c of sites) {
    for (const p of c.problems) sink.add(p.code, at(p.offset), p.message);
    if (c.problems.length > 0) continue;
    const who = `@complete(${JSON.stringify(c.prompt.value)}, ${JSON.stringify(c.argument.value)}) on '${c.member}'`;
    const inClass = promptSites.filter(
      (s) =>
        s.what === "prompt" && s.kind === "method" && s.classBodyStart === c.classBodyStart && s.static === c.static,
    );
    const site = inClass.find((s) => s.kind === "method" && s.member === c.prompt.value);
    if (site === undefined) {
      const names = inClass.map((s) => (s.kind === "method" ? s.member : ""));
      sink.add(
        "OMCG0012",
        at(c.prompt.offset),
        `${who}: this class has no ${c.static ? "static " : ""}@prompt method '${c.prompt.value}'; its prompt methods are ${quoted(names)}.`,
      );
      continue;
    }
    const prompt = prompts.find(
      (p) =>
        p.site.kind === "method" &&
        p.site.classBodyStart === c.classBodyStart &&
        p.site.member === c.prompt.value &&
        p.site.static === c.static,
    );
    if (prompt === undefined) continue; // the prompt's own diagnostics fail the build
    const names = prompt.params.filter((p) => p.role === "value").map((p) => p.name);
    if (!names.includes(c.argument.value!)) {
      sink.add(
        "OMCG0012",
        at(c.argument.offset),
        `${who}: the prompt '${prompt.name}' has no argument '${c.argument.value}'; its arguments are ${quoted(names)}.`,
      );
      continue;
    }
    const others = names.filter((n) => n !== c.argument.value);
    const bad = c.given.find((g) => !others.includes(g.name!));
    if (bad !== undefined) {
      sink.add(
        "OMCG0012",
        at(bad.offset),
        bad.name === c.argument.value
          ? `${who}: the parameter '${bad.name}' is the argument being completed, whose value is the first parameter; remove it.`
          : `${who}: the parameter '${bad.name}' is not one of the prompt '${prompt.name}''s other arguments (${quoted(others)}); each parameter after the first receives the argument of its name.`,
      );
      continue;
    }
    if (out.some((h) => h.prompt === prompt.name && h.argument === c.argument.value)) {
      sink.add(
        "OMCG0012",
        at(c.decorator[0]),
        `${who}: the argument '${c.argument.value}' of the prompt '${prompt.name}' already has a @complete hook; keep one.`,
      );
      continue;
    }
    out.push({
      prompt: prompt.name,
      argument: c.argument.value!,
      member: c.member,
      static: c.static,
      given: c.given.map((g) => g.name!),
      classBodyStart: c.classBodyStart,
      decorator: c.decorator,
      location: at(c.decorator[0]),
    });
  }
  return out;
}
