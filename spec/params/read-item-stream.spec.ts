// Request bodies of many items as a Multi, over a real socket: counted exactly in every format, bound and
// validated item by item, errors naming the line, limits, a client that goes away, and a duplex transform whose
// first answer line arrives before the request has finished.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { count, finalize, lastValueFrom, map, tap } from 'rxjs';
import { z } from 'zod';
import {
  Body,
  Consumes,
  Multi,
  Path,
  POST,
  Produces,
  RestApplication,
  RestStreamElementType,
  multi,
  type RunningServer,
  type SseEvent,
} from '../../lib';
import { until, within } from '../support/until';

class Order {
  static readonly schema = z.object({ id: z.number().int(), item: z.string().min(1, 'an order needs an item') });
  id = 0;
  item = '';

  describe(): string {
    return `${this.id}:${this.item}`;
  }
}

let finalized = 0;
/** Called with each item the `watched` endpoint reads: the client knows its upload is being read. */
let watchedItem: () => void = () => undefined;
let lastOrders: Order[] = [];

@Path('items')
class ItemResource {
  /** Pushed: counted with RxJS. */
  @POST
  @Path('count')
  @Consumes('application/x-ndjson', 'application/json', 'application/json-seq', 'text/event-stream')
  async count(@Body() rows: Multi<unknown>): Promise<{ count: number }> {
    return { count: await lastValueFrom(rows.pipe(count())) };
  }

  /** Pulled: iterated, each item a bound and validated Order. */
  @POST
  @Path('orders')
  @Consumes('application/x-ndjson', 'application/json')
  async orders(@Body({ type: Order }) orders: Multi<Order>): Promise<{ count: number; last: string }> {
    lastOrders = [];
    for await (const order of orders) lastOrders.push(order);
    return { count: lastOrders.length, last: lastOrders.at(-1)?.describe() ?? '' };
  }

  @POST
  @Path('events')
  @Consumes('text/event-stream')
  async events(@Body() events: Multi<SseEvent>): Promise<SseEvent[]> {
    const all: SseEvent[] = [];
    for await (const event of events) all.push(event);
    return all;
  }

  /** Runs its finalizer however the body ends. */
  @POST
  @Path('watched')
  @Consumes('application/x-ndjson')
  async watched(@Body() rows: Multi<unknown>): Promise<{ count: number }> {
    return {
      count: await lastValueFrom(
        rows.pipe(
          tap(() => watchedItem()),
          finalize(() => finalized++),
          count(),
        ),
      ),
    };
  }

  /** Duplex: each line answered as it arrives. */
  @POST
  @Path('echo')
  @Consumes('application/x-ndjson')
  @Produces('application/x-ndjson')
  @RestStreamElementType('application/json')
  echo(@Body({ type: Number }) numbers: Multi<number>): Multi<number> {
    return multi(numbers.pipe(map((n) => n * 2)));
  }

  /** Reads the items, then tries again. */
  @POST
  @Path('twice')
  @Consumes('application/x-ndjson')
  async twice(@Body() rows: Multi<unknown>): Promise<string> {
    await lastValueFrom(rows.pipe(count()));
    return lastValueFrom(rows.pipe(count())).then(
      () => 'read twice',
      (error: Error) => error.message,
    );
  }

  /** Marked explicitly, for a parameter whose type metadata says nothing (Multi imported as a type). */
  @POST
  @Path('explicit')
  @Consumes('application/x-ndjson')
  async explicit(@Body({ stream: true, type: Order }) orders: AsyncIterable<Order>): Promise<string[]> {
    const described: string[] = [];
    for await (const order of orders) described.push(order.describe());
    return described;
  }
}

