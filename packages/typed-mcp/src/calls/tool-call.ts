/**
 * `tools/call` (spec §5–§7; docs/runtime.md "Rules decided here"): the raw-argument checks, then
 * the shared bounded pipeline (pipeline.ts) with the answers of a tool — `isError` results.
 *
 * @module
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { cutEchoed } from "../codegen-support/argument-errors.js";
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { shapeResult } from "./client-view.js";
import { defineOwn } from "../codegen-support/helpers.js";
import type { ClientView } from "./client-view.js";
import { isToolError } from "./errors.js";
import { isInputRequiredSignal } from "./input-required.js";
import type { ToolEntry } from "../server/registry.js";
import { isMissingCapabilityAnswer, requestContext } from "./request-context.js";
import type { RawArgumentsCapture } from "../protocol/sdk-patches.js";
import type { CallToolResult } from "../types.js";
import { noteOutcome } from "./outcome.js";
import { runCall } from "./pipeline.js";
import type { CallPolicy } from "./pipeline.js";

/**
 * Answers one `tools/call` (spec §5–§7):
 *
 * - unknown tool: throws `ProtocolError` `-32602` `Tool <name> not found`;
 * - arguments over the `ArgumentLimits` (limits.ts; `capture.refused`, the whole §5 text naming the
 *   bound): `isError` with it, before the reader runs;
 * - an own `__proto__` argument the SDK's parse dropped (`capture.proto`): put back as an own data
 *   property, so the reader treats it like `constructor` or `prototype` (spec §5);
 * - reader returns a string: `isError` with it, `Argument '<path>' is not valid. <sentence>` (spec §5);
 * - {@link ToolError} (also from another copy of typed-mcp): `isError` with its message;
 * - timeout: `isError` `The tool timed out.` at once, the tool's signal aborted with a
 *   `TimeoutError` `DOMException`, its later outcome ignored;
 * - cancelled by the client: `The tool failed.` (the SDK sends nothing for an aborted request);
 * - a 2026-07-28 pending input request or missing client capability: rethrown, for the
 *   `input_required` wrapper (input-required.ts) and the SDK (`-32021`) to answer;
 * - the SDK's `ProtocolError` (any subclass, e.g. `UrlElicitationRequiredError` `-32042`) thrown
 *   by the function: rethrown, and sent by the SDK as that JSON-RPC error (spec §7);
 * - any other exception from reader, function or writer: reported (pipeline.ts `reportFailure`), then `isError`
 *   `The tool failed.`.
 *
 * The result is shaped for the client's revision ({@link shapeResult}).
 *
 * @param entry The registered tool, or `undefined` when `name` is unknown.
 * @param capture What the raw-message hook saw in this request's arguments (sdk-patches.ts `patchRawMessages`).
 * @throws ProtocolError for an unknown tool; the signals above.
 */
export async function callTool(
  sdk: Server,
  entry: ToolEntry | undefined,
  params: { name: string; arguments?: Record<string, unknown> | undefined },
  ctx: ServerContext,
  view: ClientView,
  policy: CallPolicy,
  capture?: RawArgumentsCapture,
): Promise<CallToolResult> {
  if (entry === undefined)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${cutEchoed(params.name)} not found`);
  if (capture !== undefined && "refused" in capture) {
    noteOutcome(ctx.mcpReq.signal, "invalid_argument");
    return errorResult(capture.refused);
  }
  const raw = capture === undefined ? params.arguments : defineOwn({ ...params.arguments }, "__proto__", capture.proto);
  return runCall<CallToolResult>(
    "tool",
    entry.name,
    ctx.mcpReq.signal,
    policy,
    {
      read: (signal) => entry.descriptor.read(raw, requestContext(sdk, ctx, view, signal)),
      call: (args) => entry.fn.apply(entry.thisArg, args),
      write: (value) => shapeResult(entry.descriptor.write(value), view),
    },
    {
      invalid: errorResult,
      refuse: errorResult,
      thrown: (error) => {
        if (isInputRequiredSignal(error) || isMissingCapabilityAnswer(error, view.protocolVersion)) throw error;
        // Spec §7: a protocol error thrown on purpose is that JSON-RPC error (the SDK rewrites -32042 on 2026-07-28).
        if (error instanceof ProtocolError) throw error;
        return isToolError(error) ? errorResult(error.message) : undefined;
      },
    },
  );
}

/** A `CallToolResult` with one text block and `isError: true` (spec §7 key order). */
function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
