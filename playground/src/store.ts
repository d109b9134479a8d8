/**
 * Persistence for the knowledge graph: one JSON file, written atomically (a temporary file in
 * the same directory, then `rename`), with every read-modify-write serialised — within the
 * process by a queue, across processes by a lock file (`proper-lockfile`: `<file>.lock`, a
 * directory created atomically, refreshed while held and taken over once stale, so a writer
 * killed with `kill -9` never blocks the others for longer than {@link LOCK_STALE_MS}). Under the
 * lock, temporary files a crashed writer left behind (`<file>.<pid>.<time>.tmp`) are removed.
 */
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import lockfile from "proper-lockfile";
import type { KnowledgeGraph } from "./graph.js";

/**
 * After how long, in milliseconds, a lock whose holder stopped refreshing it is taken over:
 * `$MEMORY_LOCK_STALE_MS`, else 5000; never below 2000, proper-lockfile's own minimum.
 */
const LOCK_STALE_MS = Math.max(2000, Number(process.env.MEMORY_LOCK_STALE_MS) || 5000);

/** Where the graph is stored: `$MEMORY_FILE_PATH`, else `memory.json` in the working directory. */
function defaultStorePath(): string {
  return resolve(process.env.MEMORY_FILE_PATH ?? "memory.json");
}

export class GraphStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string = defaultStorePath()) {}

  /** Reads the graph; a missing file is an empty graph. Throws on a file that is not a graph. */
  async read(): Promise<KnowledgeGraph> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { entities: [], relations: [] };
      throw error;
    }
    const data = JSON.parse(text) as KnowledgeGraph;
    if (!Array.isArray(data.entities) || !Array.isArray(data.relations)) {
      throw new Error(`${this.path} does not hold a knowledge graph`);
    }
    return data;
  }

  /**
   * Runs `change` on the current graph and saves the graph it leaves, one change at a time.
   * Resolves with what `change` returned.
   */
  update<T>(change: (graph: KnowledgeGraph) => T | Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      await mkdir(dirname(this.path), { recursive: true });
      const release = await lockfile.lock(this.path, {
        realpath: false,
        stale: LOCK_STALE_MS,
        retries: { retries: 1000, minTimeout: 5, maxTimeout: 100, randomize: true },
      });
      try {
        await this.removeLeftovers();
        const graph = await this.read();
        const result = await change(graph);
        await this.write(graph);
        return result;
      } finally {
        await release();
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Removes the temporary files of writers that died before their `rename` (only called under the lock). */
  private async removeLeftovers(): Promise<void> {
    const prefix = `${basename(this.path)}.`;
    for (const name of await readdir(dirname(this.path))) {
      if (name.startsWith(prefix) && name.endsWith(".tmp")) await rm(join(dirname(this.path), name), { force: true });
    }
  }

  private async write(graph: KnowledgeGraph): Promise<void> {
    const temp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, JSON.stringify(graph, null, 2) + "\n", "utf8");
    await rename(temp, this.path);
  }
}
