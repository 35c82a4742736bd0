/** The bench routes as decorated rxrest resources, built and served the way an application would be. */
import { RestApplication, resolveConfig } from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { BenchResource, SecureBenchResource } from './bench-resource';
import { followParent } from './server-control';

/**
 * BENCH_TRACING=sdk: the OpenTelemetry Node SDK registered as an application would, with a batch processor and an
 * exporter that drops the spans (the tracing bench measures what rxrest's spans cost, not a network).
 */
function startTracing(): void {
  if (process.env.BENCH_TRACING !== 'sdk') return;
  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const dropped: import('@opentelemetry/sdk-trace-base').SpanExporter = {
    export: (_spans, done) => done({ code: 0 }),
    shutdown: async () => undefined,
  };
  new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropped)] }).register();
}

async function main(): Promise<void> {
  startTracing();
  // BENCH_WORKERS: framework.http.workers, for the workers benchmark (the primary speaks for its workers).
  // BENCH_JWT_PUBLIC_KEY: a PEM file; /secure/hello then takes bearer JWTs signed by its key (the security bench).
  const key = process.env.BENCH_JWT_PUBLIC_KEY;
  const overrides = {
    'framework.http.workers': process.env.BENCH_WORKERS ?? '1',
    ...(key ? { 'framework.security.jwt.public-key-file': key } : {}),
  };
  const config = resolveConfig({ overrides });
  const app = RestApplication.build({ classes: key ? [BenchResource, SecureBenchResource] : [BenchResource], config });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  if (server.role === 'worker') return;
  process.stdout.write(`${READY_PREFIX}${server.port}\n`);
  followParent(() => void server.close());
}

void main();
