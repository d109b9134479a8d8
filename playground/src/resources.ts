/**
 * The knowledge graph as MCP resources and a prompt (spec §8): the whole graph, one entity by
 * name (a resource template), and a prompt that asks the model to summarise an entity. Plain
 * typed methods; typed-mcp writes the listings and the string-argument readers at build time.
 */
import { prompt, resource } from "typed-mcp";
import type { Entity, Relation } from "./graph.js";
import type { GraphStore } from "./store.js";

/** One entity and the relations that start or end at it. */
interface EntityView {
  entity: Entity | null;
  relations: Relation[];
}

export class GraphResources {
  constructor(private readonly store: GraphStore) {}

  /** The whole knowledge graph as JSON. */
  @resource({ uri: "memory://graph", title: "Knowledge graph", mimeType: "application/json" })
  async graph(): Promise<string> {
    return JSON.stringify(await this.store.read());
  }

  /**
   * One entity of the knowledge graph as JSON, with the relations that touch it
   * (`{"entity":null,"relations":[]}` when there is no such entity).
   * @param name The entity's name.
   */
  @resource({ uri: "memory://entities/{name}", title: "Entity", mimeType: "application/json" })
  async entity(name: string): Promise<string> {
    return JSON.stringify(await this.view(name));
  }

  /**
   * Asks the model to summarise what the knowledge graph knows about one entity.
   * @param name The entity's name.
   * @param style How long the summary should be.
   */
  @prompt({ title: "Summarise an entity" })
  async summariseEntity(name: string, style: "brief" | "detailed" = "brief"): Promise<string> {
    const { entity, relations } = await this.view(name);
    const facts =
      entity && entity.observations.length > 0 ? entity.observations.map((o) => `- ${o}`).join("\n") : "- (none)";
    const links =
      relations.length > 0 ? relations.map((r) => `- ${r.from} ${r.relationType} ${r.to}`).join("\n") : "- (none)";
    return (
      `Write a ${style} summary of what is known about ${name}` +
      (entity ? ` (${entity.entityType}).` : ", which is not in the knowledge graph.") +
      `\n\nObservations:\n${facts}\n\nRelations:\n${links}`
    );
  }

  private async view(name: string): Promise<EntityView> {
    const graph = await this.store.read();
    return {
      entity: graph.entities.find((e) => e.name === name) ?? null,
      relations: graph.relations.filter((r) => r.from === name || r.to === name),
    };
  }
}
