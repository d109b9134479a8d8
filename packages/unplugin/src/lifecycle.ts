/**
 * The hooks that end a build session (close the {@link Driver}'s sidecar) and pass the
 * bundler's change events on, per bundler (docs/bundlers.md, "Watch mode and cache"):
 * - Vite: `closeBundle` after `vite build`, and when the dev server closes; with
 *   `build.watch`, `closeWatcher`;
 * - Rollup, Rolldown: `buildEnd` (called on failure too), or `closeWatcher` in watch mode;
 * - esbuild: `onEnd` (unplugin's `buildEnd`), after every build or rebuild — esbuild reports
 *   no watch mode to plugins, so each rebuild of `context().watch()` starts a new sidecar for
 *   the modules the cache cannot answer;
 * - webpack, Rspack: the compiler's `done` or `failed` hook (also `buildEnd` at
 *   `processAssets`), or `watchClose`/`shutdown` in watch mode.
 *
 * @module
 */
import type { UnpluginOptions } from "unplugin";
import type { Driver } from "@typed-mcp/transform";
import { fileOf } from "./transform.js";
import type { BundlerHost, CompilerLike } from "./host.js";

/** The lifecycle and configuration hooks of one plugin instance (see the module comment). */
export function lifecycleHooks(
  host: BundlerHost,
  driver: Driver,
): Pick<
  UnpluginOptions,
  "buildStart" | "watchChange" | "buildEnd" | "vite" | "rollup" | "rolldown" | "webpack" | "rspack"
> {
  const close = () => driver.close();
  return {
    buildStart() {
      if ((this as { meta?: { watchMode?: boolean } }).meta?.watchMode === true) host.watching = true;
    },
    watchChange(id, change) {
      host.watching = true;
      driver.changed(fileOf(id), change.event === "delete");
    },
    buildEnd() {
      // Vite: a one-off `vite build` (also on failure); the dev server and build.watch end it in
      // closeBundle / closeWatcher.
      const vite = host.vite;
      if (vite ? vite.command === "build" && !vite.watch : !host.isWatchMode(this)) close();
    },
    vite: {
      configResolved(config) {
        const vite = {
          command: config.command,
          watch: !!config.build.watch,
          root: config.root,
          cacheDir: config.cacheDir,
        };
        host.vite = vite;
        if (config.command === "serve" || vite.watch) host.watching = true;
      },
      closeBundle() {
        // One `vite build`, or the dev server closing; with build.watch, after every rebuild.
        if (!(host.vite?.command === "build" && host.vite.watch)) close();
      },
      closeWatcher: close,
    },
    rollup: { closeWatcher: close },
    rolldown: {
      options(opts) {
        if (typeof opts.cwd === "string") host.workingDir = opts.cwd;
      },
      closeWatcher: close,
    },
    webpack(c) {
      host.hookCompiler(c as unknown as CompilerLike, close);
    },
    rspack(c) {
      host.hookCompiler(c as unknown as CompilerLike, close);
    },
  };
}
