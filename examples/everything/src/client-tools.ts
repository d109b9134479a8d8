/**
 * The original's tools that ask the client something (server-everything registers them only for
 * clients that declared the capability): roots, elicitation (form and URL mode) and sampling,
 * through `RequestContext` (docs/runtime.md "RequestContext"). typed-mcp lists every tool to every
 * client, so here a client without the capability gets a `ToolError` saying which one it lacks.
 */
import { randomUUID } from "node:crypto";
import {
  ServerRequestUnavailableError,
  tool,
  ToolError,
  UrlElicitationRequiredError,
  type ContentBlock,
  type ElicitRequestFormParams,
  type Format,
  type RequestContext,
} from "typed-mcp";
import { ELICITATION_FORM } from "./elicitation-form.js";

/** Refuses a call from a client that did not declare `capability` (the original does not list the tool to it). */
export function requireCapability(ctx: RequestContext, capability: "roots" | "sampling" | "elicitation"): void {
  if (ctx.clientCapabilities !== undefined && ctx.clientCapabilities[capability] === undefined) {
    throw new ToolError(`This tool needs the client capability '${capability}', which this client did not declare.`);
  }
}

/**
 * Runs one client request; where the transport cannot carry it (stateless 2025-era HTTP,
 * docs/runtime.md) the call answers a `ToolError` saying so instead of "The tool failed.".
 */
export async function ask<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof ServerRequestUnavailableError) {
      throw new ToolError(
        `This transport cannot carry the server's ${error.method} request to the client; connect over stdio (or a 2026-07-28 client) to use this tool.`,
      );
    }
    throw error;
  }
}

/** One text content block per string (the original answers with several text blocks). */
const textBlocks = (texts: string[]): ContentBlock[] => texts.map((text) => ({ type: "text", text }));

/** The text both elicitation tools end with. */
const rawResult = (result: unknown): string => `\nRaw result: ${JSON.stringify(result, null, 2)}`;

/** `elicitationId`s of `trigger-url-elicitation` error-path calls answered with -32042 and not yet retried. */
const issuedErrorPath = new Set<string>();

export class ClientTools {
  /** Lists the current MCP roots provided by the client. Demonstrates the roots protocol capability even though this server doesn't access files. */
  @tool({
    name: "get-roots-list",
    task: "forbidden",
    title: "Get Roots List Tool",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
  })
  async getRootsList(ctx: RequestContext): Promise<string> {
    requireCapability(ctx, "roots");
    const { roots } = await ask(() => ctx.listRoots());
    if (roots.length === 0) {
      return (
        "The client supports roots but no roots are currently configured.\n\n" +
        "This could mean:\n1. The client hasn't provided any roots yet\n2. The client provided an empty roots list\n3. The roots configuration is still being loaded"
      );
    }
    const list = roots.map((root, i) => `${i + 1}. ${root.name || "Unnamed Root"}\n   URI: ${root.uri}`).join("\n\n");
    return (
      `Current MCP Roots (${roots.length} total):\n\n${list}\n\n` +
      "Note: This server demonstrates the roots protocol capability but doesn't actually access files. " +
      "The roots are provided by the MCP client and can be used by servers that need file system access."
    );
  }

  /** Trigger a Request from the Server for User Elicitation */
  @tool({
    name: "trigger-elicitation-request",
    task: "forbidden",
    title: "Trigger Elicitation Request Tool",
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
  })
  async triggerElicitationRequest(ctx: RequestContext): Promise<ContentBlock[]> {
    requireCapability(ctx, "elicitation");
    const result = await ask(() =>
      ctx.elicit({
        message: "Please provide inputs for the following fields:",
        requestedSchema: ELICITATION_FORM,
      } as ElicitRequestFormParams),
    );
    const texts: string[] = [];
    if (result.action === "accept" && result.content) {
      texts.push("✅ User provided the requested information!");
      const data = result.content as Record<string, unknown>;
      const lines: string[] = [];
      const line = (label: string, key: string, present = (v: unknown) => Boolean(v)): void => {
        if (present(data[key])) lines.push(`- ${label}: ${String(data[key])}`);
      };
      const defined = (v: unknown): boolean => v !== undefined;
      line("Name", "name");
      line("Agreed to terms", "check", defined);
      line("Favorite Color", "color");
      line("Email", "email");
      line("Homepage", "homepage");
      line("Birthdate", "birthdate");
      line("Favorite Integer", "integer", defined);
      line("Favorite Number", "number", defined);
      line("Pet Type", "petType");
      texts.push(`User inputs:\n${lines.join("\n")}`);
    } else if (result.action === "decline") {
      texts.push("❌ User declined to provide the requested information.");
    } else if (result.action === "cancel") {
      texts.push("⚠️ User cancelled the elicitation dialog.");
    }
    texts.push(rawResult(result));
    return textBlocks(texts);
  }

