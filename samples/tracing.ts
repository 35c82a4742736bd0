/**
 * OpenTelemetry for the samples, as an application sets it up: with `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) set, the Node SDK sends spans over OTLP/HTTP, as JSON or protobuf
 * (`OTEL_EXPORTER_OTLP_PROTOCOL`, `http/protobuf` by default), named by `OTEL_SERVICE_NAME`. rxrest itself only uses
 * `@opentelemetry/api`: without this, nothing is traced and the API is never loaded.
 */
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** Starts tracing when the environment asks for it; returns how to flush what is still batched. */
export function startTracing(env: NodeJS.ProcessEnv = process.env): (() => Promise<void>) | undefined {
  if (!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT && !env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol !== 'http/json' && protocol !== 'http/protobuf')
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: the samples export over http/json or http/protobuf`);
  // Each exporter reads its endpoint (and headers, timeout) from the standard variables itself.
  const exporter = protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'rxrest-samples' }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The global tracer provider, the AsyncLocalStorage context manager and the W3C propagators.
  provider.register();
  return () => provider.forceFlush();
}
