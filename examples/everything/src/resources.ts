/**
 * The original's resources (server-everything `resources/`): the two dynamic resource templates,
 * the static documents of its `docs/` folder (bundled from the pinned package at build time by
 * Vite's `?raw`), and the session resources `gzip-file-as-resource` makes.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  resource,
  type BlobResourceContents,
  type Int,
  type Minimum,
  type ResourceContents,
} from "typed-mcp";
import architecture from "@modelcontextprotocol/server-everything/dist/docs/architecture.md?raw";
import extension from "@modelcontextprotocol/server-everything/dist/docs/extension.md?raw";
import features from "@modelcontextprotocol/server-everything/dist/docs/features.md?raw";
import howItWorks from "@modelcontextprotocol/server-everything/dist/docs/how-it-works.md?raw";
import instructions from "@modelcontextprotocol/server-everything/dist/docs/instructions.md?raw";
import startup from "@modelcontextprotocol/server-everything/dist/docs/startup.md?raw";
import structure from "@modelcontextprotocol/server-everything/dist/docs/structure.md?raw";
import { blobContents, textContents } from "./dynamic-resources.js";

/** The server instructions (the original's `docs/instructions.md`). */
export const INSTRUCTIONS = instructions;

/** The dynamic resource templates (`Dynamic Text Resource`, `Dynamic Blob Resource`). */
export class DynamicResources {
  /** @param resourceId The resource's number, a positive integer. */
  @resource({
    uri: "demo://resource/dynamic/text/{resourceId}",
    name: "Dynamic Text Resource",
    description: "Plaintext dynamic resource fabricated from the {resourceId} variable, which must be an integer.",
    mimeType: "text/plain",
  })
  text(resourceId: Int & Minimum<1>): ResourceContents {
    return textContents(`demo://resource/dynamic/text/${resourceId}`, resourceId);
  }

  /** @param resourceId The resource's number, a positive integer. */
  @resource({
    uri: "demo://resource/dynamic/blob/{resourceId}",
    name: "Dynamic Blob Resource",
    description:
      "Binary (base64) dynamic resource fabricated from the {resourceId} variable, which must be an integer.",
    mimeType: "application/octet-stream",
  })
  blob(resourceId: Int & Minimum<1>): ResourceContents {
    return blobContents(`demo://resource/dynamic/blob/${resourceId}`, resourceId);
  }
}

/** The static documents, `demo://resource/static/document/<file name>`, each served as Markdown. */
export class StaticDocuments {
  @resource({
    uri: "demo://resource/static/document/architecture.md",
    name: "architecture.md",
    description: "Static document file exposed from /docs: architecture.md",
    mimeType: "text/markdown",
  })
  architecture(): string {
    return architecture;
  }

  @resource({
    uri: "demo://resource/static/document/extension.md",
    name: "extension.md",
    description: "Static document file exposed from /docs: extension.md",
    mimeType: "text/markdown",
  })
  extension(): string {
    return extension;
  }

  @resource({
    uri: "demo://resource/static/document/features.md",
    name: "features.md",
    description: "Static document file exposed from /docs: features.md",
    mimeType: "text/markdown",
  })
  features(): string {
    return features;
  }

  @resource({
    uri: "demo://resource/static/document/how-it-works.md",
    name: "how-it-works.md",
    description: "Static document file exposed from /docs: how-it-works.md",
    mimeType: "text/markdown",
  })
  howItWorks(): string {
    return howItWorks;
  }

  @resource({
    uri: "demo://resource/static/document/instructions.md",
    name: "instructions.md",
    description: "Static document file exposed from /docs: instructions.md",
    mimeType: "text/markdown",
  })
  instructions(): string {
    return instructions;
  }

  @resource({
    uri: "demo://resource/static/document/startup.md",
    name: "startup.md",
    description: "Static document file exposed from /docs: startup.md",
    mimeType: "text/markdown",
  })
  startup(): string {
    return startup;
  }

  @resource({
    uri: "demo://resource/static/document/structure.md",
    name: "structure.md",
    description: "Static document file exposed from /docs: structure.md",
    mimeType: "text/markdown",
  })
  structure(): string {
    return structure;
  }
}

/**
 * The session resources `gzip-file-as-resource` makes, `demo://resource/session/<name>`: kept
 * in memory for the life of the process (one stdio connection). typed-mcp lists only URIs known
 * at build time (spec §1 "Option values are compile-time constants", §8), so the URIs made at run
 * time are one resource template instead of one listed resource each (examples/everything/README.md).
 */
export class SessionResources {
  /** The blobs made so far, by name. */
  readonly #blobs = new Map<string, BlobResourceContents>();

  /** Keeps `contents` under `name` (replacing an earlier one of that name). */
  store(name: string, contents: BlobResourceContents): void {
    this.#blobs.set(name, contents);
  }

  /**
   * @param name The file name the tool was given, e.g. `README.md.gz`.
   * @throws ProtocolError `-32002` (resource not found, with `data.uri`) for a name no call made.
   */
  @resource({
    uri: "demo://resource/session/{name}",
    name: "Session Resource",
    description: "A file gzip-file-as-resource compressed during this session.",
    mimeType: "application/gzip",
  })
  session(name: string): ResourceContents {
    const found = this.#blobs.get(name);
    const uri = `demo://resource/session/${name}`;
    if (found === undefined)
      throw new ProtocolError(-32002 as ProtocolErrorCode, `Resource not found: ${uri}`, { uri });
    return found;
  }
}
