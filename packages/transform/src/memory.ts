/**
 * The memory layer of the model reuse (docs/bundlers.md, "Watch mode and cache"): per module of
 * one build session, its last model without diagnostics under the module's key ({@link
 * ModuleKeys}) with the content hashes of its consulted files — reused by the same rule as the
 * disk layer (same key, {@link stillValid}) — and what was derived from that model: the
 * generated code of its tools, resources and prompts and its last splice. Code generation is a
 * pure function of a model (`@typed-mcp/codegen`), so the derived code is kept with the entry and
 * goes with it — to the disk layer too: every planned splice is reported to the session's
 * `onSpliced` with the module's code (stored-code.ts), and an entry loaded from the disk brings
 * the code stored with it.
 *
 * @packageDocumentation
 */
import type { ModuleModel, PromptModel, ResourceModel, ToolModel } from "@typed-mcp/model";
import type { DeclarationTables } from "@typed-mcp/extract";
import { createHash } from "node:crypto";
import { hashesOf, stillValid, type FileHashes } from "./hashes.js";
import { decodeCode, encodeCode, storedByModel, type GeneratedCode, type StoredCode } from "./stored-code.js";

/** The kinds of model a module's splice generates code for (`shared-tool`: a tool whose object types are shared units). */
type GeneratedKind = "tool" | "shared-tool" | "resource" | "prompt";

/**
 * The memo of one module for one splice (`planSplice` calls `code` per tool, resource and prompt,
 * then `done` once).
 */
export interface ModuleMemo {
  /** `generate(model)`'s result, or the code of an equal model of the same kind from the module's previous splice (or its disk entry). */
  code<M extends ToolModel | ResourceModel | PromptModel>(
    kind: GeneratedKind,
    model: M,
    generate: (model: M) => GeneratedCode,
  ): GeneratedCode;
  /** The splice is planned (or found nothing to splice): the session's `onSpliced` hears of it. */
  done(): void;
}

/**
 * Called when a module's splice is planned: the module's entry as {@link ModuleMemory.remember}
 * was given it, whether the splice generated code, and a thunk of all the module's code now.
 */
export type OnSpliced = (
  file: string,
  key: string,
  model: ModuleModel,
  generated: boolean,
  code: () => StoredCode,
) => void;

/** A module's entry: its model and what it holds for, and what was derived from it. */
interface Entry {
  /** The module's key ({@link ModuleKeys.of}) when the model was extracted or loaded. */
  key: string;
  /** The content hashes of the model's consulted files then. */
  consulted: Record<string, string>;
  model: ModuleModel;
  /** Generated code of the module's last splice, by model (see {@link codeKey}). */
  code: Map<string, GeneratedCode>;
  /**
   * For a model that came with its code from the disk: each tool, resource and prompt model
   * object with its code's key and code, so that a splice finds them without computing the key.
   */
  stored?: WeakMap<object, [string, GeneratedCode]>;
  /** The module's last splice: its id and text, its result, and whether it generated anything. */
  splice?: { id: string; text: string; result: unknown; generated: boolean };
}

/**
 * The key of a model's generated code: the kind and a SHA-256 (base64url) of the model's JSON
 * text (models are plain serializable data) without its `location` (diagnostics only) and with
 * the site reduced to what code generation reads (`kind`, `member`, `static`), so an edit that
 * only moves a module's tools still reuses their code.
 */
function codeKey(kind: GeneratedKind, model: ToolModel | ResourceModel | PromptModel): string {
  const site = model.site as { kind: string; member?: string; static?: boolean };
  const json = JSON.stringify({
    ...model,
    location: undefined,
    site: { kind: site.kind, member: site.member, static: site.static },
  });
  return `${kind}:${createHash("sha256").update(json).digest("base64url")}`;
}

