/**
 * The TypeScript 7.1 backend: the 7.0 IPC backend's code (`ts7.ts` {@link ipcBackend}) over the
 * 7.1 API at `typescript/sync` (+ `typescript/ast`, `typescript/fs`), loaded from the project's
 * TypeScript package at run time (this package does not depend on 7.1).
 *
 * What changed from 7.0 and is adapted here:
 * - snapshots: `api.createSnapshot({ openProjects, ensurePrograms: true })`, then
 *   `snapshot.update({ fileNotifications: { changed, deleted }, ensurePrograms: true })` (7.0:
 *   `api.updateSnapshot({ openProjects | fileChanges })`); without `ensurePrograms` a changed
 *   project's program is not rebuilt;
 * - a project by its tsconfig: `snapshot.getConfiguredProject(config)` (7.0: `getProject`);
 * - compiler options: `project.program.getCompilerOptions()` (7.0: `project.compilerOptions`);
 * - file-system callbacks: every callback must be given (a function or a `serverFS` sentinel),
 *   and `readFile` returning `undefined` means "missing" — the disk is `serverFS.useOS`.
 *
 * Measured against `typescript@7.1.0-dev.20261021.1` (no 7.1 beta or RC is published yet).
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Project, Snapshot } from "typescript/unstable/sync";
import { norm } from "./library.js";
import { ipcBackend, type IpcBackendClass, type IpcLib } from "./ts7.js";

/** The parts of `typescript/fs` used here. */
interface Fs71 {
  serverFS: { useOS: symbol };
}

/**
 * Loads TypeScript 7.1's API from the package directory `dir` (synchronously: Node ≥ 20.19
 * `require`s ES modules) and builds the backend class. Throws when the package has no
 * `./sync` export (a 7.0 package, or a 7.1 build whose API moved again).
 */
export function ts71Backend(dir: string, version: string): IpcBackendClass {
  const req = createRequire(join(dir, "package.json"));
  // Self-reference: the package is named "typescript", so its own exports map applies.
  const sync = req("typescript/sync") as IpcLib["sync"];
  const ast = req("typescript/ast") as IpcLib["ast"];
  const fs = req("typescript/fs") as Fs71;
  const useOS = fs.serverFS.useOS;
  const lib: IpcLib = {
    family: "7.1",
    version,
    sync,
    ast,
    createApi: (cwd, overlay) =>
      new sync.API({
        cwd,
        collectTiming: true,
        fs: {
          readFile: (name: string) => overlay(norm(name)) ?? useOS,
          fileExists: useOS,
          directoryExists: useOS,
          getAccessibleEntries: useOS,
          realpath: useOS,
          stat: useOS,
          writeFile: useOS,
          removeFile: useOS,
        } as never,
      }),
    firstSnapshot: (api, config) =>
      (api as unknown as Api71).createSnapshot({ openProjects: [config], ensurePrograms: true }),
    nextSnapshot: (_api, old, open, changed, deleted, created = []) =>
      (old as unknown as Snapshot71).update({
        ...(open.length ? { openProjects: open } : {}),
        ...(changed.length || deleted.length || created.length
          ? { fileNotifications: { changed, deleted, created } }
          : {}),
        ensurePrograms: true,
      }),
    project: (snapshot, config) =>
      (snapshot as unknown as Snapshot71).getConfiguredProject(config) ?? snapshot.getProjects()[0],
    compilerOptions: (project) =>
      (
        project as unknown as { program: { getCompilerOptions(): { strict?: boolean; strictNullChecks?: boolean } } }
      ).program.getCompilerOptions(),
  };
  return ipcBackend(lib);
}

/** The 7.1 snapshot calls used here (typed locally: the package depends on 7.0's types). */
interface Api71 {
  createSnapshot(params: object): Snapshot;
}
interface Snapshot71 {
  update(params: object): Snapshot;
  getConfiguredProject(config: string): Project | undefined;
}
