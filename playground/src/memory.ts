/**
 * The knowledge-graph memory tools: the tool surface of the reference MCP memory server,
 * written as plain typed methods. typed-mcp reads the parameter and return types and the JSDoc
 * below at build time; this file contains no schema code.
 */
import { tool, ToolError, type Int, type RequestContext } from "typed-mcp";
import type {
  Entity,
  KnowledgeGraph,
  ObservationAddition,
  ObservationDeletion,
  ObservationsAdded,
  Relation,
} from "./graph.js";
import type { GraphStore } from "./store.js";

export class MemoryTools {
  constructor(private readonly store: GraphStore) {}

  /**
   * Create multiple new entities in the knowledge graph.
   * @param entities The entities to create. Entities whose name already exists are skipped.
   */
  @tool({ idempotent: true })
  async createEntities(entities: Entity[]): Promise<{ created: Entity[] }> {
    return this.store.update((graph) => {
      // Names are unique: one already stored, or repeated within this call, is skipped (the first one wins).
      const names = new Set(graph.entities.map((x) => x.name));
      const created = entities.filter((e) => !names.has(e.name) && names.add(e.name) !== undefined);
      graph.entities.push(...created);
      return { created };
    });
  }

  /**
   * Create multiple new relations between entities in the knowledge graph.
   * Relations should be in active voice.
   * @param relations The relations to create. Relations that already exist are skipped.
   */
  @tool({ idempotent: true })
  async createRelations(relations: Relation[]): Promise<{ created: Relation[] }> {
    return this.store.update((graph) => {
      const created = relations.filter((r) => !graph.relations.some((x) => sameRelation(x, r)));
      graph.relations.push(...created);
      return { created };
    });
  }

  /**
   * Add new observations to existing entities in the knowledge graph.
   * @param observations The observations to add, per entity.
   */
  @tool()
  async addObservations(observations: ObservationAddition[]): Promise<{ results: ObservationsAdded[] }> {
    return this.store.update((graph) => {
      const results = observations.map((o) => {
        const entity = graph.entities.find((e) => e.name === o.entityName);
        if (!entity) throw new ToolError(`Entity with name ${o.entityName} not found`);
        const addedObservations = o.contents.filter((c) => !entity.observations.includes(c));
        entity.observations.push(...addedObservations);
        return { entityName: o.entityName, addedObservations };
      });
      return { results };
    });
  }

  /**
   * Delete multiple entities and the relations that involve them.
   * @param entityNames The names of the entities to delete.
   */
  @tool({ destructive: true, idempotent: true })
  async deleteEntities(entityNames: string[], ctx: RequestContext): Promise<string> {
    await this.store.update((graph) => {
      graph.entities = graph.entities.filter((e) => !entityNames.includes(e.name));
      graph.relations = graph.relations.filter((r) => !entityNames.includes(r.from) && !entityNames.includes(r.to));
    });
    await ctx.log("info", { deleted: entityNames });
    return "Entities deleted successfully";
  }

  /**
   * Delete specific observations from entities in the knowledge graph.
   * @param deletions The observations to delete, per entity.
   */
  @tool({ destructive: true, idempotent: true })
  async deleteObservations(deletions: ObservationDeletion[]): Promise<string> {
    await this.store.update((graph) => {
      for (const d of deletions) {
        const entity = graph.entities.find((e) => e.name === d.entityName);
        if (entity) entity.observations = entity.observations.filter((o) => !d.observations.includes(o));
      }
    });
    return "Observations deleted successfully";
  }

  /**
   * Delete multiple relations from the knowledge graph.
   * @param relations The relations to delete.
   */
  @tool({ destructive: true, idempotent: true })
  async deleteRelations(relations: Relation[]): Promise<string> {
    await this.store.update((graph) => {
      graph.relations = graph.relations.filter((r) => !relations.some((x) => sameRelation(x, r)));
    });
    return "Relations deleted successfully";
  }

  /** Read the entire knowledge graph. */
  @tool({ readOnly: true, uiResource: "ui://memory/graph" })
  async readGraph(): Promise<KnowledgeGraph> {
    return this.store.read();
  }

  /**
   * Search for nodes in the knowledge graph by a query matched against names, types and
   * observations (case-insensitive).
   * @param query The text to look for.
   * @param limit The most entities to return.
   */
  @tool({ readOnly: true })
  async searchNodes(query: string, limit: Int = 20): Promise<KnowledgeGraph> {
    const graph = await this.store.read();
    const q = query.toLowerCase();
    const entities = graph.entities
      .filter(
        (e) =>
          e.name.toLowerCase().includes(q) ||
          e.entityType.toLowerCase().includes(q) ||
          e.observations.some((o) => o.toLowerCase().includes(q)),
      )
      .slice(0, limit);
    return subgraph(graph, entities);
  }

  /**
   * Open specific nodes in the knowledge graph by their names.
   * @param names The names of the entities to open.
   */
  @tool({ readOnly: true })
  async openNodes(names: string[]): Promise<KnowledgeGraph> {
    const graph = await this.store.read();
    return subgraph(
      graph,
      graph.entities.filter((e) => names.includes(e.name)),
    );
  }
}

function sameRelation(a: Relation, b: Relation): boolean {
  return a.from === b.from && a.to === b.to && a.relationType === b.relationType;
}

/** The given entities and the relations between them. */
function subgraph(graph: KnowledgeGraph, entities: Entity[]): KnowledgeGraph {
  const names = new Set(entities.map((e) => e.name));
  return { entities, relations: graph.relations.filter((r) => names.has(r.from) && names.has(r.to)) };
}
