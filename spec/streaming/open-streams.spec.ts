// A shutdown ends open streams cleanly instead of cutting them: SSE at once with a retry hint, finite
// streams when they finish, endless ones at the end of the grace period — over a real socket.
import { get, type IncomingMessage } from 'node:http';
import { finalize, interval, map, take } from 'rxjs';
import { GET, Path, Produces, multi, type Multi, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';

let finalized = 0;

@Path('live')
class LiveResource {
  @GET
  @Path('sse')
  @Produces('text/event-stream')
  sse(): Multi<number> {
    return multi(interval(20).pipe(finalize(() => finalized++)));
  }

  @GET
  @Path('endless')
  @Produces('application/json')
  endless(): Multi<number> {
    return multi(interval(20));
  }

  @GET
  @Path('finite')
  @Produces('application/x-ndjson')
  finite(): Multi<number> {
    return multi(
      interval(20).pipe(
        take(15),
        map((i) => i),
      ),
    );
  }
}

interface Opened {
  /** The whole body and whether it ended cleanly, once the response is over. */
  readonly done: Promise<{ body: string; complete: boolean }>;
}

/** Opens `path` and resolves once the first bytes are in (wrapped: a Promise resolved with a Promise would wait for it). */
function open(server: RunningServer, path: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    get(`${server.url}${path}`, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      const done = new Promise<{ body: string; complete: boolean }>((finish) => {
        res.on('error', () => undefined);
        res.on('close', () => finish({ body, complete: res.complete }));
      });
      res.once('data', (chunk: string) => {
        body += chunk;
        res.on('data', (more: string) => (body += more));
        resolve({ done });
      });
    }).on('error', reject);
  });
}

describe('shutting down with open streams', () => {
  it('ends SSE at once with a retry hint, lets a finite stream finish, ends an endless one cleanly at the grace end', async () => {
    const app = buildApp([LiveResource], { 'framework.rest.sse.keep-alive': 0, 'framework.shutdown.timeout': '1s' });
    const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const sse = await Promise.all(Array.from({ length: 20 }, () => open(server, '/live/sse')));
    const endless = await open(server, '/live/endless');
    const finite = await open(server, '/live/finite');
    const started = Date.now();
    await server.close();
    const took = Date.now() - started;
    for (const stream of await Promise.all(sse.map((opened) => opened.done))) {
      expect(stream.complete).toBe(true);
      expect(stream.body.endsWith('retry:1000\n\n')).toBe(true);
    }
    const array = await endless.done;
    expect(array.complete).toBe(true);
    expect(Array.isArray(JSON.parse(array.body))).toBe(true);
    const lines = await finite.done;
    expect(lines.complete).toBe(true);
    expect(lines.body.trim().split('\n')).toHaveLength(15);
    // The endless stream holds the server to the end of the grace period (1 s less a margin), not past it: without
    // the grace it would hold it for ever. 3 s leaves room for a loaded machine's late timers.
    expect(took).toBeLessThan(3000);
  });

  it('closes at once when only SSE streams are open', async () => {
    const server = await buildApp([LiveResource], { 'framework.rest.sse.keep-alive': 0 }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    const sse = await Promise.all(Array.from({ length: 50 }, () => open(server, '/live/sse')));
    const before = finalized;
    const started = Date.now();
    await server.close();
    expect(finalized - before).toBe(50);
    // At once, not at the end of the 10 s shutdown timeout: 3 s leaves room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(
      (await Promise.all(sse.map((opened) => opened.done))).every(
        (stream) => stream.complete && stream.body.endsWith('retry:1000\n\n'),
      ),
    ).toBe(true);
  });
});
