// The total budget of an application's streams (`framework.rest.stream.total-buffer-size`) with many streams open, over
// real sockets: a client that reads gets a burst past its share while the total holds next to nothing, however many
// other streams are open (their shares take at most half the total).
import { get, type ClientRequest } from 'node:http';
import { NEVER, Observable } from 'rxjs';
import { GET, Path, Produces, multi, type Multi, type RestApp, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';
import { until } from '../support/until';

// Each item alone is past a socket's high-water mark (16 KB): the socket is full after the first.
const BIG = 'b'.repeat(40_000);
const ITEMS = 5;
// With a 1 MB total, 64 open streams would leave each a 16 KB share were the shares the whole total.
const OPEN = 64;

@Path('many')
class Feeds {
  @GET
  @Path('idle')
  @Produces('text/event-stream')
  idle(): Multi<unknown> {
    return multi(NEVER as Observable<unknown>);
  }

  /** Five items of 40 KB at once, once the stream is committed. */
  @GET
  @Path('burst')
  @Produces('text/event-stream')
  burst(): Multi<unknown> {
    return multi(
      new Observable<unknown>((subscriber) => {
        const timer = setTimeout(() => {
          for (let i = 0; i < ITEMS; i++) subscriber.next({ i, big: BIG });
          subscriber.complete();
        }, 50);
        return () => clearTimeout(timer);
      }),
    );
  }
}

let app: RestApp;
let server: RunningServer;
const requests: ClientRequest[] = [];
beforeAll(async () => {
  app = buildApp([Feeds], { 'framework.rest.stream.total-buffer-size': '1M', 'framework.rest.sse.keep-alive': 0 });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(async () => {
  for (const request of requests) request.destroy();
  await server.close();
});

interface Reader {
  text: string;
  headed: boolean;
  ended: boolean;
}

/** A client that reads `path` as it comes. */
function read(path: string): Reader {
  const reader: Reader = { text: '', headed: false, ended: false };
  const request = get(`${server.url}${path}`, (res) => {
    reader.headed = true;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (reader.text += chunk));
    res.on('end', () => (reader.ended = true));
    res.on('error', () => undefined);
  });
  request.on('error', () => undefined);
  requests.push(request);
  return reader;
}

describe('framework.rest.stream.total-buffer-size with many streams open', () => {
  it('a client that reads gets a burst past its share while the total holds next to nothing', async () => {
    const idle = Array.from({ length: OPEN }, () => read('/many/idle'));
    await until(() => (idle.every((reader) => reader.headed) ? true : undefined), `${OPEN} idle streams open`);
    const burst = read('/many/burst');
    await until(() => (burst.ended ? true : undefined), 'the burst’s end');
    expect(burst.text).not.toContain('event:error');
    expect(burst.text.split('data:').length - 1).toBe(ITEMS);
  });
});
