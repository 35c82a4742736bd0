// A topic hands its streams' subscribers the events of a tick at once, framed once per framing: over real sockets,
// SSE, NDJSON and JSON-array subscribers of one topic each get every event framed their way, in order, across bursts
// of one tick and events of many; a stream that joins in the middle of a tick gets only what comes after it.
import { request, type IncomingMessage } from 'node:http';
import {
  broadcast,
  GET,
  Path,
  Produces,
  RestApplication,
  type Multi,
  type RunningServer,
  type SseEvent,
} from '../../lib';
import { within } from '../support/until';

interface Item {
  readonly n: number;
}

const ticks = broadcast<Item>('ticks', { replay: 0 });
const joins = broadcast<Item>('joins', { replay: 0 });

@Path('tick')
class TickResource {
  @GET
  @Path('all')
  @Produces('text/event-stream', 'application/x-ndjson', 'application/json')
  all(): Multi<SseEvent> {
    return ticks.subscribe();
  }

  @GET
  @Path('joins')
  @Produces('text/event-stream')
  joins(): Multi<SseEvent> {
    return joins.subscribe();
  }

  /** Publishes, then subscribes in the same tick: that event went out before this stream joined. */
  @GET
  @Path('late')
  @Produces('text/event-stream')
  late(): Multi<SseEvent> {
    void joins.publish({ n: -1 });
    return joins.subscribe();
  }
}

let server: RunningServer;
beforeAll(async () => {
  const app = RestApplication.build({ classes: [TickResource], overrides: { 'framework.rest.sse.keep-alive': '0' } });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

interface Reader {
  readonly res: IncomingMessage;
  body(): string;
  until(done: (body: string) => boolean): Promise<void>;
  close(): void;
}

function open(path: string, accept: string): Promise<Reader> {
  return within(
    new Promise((resolve, reject) => {
      const req = request(`${server.url}${path}`, { agent: false, headers: { accept } }, (res) => {
        let body = '';
        const waiters: (() => void)[] = [];
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          waiters.splice(0).forEach((wake) => wake());
        });
        const until = (done: (text: string) => boolean) =>
          within(
            (async () => {
              while (!done(body)) await new Promise<void>((wake) => waiters.push(wake));
            })(),
            `the awaited items of ${path}`,
          );
        resolve({ res, body: () => body, until, close: () => req.destroy() });
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    }),
    `the head of ${path}`,
  );
}

const sseItems = (body: string): number[] =>
  body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => (JSON.parse(line.slice(5)) as Item).n);

const ndjsonItems = (body: string): number[] =>
  body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { data: Item }).data.n);

/** The items of a JSON array still open (the topic never ends): it must parse once closed. */
const arrayItems = (body: string): number[] =>
  body === '' ? [] : (JSON.parse(`${body}]`) as { data: Item }[]).map((event) => event.data.n);

const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

describe('broadcast ticks', () => {
  it('frames each tick once per framing: SSE, NDJSON and JSON-array subscribers each get every event their way', async () => {
    // NDJSON and JSON answer their head with the first item: the readers are awaited once events go out.
    const opening = Promise.all([
      open('/tick/all', 'text/event-stream'),
      open('/tick/all', 'text/event-stream'),
      open('/tick/all', 'application/x-ndjson'),
      open('/tick/all', 'application/json'),
    ]);
    while (ticks.subscribers < 4) await settle();
    const parse = [sseItems, sseItems, ndjsonItems, arrayItems];
    const expected: number[] = [];
    let n = 0;
    // Bursts of several events in one tick, single events, and a burst longer than one write batch (16 KB of text).
    for (const burst of [1, 5, 1, 1, 40, 700, 3, 1]) {
      for (let i = 0; i < burst; i++) {
        expected.push(n);
        void ticks.publish({ n: n++ });
      }
      await settle();
    }
    const readers = await opening;
    await Promise.all(readers.map((reader, at) => reader.until((body) => parse[at]!(body).length >= n)));
    for (const [at, reader] of readers.entries()) expect(parse[at]!(reader.body())).toEqual(expected);
    expect(readers[3]!.body().startsWith('[{')).toBe(true);
    for (const reader of readers) reader.close();
  });

  it('gives a stream that joins in the middle of a tick only the events published after it joined', async () => {
    const early = await open('/tick/joins', 'text/event-stream');
    while (joins.subscribers < 1) await settle();
    const late = await open('/tick/late', 'text/event-stream');
    while (joins.subscribers < 2) await settle();
    void joins.publish({ n: 1 });
    await Promise.all([early, late].map((reader) => reader.until((body) => sseItems(body).includes(1))));
    expect(sseItems(early.body())).toEqual([-1, 1]);
    expect(sseItems(late.body())).toEqual([1]);
    early.close();
    late.close();
  });
});
