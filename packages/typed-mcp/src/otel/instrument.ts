/**
 * The instrumentation `typed-mcp/otel` installs (calls/instrumentation.ts): a SERVER span and an
 * `mcp.server.operation.duration` point per request (as the outermost middleware), a SERVER span
 * per notification, a CLIENT span per server→client request with its trace context in
 * `params._meta`, an INTERNAL span per task, and an `mcp.server.session.duration` point per
 * lasting connection (docs/observability.md).
 *
 * @module
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from "@opentelemetry/api";
import type {
  Attributes,
  Context,
  Histogram,
  Link,
  Meter,
  Span,
  TextMapGetter,
  TextMapPropagator,
  Tracer,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import type { ConnectionInfo, Instrumentation } from "../calls/instrumentation.js";
import type { Middleware, MiddlewareContext } from "../calls/middleware.js";
import {
  DURATION_BUCKETS,
  type Ending,
  OUTCOME_ATTRIBUTE,
  RESULT_TYPE_ATTRIBUTE,
  endingOfError,
  endingOfResult,
  networkTransport,
  requestAttributes,
  sessionHash,
  spanName,
} from "./attributes.js";

/** What {@link createInstrumentation} is built from (resolved `OtelOptions`, ../otel.ts). */
export interface InstrumentationParts {
  /** Whether an SDK records anything now (see ../otel.ts `instrument`). */
  readonly enabled: () => boolean;
  readonly tracer: Tracer;
  readonly meter: Meter;
  /** Extracts and injects `params._meta` trace context; `undefined`: {@link propagatorOf}'s default. */
  readonly propagator: TextMapPropagator | undefined;
  /** `parent`: the client's context is the span's parent; `link`: a new trace, linked to it; `ignore`. */
  readonly clientContext: "parent" | "link" | "ignore";
  readonly recordArguments: boolean;
  readonly recordResults: boolean;
  readonly uriInSpanName: boolean;
}

/** Reads `traceparent` / `tracestate` / `baggage` from `params._meta` (string values only). */
const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

/** W3C Trace Context (`traceparent`, `tracestate`), for when no global propagator is registered. */
const W3C_TRACE_CONTEXT = new W3CTraceContextPropagator();

/**
 * The propagator of `params._meta` now: the `propagator` option; else the global one when one is
 * registered (the API's default no-op propagator has no `fields()`); else W3C Trace Context, the
 * format the conventions and SEP-414 give `_meta` — so a server with only a tracer provider given
 * (workerd) still continues its clients' traces. Read per message: a propagator registered after
 * `instrument` wins from then on.
 */
function propagatorOf(parts: InstrumentationParts): TextMapPropagator {
  if (parts.propagator !== undefined) return parts.propagator;
  return propagation.fields().length > 0 ? propagation : W3C_TRACE_CONTEXT;
}

/** The SERVER span context of each request in flight, by its signal (for the CLIENT spans of its server→client requests). */
const REQUEST_SPANS = new WeakMap<AbortSignal, Context>();

/** Builds the instrumentation of one server. */
export function createInstrumentation(parts: InstrumentationParts): Instrumentation {
  const advice = { explicitBucketBoundaries: DURATION_BUCKETS };
  const operation = parts.meter.createHistogram("mcp.server.operation.duration", {
    description: "The duration of the MCP request or notification as observed on the receiver.",
    unit: "s",
    advice,
  });
  const sessions = parts.meter.createHistogram("mcp.server.session.duration", {
    description: "The duration of the MCP session as observed on the MCP server.",
    unit: "s",
    advice,
  });
  return {
    enabled: parts.enabled,
    middleware: requestMiddleware(parts, operation),
    serverRequest: (method, signal, send) => clientSpan(parts, method, signal, send),
    notification: (method, params, info) => notificationSpan(parts, method, params, info),
    connection: (info) => {
      const start = performance.now();
      return () => {
        const version = info.protocolVersion();
        sessions.record((performance.now() - start) / 1000, {
          ...networkTransport(info.transport),
          ...(version !== undefined && { "mcp.protocol.version": version }),
        });
      };
    },
  };
}

/** The parent context and links of a span for a message whose `params._meta` is `meta` (conventions, "Context propagation"). */
function parentOf(parts: InstrumentationParts, meta: Record<string, unknown> | undefined): [Context, Link[]] {
  const ambient = context.active();
  if (parts.clientContext === "ignore" || meta === undefined) return [ambient, []];
  const extracted = propagatorOf(parts).extract(ROOT_CONTEXT, meta, META_GETTER);
  const remote = trace.getSpanContext(extracted);
  if (remote === undefined || !trace.isSpanContextValid(remote)) return [ambient, []];
  if (parts.clientContext === "link") return [ambient, [{ context: remote }]];
  const local = trace.getSpanContext(ambient);
  return [extracted, local !== undefined && trace.isSpanContextValid(local) ? [{ context: local }] : []];
}

