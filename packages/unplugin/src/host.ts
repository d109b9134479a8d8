/**
 * What the plugin learns about its bundler from the bundlers' own hooks: whether it runs in watch
 * mode, the project root and the bundler's cache directory (docs/bundlers.md), and, for webpack
 * and Rspack, the compiler hooks that tell when a build ends.
 *
 * @module
 */
import { join } from "node:path";

/** The part of a webpack or Rspack compiler the plugin uses to learn when a build ends. */
export interface CompilerLike {
  watchMode?: boolean;
  context?: string;
  options?: { cache?: unknown };
  hooks: {
    done: { tap(name: string, fn: () => void): void };
    failed: { tap(name: string, fn: () => void): void };
    watchClose: { tap(name: string, fn: () => void): void };
    shutdown?: { tap(name: string, fn: () => void): void };
  };
}

/** What Vite's `configResolved` told: the command, whether `build.watch` is set, the root and `cacheDir`. */
export interface ViteConfig {
  command: "build" | "serve";
  watch: boolean;
  root: string;
  cacheDir: string;
}

/** One plugin instance's knowledge of its bundler, filled in by the bundler-specific hooks. */
export class BundlerHost {
  /** Set once a hook showed watch mode (a `watchChange`, Vite's dev server or `build.watch`, a `meta.watchMode`). */
  watching = false;
  /** webpack / Rspack only. */
  compiler: CompilerLike | undefined;
  /** Vite only. */
  vite: ViteConfig | undefined;
  /** esbuild's `absWorkingDir` or Rolldown's `cwd`, when given. */
  workingDir: string | undefined;

  /** The project root: Vite's root, the webpack/Rspack context, esbuild's `absWorkingDir`, Rolldown's `cwd`, else the working directory. */
  root(): string {
    return this.vite?.root ?? this.compiler?.context ?? this.workingDir ?? process.cwd();
  }

  /** The model cache's directory: in Vite's `cacheDir`, else beside webpack's filesystem cache, else `undefined` (the default, under the root). */
  cacheDir(): string | undefined {
    if (this.vite) return join(this.vite.cacheDir, "typed-mcp");
    const wpCache = this.compiler?.options?.cache as { type?: string; cacheDirectory?: string } | undefined;
    if (wpCache && typeof wpCache === "object" && wpCache.type === "filesystem" && wpCache.cacheDirectory) {
      return join(wpCache.cacheDirectory, "typed-mcp");
    }
    return undefined;
  }

  /** Whether the build watches: seen before, the compiler's `watchMode`, or the hook context's `meta.watchMode`. */
  isWatchMode(ctx: unknown): boolean {
    return (
      this.watching ||
      this.compiler?.watchMode === true ||
      (ctx as { meta?: { watchMode?: boolean } } | undefined)?.meta?.watchMode === true
    );
  }

  /** Remembers a webpack or Rspack compiler and ends the session (`close`) when its build or watcher ends. */
  hookCompiler(c: CompilerLike, close: () => void): void {
    this.compiler = c;
    const name = "typed-mcp";
    c.hooks.done.tap(name, () => {
      if (!this.isWatchMode(undefined)) close();
    });
    c.hooks.failed.tap(name, close);
    c.hooks.watchClose.tap(name, close);
    c.hooks.shutdown?.tap(name, close);
  }
}
