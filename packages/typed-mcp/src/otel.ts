/**
 * `typed-mcp/otel`: OpenTelemetry traces and metrics of an `McpServer` on the MCP semantic
 * conventions (docs/observability.md). Only this entry imports `@opentelemetry/api` (an optional
 * peer dependency): a bundle that never imports `typed-mcp/otel` neither contains nor resolves it.
 *
 * ```ts
 * import { instrument } from "typed-mcp/otel";
 * instrument(server); // the global tracer and meter providers (registered by the OTel SDK)
 * ```
 *
 * @packageDocumentation
 */
import { ProxyTracerProvider, createNoopMeter, metrics, trace } from "@opentelemetry/api";
import type { Meter, MeterProvider, TextMapPropagator, TracerProvider } from "@opentelemetry/api";
import { INSTRUMENT } from "./calls/instrumentation.js";
import type { McpServer } from "./server.js";
import { SEMCONV_SOURCE } from "./otel/attributes.js";
import { createInstrumentation } from "./otel/instrument.js";

export { asyncLocalStorageContextManager } from "./otel/context-manager.js";
export type { AsyncLocalStorageClass } from "./otel/context-manager.js";
export { SEMCONV_SOURCE };

/** The instrumentation scope name of every span and metric (`InstrumentationScope.name`). */
export const SCOPE_NAME = "typed-mcp";

/** Options of {@link instrument} (docs/observability.md "Options"). */
export interface OtelOptions {
  /** Where spans go. Default: the global provider (`trace.getTracerProvider()`, set by the OTel SDK); give it explicitly on Workers. */
  tracerProvider?: TracerProvider;
  /** Where the histograms go. Default: the global provider (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider;
  /**
   * Reads and writes the trace context in `params._meta` (W3C `traceparent`, `tracestate`).
   * Default: the global propagator when one is registered (`propagation.setGlobalPropagator`, as
   * the OTel SDK does), else W3C Trace Context (`@opentelemetry/core`'s
   * `W3CTraceContextPropagator`), so a client's trace continues with no propagator set up.
   */
  propagator?: TextMapPropagator;
  /**
   * What the trace context a client sends in `params._meta` becomes: `"parent"` (default, the
   * conventions) the SERVER span's parent, the ambient context (an HTTP server span) a link;
   * `"link"` only a link, the span starting in the ambient context or a new trace (for servers
   * that do not trust their clients' trace ids); `"ignore"` nothing.
   */
  clientContext?: "parent" | "link" | "ignore";
  /** Records `gen_ai.tool.call.arguments` (the JSON of a `tools/call`'s arguments) on its span. Default `false`: argument values are never recorded. */
  recordArguments?: boolean;
  /** Records `gen_ai.tool.call.result` (the JSON of a successful call's `structuredContent`, else `content`). Default `false`. */
  recordResults?: boolean;
  /** Names `resources/read` spans `resources/read {uri}` (high cardinality; the conventions' opt-in). Default `false`. */
  resourceUriInSpanName?: boolean;
}

/**
 * Instruments `server` (see the package comment and docs/observability.md "What is recorded"):
 * every request but `initialize` and `ping` gets a SERVER span named `{mcp.method.name} {target}`
 * and a point of `mcp.server.operation.duration` (s), around every `server.use` middleware; every
 * notification from the client a SERVER span; every 2025-era server→client request a CLIENT span
 * (its trace context sent in `params._meta`); every stdio connection a point of
 * `mcp.server.session.duration` (s) when it closes. Follows {@link SEMCONV_SOURCE}.
 *
 * @returns `server`, for chaining.
 * @throws Error when `server` is already instrumented; TypeError for an unknown `clientContext`.
 */
export function instrument(server: McpServer, options: OtelOptions = {}): McpServer {
  const clientContext = options.clientContext ?? "parent";
  if (clientContext !== "parent" && clientContext !== "link" && clientContext !== "ignore")
    throw new TypeError(`clientContext must be "parent", "link" or "ignore", got ${String(clientContext)}`);
  const version = "0.1.0";
  const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE_NAME, version);
  server[INSTRUMENT](
    createInstrumentation({
      enabled: enabledCheck(tracerProvider, meter),
      tracer: tracerProvider.getTracer(SCOPE_NAME, version),
      meter,
      propagator: options.propagator,
      clientContext,
      recordArguments: options.recordArguments === true,
      recordResults: options.recordResults === true,
      uriInSpanName: options.resourceUriInSpanName === true,
    }),
  );
  return server;
}

/**
 * Whether anything is recorded: the meter is not the API's no-op meter (a meter provider
 * registered before `instrument`; the metrics API has no proxy, so this is settled now), or the
 * tracer provider is not the API's no-op one (through the global proxy: an SDK registered later
 * counts from then on). With no SDK at all the core then skips the hooks (docs/observability.md
 * "Cost"). A provider of another copy of the API is taken as recording.
 */
function enabledCheck(tracerProvider: TracerProvider, meter: Meter): () => boolean {
  if (meter.constructor !== createNoopMeter().constructor) return () => true;
  const noopProvider = new ProxyTracerProvider().getDelegate().constructor;
  if (!(tracerProvider instanceof ProxyTracerProvider)) return () => tracerProvider.constructor !== noopProvider;
  return () => tracerProvider.getDelegate().constructor !== noopProvider;
}
