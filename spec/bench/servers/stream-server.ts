/** The streaming bench server: `GET /bench/{sse|ndjson}?n=N&source=range|async` from rxrest, bare Hono, or raw node:http (argv[2]). */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { stream, streamSSE } from 'hono/streaming';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { map, range } from 'rxjs';
import { GET, multi, Path, Produces, QueryParam, RestApplication, resolveConfig } from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

async function* numbers(count: number): AsyncGenerator<{ i: number }> {
  for (let i = 0; i < count; i++) yield { i };
}

/** A synchronous Observable (pushed, waits under the byte budget) or an async generator (pulled). */
function items(source: string, n: number): unknown {
  return source === 'range' ? multi(range(0, n).pipe(map((i) => ({ i })))) : numbers(n);
}

@Path('bench')
class StreamBenchResource {
  @GET
  @Path('sse')
  @Produces('text/event-stream')
  sse(@QueryParam('n') n: number, @QueryParam('source') source: string): unknown {
    return items(source, n);
  }

  @GET
  @Path('json')
  @Produces('application/json')
  json(@QueryParam('n') n: number, @QueryParam('source') source: string): unknown {
    return items(source, n);
  }

  @GET
  @Path('ndjson')
  @Produces('application/x-ndjson')
  ndjson(@QueryParam('n') n: number, @QueryParam('source') source: string): unknown {
    return items(source, n);
  }
}

/** The limit: one `res.write` per frame, honouring `drain`; a JSON array as `JSON.stringify` of the whole array and one write. */
function rawServer(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const n = Number(url.searchParams.get('n'));
    if (url.pathname === '/bench/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(Array.from({ length: n }, (_, i) => ({ i }))));
    }
    const sse = url.pathname.endsWith('sse');
    res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/x-ndjson' });
    let i = 0;
    const pump = () => {
      while (i < n) {
        const frame = sse ? `data:${JSON.stringify({ i })}\n\n` : `${JSON.stringify({ i })}\n`;
        i++;
        if (!res.write(frame)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
}

function honoApp(): Hono {
  const app = new Hono();
  app.get('/bench/sse', (c) => {
    const n = Number(c.req.query('n'));
    return streamSSE(c, async (s) => {
      for (let i = 0; i < n; i++) await s.writeSSE({ data: JSON.stringify({ i }) });
    });
  });
  app.get('/bench/ndjson', (c) => {
    const n = Number(c.req.query('n'));
    c.header('content-type', 'application/x-ndjson');
    return stream(c, async (s) => {
      for (let i = 0; i < n; i++) await s.write(`${JSON.stringify({ i })}\n`);
    });
  });
  return app;
}

async function main(kind: string): Promise<void> {
  const ready = (port: number) => process.stdout.write(`${READY_PREFIX}${port}\n`);
  if (kind === 'rxrest') {
    const config = resolveConfig({ overrides: { 'framework.rest.sse.keep-alive': '0' } });
    const server = await RestApplication.build({ classes: [StreamBenchResource], config }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    ready(server.port);
    return followParent(() => void server.close());
  }
  const server =
    kind === 'hono'
      ? (serve({ fetch: honoApp().fetch, port: 0, hostname: '127.0.0.1' }) as Server)
      : rawServer().listen(0, '127.0.0.1');
  server.once('listening', () => ready((server.address() as AddressInfo).port));
  followParent(() => server.close());
}

if (require.main === module) void main(process.argv[2] ?? 'rxrest');
