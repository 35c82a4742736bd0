// Caps on open streams, over real sockets: streams one client holds (framework.http.limits.max-streams-per-client:
// 429 problem past it, keyed by the client's address as rate limits key it), streams the process writes
// (framework.http.limits.max-streams: 503 problem with Retry-After past it), and the HTTP/2
// SETTINGS_MAX_CONCURRENT_STREAMS every session is told (framework.http.limits.max-concurrent-streams), enforced
// on one connection. A stream that ends gives its place back; requests that are not streams are never counted.
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2';
import { request, type IncomingMessage } from 'node:http';
import type { Server } from 'node:net';
import { NEVER, concat, of } from 'rxjs';
import {
  GET,
  Path,
  Produces,
  RateLimit,
  RestApplication,
  multi,
  resolveConfig,
  type Multi,
  type RunningServer,
} from '../../lib';
import { buildApp } from '../support/app';
import { selfSignedCertificate } from '../support/certificate';
import { tempDir } from '../support/temp-dir';
import { until, within } from '../support/until';

@Path('caps')
class CapResource {
  /** An idle SSE stream: one event, then nothing, as long as the client stays. */
  @GET
  @Path('idle')
  @Produces('text/event-stream')
  idle(): Multi<string> {
    return multi(concat(of('open'), NEVER));
  }

  /** Another streaming endpoint, with a limit of its own. */
  @GET
  @Path('limited')
  @Produces('text/event-stream')
  @RateLimit({ streams: 2 })
  limited(): Multi<string> {
    return multi(concat(of('open'), NEVER));
  }

  @GET
  @Path('plain')
  plain(): string {
    return 'not a stream';
  }
}

interface Opened {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Promise<string>;
  close(): void;
}

/** Opens `path` from `localAddress` on a connection of its own; resolves with the head (and the body of an error). */
function open(server: RunningServer, path: string, localAddress = '127.0.0.1'): Promise<Opened> {
  return within(
    new Promise((resolve, reject) => {
      const req = request(`${server.url}${path}`, { agent: false, localAddress }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', () => undefined);
        const body = new Promise<string>((done) => res.on('close', () => done(text)));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, close: () => req.destroy() });
      });
      req.on('error', reject);
      req.end();
    }),
    'the head of a stream',
  );
}

