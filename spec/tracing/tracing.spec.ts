// OpenTelemetry traces over real sockets, with the Node SDK and an in-memory exporter registered as an application
// would: the server span of a request (parent from traceparent, named by the route template, the HTTP semantic
// conventions), the request's context inside the Observables a method returns, and streams traced the way operators
// can use them: the request span ends at the head, a linked span covers the stream, its items and how it ended.
import { request } from 'node:http';
import { connect as http2Connect } from 'node:http2';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { trace } from '@opentelemetry/api';
import { defer, firstValueFrom, map, mergeMap, range, take, timer, type Observable } from 'rxjs';
import {
  Blocking,
  Body,
  GET,
  NotFoundException,
  Path,
  PathParam,
  Produces,
  RestResponse,
  ServiceUnavailableException,
  StreamBuffer,
  OnTextMessage,
  WebSocketEndpoint,
  logging,
  multi,
  type LogRecord,
  Multi,
} from '../../lib';
import { formatLogRecord } from '../../lib/logging/log-record';
import { RestClient } from '../../lib/client';
import { buildApp, withServer } from '../support/app';
import { until } from '../support/until';
import { openSocket } from '../support/ws-client';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

afterAll(() => provider.shutdown());
beforeEach(() => exporter.reset());

const PARENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const PARENT_SPAN = 'b7ad6b7169203331';

@Path('orders')
class OrderResource {
  @GET
  @Path('{id}')
  order(@PathParam('id') id: string): { id: string } {
    if (id === 'missing') throw new NotFoundException('no such order');
    if (id === 'broken') throw new Error('a bug');
    if (id === 'busy') throw new ServiceUnavailableException('come back later');
    return { id };
  }

  /** A 503 answered without any error thrown. */
  @GET
  @Path('{id}/closed')
  closed(): RestResponse<string> {
    return RestResponse.status(503, 'closed for the night');
  }

  /** Work three operators down, after a timer: its span must still be a child of the request's. */
  @GET
  @Path('{id}/lines')
  @Produces('application/json')
  lines(@PathParam('id') id: string): Observable<string[]> {
    return timer(5).pipe(
      map(() => id),
      mergeMap((order) =>
        defer(async () => {
          const span = trace.getTracer('spec').startSpan('load lines');
          span.end();
          return [`${order}-1`];
        }),
      ),
      map((lines) => lines),
    );
  }

  /** Blocks its worker-lane slot for 50 ms: with one slot, a second call waits for it. */
  @GET
  @Path('report')
  @Blocking
  async report(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 'report';
  }

  @GET
  @Path('events')
  @Produces('text/event-stream')
  events(): Multi<{ n: number }> {
    return multi(range(0, 1000).pipe(map((n) => ({ n }))));
  }

  /** A burst of 1 MB against a 16 KB budget: most of it is dropped, never sent. */
  @GET
  @Path('burst')
  @Produces('text/event-stream')
  @StreamBuffer({ size: '16K', overflow: 'drop-newest' })
  burst(): Multi<{ n: number; pad: string }> {
    return multi(range(0, 1000).pipe(map((n) => ({ n, pad: 'x'.repeat(1000) }))));
  }

  @GET
  @Path('endless')
  @Produces('application/x-ndjson')
  endless(): Multi<{ n: number }> {
    return multi(timer(0, 5).pipe(map((n) => ({ n }))));
  }

  /**
   * Endless, its first item 1 s after the request: a span ended at the stream's end or its first item shows. (300 ms
   * left a pause of a loaded machine between the call and the head too close to the 150 ms the spec asks for.)
   */
  @GET
  @Path('late')
  @Produces('text/event-stream')
  late(): Multi<{ n: number }> {
    return multi(timer(1000, 20).pipe(map((n) => ({ n }))));
  }
}

@WebSocketEndpoint('/ws/echo')
class EchoSocket {
  /** Every message back but 'quiet', which is answered with nothing. */
  @OnTextMessage
  echo(message: string): string | undefined {
    return message === 'quiet' ? undefined : message;
  }
}

@WebSocketEndpoint('/ws/first/{count}')
class FirstSocket {
  /** The first `count` messages back; then the answers complete and the socket closes. */
  @OnTextMessage
  first(@Body({ type: String }) messages: Multi<string>, @PathParam('count') count: number): Observable<string> {
    return messages.pipe(take(count));
  }
}

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().find((span) => span.name === name);
const ms = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;

