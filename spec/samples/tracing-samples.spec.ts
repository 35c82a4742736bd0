// The samples traced as an application would trace them: the Node SDK started from the standard OTEL_* variables,
// spans sent over OTLP/HTTP to a local receiver standing in for a collector, as JSON and as protobuf. Two instances on
// a real redis-server: a chat message published on one is delivered on the other in a span linked to the publishing
// one, whose parent is the server span of the POST that published it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redisServer } from '../support/redis-server';
import { startSamples, type SamplesProcess } from '../support/samples-process';
import { until } from '../support/until';

interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly links?: readonly { readonly traceId: string; readonly spanId: string }[];
}

/** An OTLP/HTTP receiver: keeps every export's content type and body. */
class Receiver {
  readonly exports: { type: string; body: Buffer }[] = [];
  readonly #server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces')
        this.exports.push({ type: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' }).end('{}');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Every span of the JSON exports, with its service's name. */
  spans(): (OtlpSpan & { service: string })[] {
    return this.exports
      .filter((exported) => exported.type.includes('json'))
      .flatMap((exported) => {
        const { resourceSpans } = JSON.parse(exported.body.toString()) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: OtlpSpan[] }[];
          }[];
        };
        return resourceSpans.flatMap((resource) => {
          const service = resource.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          return resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ ...span, service })));
        });
      });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

const redis = redisServer();
const receiver = new Receiver();
let instances: SamplesProcess[] = [];

beforeAll(async () => {
  await redis.start();
  const endpoint = await receiver.start();
  const traced = (service: string, protocol: string) => ({
    FRAMEWORK_BROADCAST_BACKEND: 'redis-streams',
    FRAMEWORK_BROADCAST_REDIS_URL: redis.url,
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_SERVICE_NAME: service,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  instances = await Promise.all([
    startSamples(traced('samples-a', 'http/json')),
    startSamples(traced('samples-b', 'http/json')),
    startSamples(traced('samples-c', 'http/protobuf')),
  ]);
}, 60_000);

afterAll(async () => {
  for (const instance of instances) instance.crash();
  await receiver.close();
});

describe('the samples with OpenTelemetry', () => {
  it('send their spans over OTLP/HTTP as JSON, named by route and service', async () => {
    expect((await fetch(`${instances[0]!.url}/fruits`)).status).toBe(200);
    const span = await until(
      () => receiver.spans().find((candidate) => candidate.name === 'GET /fruits' && candidate.service === 'samples-a'),
      'the GET /fruits span',
    );
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('send them as protobuf when OTEL_EXPORTER_OTLP_PROTOCOL says so', async () => {
    expect((await fetch(`${instances[2]!.url}/legumes`)).status).toBe(200);
    const exported = await until(
      () =>
        receiver.exports.find(
          (candidate) => candidate.type === 'application/x-protobuf' && candidate.body.includes('GET /legumes'),
        ),
      'a protobuf export of the GET /legumes span',
    );
    expect(exported.body.includes('samples-c')).toBe(true);
  });

  it('link the delivery of a broadcast on another instance to the span that published it', async () => {
    const [a, b] = instances as [SamplesProcess, SamplesProcess];
    const stream = await fetch(`${b.url}/chat/stream`);
    const reader = stream.body!.getReader();
    const posted = await fetch(`${a.url}/chat/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'ada', text: 'traced' }),
    });
    expect(posted.status).toBe(202);
    let received = '';
    while (!received.includes('traced')) received += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    // Each process exports its spans in batches of its own: b's delivery may arrive before a's publish, or after.
    const [deliver, publish, post] = await until(() => {
      const spans = receiver.spans();
      const found = [
        spans.find((span) => span.name === 'deliver chat' && span.service === 'samples-b'),
        spans.find((span) => span.name === 'publish chat' && span.service === 'samples-a'),
        spans.find((span) => span.name === 'POST /chat/messages' && span.service === 'samples-a'),
      ];
      return found.every((span) => span !== undefined) ? (found as OtlpSpan[]) : undefined;
    }, 'the delivery span on the other instance, and the publishing and POST spans');
    expect(deliver.links?.map((link) => link.spanId)).toEqual([publish.spanId]);
    expect(publish.parentSpanId).toBe(post.spanId);
    expect(publish.traceId).toBe(post.traceId);
  }, 30_000);
});
