/**
 * Reuse of generated code across the rebuilds of one build session (docs/bundlers.md, "Watch
 * mode and cache"): code generation is a pure function of a tool's, resource's or prompt's model
 * (`@typed-mcp/codegen`), so a module whose models did not change since its previous splice gets
 * the previous code back instead of generating it again.
 *
 * @packageDocumentation
 */
import type { PromptModel, ResourceModel, ToolModel } from "@typed-mcp/model";
import type { ImportRequest, SharedUnit } from "@typed-mcp/codegen";

/** What code generation returns for one tool, resource or prompt. */
export interface GeneratedCode {
  code: string;
  imports: ImportRequest[];
  /** The shared units the code refers to (a tool generated with `share`). */
  units?: SharedUnit[];
}

/** The kinds of model a module's splice generates code for (`shared-tool`: a tool whose object types are shared units). */
export type GeneratedKind = "tool" | "shared-tool" | "resource" | "prompt";

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
  /** Per module: its text and splice result, and whether its last splice generated anything. */
  private readonly splices = new Map<string, { text: string; result: unknown; generated: boolean }>();
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
    const splice = this.splices.get(id);
    if (splice) splice.generated = false;
    return (kind, model, generate) => {
      const site = model.site as { kind: string; member?: string; static?: boolean };
      const key = `${kind}:${JSON.stringify({ ...model, location: undefined, site: { kind: site.kind, member: site.member, static: site.static } })}`;
      let code = now.get(key) ?? previous?.get(key);
      if (code) this.counts.reused++;
      else {
        code = generate(model);
        this.counts.generated++;
        const splice = this.splices.get(id);
        if (splice) splice.generated = true;
      }
      now.set(key, code);
      return code;
    };
  }

  /**
   * The result of module `id`'s previous splice when its text was `text` too and the splice in
   * progress (the last {@link module} call for `id`) reused the code of every model: the same
   * module text and models give the same output, source map included. Else `undefined`.
   */
  previousSplice<T>(id: string, text: string): T | undefined {
    const splice = this.splices.get(id);
    return splice && !splice.generated && splice.text === text ? (splice.result as T) : undefined;
  }

  /** Records `result` as module `id`'s splice of `text` (see {@link previousSplice}). */
  rememberSplice(id: string, text: string, result: unknown): void {
    this.splices.set(id, { text, result, generated: false });
  }

  /** Forgets module `id` (deleted or no longer transformed). */
  forget(id: string): void {
    this.modules.delete(id);
    this.splices.delete(id);
  }
}
