import { connect as http2Connect } from 'node:http2';
import { Counter } from 'prom-client';
import { interval, map } from 'rxjs';
import { Blocking, GET, Path, Produces, RestPath, multi, type Multi, type RunningServer } from '../../lib';
import { buildApp, call } from '../support/app';
import { until } from '../support/until';

@Path('items')
class ItemResource {
  @GET
  @Path('{id}')
  one(@RestPath() id: string): { id: string } {
    return { id };
  }

  @GET
  @Path('broken')
  broken(): string {
    throw new Error('boom');
  }
}

/** Opened by the spec: the blocking calls wait on it. */
let gate: Promise<void> = Promise.resolve();

@Path('busy')
class BusyResource {
  @GET
  @Path('ticks')
  @Produces('text/event-stream')
  ticks(): Multi<{ tick: number }> {
    return multi(interval(20).pipe(map((tick) => ({ tick }))));
  }

  @GET
  @Path('slow')
  @Blocking
  async slow(): Promise<string> {
    await gate;
    return 'done';
  }
}

const ON = { 'framework.metrics.enabled': true };

/** The samples of one metric family from Prometheus's text format: labels and value. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => {
      const labels = Object.fromEntries(
        [...(/\{(.*)\}/.exec(line)?.[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]),
      );
      return { labels, value: Number(line.slice(line.lastIndexOf(' ') + 1)) };
    });
}

describe('GET /q/metrics', () => {
  it('counts requests by method, route template (never the raw path), status and outcome', async () => {
    const app = buildApp([ItemResource], ON);
    for (const path of ['/items/1', '/items/2', '/items/3', '/items/broken', '/nothing/here', '/nothing/else'])
      await call(app, path);
    const response = await call(app, '/q/metrics');
    expect(response.headers.get('content-type')).toContain('text/plain');
    const counts = samples(await response.text(), 'http_server_requests_seconds_count');
    expect(counts).toEqual(
      expect.arrayContaining([
        { labels: { method: 'GET', uri: '/items/{id}', status: '200', outcome: 'SUCCESS' }, value: 3 },
        { labels: { method: 'GET', uri: '/items/broken', status: '500', outcome: 'SERVER_ERROR' }, value: 1 },
        { labels: { method: 'GET', uri: 'NOT_FOUND', status: '404', outcome: 'CLIENT_ERROR' }, value: 2 },
      ]),
    );
    expect(counts.some(({ labels }) => labels.uri?.includes('/items/1') || labels.uri?.includes('/nothing'))).toBe(
      false,
    );
  });

  it('shows the stream and worker-lane gauges, the process metrics, and the metrics users register on app.metrics', async () => {
    const app = buildApp([ItemResource], ON);
    new Counter({ name: 'orders_total', help: 'Orders taken', registers: [app.metrics!] }).inc(2);
    const text = await (await call(app, '/q/metrics')).text();
    expect(samples(text, 'rxrest_streams_active')).toEqual([{ labels: {}, value: 0 }]);
    expect(samples(text, 'rxrest_worker_lane_queue')).toEqual([{ labels: {}, value: 0 }]);
    expect(samples(text, 'orders_total')).toEqual([{ labels: {}, value: 2 }]);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('moves the stream gauge with the streams a real socket holds open, and the lane gauge with the calls waiting', async () => {
    const app = buildApp([BusyResource], { ...ON, 'framework.rest.worker.max-concurrency': 1 });
    const server: RunningServer = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const gauge = async (name: string) =>
      samples(await (await fetch(`${server.url}/q/metrics`)).text(), name)[0]?.value;
    try {
      const clients = [new AbortController(), new AbortController()];
      const readers = await Promise.all(
        clients.map(async (client) =>
          (await fetch(`${server.url}/busy/ticks`, { signal: client.signal })).body!.getReader(),
        ),
      );
      await Promise.all(readers.map((reader) => reader.read()));
      expect(await gauge('rxrest_streams_active')).toBe(2);
      clients[0]!.abort();
      await until(
        async () => ((await gauge('rxrest_streams_active')) === 1 ? true : undefined),
        'one stream to end',
        5000,
      );
      clients[1]!.abort();
      await until(
        async () => ((await gauge('rxrest_streams_active')) === 0 ? true : undefined),
        'both streams to end',
        5000,
      );

      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      const calls = [1, 2, 3].map(() => fetch(`${server.url}/busy/slow`).then((response) => response.text()));
      await until(
        async () => ((await gauge('rxrest_worker_lane_queue')) === 2 ? true : undefined),
        'two calls waiting behind the running one',
        5000,
      );
      open();
      expect(await Promise.all(calls)).toEqual(['done', 'done', 'done']);
      expect(await gauge('rxrest_worker_lane_queue')).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('is off by default, and moves with framework.metrics.path', async () => {
    const off = buildApp([ItemResource]);
    expect(off.metrics).toBeUndefined();
    expect((await call(off, '/q/metrics')).status).toBe(404);
    expect(
      (await call(buildApp([ItemResource], { ...ON, 'framework.metrics.path': '/metrics' }), '/metrics')).status,
    ).toBe(200);
  });

  it('counts a HEAD that a GET method answers under HEAD, apart from the GETs, whichever came first', async () => {
    const app = buildApp([ItemResource], ON);
    for (const method of ['HEAD', 'GET', 'GET']) {
      expect((await app.fetch(new Request('http://localhost/items/7', { method }))).status).toBe(200);
    }
    const counts = samples(await (await call(app, '/q/metrics')).text(), 'http_server_requests_seconds_count');
    expect(counts).toEqual(
      expect.arrayContaining([
        { labels: { method: 'HEAD', uri: '/items/{id}', status: '200', outcome: 'SUCCESS' }, value: 1 },
        { labels: { method: 'GET', uri: '/items/{id}', status: '200', outcome: 'SUCCESS' }, value: 2 },
      ]),
    );
  });

  it('labels a method nobody serves as _OTHER, so made-up methods (any token over HTTP/2) make no series', async () => {
    const server: RunningServer = await buildApp([ItemResource], { ...ON, 'framework.http.h2c': true }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    const session = http2Connect(server.url);
    const ask = (method: string, path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = session.request({ ':method': method, ':path': path }, { endStream: true });
        let status = 0;
        let body = '';
        stream.setEncoding('utf8');
        stream.on('response', (headers) => (status = Number(headers[':status'])));
        stream.on('data', (chunk: string) => (body += chunk));
        stream.on('end', () => resolve({ status, body }));
        stream.on('error', reject);
      });
    try {
      for (let i = 0; i < 50; i++) {
        expect((await ask(`MADEUP${i}`, i % 2 ? '/items/7' : `/nothing/${i}`)).status).toBe(i % 2 ? 405 : 404);
      }
      expect((await ask('DELETE', '/nothing')).status).toBe(404);
      const text = (await ask('GET', '/q/metrics')).body;
      const methods = samples(text, 'http_server_requests_seconds_count').map(({ labels }) => labels.method);
      expect(methods.some((method) => method?.startsWith('MADEUP'))).toBe(false);
      expect(samples(text, 'http_server_requests_seconds_count')).toEqual(
        expect.arrayContaining([
          { labels: { method: '_OTHER', uri: 'NOT_FOUND', status: '404', outcome: 'CLIENT_ERROR' }, value: 25 },
          { labels: { method: '_OTHER', uri: 'UNKNOWN', status: '405', outcome: 'CLIENT_ERROR' }, value: 25 },
          { labels: { method: 'DELETE', uri: 'NOT_FOUND', status: '404', outcome: 'CLIENT_ERROR' }, value: 1 },
        ]),
      );
    } finally {
      session.close();
      await server.close();
    }
  });

  it('serves the same over a real socket', async () => {
    const server: RunningServer = await buildApp([ItemResource], ON).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    try {
      await fetch(`${server.url}/items/7`);
      const text = await (await fetch(`${server.url}/q/metrics`)).text();
      expect(samples(text, 'http_server_requests_seconds_count')).toContainEqual({
        labels: { method: 'GET', uri: '/items/{id}', status: '200', outcome: 'SUCCESS' },
        value: 1,
      });
    } finally {
      await server.close();
    }
  });
});
