import { get, type IncomingMessage } from 'node:http';
import { finalize, Observable } from 'rxjs';
import {
  GET,
  Path,
  Produces,
  StreamBuffer,
  logging,
  multi,
  type LogRecord,
  type Multi,
  type OverflowPolicy,
  type RunningServer,
} from '../../lib';
import { buildApp } from '../support/app';

// 40,000 items of about 1 KB: 40 MB, far more than the socket buffers between server and client hold.
const COUNT = 40_000;
const PAD = 'p'.repeat(1000);
// The byte budget: about 64 items, counting what the server's socket holds.
const BUFFER = '64K';
// The newest items a drop-oldest budget is sure to hold when the source ends.
const KEPT = 8;

interface Progress {
  emitted: number;
  stopped: boolean;
}
const progress = new Map<string, Progress>();

/** A fast Observable: bursts of 50 items per macrotask until COUNT, with no regard for the reader. */
function fast(name: string): Multi<{ i: number; pad: string }> {
  const state: Progress = { emitted: 0, stopped: false };
  progress.set(name, state);
  const source = new Observable<{ i: number; pad: string }>((subscriber) => {
    let next: NodeJS.Immediate | undefined;
    const burst = () => {
      for (let k = 0; k < 50 && state.emitted < COUNT; k++) subscriber.next({ i: state.emitted++, pad: PAD });
      if (state.emitted < COUNT) next = setImmediate(burst);
      else subscriber.complete();
    };
    burst();
    return () => clearImmediate(next);
  });
  return multi(source.pipe(finalize(() => (state.stopped = true))));
}

let pulls = 0;
let returned = 0;

@Path('slow')
class SlowResource {
  @GET
  @Path('fail')
  @Produces('application/x-ndjson')
  @StreamBuffer({ size: BUFFER, overflow: 'fail' })
  fail(): Multi<unknown> {
    return fast('fail');
  }

  @GET
  @Path('drop-oldest')
  @Produces('application/x-ndjson')
  @StreamBuffer({ size: BUFFER, overflow: 'drop-oldest' })
  dropOldest(): Multi<unknown> {
    return fast('drop-oldest');
  }

  @GET
  @Path('drop-newest')
  @Produces('application/x-ndjson')
  @StreamBuffer({ size: BUFFER, overflow: 'drop-newest' })
  dropNewest(): Multi<unknown> {
    return fast('drop-newest');
  }

  @GET
  @Path('latest')
  @Produces('application/x-ndjson')
  @StreamBuffer({ size: BUFFER, overflow: 'latest' })
  latest(): Multi<unknown> {
    return fast('latest');
  }

  @GET
  @Path('pulled')
  @Produces('application/x-ndjson')
  async *pulled(): AsyncGenerator<{ i: number; pad: string }> {
    try {
      for (let i = 0; ; i++) {
        pulls++;
        yield { i, pad: PAD };
      }
    } finally {
      returned++;
    }
  }
}

let server: RunningServer;
beforeAll(async () => {
  server = await buildApp([SlowResource], { 'framework.rest.sse.keep-alive': 0 }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(() => server.close());

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, tries = 200): Promise<void> {
  for (let i = 0; i < tries && !condition(); i++) await delay(10);
  expect(condition()).toBe(true);
}

/** Opens `path` and reads nothing until `ready()` holds, then reads everything; `complete` is false when the server aborted. */
function readSlowly(path: string, ready: () => Promise<void>): Promise<{ body: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    get(`${server.url}${path}`, (res: IncomingMessage) => {
      res.pause();
      let body = '';
      res.setEncoding('utf8');
      res.on('error', () => undefined);
      res.on('close', () => resolve({ body, complete: res.complete }));
      void ready().then(() => {
        res.on('data', (chunk: string) => (body += chunk));
        res.resume();
      }, reject);
    }).on('error', () => resolve({ body: '', complete: false }));
  });
}

/** The item numbers of the complete lines of an NDJSON body. */
function indexes(body: string): number[] {
  return body
    .split('\n')
    .filter((line) => line.endsWith('}'))
    .map((line) => (JSON.parse(line) as { i: number }).i);
}

