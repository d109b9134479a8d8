/**
 * Reuse of generated code across the rebuilds of one build session (docs/bundlers.md, "Watch
 * mode and cache"): code generation is a pure function of a tool's, resource's or prompt's model
 * (`@typed-mcp/codegen`), so a module whose models did not change since its previous splice gets
 * the previous code back instead of generating it again.
 *
 * @packageDocumentation
 */
import type { PromptModel, ResourceModel, ToolModel } from "@typed-mcp/model";
import type { ImportRequest } from "@typed-mcp/codegen";

/** What code generation returns for one tool, resource or prompt. */
export interface GeneratedCode {
  code: string;
  imports: ImportRequest[];
}

/** The kinds of model a module's splice generates code for. */
export type GeneratedKind = "tool" | "resource" | "prompt";

/**
 * The memo of one module for one splice: `generate(model)`'s result, or the result of the
 * module's previous splice for an equal model of the same kind.
 */
export type ModuleMemo = <M extends ToolModel | ResourceModel | PromptModel>(
  kind: GeneratedKind,
  model: M,
  generate: (model: M) => GeneratedCode,
) => GeneratedCode;

/**
 * A build session's memo of generated code, per module. The key of a model is its JSON text
 * (models are plain serializable data, `@typed-mcp/model`) without its `location` (diagnostics
 * only) and with the site reduced to what code generation reads (`kind`, `member`, `static`), so
 * an edit that only moves a module's tools still reuses their code. Each splice keeps only the
 * entries it used, so the memo holds at most the code of the models that are live now.
 */
export class GeneratedCodeMemo {
  private readonly modules = new Map<string, Map<string, GeneratedCode>>();
  /** Models generated from scratch / reused so far (for `pnpm bench` and the tests). */
  readonly counts = { generated: 0, reused: 0 };

  /**
   * The memo for one splice of module `id` (its bundler module id): answers from the module's
   * previous splice, and records what this splice generates or reuses as the module's entries.
   */
  module(id: string): ModuleMemo {
    const previous = this.modules.get(id);
    const now = new Map<string, GeneratedCode>();
    this.modules.set(id, now);
    return (kind, model, generate) => {
      const site = model.site as { kind: string; member?: string; static?: boolean };
      const key = `${kind}:${JSON.stringify({ ...model, location: undefined, site: { kind: site.kind, member: site.member, static: site.static } })}`;
      let code = now.get(key) ?? previous?.get(key);
      if (code) this.counts.reused++;
      else {
        code = generate(model);
        this.counts.generated++;
      }
      now.set(key, code);
      return code;
    };
  }

  /** Forgets module `id` (deleted or no longer transformed). */
  forget(id: string): void {
    this.modules.delete(id);
  }
}
