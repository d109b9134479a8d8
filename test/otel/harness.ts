// The real OpenTelemetry SDK for the typed-mcp/otel tests: a TracerProvider with the SDK's
// InMemorySpanExporter, a MeterProvider with a pull MetricReader, the W3C trace-context
// propagator, and typed-mcp/otel's AsyncLocalStorage context manager registered globally (each
// vitest file runs in its own process: pool "forks").
import { AsyncLocalStorage } from "node:async_hooks";
import { context, propagation, trace } from "@opentelemetry/api";
import type { Attributes, Span, SpanContext } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { AggregationTemporality, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import type { HistogramMetricData } from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { asyncLocalStorageContextManager } from "../../packages/typed-mcp/dist/otel.js";

/** A pull reader: `collect()` on demand, cumulative. */
class PullReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

context.setGlobalContextManager(asyncLocalStorageContextManager(AsyncLocalStorage as never));
/** The W3C trace-context propagator registered globally (a test that replaces it puts it back). */
export const propagator = new W3CTraceContextPropagator();
propagation.setGlobalPropagator(propagator);

/** One SDK: spans in memory, metrics on demand. */
export function sdk() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    /** The finished spans, once the processor handed them to the exporter (it exports asynchronously). */
    async spans(): Promise<ReadableSpan[]> {
      await tracerProvider.forceFlush();
      return exporter.getFinishedSpans();
    },
    /** The finished span named `name` (the last one when several). */
    async span(name: string): Promise<ReadableSpan> {
      await tracerProvider.forceFlush();
      const found = exporter.getFinishedSpans().filter((s) => s.name === name);
      if (found.length === 0)
        throw new Error(
          `no span ${name}; have ${exporter
            .getFinishedSpans()
            .map((s) => s.name)
            .join(", ")}`,
        );
      return found[found.length - 1]!;
    },
    /** The histogram `name`'s data points: attributes, count, boundaries. */
    async histogram(name: string) {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name) as
        | HistogramMetricData
        | undefined;
      return {
        unit: metric?.descriptor.unit,
        points: (metric?.dataPoints ?? []).map((p) => ({
          attributes: p.attributes as Attributes,
          count: p.value.count,
          boundaries: p.value.buckets.boundaries,
        })),
      };
    },
  };
}

/** A client-side span and the `_meta` carrying its context (`traceparent`, `tracestate`), as an instrumented client sends it. */
export function clientContext(
  provider: TracerProvider,
  tracestate = "rojo=00f067aa0ba902b7",
): {
  span: Span;
  spanContext: SpanContext;
  meta: Record<string, string>;
} {
  const span = provider.getTracer("test-client").startSpan("tools/call add (client)");
  const meta: Record<string, string> = {};
  propagator.inject(trace.setSpan(context.active(), span), meta, {
    set: (carrier, key, value) => void ((carrier as Record<string, string>)[key] = value),
  });
  meta.tracestate = tracestate;
  return { span, spanContext: span.spanContext(), meta };
}

/** The `mcp.session.id` the conventions' attribute must hold for `session`: 32 hex digits of its SHA-256, computed here with node:crypto. */
export async function expectedSessionHash(session: string): Promise<string> {
  const { createHash } = await import("node:crypto");
  return createHash("sha256").update(session).digest("hex").slice(0, 32);
}