describe('OpenTelemetry traces', () => {
  it('make a server span per request: child of the traceparent, named by the route, with the HTTP conventions', async () => {
    await withServer(buildApp([OrderResource]), async (server) => {
      const response = await fetch(`${server.url}/orders/42?expand=1`, {
        headers: { traceparent: `00-${PARENT_TRACE}-${PARENT_SPAN}-01`, 'user-agent': 'spec' },
      });
      expect(response.status).toBe(200);
      const span = await until(() => named('GET /orders/{id}'), 'the server span');
      expect(span.spanContext().traceId).toBe(PARENT_TRACE);
      expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN);
      expect(span.kind).toBe(1); // SERVER
      expect(span.attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.route': '/orders/{id}',
        'http.response.status_code': 200,
        'url.scheme': 'http',
        'url.path': '/orders/42',
        'url.query': 'expand=1',
        'server.address': '127.0.0.1',
        'user_agent.original': 'spec',
      });
      expect(span.status.code).toBe(0);
    });
  });

  it('name a method no route matched HTTP, with http.request.method _OTHER: any token over HTTP/2 is no span name', async () => {
    await withServer(buildApp([OrderResource], { 'framework.http.h2c': true }), async (server) => {
      const session = http2Connect(server.url);
      const ask = (method: string) =>
        new Promise<number>((resolve, reject) => {
          const stream = session.request({ ':method': method, ':path': '/nowhere' }, { endStream: true });
          let status = 0;
          stream.on('response', (headers) => (status = Number(headers[':status'])));
          stream.on('end', () => resolve(status));
          stream.on('error', reject);
          stream.resume();
        });
      try {
        expect([await ask('MADEUP7'), await ask('DELETE')]).toEqual([404, 404]);
      } finally {
        session.close();
      }
      await until(() => (spans().length === 2 ? true : undefined), 'two spans');
      const [madeUp, known] = spans();
      expect(madeUp!.name).toBe('HTTP');
      expect(madeUp!.attributes).toMatchObject({
        'http.request.method': '_OTHER',
        'http.request.method_original': 'MADEUP7',
      });
      expect(known!.name).toBe('DELETE');
      expect(known!.attributes['http.request.method']).toBe('DELETE');
      expect(known!.attributes['http.request.method_original']).toBeUndefined();
    });
  });

  it('mark a span failed by what the exception mappers answered: 500 is an error, 404 is not', async () => {
    await withServer(buildApp([OrderResource]), async (server) => {
      expect((await fetch(`${server.url}/orders/broken`)).status).toBe(500);
      expect((await fetch(`${server.url}/orders/missing`)).status).toBe(404);
      await until(() => (spans().length === 2 ? true : undefined), 'two spans');
      const [broken, missing] = spans();
      expect(broken!.status.code).toBe(2); // ERROR
      expect(broken!.attributes['error.type']).toBe('Error');
      expect(broken!.events.map((event) => event.name)).toContain('exception');
      expect(missing!.status.code).toBe(0);
      expect(missing!.attributes['http.response.status_code']).toBe(404);
    });
  });

  it('mark a 5xx answer failed, named by its status when no error was thrown, by the exception when one was', async () => {
    await withServer(buildApp([OrderResource]), async (server) => {
      expect((await fetch(`${server.url}/orders/1/closed`)).status).toBe(503);
      expect((await fetch(`${server.url}/orders/busy`)).status).toBe(503);
      await until(() => (spans().length === 2 ? true : undefined), 'two spans');
      const [closed, busy] = spans();
      expect([closed!.status.code, closed!.attributes['error.type']]).toEqual([2, '503']);
      expect(closed!.events).toEqual([]);
      expect([busy!.status.code, busy!.attributes['error.type']]).toEqual([2, 'ServiceUnavailableException']);
      expect(busy!.events.map((event) => event.name)).toEqual(['exception']);
    });
  });

  it('give the log records of a request the ids of its trace and span', async () => {
    const records: LogRecord[] = [];
    const previous = logging.setSink((record) => records.push(record));
    try {
      await withServer(buildApp([OrderResource]), async (server) => {
        expect((await fetch(`${server.url}/orders/broken`)).status).toBe(500);
      });
    } finally {
      logging.setSink(previous);
    }
    const span = named('GET /orders/{id}')!;
    const record = records.find((candidate) => candidate.category === 'rxrest.errors')!;
    expect(record).toMatchObject({ traceId: span.spanContext().traceId, spanId: span.spanContext().spanId });
    expect(formatLogRecord(record)).toContain(
      `[rxrest.errors] [trace_id=${span.spanContext().traceId} span_id=${span.spanContext().spanId}] Unhandled error`,
    );
  });

  it('keep the request span active inside the Observable a method returns, three operators and a timer down', async () => {
    await withServer(buildApp([OrderResource]), async (server) => {
      expect(await (await fetch(`${server.url}/orders/7/lines`)).json()).toEqual(['7-1']);
      const request = await until(() => named('GET /orders/{id}/lines'), 'the server span');
      const inner = named('load lines')!;
      expect(inner.spanContext().traceId).toBe(request.spanContext().traceId);
      expect(inner.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    });
  });

  it('make a client span for each call of the REST client, which parents the server span it reaches', async () => {
    await withServer(buildApp([OrderResource]), async (server) => {
      const orders = RestClient.create(OrderResource, { baseUrl: server.url });
      expect(await firstValueFrom(orders.order('9'))).toEqual({ id: '9' });
      await expect(firstValueFrom(orders.order('missing'))).rejects.toBeInstanceOf(NotFoundException);
      await until(() => (spans().length === 4 ? true : undefined), 'four spans');
      const clients = spans().filter((span) => span.kind === 2); // CLIENT
      const servers = spans().filter((span) => span.kind === 1);
      expect(clients.map((span) => span.name)).toEqual(['GET /orders/{id}', 'GET /orders/{id}']);
      for (const [i, client] of clients.entries()) {
        expect(servers[i]!.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
        expect(servers[i]!.spanContext().traceId).toBe(client.spanContext().traceId);
      }
      expect(clients[0]!.attributes['http.response.status_code']).toBe(200);
      expect(clients[1]!.status.code).toBe(2);
    });
  });

  it('tell on the request span how long a worker-lane call waited for a slot', async () => {
    await withServer(buildApp([OrderResource], { 'framework.rest.worker.max-concurrency': 1 }), async (server) => {
      await Promise.all([fetch(`${server.url}/orders/report`), fetch(`${server.url}/orders/report`)]);
      await until(() => (spans().length === 2 ? true : undefined), 'two spans');
      const waits = spans().flatMap((span) => span.events.filter((event) => event.name === 'worker lane slot'));
      expect(waits).toHaveLength(1);
      expect(waits[0]!.attributes!['rxrest.worker_lane.wait_ms']).toBeGreaterThan(30);
      expect(waits[0]!.attributes!['rxrest.worker_lane.queued_before']).toBe(0);
    });
  });

  it('end the request span at the head of an SSE stream, and cover the stream with a linked span of its own', async () => {
    await withServer(buildApp([OrderResource]), async (server) => {
      const body = await (await fetch(`${server.url}/orders/events`)).text();
      expect(body.split('\n\n').filter(Boolean)).toHaveLength(1000);
      const stream = await until(() => named('GET /orders/events stream'), 'the stream span');
      const request = named('GET /orders/events')!;
      expect(stream.attributes).toMatchObject({
        'rxrest.stream.items': 1000,
        'rxrest.stream.dropped': 0,
        'rxrest.stream.end_reason': 'complete',
        'http.route': '/orders/events',
      });
      expect(stream.attributes['rxrest.stream.bytes']).toBe(Buffer.byteLength(body));
      expect(stream.links.map((link) => link.context.spanId)).toEqual([request.spanContext().spanId]);
      expect(stream.spanContext().traceId).toBe(request.spanContext().traceId);
      expect(stream.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
      expect(stream.events.map((event) => event.name)).toEqual(['first item', 'end']);
    });
  });

  it('end the request span at the head, before the first item, and export it while the stream is still open', async () => {
    await withServer(buildApp([OrderResource], { 'framework.rest.sse.keep-alive': '0' }), async (server) => {
      let received = '';
      const req = request(`${server.url}/orders/late`);
      const firstItem = new Promise<void>((resolve, reject) => {
        req.on('response', (res) => res.on('data', (chunk: Buffer) => ((received += chunk.toString()), resolve())));
        req.on('error', reject);
      });
      req.end();
      await firstItem;
      expect(received).toContain('data:{"n":0}');
      // The head came before the first item, so the request's span is exported while the stream goes on (its own
      // span is not: an endless stream never ends by itself).
      const requestSpan = await until(() => named('GET /orders/late'), 'the request span, while the stream is open');
      expect(named('GET /orders/late stream')).toBeUndefined();
      req.destroy();
      const stream = await until(() => named('GET /orders/late stream'), 'the stream span');
      const first = stream.events.find((event) => event.name === 'first item')!;
      // The first item comes 1 s after the method was called, the head at once: the request's span ended well
      // before the item (a loaded machine delays the timer too, so the gap does not shrink).
      expect(ms(first.time) - ms(requestSpan.endTime)).toBeGreaterThan(150);
      expect(stream.attributes['rxrest.stream.end_reason']).toBe('client-gone');
    });
  });

  it('count apart the items an overflow policy dropped: the items are those the client got', async () => {
    await withServer(buildApp([OrderResource]), async (server) => {
      const body = await (await fetch(`${server.url}/orders/burst`)).text();
      const received = body.split('\n\n').filter(Boolean).length;
      const stream = await until(() => named('GET /orders/burst stream'), 'the stream span');
      expect(received).toBeLessThan(1000);
      expect(stream.attributes).toMatchObject({
        'rxrest.stream.items': received,
        'rxrest.stream.dropped': 1000 - received,
        'rxrest.stream.end_reason': 'complete',
      });
    });
  });

  it('say client-gone when the client of a stream leaves', async () => {
    await withServer(buildApp([OrderResource]), async (server) => {
      let timeout: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve, reject) => {
        timeout = setTimeout(() => reject(new Error('no items')), 15_000);
        const req = request(`${server.url}/orders/endless`, (res) => {
          let lines = 0;
          res.on('data', (chunk: Buffer) => {
            lines += chunk.toString().split('\n').length - 1;
            if (lines >= 5) {
              req.destroy();
              resolve();
            }
          });
        });
        req.on('error', () => undefined);
        req.on('close', () => resolve());
        req.end();
      }).finally(() => clearTimeout(timeout));
      const stream: ReadableSpan = await until(() => named('GET /orders/endless stream'), 'the stream span');
      expect(stream.attributes['rxrest.stream.end_reason']).toBe('client-gone');
      expect(stream.attributes['rxrest.stream.items']).toBeGreaterThanOrEqual(5);
    });
  });

  it('cover a WebSocket with a stream span of its own: the messages sent, their bytes, and how it ended', async () => {
    await withServer(buildApp([EchoSocket, FirstSocket]), async (server) => {
      const echo = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/echo`);
      await echo.opened;
      for (const message of ['one', 'quiet', 'two', 'three']) echo.socket.send(message);
      expect([await echo.next(), await echo.next(), await echo.next()]).toEqual(['one', 'two', 'three']);
      echo.socket.close();
      const echoed = await until(() => named('GET /ws/echo stream'), 'the socket span');
      expect(echoed.attributes).toMatchObject({
        'rxrest.stream.items': 3,
        'rxrest.stream.bytes': 11,
        'rxrest.stream.end_reason': 'client-gone',
        'http.route': '/ws/echo',
      });
      const upgrade = named('GET /ws/echo')!;
      expect(echoed.links.map((link) => link.context.spanId)).toEqual([upgrade.spanContext().spanId]);
      // The upgrade's own span ends with the handshake's 101, not as an error.
      expect([upgrade.attributes['http.response.status_code'], upgrade.status.code]).toEqual([101, 0]);
      const first = openSocket(`${server.url.replace(/^http/, 'ws')}/ws/first/2`);
      await first.opened;
      for (const message of ['a', 'b', 'c']) first.socket.send(message);
      expect((await first.closed).code).toBe(1000);
      const served = await until(() => named('GET /ws/first/{count} stream'), 'the span of a socket that ended');
      expect(served.attributes).toMatchObject({ 'rxrest.stream.items': 2, 'rxrest.stream.end_reason': 'complete' });
    });
  });
});