let server: RunningServer;
beforeAll(async () => {
  const app = RestApplication.build({
    classes: [ItemResource],
    overrides: { 'framework.http.limits.max-body-size': '64M', 'framework.http.limits.max-stream-item-size': '4K' },
  });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

interface Reply {
  readonly status: number;
  readonly body: string;
}

/** Sends `chunks` one after the other (each after the last has been written), then reads the answer. */
function send(path: string, contentType: string, chunks: Iterable<string | Buffer>): Promise<Reply> {
  return sendTo(server.url, path, contentType, chunks);
}

/** `send` to another server; an answer that comes before the body is all sent is read, the rest of the body dropped. */
function sendTo(url: string, path: string, contentType: string, chunks: Iterable<string | Buffer>): Promise<Reply> {
  let req: ClientRequest | undefined;
  const reply = new Promise<Reply>((resolve, reject) => {
    let answered = false;
    const sent = (req = request(
      `${url}${path}`,
      { method: 'POST', headers: { 'Content-Type': contentType } },
      (res) => {
        answered = true;
        collect(res).then((reply) => {
          sent.destroy();
          resolve(reply);
        }, reject);
      },
    ));
    sent.on('error', (error) => (answered ? undefined : reject(error)));
    const iterator = chunks[Symbol.iterator]();
    const write = () => {
      for (let step = iterator.next(); !step.done; step = iterator.next())
        if (!sent.write(step.value)) return void sent.once('drain', write);
      sent.end();
    };
    write();
  });
  return within(reply, `the answer to POST ${path}`).catch((error: unknown) => {
    req?.destroy();
    throw error;
  });
}

function collect(res: IncomingMessage): Promise<Reply> {
  return new Promise((resolve) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (body += chunk));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
  });
}

function* ndjsonLines(total: number, line: (n: number) => string): Generator<string> {
  const batch: string[] = [];
  for (let n = 0; n < total; n++) {
    batch.push(`${line(n)}\n`);
    if (batch.length === 1000) yield batch.splice(0).join('');
  }
  if (batch.length) yield batch.join('');
}

const order = (n: number) => JSON.stringify({ id: n, item: `item ${n}` });

