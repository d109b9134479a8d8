/**
 * Persistence for the knowledge graph: one JSON file, written atomically (a temporary file in
 * the same directory, then `rename`), with every read-modify-write serialised so concurrent
 * calls never lose an update.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { KnowledgeGraph } from "./graph.js";

/** Where the graph is stored: `$MEMORY_FILE_PATH`, else `memory.json` in the working directory. */
export function defaultStorePath(): string {
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
      const graph = await this.read();
      const result = await change(graph);
      await this.write(graph);
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(graph: KnowledgeGraph): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, JSON.stringify(graph, null, 2) + "\n", "utf8");
    await rename(temp, this.path);
  }
}
