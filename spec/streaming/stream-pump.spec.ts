import { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { OverflowPolicy } from '../../lib/streaming/backlog';
import { framingFor } from '../../lib/streaming/framing';
import { createPump } from '../../lib/streaming/stream-pump';
import type { StreamSink } from '../../lib/streaming/stream-sink';

// Items this large are written at once instead of being batched until the next macrotask, so the
// pump's whole behaviour plays out in virtual time.
const BIG = 'x'.repeat(16384);
const big = (letter: string) => BIG + letter;
// A budget of this many big items.
const items = (count: number) => count * (BIG.length + 1);
const KEEP_ALIVE = ':\n\n';

/** The chunks a pump writes, as one letter each ('k' for keep-alive), completing on end, erroring on abort. */
function pumped(
  source: Observable<string>,
  mediaType: string,
  settings: { bufferSize?: number; overflow?: OverflowPolicy; keepAliveMs?: number },
  drained?: Observable<unknown>,
): Observable<string> {
  return new Observable<string>((out) => {
    let paused = drained !== undefined;
    let onReady: (() => void) | undefined;
    const sink: StreamSink = {
      write(chunk) {
        const text = typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
        out.next(text === KEEP_ALIVE ? 'k' : text.replace(/["\s]+$/, '').slice(-1));
        return !paused;
      },
      onReady: (callback) => void (onReady = callback),
      buffered: () => 0,
      open: () => undefined,
      end: () => out.complete(),
      abort: () => out.error('aborted'),
      onClose: () => undefined,
    };
    const pump = createPump(
      { kind: 'push', observable: source },
      framingFor(mediaType),
      { bufferSize: items(2), overflow: 'fail', keepAliveMs: 0, ...settings },
      () => undefined,
    );
    void pump.prime()?.catch(() => undefined);
    pump.attach(sink);
    const drainedSubscription = drained?.subscribe(() => {
      paused = false;
      const callback = onReady;
      onReady = undefined;
      callback?.();
    });
    return () => {
      drainedSubscription?.unsubscribe();
      pump.cancel();
    };
  });
}

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
// A fast source: six items while the client reads nothing until frame 15.
const SOURCE = '-a-b-c-d-e-f|';
const DRAINED = '15ms r';

describe('createPump (an Observable)', () => {
  it('fails the stream and unsubscribes the source when a fail stream gets past its byte budget', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold(SOURCE, { a: big('a'), b: big('b'), c: big('c'), d: big('d'), e: big('e'), f: big('f') });
      expectObservable(pumped(source, 'text/plain', { overflow: 'fail' }, cold(DRAINED))).toBe(
        '-a-----#',
        { a: 'a' },
        'aborted',
      );
      expectSubscriptions(source.subscriptions).toBe('^------!');
    });
  });

  const policies: [OverflowPolicy, string][] = [
    ['drop-oldest', '-a 13ms (ef|)'],
    ['drop-newest', '-a 13ms (bc|)'],
    ['latest', '-a 13ms (f|)'],
  ];
  for (const [overflow, expected] of policies) {
    it(`keeps the items the ${overflow} policy keeps while the client is not reading`, () => {
      scheduler().run(({ cold, expectObservable }) => {
        const source = cold(SOURCE, { a: big('a'), b: big('b'), c: big('c'), d: big('d'), e: big('e'), f: big('f') });
        expectObservable(pumped(source, 'text/plain', { overflow }, cold(DRAINED))).toBe(expected);
      });
    });
  }

  it('writes every item when the budget is large enough for the burst', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold(SOURCE, { a: big('a'), b: big('b'), c: big('c'), d: big('d'), e: big('e'), f: big('f') });
      expectObservable(pumped(source, 'text/plain', { bufferSize: items(5) }, cold(DRAINED))).toBe('-a 13ms (bcdef|)');
    });
  });

  it('sends an SSE keep-alive comment only in periods when nothing else was written', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a 33ms b|', { a: big('a'), b: big('b') });
      expectObservable(pumped(source, 'text/event-stream', { keepAliveMs: 10 })).toBe('-a 18ms k 9ms k 4ms b|');
    });
  });

  it('sends no keep-alive when it is 0 or the framing is not SSE', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a 33ms b|', { a: big('a'), b: big('b') });
      expectObservable(pumped(source, 'text/event-stream', { keepAliveMs: 0 })).toBe('-a 33ms b|');
      expectObservable(pumped(source, 'application/x-ndjson', { keepAliveMs: 10 })).toBe('-a 33ms b|');
    });
  });

  it('stops the keep-alive timer and the source when cancelled', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a 100ms b|', { a: big('a'), b: big('b') });
      expectObservable(pumped(source, 'text/event-stream', { keepAliveMs: 10 }), '^ 24ms !').toBe('-a 18ms k');
      expectSubscriptions(source.subscriptions).toBe('^ 24ms !');
    });
  });
});
