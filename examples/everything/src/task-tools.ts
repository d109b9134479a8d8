/**
 * The original's task tools (MCP 2025-11-25 "Tasks"):
 *
 * - `simulate-research-query`: a typed-mcp task tool (`task: "required"`, docs/runtime.md
 *   "Tasks"): four one-second stages, each named in the task's `statusMessage` (`ctx.taskStatus`), and for an ambiguous topic (when the client declared
 *   elicitation) an `elicitation/create` related to the task, which is `input_required` until it
 *   is answered; the outcome is the research report, fetched with `tasks/result`.
 * - `trigger-sampling-request-async`, `trigger-elicitation-request-async`: ordinary tools asking
 *   the client with `params.task` (`{ ttl }`), i.e. inviting it to run the request as a
 *   client-side task. A client that answers at once gets the original's `[SYNC]` text; a
 *   `CreateTaskResult` answer cannot be followed up (RequestContext sends no `tasks/get` to the
 *   client, docs/runtime.md "Tasks" "Not done"), and the call says so.
 *
 * The original registers the two async tools only for clients with `tasks.requests.sampling` /
 * `tasks.requests.elicitation`; typed-mcp lists them to every client and refuses the call of a
 * client without that capability with a `ToolError` naming it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import {
  tool,
  ToolError,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type RequestContext,
} from "typed-mcp";
import { ask, requireCapability } from "./client-tools.js";

/** The research stages, one second each (the original's `STAGES`, `STAGE_DURATION`). */
const STAGES = ["Gathering sources", "Analyzing content", "Synthesizing findings", "Generating report"];
const STAGE_MS = 1000;

/** The `oneOf` choices offered for an ambiguous `topic` (the original's interpretations). */
function interpretations(topic: string): Array<{ const: string; title: string }> {
  if (topic.toLowerCase().includes("python")) {
    return [
      { const: "programming", title: "Python programming language" },
      { const: "snake", title: "Python snake species" },
      { const: "comedy", title: "Monty Python comedy group" },
    ];
  }
  return [
    { const: "technical", title: "Technical/scientific perspective" },
    { const: "historical", title: "Historical perspective" },
    { const: "current", title: "Current events/news perspective" },
  ];
}

/**
 * Asks the client which interpretation of `topic` it means; the clarification the report names.
 * The task's status message says so while it is `input_required`, and names the outcome after.
 */
async function clarify(ctx: RequestContext, topic: string): Promise<string> {
  await ctx.taskStatus(`Found multiple interpretations for "${topic}". Requesting clarification...`);
  const clarification = await interpretation(ctx, topic);
  await ctx.taskStatus(`Continuing with interpretation: "${clarification}"...`);
  return clarification;
}

/** The client's answer to the clarification elicitation, or the default interpretation when it cannot answer. */
async function interpretation(ctx: RequestContext, topic: string): Promise<string> {
  try {
    const answer = await ctx.elicit({
      message: `The research query "${topic}" could have multiple interpretations. Please clarify what you're looking for:`,
      requestedSchema: {
        type: "object",
        properties: {
          interpretation: {
            type: "string",
            title: "Clarification",
            description: "Which interpretation of the topic do you mean?",
            oneOf: interpretations(topic),
          },
        },
        required: ["interpretation"],
      },
    } as ElicitRequestFormParams);
    if (answer.action === "accept" && answer.content)
      return String(answer.content["interpretation"] || "User accepted without selection");
    return answer.action === "decline"
      ? "User declined - using default interpretation"
      : "User cancelled - using default interpretation";
  } catch {
    return "technical (default - elicitation unavailable)";
  }
}

/** The report of a finished research query (the original's text, byte for byte). */
function report(topic: string, clarification: string | undefined): string {
  const about = clarification ? `${topic} (${clarification})` : topic;
  const flow = clarification
    ? "**Elicitation Flow:**\nWhen the query was ambiguous, the server sent an `elicitation/create` request\n" +
      "to the client. The task status changed to `input_required` while awaiting user input.\n" +
      (clarification.includes("unavailable")
        ? "**Note:** Elicitation failed and a default interpretation was used."
        : `After receiving clarification ("${clarification}"), the task resumed processing and completed.`) +
      "\n"
    : "";
  return `# Research Report: ${about}

## Research Parameters
- **Topic**: ${topic}
${clarification ? `- **Clarification**: ${clarification}` : ""}

## Synthesis
This research query was processed through ${STAGES.length} stages:
${STAGES.map((s, i) => `- Stage ${i + 1}: ${s} ✓`).join("\n")}

---

## About This Demo (SEP-1686: Tasks)

This tool demonstrates MCP's task-based execution pattern for long-running operations:

**Task Lifecycle Demonstrated:**
1. \`tools/call\` with \`task\` parameter → Server returns \`CreateTaskResult\` (not the final result)
2. Client polls \`tasks/get\` → Server returns current status and \`statusMessage\`
3. Status progressed: \`working\` → ${clarification ? "`input_required` → `working` → " : ""}\`completed\`
4. Client calls \`tasks/result\` → Server returns this final result

${flow}
**Key Concepts:**
- Tasks enable "call now, fetch later" patterns
- \`statusMessage\` provides human-readable progress updates
- Tasks have TTL (time-to-live) for automatic cleanup
- \`pollInterval\` suggests how often to check status
- Elicitation requests use \`relatedTask\` to queue via tasks/result (works on all transports)

*This is a simulated research report from the Everything MCP Server.*
`;
}