function listen(overrides: Record<string, string | number | boolean>): Promise<RunningServer> {
  return buildApp([CapResource], { 'framework.rest.sse.keep-alive': '0', ...overrides }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
}

describe('framework.http.limits.max-streams-per-client', () => {
  it('refuses a client its stream past the limit with a 429 problem, while another client still opens one', async () => {
    const server = await listen({ 'framework.http.limits.max-streams-per-client': 3 });
    const held: Opened[] = [];
    try {
      for (let n = 0; n < 3; n++) held.push(await open(server, '/caps/idle'));
      expect(held.map((stream) => stream.status)).toEqual([200, 200, 200]);
      const refused = await open(server, '/caps/idle');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(JSON.parse(await refused.body)).toMatchObject({ status: 429, code: 'RXREST_TOO_MANY_STREAMS' });
      // Another address is another client; a request that is not a stream is never counted.
      const other = await open(server, '/caps/idle', '127.0.0.2');
      expect(other.status).toBe(200);
      held.push(other);
      expect((await open(server, '/caps/plain')).status).toBe(200);
      // A stream that ends gives its place back.
      held.shift()!.close();
      const again = await until(async () => {
        const next = await open(server, '/caps/idle');
        if (next.status === 200) return next;
        await next.body;
        return undefined;
      }, 'a place to be given back');
      held.push(again);
    } finally {
      held.forEach((stream) => stream.close());
      await server.close();
    }
  });
});

describe('framework.http.limits.max-streams', () => {
  it('answers 503 with Retry-After past the streams of the process, whichever client asks, and serves other requests', async () => {
    const server = await listen({
      'framework.http.limits.max-streams': 4,
      'framework.http.limits.max-streams-per-client': 0,
    });
    const held: Opened[] = [];
    try {
      for (const address of ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'])
        held.push(await open(server, '/caps/idle', address));
      expect(held.map((stream) => stream.status)).toEqual([200, 200, 200, 200]);
      const refused = await open(server, '/caps/idle', '127.0.0.5');
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(JSON.parse(await refused.body)).toMatchObject({ status: 503, code: 'RXREST_STREAM_CAPACITY' });
      expect((await open(server, '/caps/plain', '127.0.0.5')).status).toBe(200);
      held.shift()!.close();
      const again = await until(async () => {
        const next = await open(server, '/caps/idle', '127.0.0.5');
        if (next.status === 200) return next;
        await next.body;
        return undefined;
      }, 'a place to be given back');
      held.push(again);
    } finally {
      held.forEach((stream) => stream.close());
      await server.close();
    }
  });
});

describe('framework.http.limits.max-concurrent-streams', () => {
  /** Opens `count` SSE streams on one session; resolves once `opened` of them have their head. */
  function openStreams(session: ClientHttp2Session, count: number) {
    const heads: number[] = [];
    const streams = Array.from({ length: count }, () => {
      const stream = session.request({ ':path': '/caps/idle' });
      stream.on('response', (headers) => heads.push(Number(headers[':status'])));
      stream.on('error', () => undefined);
      stream.resume();
      return stream;
    });
    return { streams, heads };
  }

  it('tells every HTTP/2 session its limit, and one connection never holds more streams at once', async () => {
    const server = await listen({ 'framework.http.h2c': true, 'framework.http.limits.max-concurrent-streams': 5 });
    const session = http2Connect(server.url);
    try {
      await within(
        new Promise<void>((resolve) => session.once('remoteSettings', () => resolve())),
        "the server's settings",
      );
      expect(session.remoteSettings.maxConcurrentStreams).toBe(5);
      const { streams, heads } = openStreams(session, 8);
      await until(() => (heads.length >= 5 ? true : undefined), 'five streams to open');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heads).toEqual([200, 200, 200, 200, 200]);
      // One ends: one of the three waiting takes its place.
      streams[0]!.close();
      await until(() => (heads.length === 6 ? true : undefined), 'a waiting stream to open');
      streams.forEach((stream) => stream.close());
    } finally {
      // (Streams closed while queued in the client keep its session from closing gracefully: it is cut instead.)
      session.destroy();
      await until(
        () =>
          new Promise<true | undefined>((resolve) =>
            (server.server as Server).getConnections((_error, count) => resolve(count === 0 ? true : undefined)),
          ),
        'the server to see the connection closed',
      );
      await server.close();
    }
  });

  const certificates = tempDir('stream-caps');

  it('is 100 by default, on the TLS port too', async () => {
    const { certificate, key } = selfSignedCertificate(certificates);
    const server = await RestApplication.build({
      classes: [CapResource],
      config: resolveConfig({
        overrides: {
          'framework.http.ssl.certificate.file': certificate,
          'framework.http.ssl.certificate.key-file': key,
          'framework.http.ssl-port': 0,
          'framework.http.insecure-requests': 'disabled',
        },
      }),
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const session = http2Connect(server.url, { rejectUnauthorized: false });
    try {
      await within(
        new Promise<void>((resolve) => session.once('remoteSettings', () => resolve())),
        "the server's settings",
      );
      expect(session.remoteSettings.maxConcurrentStreams).toBe(100);
    } finally {
      session.destroy();
      await server.close();
    }
  });
});

describe('the default stream caps', () => {
  it('are 10,000 streams per process and 1,000 per client', () => {
    const config = resolveConfig();
    expect(config.get('framework.http.limits.max-streams')).toBe(10_000);
    expect(config.get('framework.http.limits.max-streams-per-client')).toBe(1_000);
    expect(config.get('framework.http.limits.max-concurrent-streams')).toBe(100);
  });

  it('count the streams of every endpoint together, beside an endpoint’s own @RateLimit({ streams })', async () => {
    const server = await listen({ 'framework.http.limits.max-streams-per-client': 3 });
    const held: Opened[] = [];
    try {
      for (let n = 0; n < 2; n++) held.push(await open(server, '/caps/limited'));
      const own = await open(server, '/caps/limited');
      expect([own.status, (JSON.parse(await own.body) as { code: string }).code]).toEqual([429, 'RXREST_RATE_LIMITED']);
      held.push(await open(server, '/caps/idle'));
      expect(held.map((stream) => stream.status)).toEqual([200, 200, 200]);
      const all = await open(server, '/caps/idle');
      expect([all.status, (JSON.parse(await all.body) as { code: string }).code]).toEqual([
        429,
        'RXREST_TOO_MANY_STREAMS',
      ]);
    } finally {
      held.forEach((stream) => stream.close());
      await server.close();
    }
  });
});
