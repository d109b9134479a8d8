/**
 * Every way the port may differ from the original, each with its reason: a section of the
 * contract (docs/mapping.md, a copy of the shared spec), a documented runtime limit
 * (docs/runtime.md, docs/resources.md), or the SDK under each server. The same list, in
 * words, is in examples/everything/README.md ("Differences"). The parity test fails on a
 * difference not listed here, and on a listed one that no longer shows (then delete it here
 * and in the README).
 */
export const DIFFERENCES = {
  // Listings
  "tool-title": "§1 Annotations: a tool's title is listed as annotations.title (the original: top-level title)",
  "schema-dialect":
    "§2 / §3: JSON Schema 2020-12 without $schema; inputSchema roots have additionalProperties:false, outputSchema roots none (the original: draft-07 $schema, its outputSchema additionalProperties:false)",
  "session-template":
    "§1 (option values are compile-time constants) / §8: resources made at run time by gzip-file-as-resource are one template demo://resource/session/{name}, not a listed resource each; so no resources/list_changed after the call",
  "protocol-error-message":
    "§7: a protocol error the tool throws (UrlElicitationRequiredError, -32042) is sent as SDK v2 sends it, message as given; the original's SDK v1 prefixes 'MCP error -32042: '",
  "sdk-elicit-mode":
    'the SDK (v2, under typed-mcp): a form elicitation/create carries the optional mode: "form" (MCP 2025-11-25 ElicitRequestFormParams; absent means form)',
  "sdk-result-key-order":
    "the SDK (v2, under typed-mcp) parses a CreateMessageResult into its own key order (model, stopReason, role, content), so trigger-sampling-request-async prints the same result with its keys in that order; the original prints the order of its own union schema (role, content, model, stopReason)",
  "sdk-empty-meta":
    "the original's SDK v1 writes an empty _meta: {} into tasks/list and tasks/cancel results; the SDK v2 under the port writes none (MCP 2025-11-25: _meta is optional)",
  // Tasks (MCP 2025-11-25 "Tasks")
  "sdk-repeated-status":
    "the original's SDK v1 sends notifications/tasks/status input_required twice, unchanged (once from the tool's own update, once when it sends the task's elicitation/create); typed-mcp sends one per change",
  "task-created-message":
    "runtime, docs/runtime.md \"Tasks\": the CreateTaskResult is the Task as created (working, no statusMessage); the original's SDK v1 serialises its stored Task after the tool's first update, so its CreateTaskResult already carries 'Gathering sources...'",
  "task-cancel-message":
    "runtime, docs/runtime.md \"Tasks\": tasks/cancel sets the statusMessage 'Cancelled by the client.' (the original's SDK v1: 'Client cancelled task execution.')",
  "task-cancel-notification":
    "runtime, docs/runtime.md \"Tasks\" (Notifications): typed-mcp sends notifications/tasks/status on every status change, cancelled included; the original's SDK v1 sends none for a tasks/cancel (the spec's notification is optional)",
  "task-error-message":
    "runtime, docs/runtime.md \"Tasks\": tasks/result of a cancelled task is -32602 'Task <id> has no result: it was cancelled.' (the original: -32603 'Task <id> has no result stored')",
  // Answers to bad input
  "argument-error":
    "§5: a bad tool argument is the isError text 'Argument 'a' is not valid. Expected a number, got a string.' (the original: zod's issue list)",
  "template-variable-error":
    "§8: a template variable that does not parse is JSON-RPC -32602 with the §5 text (the original: 'Unknown resource: <uri>')",
  // Notifications the runtime cannot send the original's way
  "roots-on-initialize":
    "runtime: no hook after initialize; the original asks roots/list 350 ms after it and logs 'Roots updated: …' (logger everything-server)",
  "subscribe-log":
    "runtime: resources/subscribe is answered by typed-mcp (docs/resources.md Subscriptions), with no author hook; the original logs 'Received Subscribe Resource request …'",
  // HTTP only
  "http-no-back-channel":
    "runtime, docs/runtime.md: 2025-era HTTP is stateless, so roots/list, sampling and elicitation fail at once (ServerRequestUnavailableError → the tool's ToolError, the async tools' too; simulate-research-query's clarification falls back to its default interpretation); the original is sessionful",
  "http-no-session":
    "runtime, docs/runtime.md: 2025-era HTTP is stateless: the toggles report session undefined and nothing reaches the client outside a request (no log messages, no resource updates, no notifications/tasks/status: HTTP clients poll tasks/get)",
} as const;

export type DifferenceId = keyof typeof DIFFERENCES;