/** A module id (a bundler's may carry a `?query` or `#hash`) as the file it names. */
const fileOfId = (id: string) => id.replace(/[?#].*$/s, "").replace(/\\/g, "/");

/** One build session's memory layer (see the module comment). */
export class ModuleMemory {
  private readonly entries = new Map<string, Entry>();
  /** Models generated from scratch / reused so far (for `pnpm bench` and the tests). */
  readonly counts = { generated: 0, reused: 0 };

  /** A session's memory; `onSpliced` (the `Driver`'s: the disk layer's store) hears of every planned splice of a remembered module. */
  constructor(private readonly onSpliced?: OnSpliced) {}

  /**
   * The model of `file` remembered under `key`, when it still holds ({@link stillValid}); its
   * consulted hashes are brought up to date then. `stale` tells that an entry of the same key
   * exists but no longer holds (so the disk entry of that key, stored with it, holds no more).
   */
  lookup(
    file: string,
    key: string,
    hashes: FileHashes,
    tables: DeclarationTables,
  ): { model?: ModuleModel; stale: boolean } {
    const entry = this.entries.get(file);
    if (!entry || entry.key !== key) return { stale: false };
    if (!stillValid(entry.model, entry.consulted, hashes, tables)) return { stale: true };
    entry.consulted = hashesOf(entry.model.consultedFiles, hashes);
    return { model: entry.model, stale: false };
  }

  /**
   * Remembers `model` as module `file`'s under `key` (a model with diagnostics is forgotten
   * instead: it is never reused). The code generated from the module's previous models stays
   * available to its next splice, and so does `stored`, the code the disk entry of the model
   * held (a cache hit).
   */
  remember(file: string, key: string, model: ModuleModel, hashes: FileHashes, stored?: StoredCode): void {
    if (model.diagnostics.length > 0) return this.forget(file);
    const previous = this.entries.get(file);
    const consulted = hashesOf(model.consultedFiles, hashes);
    const code = previous?.code ?? new Map<string, GeneratedCode>();
    let byModel: Entry["stored"];
    if (stored) {
      const decoded = decodeCode(stored);
      for (const [k, c] of decoded) code.set(k, c);
      byModel = storedByModel(model, stored, decoded);
    }
    this.entries.set(file, { key, consulted, model, code, stored: byModel, splice: previous?.splice });
  }

  /** The entry name of module `id`: the file as `Driver.model` was given it (Babel's filename), else the file a bundler's id names. */
  private fileOf(id: string): string {
    return this.entries.has(id) ? id : fileOfId(id);
  }

  /** Whether `file` is a remembered module, or consulted by one. */
  knows(file: string): boolean {
    if (this.entries.has(file)) return true;
    for (const { model } of this.entries.values()) if (model.consultedFiles.includes(file)) return true;
    return false;
  }

  /** Forgets module `file`. */
  forget(file: string): void {
    this.entries.delete(file);
  }

  /** Forgets every module (a change that may alter how any import resolves). */
  clear(): void {
    this.entries.clear();
  }

  /**
   * The memo for one splice of module `id` (its bundler module id): answers from the code of the
   * module's previous splice (or of its disk entry), and keeps what this splice generates or
   * reuses as the module's code. A module with no entry (no model remembered) generates
   * everything. Its `done` reports the splice to `onSpliced`.
   */
  module(id: string): ModuleMemo {
    const file = this.fileOf(id);
    const entry = this.entries.get(file);
    const previous = entry?.code;
    const now = new Map<string, GeneratedCode>();
    let generated = false;
    if (entry) {
      entry.code = now;
      if (entry.splice) entry.splice.generated = false;
    }
    const stored = entry?.stored;
    return {
      code: (kind, model, generate) => {
        const known = stored?.get(model);
        const key = known?.[0].startsWith(`${kind}:`) ? known[0] : codeKey(kind, model);
        let code = now.get(key) ?? previous?.get(key);
        if (code) this.counts.reused++;
        else {
          code = generate(model);
          this.counts.generated++;
          generated = true;
          if (entry?.splice) entry.splice.generated = true;
        }
        now.set(key, code);
        return code;
      },
      done: () => {
        if (entry && this.entries.get(file) === entry) {
          this.onSpliced?.(file, entry.key, entry.model, generated, () => encodeCode(now));
        }
      },
    };
  }

  /**
   * The result of module `id`'s previous splice when its text was `text` too and the splice in
   * progress (the last {@link module} call for `id`) reused the code of every model: the same
   * module text and models give the same output, source map included. Else `undefined`.
   */
  previousSplice<T>(id: string, text: string): T | undefined {
    const splice = this.entries.get(this.fileOf(id))?.splice;
    return splice && splice.id === id && !splice.generated && splice.text === text ? (splice.result as T) : undefined;
  }

  /** Records `result` as module `id`'s splice of `text` (see {@link previousSplice}). */
  rememberSplice(id: string, text: string, result: unknown): void {
    const entry = this.entries.get(this.fileOf(id));
    if (entry) entry.splice = { id, text, result, generated: false };
  }
}
