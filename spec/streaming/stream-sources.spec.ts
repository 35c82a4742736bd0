// Every kind of stream source through every framing over a real socket: a fast client, a slow one
// (about 1 MB/s) and one that goes away midway. The first batch's worst bug (an Observable of 100,000
// items answering nothing) passed every in-process test, so these read real sockets at real sizes.
import { request, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { asapScheduler, finalize, from, interval, map, Observable, range, take } from 'rxjs';
import { GET, Path, Produces, RestPath, RestQuery, multi, type RunningServer } from '../../lib';
import { buildApp } from '../support/app';

interface Item {
  readonly i: number;
}

/** Per source kind: how many items it produced, and whether its clean-up (finalize, finally) ran. */
const produced = new Map<string, number>();
const finished = new Map<string, number>();
const count = (kind: string) => produced.set(kind, (produced.get(kind) ?? 0) + 1);
const finish = (kind: string) => () => void finished.set(kind, (finished.get(kind) ?? 0) + 1);

function* syncItems(kind: string, n: number): Generator<Item> {
  try {
    for (let i = 0; i < n; i++) {
      count(kind);
      yield { i };
    }
  } finally {
    finish(kind)();
  }
}

async function* asyncItems(kind: string, n: number): AsyncGenerator<Item> {
  try {
    for (let i = 0; i < n; i++) {
      count(kind);
      // A database cursor hands out rows in pages: most steps are ready at once, some wait for I/O.
      if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
      yield { i };
    }
  } finally {
    finish(kind)();
  }
}

const counted = (kind: string) => (source: Observable<Item>) =>
  source.pipe(
    map((item) => (count(kind), item)),
    finalize(finish(kind)),
  );

/** The sources a handler may return, by name; each produces items `{ i }` for i = 0..n-1. */
const SOURCES: Record<string, (n: number) => unknown> = {
  range: (n) =>
    multi(
      range(0, n).pipe(
        map((i) => ({ i })),
        counted('range'),
      ),
    ),
  'from-array': (n) => multi(from(Array.from({ length: n }, (_, i) => ({ i }))).pipe(counted('from-array'))),
  'from-async-generator': (n) =>
    multi(from(asyncItems('from-async-generator-inner', n)).pipe(counted('from-async-generator'))),
  'asap-interval': (n) =>
    multi(
      interval(0, asapScheduler).pipe(
        take(n),
        map((i) => ({ i })),
        counted('asap-interval'),
      ),
    ),
  interval: (n) =>
    multi(
      interval(1).pipe(
        take(n),
        map((i) => ({ i })),
        counted('interval'),
      ),
    ),
  generator: (n) => syncItems('generator', n),
  'multi-from-array': (n) => multi.from(Array.from({ length: n }, (_, i) => ({ i }))),
  'multi-from-generator': (n) => multi.from(syncItems('multi-from-generator', n)),
  'async-generator': (n) => asyncItems('async-generator', n),
  readable: (n) => Readable.from(syncItems('readable', n)),
};

@Path('sources')
class SourcesResource {
  @GET
  @Path('{kind}')
  @Produces('text/event-stream', 'application/x-ndjson', 'application/json', 'text/plain')
  stream(@RestPath() kind: string, @RestQuery() n: number): unknown {
    return SOURCES[kind](n);
  }
}

const FRAMINGS = ['text/event-stream', 'application/x-ndjson', 'application/json', 'text/plain'] as const;
type FramingType = (typeof FRAMINGS)[number];

/** The items of a complete body, checking that its framing is well formed to the last byte. */
function parse(type: FramingType, body: string): number[] {
  const values = (texts: string[]) => texts.map((text) => (JSON.parse(text) as Item).i);
  switch (type) {
    case 'text/event-stream': {
      expect(body === '' || body.endsWith('\n\n')).toBe(true);
      const events = body === '' ? [] : body.slice(0, -2).split('\n\n');
      expect(events.every((event) => event.startsWith('data:'))).toBe(true);
      return values(events.map((event) => event.slice('data:'.length)));
    }
    case 'application/x-ndjson':
      expect(body === '' || body.endsWith('\n')).toBe(true);
      return values(body === '' ? [] : body.slice(0, -1).split('\n'));
    case 'application/json':
      return (JSON.parse(body) as Item[]).map((item) => item.i);
    case 'text/plain': {
      const texts = body.match(/\{"i":\d+\}/g) ?? [];
      // Compared as a boolean: a mismatch of 100,000 items would print megabytes.
      expect(texts.join('') === body).toBe(true);
      return values(texts);
    }
  }
}

/** Checks that `items` are exactly 0..n-1 in order, naming the first place they are not (jest's toEqual is slow at this size). */
function expectSequence(items: number[], n: number): void {
  const wrong = items.findIndex((value, k) => value !== k);
  expect({ count: items.length, firstWrong: wrong === -1 ? undefined : { at: wrong, value: items[wrong] } }).toEqual({
    count: n,
    firstWrong: undefined,
  });
}

let server: RunningServer;
beforeAll(async () => {
  server = await buildApp([SourcesResource], {
    'framework.rest.sse.keep-alive': 0,
    'framework.metrics.enabled': true,
  }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
});
afterAll(() => server.close());

interface Read {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: string;
  readonly complete: boolean;
}

/**
 * GETs `path` over a fresh connection. `bytesPerSecond` paces the reading (the socket fills and the
 * server must wait); `stopAfter` destroys the connection once that many bytes came.
 */
function read(
  path: string,
  accept: string,
  options: { bytesPerSecond?: number; stopAfter?: number } = {},
): Promise<Read> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, agent: false, headers: { accept } },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let length = 0;
        const done = (complete: boolean) =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
            complete,
          });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          length += chunk.length;
          if (options.stopAfter !== undefined && length >= options.stopAfter) {
            req.destroy();
            return done(false);
          }
          if (options.bytesPerSecond) {
            res.pause();
            setTimeout(() => res.resume(), (chunk.length / options.bytesPerSecond) * 1000);
          }
        });
        res.on('end', () => done(res.complete));
        res.on('error', () => undefined);
      },
    );
    req.on('error', (error) => (options.stopAfter === undefined ? reject(error) : undefined));
    req.end();
  });
}