async function slowly(policy: OverflowPolicy): Promise<{ body: string; complete: boolean; received: number[] }> {
  const result = await readSlowly(`/slow/${policy}`, async () => {
    await until(() => progress.get(policy)?.stopped === true);
    await delay(20);
  });
  return { ...result, received: indexes(result.body) };
}

// What reaches a paused client is what the socket buffers held plus the budget: far below the 40 MB
// the source produced, which is what an unbounded server buffer would have sent.
const BOUND = COUNT * PAD.length * 0.5;

describe('a fast Observable and a slow reader over a real socket', () => {
  it('fail: aborts the response and unsubscribes the source once it gets past its budget', async () => {
    const records: LogRecord[] = [];
    const previous = logging.setSink((record) => records.push(record));
    const { body, complete, received } = await slowly('fail').finally(() => logging.setSink(previous));
    // A slow (or hostile) client overflows one budget per stream: one line at WARN naming the stream, no stack.
    const failures = records.filter((record) => record.category === 'rxrest.streaming');
    expect(failures.map(({ level, message }) => [level, message.split(':')[0]])).toEqual([
      ['WARN', 'The stream of fail failed after its response was committed'],
    ]);
    expect(failures[0].message).toContain('ahead of its client');
    expect(failures[0].detail).toBeUndefined();
    expect(complete).toBe(false);
    expect(progress.get('fail')!.emitted).toBeLessThan(COUNT);
    // An abort may reset the connection, and then even the bytes in the client's socket are lost.
    expect(received.at(-1) ?? -1).toBeLessThan(COUNT - 1);
    expect(body.length).toBeLessThan(BOUND);
  });

  it('drop-newest: the client gets items in order, without the newest ones that found the budget spent', async () => {
    const { body, complete, received } = await slowly('drop-newest');
    expect(complete).toBe(true);
    expect(received[0]).toBe(0);
    expect([...received].sort((a, b) => a - b)).toEqual(received);
    expect(received.length).toBeLessThan(COUNT);
    // The source ended while the budget was spent, so its last items were the ones dropped.
    expect(received.at(-1)).toBeLessThan(COUNT - 1);
    expect(body.length).toBeLessThan(BOUND);
  });

  it('drop-oldest: the client gets the first items, a gap, then the last items the budget held', async () => {
    const { body, complete, received } = await slowly('drop-oldest');
    expect(complete).toBe(true);
    expect(received.length).toBeLessThan(COUNT);
    expect(received.slice(-KEPT)).toEqual(Array.from({ length: KEPT }, (_, k) => COUNT - KEPT + k));
    expect(received[0]).toBe(0);
    expect(body.length).toBeLessThan(BOUND);
  });

  it('latest: the client gets the first items, then only the newest ones, ending with the last item', async () => {
    const { body, complete, received } = await slowly('latest');
    expect(complete).toBe(true);
    expect(received.length).toBeLessThan(COUNT);
    expect(received.at(-1)).toBe(COUNT - 1);
    expect([...received].sort((a, b) => a - b)).toEqual(received);
    expect(body.length).toBeLessThan(BOUND);
  });
});

describe('an AsyncIterable and a slow reader over a real socket', () => {
  it('is pulled only as the socket drains, and returned when the client goes away', async () => {
    const before = returned;
    pulls = 0;
    let stalled = 0;
    await new Promise<void>((resolve, reject) => {
      const request = get(`${server.url}/slow/pulled`, (res) => {
        res.pause();
        void (async () => {
          // Wait for the pulls to stop: the socket is full and nothing is read. Stopped means unchanged for
          // 150 ms running: on a busy machine one 30 ms gap can fall inside a stretch of pulling.
          let last = -1;
          for (let i = 0, still = 0; i < 200 && still < 5; i++) {
            still = pulls === last ? still + 1 : 0;
            last = pulls;
            await delay(30);
          }
          stalled = pulls;
          await delay(100);
          expect(pulls).toBe(stalled);
          expect(stalled * PAD.length).toBeLessThan(BOUND);
          // Reading lets the server pull again.
          res.on('data', () => undefined);
          res.resume();
          await until(() => pulls > stalled + 1000);
          request.destroy();
          resolve();
        })().catch(reject);
      });
      request.on('error', () => undefined);
    });
    await until(() => returned === before + 1);
  });
});
