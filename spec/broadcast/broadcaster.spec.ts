// The in-memory broadcaster over real sockets: every subscriber gets every event in publishing order; a paused
// client is handled by its own stream budget and policy while the others keep up; a client that goes away is
// unsubscribed; Last-Event-ID replays what is still in the ring, and an id that has left it gets a reset first.
import { request, type IncomingMessage } from 'node:http';
import { firstValueFrom, take, toArray } from 'rxjs';
import {
  broadcast,
  GET,
  HeaderParam,
  Path,
  Produces,
  RestApplication,
  StreamBuffer,
  type Multi,
  type RunningServer,
  type SseEvent,
  type SubscriptionChange,
} from '../../lib';
import { compareIds } from '../../lib/broadcast/event-ids';
import { within } from '../support/until';

interface Item {
  readonly n: number;
  readonly padding?: string;
}

const orders = broadcast<Item>('orders');
const slow = broadcast<Item>('slow', { replay: 0 });
const ring = broadcast<Item>('ring', { replay: 5 });
const changes: SubscriptionChange[] = [];
orders.onSubscribe((change) => changes.push(change)).onUnsubscribe((change) => changes.push(change));

@Path('topics')
class TopicResource {
  @GET
  @Path('orders')
  @Produces('text/event-stream')
  orders(): Multi<SseEvent> {
    return orders.subscribe();
  }

  /** A small budget that drops the oldest: a paused client costs at most 64K of this server's memory. */
  @GET
  @Path('slow')
  @Produces('text/event-stream')
  @StreamBuffer({ size: '64K', overflow: 'drop-oldest' })
  slow(): Multi<SseEvent> {
    return slow.subscribe();
  }

  @GET
  @Path('ring')
  @Produces('text/event-stream')
  ring(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
    return ring.subscribe({ lastEventId });
  }
}

let server: RunningServer;
beforeAll(async () => {
  const app = RestApplication.build({ classes: [TopicResource], overrides: { 'framework.rest.sse.keep-alive': '0' } });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

interface Client {
  readonly res: IncomingMessage;
  /** The `data:` items received so far. */
  readonly items: Item[];
  /** The `id:` lines received so far. */
  readonly ids: string[];
  /** Each event's name (`message` when it has none), in order, resets included. */
  readonly names: string[];
  until(count: number): Promise<void>;
  close(): void;
}

/** An SSE client on a socket of its own; `paused` reads nothing until resumed. */
function connect(path: string, headers: Record<string, string> = {}, paused = false): Promise<Client> {
  return within(
    new Promise((resolve, reject) => {
      const req = request(`${server.url}${path}`, { agent: false, headers }, (res) => {
        const items: Item[] = [];
        const ids: string[] = [];
        const names: string[] = [];
        let pending = '';
        const waiters: (() => void)[] = [];
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const events = (pending + chunk).split('\n\n');
          pending = events.pop()!;
          for (const event of events) {
            const lines = event.split('\n');
            const name = lines.find((line) => line.startsWith('event:'))?.slice(6) ?? 'message';
            names.push(name);
            for (const line of lines) {
              if (line.startsWith('id:')) ids.push(line.slice(3));
              if (line.startsWith('data:') && name === 'message') items.push(JSON.parse(line.slice(5)) as Item);
            }
          }
          waiters.splice(0).forEach((wake) => wake());
        });
        if (paused) res.pause();
        const until = (count: number) =>
          within(
            (async () => {
              while (items.length < count) await new Promise<void>((wake) => waiters.push(wake));
            })(),
            `${count} items of ${path}`,
          );
        resolve({ res, items, ids, names, until, close: () => req.destroy() });
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    }),
    `the head of ${path}`,
  );
}

const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));