describe('a request body of items', () => {
  it('counts a 100,000-line NDJSON upload exactly, pushed', async () => {
    const reply = await send('/items/count', 'application/x-ndjson', ndjsonLines(100_000, order));
    expect(reply).toEqual({ status: 200, body: '{"count":100000}' });
  });

  it('binds and validates each item of 100,000, pulled, into instances of the declared class', async () => {
    const reply = await send('/items/orders', 'application/x-ndjson', ndjsonLines(100_000, order));
    expect(reply).toEqual({ status: 200, body: '{"count":100000,"last":"99999:item 99999"}' });
    expect(lastOrders[0]).toBeInstanceOf(Order);
  });

  it('answers 400 naming line 50,001 when the item at index 50,000 is invalid, and reads nothing after it', async () => {
    const invalid = await send(
      '/items/orders',
      'application/x-ndjson',
      ndjsonLines(100_000, (n) => (n === 50_000 ? '{"id":1,"item":""}' : order(n))),
    );
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.body)).toMatchObject({
      code: 'RXREST_VALIDATION_FAILED',
      detail: 'Line 50001 of the request body is invalid',
      violations: [{ in: 'body', field: 'item', message: 'an order needs an item' }],
    });
    expect(lastOrders).toHaveLength(50_000);
    const malformed = await send('/items/orders', 'application/x-ndjson', [
      '{"id":1,"item":"a"}\n\n{"id":2,',
      '"item":"b"}\n{nope}\n',
    ]);
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({ code: 'RXREST_MALFORMED_BODY' });
    // Blank lines count as lines: the bad one is the fourth.
    expect(JSON.parse(malformed.body).detail).toMatch(/^Line 4 of the request body is not valid JSON/);
  });

  it('refuses an item with a __proto__ key (prototype poisoning), in a chunk with others or split across chunks', async () => {
    const together = await send('/items/count', 'application/x-ndjson', [
      `${order(1)}\n{"__proto__":{"polluted":true}}\n`,
    ]);
    expect(together.status).toBe(400);
    expect(JSON.parse(together.body)).toMatchObject({ code: 'RXREST_FORBIDDEN_PROPERTY' });
    expect(JSON.parse(together.body).detail).toMatch(/^Line 2 of the request body/);
    const split = await send('/items/count', 'application/x-ndjson', [
      `${order(1)}\n{"__pro`,
      'to__":{"polluted":true}}\n',
    ]);
    expect(JSON.parse(split.body)).toMatchObject({ code: 'RXREST_FORBIDDEN_PROPERTY' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads a JSON array element by element, JSON text sequences and server-sent events, each counted exactly', async () => {
    const array = ['[', ...Array.from({ length: 5000 }, (_, n) => `${n ? ',' : ''}{"id":${n},"item":"[a, b]"}`), ']'];
    expect(await send('/items/count', 'application/json', array)).toEqual({ status: 200, body: '{"count":5000}' });
    const sequence = Array.from({ length: 5000 }, (_, n) => `\x1e${order(n)}\n`);
    expect(await send('/items/count', 'application/json-seq', sequence)).toEqual({
      status: 200,
      body: '{"count":5000}',
    });
    const events = Array.from({ length: 5000 }, (_, n) => `id:${n}\ndata:${order(n)}\n\n`);
    expect(await send('/items/count', 'text/event-stream', events)).toEqual({ status: 200, body: '{"count":5000}' });
    const orders = await send('/items/orders', 'application/json', array);
    expect(orders).toEqual({ status: 200, body: '{"count":5000,"last":"4999:[a, b]"}' });
  });

  it('gives SSE items as events with their ids, names and data (JSON when it is an object)', async () => {
    const reply = await send('/items/events', 'text/event-stream', [
      'id: 7\nevent: order\ndata: {"id":7}\n\n',
      ': comment\ndata: plain text\n\n',
    ]);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual([{ data: { id: 7 }, id: '7', event: 'order' }, { data: 'plain text' }]);
  });

  it('bounds the whole stream by framework.http.limits.max-body-size: 413 once a chunked body of small items passes it', async () => {
    const bounded = await RestApplication.build({
      classes: [ItemResource],
      overrides: { 'framework.http.limits.max-body-size': '1M' },
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      // 100,000 lines of about 33 bytes: 3.3 MB, each item far under max-stream-item-size.
      const over = await sendTo(bounded.url, '/items/count', 'application/x-ndjson', ndjsonLines(100_000, order));
      expect(over.status).toBe(413);
      expect(JSON.parse(over.body)).toMatchObject({ status: 413 });
      expect(over.body).not.toContain('count');
      const under = await sendTo(bounded.url, '/items/count', 'application/x-ndjson', ndjsonLines(20_000, order));
      expect(under).toEqual({ status: 200, body: '{"count":20000}' });
    } finally {
      await bounded.close();
    }
  });

  it('refuses an item past framework.http.limits.max-stream-item-size with 413 naming its line, and a body of another type with 415', async () => {
    const long = await send('/items/count', 'application/x-ndjson', [
      `${order(1)}\n`,
      `{"pad":"${'x'.repeat(5000)}"}\n`,
    ]);
    expect(long.status).toBe(413);
    expect(JSON.parse(long.body)).toMatchObject({
      code: 'RXREST_BODY_TOO_LARGE',
      detail: 'Line 2 of the request body is longer than 4K (framework.http.limits.max-stream-item-size)',
    });
    const text = await send('/items/watched', 'text/plain', ['hello']);
    expect(text.status).toBe(415);
  });

  /** Sends `chunks` as a body of items of `type`: refused 413, naming the item at `place`. */
  async function expectItemRefused(type: string, chunks: string[], place: string): Promise<void> {
    const reply = await send('/items/count', type, chunks);
    expect([type, reply.status, JSON.parse(reply.body)]).toEqual([
      type,
      413,
      expect.objectContaining({
        code: 'RXREST_BODY_TOO_LARGE',
        detail: `${place} of the request body is longer than 4K (framework.http.limits.max-stream-item-size)`,
      }),
    ]);
  }

  it('refuses an item past max-stream-item-size in every framing before it ends: an open line, an array element, an event, a sequence record', async () => {
    const pad = 'x'.repeat(5000);
    const cases: [string, string[], string][] = [
      ['application/x-ndjson', [`${order(1)}\n{"pad":"${pad}`], 'Line 2'],
      ['application/json', [`[${order(1)},{"pad":"${pad}`], 'Item 1'],
      ['text/event-stream', [`data: {"pad":"${pad}`], 'Item 0'],
      ['application/json-seq', [`\x1e${order(1)}\n\x1e{"pad":"${pad}"}\n\x1e${order(2)}\n`], 'Item 1'],
    ];
    for (const [type, chunks, place] of cases) await expectItemRefused(type, chunks, place);
  });

  it('refuses a whole item past max-stream-item-size that arrives in one piece with the one before it', async () => {
    const pad = 'x'.repeat(5000);
    const cases: [string, string, string][] = [
      ['application/x-ndjson', `${order(1)}\n{"pad":"${pad}"}\n${order(2)}\n`, 'Line 2'],
      ['application/json', `[${order(1)},{"pad":"${pad}"},${order(2)}]`, 'Item 1'],
      ['text/event-stream', `data: ${order(1)}\n\ndata: {"pad":"${pad}"}\n\ndata: ${order(2)}\n\n`, 'Item 1'],
      ['application/json-seq', `\x1e${order(1)}\n\x1e{"pad":"${pad}"}\n\x1e${order(2)}\n`, 'Item 1'],
    ];
    for (const [type, body, place] of cases) await expectItemRefused(type, [body], place);
  });

  it('answers 400 for an application/json body of items that is no array, or ends inside an item', async () => {
    const object = await send('/items/count', 'application/json', ['{"id":1}']);
    expect([object.status, JSON.parse(object.body)]).toEqual([
      400,
      expect.objectContaining({
        code: 'RXREST_MALFORMED_BODY',
        detail: 'An application/json body of items must be a JSON array',
      }),
    ]);
    const cut = await send('/items/count', 'application/json', [`[${order(1)},{"id":`]);
    expect([cut.status, JSON.parse(cut.body)]).toEqual([
      400,
      expect.objectContaining({
        code: 'RXREST_MALFORMED_BODY',
        detail: expect.stringMatching(/^The request body ended inside item 1: /),
      }),
    ]);
  });

  it('runs the finalizers when the client goes away mid-upload', async () => {
    const before = finalized;
    // Goes away once the endpoint reads the upload, not after a guess: gone before, it would never have been read.
    const reading = new Promise<void>((resolve) => (watchedItem = resolve));
    const req: ClientRequest = request(`${server.url}/items/watched`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    req.on('error', () => undefined);
    req.write(`${order(1)}\n${order(2)}\n`);
    await within(reading, 'the endpoint to read the upload');
    req.destroy();
    await until(() => (finalized !== before ? true : undefined), 'the finalizer to run');
    expect(finalized).toBe(before + 1);
  });

  it('answers a duplex transform line by line: the first answer line arrives before the request has finished', async () => {
    const req = request(`${server.url}/items/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    const response = new Promise<IncomingMessage>((resolve) => req.once('response', resolve));
    req.write('1\n');
    const res = await within(response, 'the answer head');
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    res.setEncoding('utf8');
    const firstLine = await within(new Promise<string>((resolve) => res.once('data', resolve)), 'the first line');
    expect(firstLine).toBe('2\n');
    expect(req.writableEnded).toBe(false);
    let rest = '';
    res.on('data', (chunk: string) => (rest += chunk));
    const ended = new Promise((resolve) => res.once('end', resolve));
    req.end('2\n3\n');
    await within(ended, 'the end of the answer');
    expect(rest).toBe('4\n6\n');
  });

  it('ends an answer already streaming as failing streams end when a later item is bad: cut, never completed', async () => {
    const req = request(`${server.url}/items/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    req.on('error', () => undefined);
    const response = new Promise<IncomingMessage>((resolve) => req.once('response', resolve));
    req.write('1\n');
    const res = await within(response, 'the answer head');
    res.setEncoding('utf8');
    let body = '';
    res.on('data', (chunk: string) => (body += chunk));
    res.on('error', () => undefined);
    const closed = new Promise<boolean>((resolve) => res.once('close', () => resolve(res.complete)));
    // The bad item goes once the answer is streaming (its first line is in), not after a guess.
    await until(() => (body === '2\n' ? true : undefined), 'the first answer line');
    req.end('2\nnot json\n3\n');
    expect(await within(closed, 'the answer to be cut')).toBe(false);
    expect(res.statusCode).toBe(200);
    expect(body).toBe('2\n4\n');
  });

  it('reads an explicitly marked parameter, and refuses a second reading of the same items', async () => {
    expect(await send('/items/explicit', 'application/x-ndjson', [`${order(1)}\n${order(2)}\n`])).toEqual({
      status: 200,
      body: '["1:item 1","2:item 2"]',
    });
    const twice = await send('/items/twice', 'application/x-ndjson', [`${order(1)}\n`]);
    expect(twice.body).toBe(
      'The items of a request body can be read once: subscribe to (or iterate) the Multi once, share() it for several consumers',
    );
  });
});
