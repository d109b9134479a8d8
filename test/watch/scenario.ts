/**
 * The edit scenario every watch mode goes through (issue "every bundler, every edit"), on a temp
 * copy of test/watch/fixture:
 *
 * 1. the first build lists `greet` and `count` as the spec derives them; one sidecar runs;
 * 2. `Person.name` (in types.ts, imported by a.ts with `import type`) becomes a number: the next
 *    rebuild lists `greet` with a number — through the bundler's change event for types.ts
 *    (reported by `addWatchFile`), passed to the same sidecar process with `invalidate`;
 * 3. an unsupported parameter type added to `greet` fails the rebuild with OMCG0005; fixing it
 *    clears the error;
 * 4. types.ts renamed to people.ts (import updated, `name` a string again): no stale schema;
 * 5. counts.ts deleted: the rebuild fails (b.ts's parameter type is gone), restoring it lists
 *    `count` again — still the same sidecar process;
 * 6. b.ts deleted (and its import removed): its tool is gone from the listing;
 * 7. `strict` turned off in tsconfig.json: the rebuild fails with OMCG0000 (a new project with the
 *    new options), turning it on again lists the tools;
 * 8. closing the watcher leaves no sidecar.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  copyFixture,
  countListing,
  edit,
  Events,
  greetListing,
  removeCopy,
  sidecarPids,
  sidecarsGone,
} from "./helpers.ts";

/** One observed state of the watched project: a listing, or the build error's text. */
export type Outcome = { ok: true; tools: Record<string, any>[] } | { ok: false; error: string };

/** A running watch mode over a project copy. */
interface WatchSession {
  /** Resolves when a (re)build's outcome satisfies `check`; rejects after `ms`. */
  until(check: (o: Outcome) => boolean, ms?: number): Promise<void>;
  /** Closes the watcher (and whatever the bundler keeps open). */
  close(): Promise<void>;
  /**
   * Resolves once no (re)build is running (where the bundler reports build starts and ends), so
   * that the next edit lands on an idle watcher, as a person's save between builds does. A save
   * during a running rebuild is the bundler's own queueing, not what these tests are about.
   */
  idle?(): Promise<void>;
}

/** Starts a watch mode on the project at `root` (entry `src/server.ts`) with the plugin options given. */
export type StartWatch = (
  root: string,
  pluginOptions: { cache: false | { dir: string }; onEvent: (e: any) => void },
) => Promise<WatchSession>;

/**
 * Waits before an edit: Vite's dev watcher (chokidar 3) drops a file's change event that follows
 * the previous one within 50 ms, as a person saving twice that fast would see.
 */
const pause = () => new Promise((r) => setTimeout(r, 80));

const listed = (o: Outcome, greetType: "string" | "number", withCount = true) =>
  o.ok &&
  JSON.stringify(o.tools) ===
    JSON.stringify(withCount ? [greetListing(greetType), countListing()] : [greetListing(greetType)]);

/**
 * Defines the scenario's tests for one watch mode. By default the model cache is off, so every
 * rebuild goes through the sidecar; with `{ cache: true }` it is on (in a fresh directory of the
 * copy), and the same outcomes must hold.
 */
