/**
 * OpenTelemetry for the playground (docs/observability.md "Node"): when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set, traces and metrics are exported over OTLP/HTTP
 * (protobuf) with the OTel SDK for Node, configured by the standard `OTEL_*` variables: the
 * exporters read `OTEL_EXPORTER_OTLP_ENDPOINT` and `OTEL_EXPORTER_OTLP_HEADERS`; this module passes
 * `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_BSP_SCHEDULE_DELAY` and
 * `OTEL_METRIC_EXPORT_INTERVAL` in (the SDK 3.x providers do not read them); otherwise nothing is
 * set up and nothing is exported.
 */
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

/** Registers the global tracer and meter providers when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; returns their shutdown (flushes), else `undefined`. */
export function startTelemetry(env: NodeJS.ProcessEnv = process.env): (() => Promise<void>) | undefined {
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined || env.OTEL_EXPORTER_OTLP_ENDPOINT === "") return undefined;
  const resource = resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME ?? "typed-mcp-memory" }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const tracerProvider = new TracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        scheduledDelayMillis: positive(env.OTEL_BSP_SCHEDULE_DELAY, 5000),
      }),
    ],
  });
  const interval = positive(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000);
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: interval,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // The SDK's default propagators (OTEL_PROPAGATORS "tracecontext,baggage"): typed-mcp/otel reads a client's `_meta.traceparent` with them.
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return async () => {
    await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
  };
}

/** `value` as a positive number of milliseconds, or `fallback` when unset or not one (the OTel environment specification's rule for an invalid value: use the default). */
function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(n) && n > 0 ? n : fallback;
}
