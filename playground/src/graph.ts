/**
 * The knowledge graph's data types. Tool parameters and results are typed with these
 * interfaces; typed-mcp turns them into the tools' JSON Schemas at build time.
 */

/** A node of the graph: a named thing with facts about it. */
export interface Entity {
  /** The entity's unique name, e.g. `John_Smith`. */
  name: string;
  /** What kind of thing it is, e.g. `person` or `organization`. */
  entityType: string;
  /** Facts about the entity, one short sentence each. */
  observations: string[];
}

/** A directed edge between two entities, in active voice. */
export interface Relation {
  /** The name of the entity the relation starts at. */
  from: string;
  /** The name of the entity the relation ends at. */
  to: string;
  /** The relation, in active voice, e.g. `works_at`. */
  relationType: string;
}

/** The whole graph, or the part of it a search or lookup returned. */
export interface KnowledgeGraph {
  entities: Entity[];
  relations: Relation[];
}

/** Observations to add to one entity. */
export interface ObservationAddition {
  /** The entity to add to. */
  entityName: string;
  /** The observations to add; ones the entity already has are skipped. */
  contents: string[];
}

/** What was added to one entity. */
export interface ObservationsAdded {
  entityName: string;
  /** The observations that were new. */
  addedObservations: string[];
}

/** Observations to remove from one entity. */
export interface ObservationDeletion {
  /** The entity to remove from. */
  entityName: string;
  /** The observations to remove. */
  observations: string[];
}
