/**
 * The original's self-contained tools (server-everything `tools/`): same names, titles,
 * annotations, descriptions, input properties and answers, as typed methods.
 */
import {
  tool,
  ToolError,
  type CallToolResult,
  type ContentBlock,
  type Maximum,
  type Minimum,
  type RequestContext,
} from "typed-mcp";
// The MCP logo PNG (base64) the original answers with: an asset, taken from the pinned package.
import { MCP_TINY_IMAGE } from "@modelcontextprotocol/server-everything/dist/tools/get-tiny-image.js";
import { checkResourceId, dynamicContents, type ResourceType } from "./dynamic-resources.js";

/** The weather `get-structured-content` answers with. */
export interface Weather {
  /** Temperature in celsius */
  temperature: number;
  /** Weather conditions description */
  conditions: string;
  /** Humidity percentage */
  humidity: number;
}

const WEATHER: Record<"New York" | "Chicago" | "Los Angeles", Weather> = {
  "New York": { temperature: 33, conditions: "Cloudy", humidity: 82 },
  Chicago: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
  "Los Angeles": { temperature: 73, conditions: "Sunny / Clear", humidity: 48 },
};

/** The tools that need nothing from the client; names, titles and annotation hints are the original's. */
export class BasicTools {
  /**
   * Echoes back the input string
   * @param message Message to echo
   */
  @tool({
    name: "echo",
    task: "forbidden",
    title: "Echo Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  echo(message: string): string {
    return `Echo: ${message}`;
  }

  /**
   * Demonstrates how annotations can be used to provide metadata about content.
   * @param messageType Type of message to demonstrate different annotation patterns
   * @param includeImage Whether to include an example image
   */
  @tool({
    name: "get-annotated-message",
    task: "forbidden",
    title: "Get Annotated Message Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  getAnnotatedMessage(messageType: "error" | "success" | "debug", includeImage = false): ContentBlock[] {
    const content: ContentBlock[] = [];
    if (messageType === "error")
      content.push({
        type: "text",
        text: "Error: Operation failed",
        annotations: { priority: 1.0, audience: ["user", "assistant"] },
      });
    else if (messageType === "success")
      content.push({
        type: "text",
        text: "Operation completed successfully",
        annotations: { priority: 0.7, audience: ["user"] },
      });
    else
      content.push({
        type: "text",
        text: "Debug: Cache hit ratio 0.95, latency 150ms",
        annotations: { priority: 0.3, audience: ["assistant"] },
      });
    if (includeImage)
      content.push({
        type: "image",
        data: MCP_TINY_IMAGE,
        mimeType: "image/png",
        annotations: { priority: 0.5, audience: ["user"] },
      });
    return content;
  }

  /** Returns all environment variables, helpful for debugging MCP server configuration */
  @tool({
    name: "get-env",
    task: "forbidden",
    title: "Print Environment Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  getEnv(): string {
    return JSON.stringify(process.env, null, 2);
  }

  /**
   * Returns up to ten resource links that reference different types of resources
   * @param count Number of resource links to return (1-10)
   */
  @tool({
    name: "get-resource-links",
    task: "forbidden",
    title: "Get Resource Links Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  getResourceLinks(count: number & Minimum<1> & Maximum<10> = 3): ContentBlock[] {
    const content: ContentBlock[] = [
      { type: "text", text: `Here are ${count} resource links to resources available in this server:` },
    ];
    for (let id = 1; id <= count; id++) {
      // As the original: even ids are text resources, odd ones blobs.
      const type: ResourceType = id % 2 === 0 ? "Text" : "Blob";
      const contents = dynamicContents(type, id);
      content.push({
        type: "resource_link",
        uri: contents.uri,
        name: `${type} Resource ${id}`,
        description: `Resource ${id}: ${contents.mimeType === "text/plain" ? "plaintext resource" : "binary blob resource"}`,
        mimeType: contents.mimeType,
      });
    }
    return content;
  }

  /**
   * Returns a resource reference that can be used by MCP clients
   * @param resourceId ID of the text resource to fetch
   */
  @tool({
    name: "get-resource-reference",
    task: "forbidden",
    title: "Get Resource Reference Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  getResourceReference(resourceType: ResourceType = "Text", resourceId = 1): ContentBlock[] {
    let id: number;
    try {
      id = checkResourceId(resourceId);
    } catch (error) {
      throw new ToolError((error as Error).message);
    }
    const resource = dynamicContents(resourceType, id);
    return [
      { type: "text", text: `Returning resource reference for Resource ${id}:` },
      { type: "resource", resource },
      { type: "text", text: `You can access this resource using the URI: ${resource.uri}` },
    ];
  }

  /**
   * Returns structured content along with an output schema for client data validation
   * @param location Choose city
   */
  @tool({
    name: "get-structured-content",
    task: "forbidden",
    title: "Get Structured Content Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  getStructuredContent(location: "New York" | "Chicago" | "Los Angeles"): Weather {
    return WEATHER[location];
  }

  /**
   * Returns the sum of two numbers
   * @param a First number
   * @param b Second number
   */
  @tool({
    name: "get-sum",
    task: "forbidden",
    title: "Get Sum Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  getSum(a: number, b: number): string {
    return `The sum of ${a} and ${b} is ${a + b}.`;
  }

  /** Returns a tiny MCP logo image. */
  @tool({
    name: "get-tiny-image",
    task: "forbidden",
    title: "Get Tiny Image Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  getTinyImage(): CallToolResult {
    return {
      content: [
        { type: "text", text: "Here's the image you requested:" },
        { type: "image", data: MCP_TINY_IMAGE, mimeType: "image/png" },
        { type: "text", text: "The image above is the MCP logo." },
      ],
    };
  }

  /**
   * Demonstrates a long running operation with progress updates.
   * @param duration Duration of the operation in seconds
   * @param steps Number of steps in the operation
   */
  @tool({
    name: "trigger-long-running-operation",
    task: "forbidden",
    title: "Trigger Long Running Operation Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  async triggerLongRunningOperation(ctx: RequestContext, duration = 10, steps = 5): Promise<string> {
    const stepMs = (duration / steps) * 1000;
    for (let i = 1; i < steps + 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, stepMs));
      await ctx.progress(i, steps);
    }
    return `Long running operation completed. Duration: ${duration} seconds, Steps: ${steps}.`;
  }
}