  /**
   * Trigger a URL elicitation so the client can direct the user to a browser flow. Supports two mechanisms: the request path (elicitation/create, default) which awaits the user's response, and the error path (UrlElicitationRequiredError, -32042) which signals the client to handle URL elicitation via the error response. Set errorPath=true to use the error path.
   * @param url The URL the user should open
   * @param message Message shown to the user before opening the URL
   * @param elicitationId Optional explicit elicitation ID. Defaults to a random UUID.
   * @param errorPath Controls which elicitation mechanism is used. When false (default), sends an elicitation/create request (request path). When true, throws a UrlElicitationRequiredError (MCP error code -32042) so the client handles the URL elicitation via the error path rather than waiting for a response. To clear the error, satisfy the prerequisite and retry this call with the same arguments; the retry ignores errorPath and proceeds, so the client does not loop on the same error.
   */
  @tool({
    name: "trigger-url-elicitation",
    task: "forbidden",
    title: "Trigger URL Elicitation Tool",
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: true,
  })
  async triggerUrlElicitation(
    ctx: RequestContext,
    url: string & Format<"uri">,
    message = "Please open the link to complete this action.",
    elicitationId?: string,
    errorPath = false,
  ): Promise<ContentBlock[]> {
    requireCapability(ctx, "elicitation");
    const id = elicitationId ?? randomUUID();
    if (errorPath) {
      // One process serves one stdio session: the key needs no session id.
      const key = `${url}\u0000${elicitationId ?? ""}`;
      if (issuedErrorPath.has(key)) issuedErrorPath.delete(key);
      else {
        issuedErrorPath.add(key);
        const prerequisite = {
          mode: "url" as const,
          url: "https://modelcontextprotocol.io",
          message: "Open this link to satisfy the prerequisite, then retry the request.",
          elicitationId: randomUUID(),
        };
        throw new UrlElicitationRequiredError([prerequisite], "This request requires browser-based authorization.");
      }
    }
    const result = await ask(() => ctx.elicit({ mode: "url", url, message, elicitationId: id }));
    const texts: string[] = [];
    if (result.action === "accept")
      texts.push(`✅ User completed the URL elicitation flow.\nElicitation ID: ${id}\nURL: ${url}`);
    else if (result.action === "decline") texts.push(`❌ User declined to open the URL (Elicitation ID: ${id}).`);
    else if (result.action === "cancel") texts.push(`⚠️ User cancelled the URL elicitation (Elicitation ID: ${id}).`);
    texts.push(rawResult(result));
    return textBlocks(texts);
  }

  /**
   * Trigger a Request from the Server for LLM Sampling
   * @param prompt The prompt to send to the LLM
   * @param maxTokens Maximum number of tokens to generate
   */
  @tool({
    name: "trigger-sampling-request",
    task: "forbidden",
    title: "Trigger Sampling Request Tool",
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: true,
  })
  async triggerSamplingRequest(ctx: RequestContext, prompt: string, maxTokens = 100): Promise<string> {
    requireCapability(ctx, "sampling");
    const result = await ask(() =>
      ctx.sample({
        messages: [
          { role: "user", content: { type: "text", text: `Resource trigger-sampling-request context: ${prompt}` } },
        ],
        systemPrompt: "You are a helpful test server.",
        maxTokens,
        temperature: 0.7,
      }),
    );
    return `LLM sampling result: \n${JSON.stringify(result, null, 2)}`;
  }
}
