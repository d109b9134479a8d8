/**
 * The listing entries typed-mcp sends to clients (`tools/list`, `resources/list`,
 * `resources/templates/list`, `prompts/list`), as `@typed-mcp/codegen` writes them and the
 * `typed-mcp` runtime serves them. Types only: the one definition every package imports.
 * Key order is part of the contract (docs/mapping.md §1, §8, §9): objects are built in the
 * order the fields are declared here.
 *
 * @module
 */

/**
 * The listing entry of one tool (spec §1, §9): keys in the order name, description,
 * inputSchema, outputSchema, annotations, execution, `_meta`. This is what a client that negotiated the
 * newest revision and MCP Apps sees; older revisions get a copy without some keys (spec §6).
 */
export interface ToolListing {
  name: string;
  description?: string;
  /** The JSON Schema of `arguments` (spec §2–§5). */
  inputSchema: Record<string, unknown>;
  /** The JSON Schema of `structuredContent` (spec §6); only for object-shaped results. */
  outputSchema?: Record<string, unknown>;
  /** `title`, `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint` (spec §1 Annotations). */
  annotations?: Record<string, unknown>;
  /** MCP 2025-11-25 `ToolExecution`: `{ taskSupport }` from the `task` option (docs/runtime.md "Tasks"). */
  execution?: { taskSupport: "forbidden" | "optional" | "required" };
  /** MCP Apps (spec §9): the view that renders the tool's results and who may see the tool. */
  _meta?: { ui: { resourceUri: string; visibility?: ("model" | "app")[] } };
}

/** A resource's `resources/list` entry (spec §8 key order: uri, name, title, description, mimeType). */
export interface ResourceListing {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A resource template's `resources/templates/list` entry (spec §8: uriTemplate, name, title, description, mimeType). */
export interface ResourceTemplateListing {
  /** An RFC 6570 URI template. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** The listing entry of a resource or a resource template: exactly one of `uri` and `uriTemplate` is set. */
export type ResourceListingEntry = ResourceListing | ResourceTemplateListing;

/** One argument of a prompt's listing entry (spec §8: name, description, required — `required` always written). */
export interface PromptArgumentListing {
  name: string;
  description?: string;
  required: boolean;
}

/** A prompt's `prompts/list` entry (spec §8: name, title, description, arguments). */
export interface PromptListing {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgumentListing[];
}