export function watchScenario(name: string, start: StartWatch, { cache = false }: { cache?: boolean } = {}): void {
  describe(name, () => {
    let root: string;
    let session: WatchSession | undefined;
    let pid: number | undefined;
    const events = new Events();
    const settle = async () => {
      await session?.idle?.();
      await pause();
    };
    const last: { outcome?: Outcome } = {};
    const until = async (check: (o: Outcome) => boolean, ms = 15_000) => {
      await session!
        .until((o) => {
          last.outcome = o;
          return check(o);
        }, ms)
        .catch((e: Error) => {
          const recent = events.all.slice(-12).map((x) => `${x.type} ${x.file ?? ""}`);
          throw new Error(
            `${e.message}\nlast outcome: ${JSON.stringify(last.outcome)?.slice(0, 600)}\nrecent plugin events:\n${recent.join("\n")}`,
          );
        });
    };

    beforeAll(async () => {
      root = await copyFixture(name);
      session = await start(root, {
        cache: cache ? { dir: join(root, ".cache/typed-mcp") } : false,
        onEvent: events.onEvent,
      });
    });
    afterAll(async () => {
      await session?.close();
      session = undefined;
      await removeCopy(root);
    });

    it("lists the tools after the first build, with one sidecar", async () => {
      await until((o) => listed(o, "string"));
      const pids = sidecarPids();
      expect(pids).toHaveLength(1);
      pid = pids[0];
      expect(events.count("sidecar-start")).toBe(1);
    });

    it("relists a parameter whose interface changed in a type-only import, on the same sidecar", async () => {
      const types = join(root, "src/types.ts").replace(/\\/g, "/");
      await settle();
      await edit(join(root, "src/types.ts"), "name: string;", "name: number;");
      await until((o) => listed(o, "number"));
      expect(events.count("invalidate", types)).toBeGreaterThanOrEqual(1);
      expect(sidecarPids()).toEqual([pid]);
      expect(events.count("sidecar-start")).toBe(1);
    });

    it("reports a new error, then clears it once fixed", async () => {
      const a = join(root, "src/a.ts");
      await settle();
      await edit(a, "greet(who: Person): string", "greet(who: Person, x: string | Date): string");
      await until((o) => !o.ok && o.error.includes("OMCG0005") && o.error.includes("a.ts"));
      await settle();
      await edit(a, "greet(who: Person, x: string | Date): string", "greet(who: Person): string");
      await until((o) => listed(o, "number"));
      expect(sidecarPids()).toEqual([pid]);
    });

    it("serves no stale schema after a declaration file is renamed", async () => {
      // As an editor's rename refactoring does it: the file moves and its importer follows at once.
      const src = join(root, "src");
      await settle();
      renameSync(join(src, "types.ts"), join(src, "people.ts"));
      writeFileSync(join(src, "a.ts"), readFileSync(join(src, "a.ts"), "utf8").replace("./types.js", "./people.js"));
      writeFileSync(
        join(src, "people.ts"),
        readFileSync(join(src, "people.ts"), "utf8").replace("name: number;", "name: string;"),
      );
      await until((o) => listed(o, "string"));
      expect(sidecarPids()).toEqual([pid]);
    });

    it("fails when a consulted file is deleted, and recovers when it is back", async () => {
      const counts = join(root, "src/counts.ts");
      const text = await readFile(counts, "utf8");
      await settle();
      await rm(counts);
      await until((o) => !o.ok && o.error.includes("b.ts"));
      await settle();
      await writeFile(counts, text);
      await until((o) => listed(o, "string"));
      expect(sidecarPids()).toEqual([pid]);
      expect(events.count("sidecar-start")).toBe(1);
    });

    it("drops the tools of a deleted tool module", async () => {
      await settle();
      const server = join(root, "src/server.ts");
      writeFileSync(
        server,
        readFileSync(server, "utf8")
          .replace('import { Counter } from "./b.js";\n', "")
          .replace("server.addTools(new Counter());\n", ""),
      );
      await rm(join(root, "src/b.ts"));
      await until((o) => listed(o, "string", false));
      expect(sidecarPids()).toEqual([pid]);
    });

    it("re-reads the compiler options after a tsconfig edit (a fresh project)", async () => {
      const tsconfig = join(root, "tsconfig.json");
      await settle();
      await edit(tsconfig, '"strict": true,', '"strict": false,');
      await until((o) => !o.ok && o.error.includes("OMCG0000") && o.error.includes("strictNullChecks"));
      await settle();
      await edit(tsconfig, '"strict": false,', '"strict": true,');
      await until((o) => listed(o, "string", false));
      // One warm sidecar (none with the cache on: the options are back to a cached state).
      expect(sidecarPids()).toHaveLength(cache ? 0 : 1);
    });

    it("leaves no sidecar once the watcher is closed", async () => {
      await session!.close();
      session = undefined;
      expect(await sidecarsGone()).toEqual([]);
      expect(events.count("sidecar-close")).toBe(events.count("sidecar-start"));
    });
  });
}