/** Refuses a client that did not declare `tasks.requests.<kind>.<method>` (the original does not list the tool to it). */
function requireTaskCapability(ctx: RequestContext, kind: "sampling" | "elicitation", method: string): void {
  const requests = (
    ctx.clientCapabilities as { tasks?: { requests?: Record<string, Record<string, unknown> | undefined> } } | undefined
  )?.tasks?.requests;
  if (ctx.clientCapabilities !== undefined && requests?.[kind]?.[method] === undefined) {
    throw new ToolError(
      `This tool needs the client capability 'tasks.requests.${kind}.${method}', which this client did not declare.`,
    );
  }
}

/** The answer of a client asked with `params.task`: its direct result, or a `ToolError` when it made a task of it. */
async function direct<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await ask(request);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(
      "The client answered with a task (CreateTaskResult); this server cannot poll a client-side task (typed-mcp RequestContext sends no tasks/get to the client).",
    );
  }
}

/** The original's three task tools, as typed-mcp `@tool` methods (registered with `server.addTools(new TaskTools())`). */
export class TaskTools {
  /**
   * Simulates a deep research operation that gathers, analyzes, and synthesizes information. Demonstrates MCP task-based operations with progress through multiple stages. If 'ambiguous' is true and client supports elicitation, sends an elicitation request for clarification.
   * @param topic The research topic to investigate
   * @param ambiguous Simulate an ambiguous query that requires clarification (triggers input_required status)
   */
  @tool({
    name: "simulate-research-query",
    title: "Simulate Research Query",
    task: "required",
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
  })
  async simulateResearchQuery(ctx: RequestContext, topic: string, ambiguous = false): Promise<string> {
    let clarification: string | undefined;
    for (let stage = 0; stage < STAGES.length; stage++) {
      ctx.signal.throwIfAborted();
      await ctx.taskStatus(`${STAGES[stage]}...`);
      if (stage === 2 && ambiguous && ctx.clientCapabilities?.elicitation !== undefined)
        clarification = await clarify(ctx, topic);
      await sleep(STAGE_MS, undefined, { signal: ctx.signal });
    }
    return report(topic, clarification);
  }

  /**
   * Trigger an async sampling request that the CLIENT executes as a background task. Demonstrates bidirectional MCP tasks where the server sends a request and the client executes it asynchronously, allowing the server to poll for progress and results.
   * @param prompt The prompt to send to the LLM
   * @param maxTokens Maximum number of tokens to generate
   */
  @tool({
    name: "trigger-sampling-request-async",
    task: "forbidden",
    title: "Trigger Async Sampling Request Tool",
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: true,
  })
  async triggerSamplingRequestAsync(ctx: RequestContext, prompt: string, maxTokens = 100): Promise<string> {
    requireCapability(ctx, "sampling");
    requireTaskCapability(ctx, "sampling", "createMessage");
    const params = {
      task: { ttl: 300_000 },
      messages: [
        { role: "user", content: { type: "text", text: `Resource trigger-sampling-request-async context: ${prompt}` } },
      ],
      systemPrompt: "You are a helpful test server.",
      maxTokens,
      temperature: 0.7,
    } as CreateMessageRequestParams;
    const result = await direct(() => ctx.sample(params));
    return `[SYNC] Client executed synchronously:\n${JSON.stringify(result, null, 2)}`;
  }

  /** Trigger an async elicitation request that the CLIENT executes as a background task. Demonstrates bidirectional MCP tasks where the server sends an elicitation request and the client handles user input asynchronously, allowing the server to poll for completion. */
  @tool({
    name: "trigger-elicitation-request-async",
    task: "forbidden",
    title: "Trigger Async Elicitation Request Tool",
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
  })
  async triggerElicitationRequestAsync(ctx: RequestContext): Promise<string> {
    requireCapability(ctx, "elicitation");
    requireTaskCapability(ctx, "elicitation", "create");
    const params = {
      task: { ttl: 600_000 },
      message: "Please provide inputs for the following fields (async task demo):",
      requestedSchema: {
        type: "object",
        properties: {
          name: { title: "Your Name", type: "string", description: "Your full name" },
          favoriteColor: {
            title: "Favorite Color",
            type: "string",
            description: "What is your favorite color?",
            enum: ["Red", "Blue", "Green", "Yellow", "Purple"],
          },
          agreeToTerms: {
            title: "Terms Agreement",
            type: "boolean",
            description: "Do you agree to the terms and conditions?",
          },
        },
        required: ["name"],
      },
    } as ElicitRequestFormParams;
    const result = await direct(() => ctx.elicit(params));
    return `[SYNC] Client executed synchronously:\n${JSON.stringify(result, null, 2)}`;
  }
}