/** The outermost middleware: one SERVER span and one duration point per request. */
function requestMiddleware(parts: InstrumentationParts, operation: Histogram): Middleware {
  return async (ctx, next) => {
    const start = performance.now();
    const { span: attributes, metric } = requestAttributes(ctx);
    if (parts.recordArguments && ctx.method === "tools/call" && ctx.params?.["arguments"] !== undefined)
      attributes["gen_ai.tool.call.arguments"] = JSON.stringify(ctx.params["arguments"]);
    const [parent, links] = parentOf(parts, ctx.meta);
    const span = parts.tracer.startSpan(
      spanName(ctx, parts.uriInSpanName),
      { kind: SpanKind.SERVER, attributes, links },
      parent,
    );
    const session = ctx.session === undefined || !span.isRecording() ? undefined : sessionHash(ctx.session);
    if (typeof session === "string") span.setAttribute("mcp.session.id", session);
    const active = trace.setSpan(parent, span);
    REQUEST_SPANS.set(ctx.signal, active);
    let ending: Ending;
    try {
      const result = await context.with(active, next);
      ending = endingOfResult(ctx, result);
      if (parts.recordResults && ctx.method === "tools/call" && ending.errorType === undefined)
        span.setAttribute("gen_ai.tool.call.result", JSON.stringify(result.structuredContent ?? result.content));
      if (ctx.task !== undefined) taskSpan(parts, ctx, active);
      return result;
    } catch (error) {
      ending = endingOfError(ctx, error);
      throw error;
    } finally {
      const end = performance.timeOrigin + performance.now();
      operation.record((end - performance.timeOrigin - start) / 1000, withEnding(metric, ending!, ctx));
      settle(span, ending!, ctx);
      if (typeof session === "object")
        void session.then((hash) => span.setAttribute("mcp.session.id", hash)).finally(() => span.end(end));
      else span.end(end);
    }
  };
}

/** `attributes` with the ending's `error.type`, `rpc.response.status_code` and the outcome. */
function withEnding(attributes: Attributes, ending: Ending, ctx: MiddlewareContext): Attributes {
  const out = { ...attributes };
  if (ending.errorType !== undefined) out["error.type"] = ending.errorType;
  if (ending.statusCode !== undefined) out["rpc.response.status_code"] = ending.statusCode;
  if (ctx.outcome !== undefined) out[OUTCOME_ATTRIBUTE] = ctx.outcome;
  return out;
}

/** Sets the ending on `span`: `error.type` with status ERROR (its description the message), else status unset. */
function settle(span: Span, ending: Ending, ctx: MiddlewareContext): void {
  if (ending.errorType !== undefined) span.setAttribute("error.type", ending.errorType);
  if (ending.statusCode !== undefined) span.setAttribute("rpc.response.status_code", ending.statusCode);
  if (ending.resultType !== undefined) span.setAttribute(RESULT_TYPE_ATTRIBUTE, ending.resultType);
  if (ctx.outcome !== undefined) span.setAttribute(OUTCOME_ATTRIBUTE, ctx.outcome);
  if (ending.errorType !== undefined)
    span.setStatus({ code: SpanStatusCode.ERROR, ...(ending.message !== undefined && { message: ending.message }) });
}

/**
 * The INTERNAL span `tasks/run {tool}` of a `tools/call` that became a task, a child of the
 * call's SERVER span, from its creation to its terminal status (the conventions are silent on
 * tasks; docs/observability.md "Tasks"): `error.type` `tool_error` for an `isError` result,
 * `task_failed`, `cancelled`.
 */
function taskSpan(parts: InstrumentationParts, ctx: MiddlewareContext, parent: Context): void {
  const span = parts.tracer.startSpan(
    `tasks/run ${ctx.target}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: { "gen_ai.tool.name": ctx.target ?? "", "gen_ai.operation.name": "execute_tool" },
    },
    parent,
  );
  void ctx.task!.ended.then((end) => {
    const errorType =
      end.status === "failed"
        ? "task_failed"
        : end.status === "cancelled"
          ? "cancelled"
          : end.isError
            ? "tool_error"
            : undefined;
    if (errorType !== undefined) {
      span.setAttribute("error.type", errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  });
}

/** A CLIENT span around one server→client request, its context injected into the request's `params._meta`. */
async function clientSpan<T>(
  parts: InstrumentationParts,
  method: string,
  signal: AbortSignal,
  send: (meta: Record<string, string>) => Promise<T>,
): Promise<T> {
  const parent = REQUEST_SPANS.get(signal) ?? context.active();
  const span = parts.tracer.startSpan(
    method,
    { kind: SpanKind.CLIENT, attributes: { "mcp.method.name": method } },
    parent,
  );
  const active = trace.setSpan(parent, span);
  const meta: Record<string, string> = {};
  const setter = { set: (carrier: Record<string, string>, key: string, value: string) => void (carrier[key] = value) };
  propagatorOf(parts).inject(active, meta, setter);
  try {
    return await send(meta);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const errorType = typeof code === "number" ? String(code) : error instanceof Error ? error.name : "_OTHER";
    span.setAttribute("error.type", errorType);
    if (typeof code === "number") span.setAttribute("rpc.response.status_code", String(code));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** A SERVER span for one notification the client sent, started and ended as it arrives. */
function notificationSpan(parts: InstrumentationParts, method: string, params: unknown, info: ConnectionInfo): void {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  const [parent, links] = parentOf(
    parts,
    typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>) : undefined,
  );
  const version = info.protocolVersion();
  const attributes: Attributes = {
    "mcp.method.name": method.slice(0, 100),
    ...networkTransport(info.transport),
    ...(version !== undefined && { "mcp.protocol.version": version }),
  };
  const span = parts.tracer.startSpan(method.slice(0, 100), { kind: SpanKind.SERVER, attributes, links }, parent);
  const session = info.session === undefined || !span.isRecording() ? undefined : sessionHash(info.session);
  if (typeof session === "object")
    void session.then((hash) => span.setAttribute("mcp.session.id", hash)).finally(() => span.end());
  else {
    if (session !== undefined) span.setAttribute("mcp.session.id", session);
    span.end();
  }
}