describe('broadcast over the in-memory backplane', () => {
  it('gives every subscriber every event, in publishing order, with increasing ids of the <ms>-<seq> form', async () => {
    const clients = await Promise.all([
      connect('/topics/orders'),
      connect('/topics/orders'),
      connect('/topics/orders'),
    ]);
    expect(orders.subscribers).toBe(3);
    const published: string[] = [];
    for (let n = 0; n < 2000; n++) void orders.publish({ n }).then((id) => published.push(id));
    await Promise.all(clients.map((client) => client.until(2000)));
    for (const client of clients) {
      expect(client.items.map((item) => item.n)).toEqual(Array.from({ length: 2000 }, (_, n) => n));
      // The ids publish() resolved with are the ones every client got.
      expect(client.ids).toEqual(published);
      client.close();
    }
    for (const id of published) expect(id).toMatch(/^\d{13}-\d+$/);
    for (let at = 1; at < published.length; at++)
      expect(compareIds(published[at]!, published[at - 1]!)).toBeGreaterThan(0);
  });

  it('unsubscribes a client that goes away, telling the hooks each count', async () => {
    const deadline = Date.now() + 15_000;
    while (orders.subscribers > 0 && Date.now() < deadline) await settle(10);
    expect(orders.subscribers).toBe(0);
    changes.length = 0;
    const client = await connect('/topics/orders');
    expect(changes).toEqual([{ topic: 'orders', subscribers: 1 }]);
    client.close();
    while (orders.subscribers > 0) await settle(10);
    expect(changes).toEqual([
      { topic: 'orders', subscribers: 1 },
      { topic: 'orders', subscribers: 0 },
    ]);
  });

  it('keeps the others at full rate while one client reads nothing; the paused one loses the oldest, within its budget', async () => {
    const paused = await connect('/topics/slow', {}, true);
    const readers = await Promise.all([connect('/topics/slow'), connect('/topics/slow')]);
    const padding = 'x'.repeat(500);
    const total = 30_000; // ~15 MB of events: far past the paused client's 64K budget and its socket's buffers
    for (let n = 0; n < total; n++) {
      slow.publish({ n, padding });
      // Published at a rate (20 KB a millisecond or so), not in one burst: a reader's budget is 64K too.
      if (n % 40 === 39) await settle(0);
    }
    await Promise.all(readers.map((reader) => reader.until(total)));
    for (const reader of readers)
      expect(reader.items.map((item) => item.n)).toEqual(Array.from({ length: total }, (_, n) => n));
    paused.res.resume();
    // Until the newest event is in (its socket's buffers and its budget drain first); 300 ms was once too short.
    const deadline = Date.now() + 15_000;
    while (paused.items.at(-1)?.n !== total - 1 && Date.now() < deadline) await settle(20);
    const received = paused.items.map((item) => item.n);
    // What it got is in order and ends with the newest event; most of the middle was dropped for it alone.
    expect(received.length).toBeLessThan(total * 0.75);
    expect(received.at(-1)).toBe(total - 1);
    expect(received).toEqual([...received].sort((a, b) => a - b));
    // Dropping the oldest keeps the newest 64K of framed events (about 90 of these), one after the other up to the
    // last; keeping only the latest would leave one.
    let tail = 1;
    while (tail < received.length && received.at(-tail - 1) === total - 1 - tail) tail++;
    expect(tail).toBeGreaterThan(20);
    for (const client of [paused, ...readers]) client.close();
  });

  it('replays the events after Last-Event-ID that are still in the ring; a reset, then all of the ring, for an id that has left it', async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 8; n++) ids.push(await ring.publish({ n }));
    // The ring keeps 5: events 4..8.
    const after6 = await connect('/topics/ring', { 'Last-Event-ID': ids[5]! });
    await after6.until(2);
    expect(after6.ids).toEqual(ids.slice(6));
    expect(after6.names).toEqual(['message', 'message']);
    expect(after6.res.headers['stream-reset']).toBeUndefined();
    const gone = await connect('/topics/ring', { 'Last-Event-ID': ids[1]! });
    await gone.until(5);
    // Told first, with the oldest id still held, in the stream and (it came before the head) in a header.
    expect(gone.names).toEqual(['reset', 'message', 'message', 'message', 'message', 'message']);
    expect(gone.res.headers['stream-reset']).toBe(ids[3]);
    expect(gone.ids).toEqual(ids.slice(3));
    // An id of the right form that was never held is a reset too; one of another form is refused before any event.
    const unknown = await connect('/topics/ring', { 'Last-Event-ID': '1-0' });
    await unknown.until(5);
    expect(unknown.names[0]).toBe('reset');
    const malformed = await fetch(`${server.url}/topics/ring`, { headers: { 'Last-Event-ID': 'not-an-id' } });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await malformed.json()) as { code: string }).code).toBe('RXREST_MALFORMED_LAST_EVENT_ID');
    const nine = await ring.publish({ n: 9 });
    await Promise.all([after6.until(3), gone.until(6), unknown.until(6)]);
    for (const client of [after6, gone, unknown]) {
      expect(client.ids.at(-1)).toBe(nine);
      client.close();
    }
  });

  it('is a Multi of SSE events a handler or a test can subscribe to directly', async () => {
    const direct = broadcast<string>('direct');
    const received = firstValueFrom(direct.subscribe().pipe(take(2), toArray()));
    const a = await direct.publish('a');
    const b = await direct.publish('b');
    expect((await received).map((event) => [event.id, event.data])).toEqual([
      [a, 'a'],
      [b, 'b'],
    ]);
    expect(direct.subscribers).toBe(0);
    // Another broadcaster of the same name is the same topic of the application.
    const again = broadcast<string>('direct').subscribe().subscribe();
    expect(direct.subscribers).toBe(1);
    again.unsubscribe();
    expect(() => broadcast('bad', { replay: -1 })).toThrow(
      "broadcast('bad'): replay must be a whole number of events, got -1",
    );
  });
});