/** The server's `rxrest_streams_active` gauge: stream responses still being written. */
async function activeStreams(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${server.port}/q/metrics`)).text();
  return Number(/^rxrest_streams_active (\d+)$/m.exec(text)?.[1]);
}

/** How each framing's body starts. */
const FIRST_FRAME: Record<FramingType, string> = {
  'text/event-stream': 'data:{"i":0}\n\n',
  'application/x-ndjson': '{"i":0}\n',
  'application/json': '[{"i":0},',
  'text/plain': '{"i":0}{"i":1}',
};

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, ms = 15_000): Promise<void> {
  for (let waited = 0; waited < ms && !condition(); waited += 10) await delay(10);
  expect(condition()).toBe(true);
}

const SIZES: Record<string, number> = { interval: 200, 'asap-interval': 100_000 };
const FAST = 100_000;

describe('every stream source through every framing, over a real socket', () => {
  describe.each(FRAMINGS)('%s', (type) => {
    it.each(Object.keys(SOURCES))('%s: a fast client gets every item, in order, well framed', async (kind) => {
      const n = SIZES[kind] ?? FAST;
      const result = await read(`/sources/${kind}?n=${n}`, type);
      expect(result.status === 200 ? 200 : result.body.slice(0, 500)).toBe(200);
      expect(result.type).toBe(type);
      expect(result.complete).toBe(true);
      expectSequence(parse(type, result.body), n);
    });

    it('a slow client (about 1 MB/s) gets every item of every source', async () => {
      // About 300 KB per source, read by ten clients at once.
      const kinds = Object.keys(SOURCES);
      const results = await Promise.all(
        kinds.map((kind) =>
          read(`/sources/${kind}?n=${kind === 'interval' ? 200 : 20_000}`, type, { bytesPerSecond: 1_000_000 }),
        ),
      );
      results.forEach((result, k) => {
        expect(result.complete).toBe(true);
        expectSequence(parse(type, result.body), kinds[k] === 'interval' ? 200 : 20_000);
      });
    });

    it.each(Object.keys(SOURCES))(
      '%s: a client that goes away midway stops the source and runs its clean-up',
      async (kind) => {
        // Pulled and timer-driven sources are stopped early. Synchronous and microtask-paced ones have produced
        // everything before the event loop can tell of the disconnect: the response is still cut short.
        const stoppable = !['range', 'from-array', 'asap-interval', 'multi-from-array'].includes(kind);
        const n = kind === 'interval' ? 1_000_000 : 10_000_000;
        const key = kind === 'from-async-generator' ? 'from-async-generator-inner' : kind;
        const before = finished.get(key) ?? 0;
        produced.set(key, 0);
        if (!stoppable) {
          // What arrived is a well-framed, in-order start of the stream, and the server lets the stream go.
          const result = await read(`/sources/${kind}?n=100000`, type, { stopAfter: 64 * 1024 });
          expect(result.body.startsWith(FIRST_FRAME[type])).toBe(true);
          const items = (result.body.match(/\{"i":\d+\}/g) ?? []).map((text) => (JSON.parse(text) as Item).i);
          expect(items.length).toBeGreaterThan(1000);
          expectSequence(items, items.length);
          for (let waited = 0; (await activeStreams()) !== 0 && waited < 15_000; waited += 20) await delay(20);
          expect(await activeStreams()).toBe(0);
          return;
        }
        const result = await read(`/sources/${kind}?n=${n}`, type, { stopAfter: kind === 'interval' ? 100 : 200_000 });
        expect(result.complete).toBe(false);
        await until(() => (finished.get(key) ?? 0) === before + 1);
        expect(produced.get(key)).toBeLessThan(n);
      },
      // Before the client has its 200 KB, a source that is always ready fills the loopback socket's kernel buffers
      // (2-4 MB, about 300,000 items: ~1 s for a Readable on a quiet machine, 20 s once seen on a loaded one).
      60_000,
    );
  });
});
