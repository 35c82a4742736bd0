/** `Multi` and `Uni`: Observables marked as many-item streams or single results (docs/streaming.md). */
import { Observable } from 'rxjs/internal/Observable';
import { from } from 'rxjs/internal/observable/from';
import type { Subscription } from 'rxjs';

const MULTI: unique symbol = Symbol.for('rxrest.multi') as never;
const PULLED: unique symbol = Symbol.for('rxrest.multi.pulled') as never;

/**
 * An Observable whose every item is part of the response body (a stream), not just the first. A class so that a
 * method declared `: Multi<T>` is recognised from its `design:returntype`: it runs on the event loop and streams even
 * a plain Observable it returns. Operators applied to a Multi give plain Observables: wrap the result in `multi()`.
 */
export class Multi<T> extends Observable<T> {
  declare readonly [MULTI]: true;
  declare readonly [PULLED]: Iterable<T> | AsyncIterable<T> | undefined;

  constructor(source: Observable<T>) {
    super((subscriber) => source.subscribe(subscriber));
    Object.defineProperty(this, MULTI, { value: true });
  }

  /** `for await`: a pulled Multi is read as the loop asks; any other is subscribed, its items queued until taken. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    const pulled = this[PULLED];
    if (pulled)
      return Symbol.asyncIterator in pulled
        ? pulled[Symbol.asyncIterator]()
        : fromSyncIterator(pulled[Symbol.iterator]());
    return queuedIterator(this);
  }

  /**
   * A stream of the items of `source` (an array, a `Set`, a generator, an async generator, a database cursor...)
   * that the response **pulls**: the next item is asked for only when the client's connection takes more, so memory
   * stays flat whatever the size. Subscribed as an Observable (after `.pipe(...)`), it iterates as RxJS `from()` does.
   *
   * @example
   * \@GET @Produces('application/x-ndjson')
   * export(): Multi<Row> { return Multi.from(this.db.cursor('select * from rows')); }
   */
  static from<T>(source: Iterable<T> | AsyncIterable<T>): Multi<T> {
    const pulled = new Multi(from(source));
    pullFrom(pulled, source);
    return pulled;
  }
}

function fromSyncIterator<T>(iterator: Iterator<T>): AsyncIterator<T> {
  return {
    next: async () => iterator.next(),
    return: async () => iterator.return?.() ?? { done: true, value: undefined },
  };
}

/** An Observable as an async iterator: subscribed on the first `next()`, items queued until taken. */
function queuedIterator<T>(source: Observable<T>): AsyncIterator<T> {
  const queue: IteratorResult<T>[] = [];
  const waiting: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void }[] = [];
  let failure: { error: unknown } | undefined;
  let finished = false;
  let subscription: Subscription | undefined;
  const settle = (result: IteratorResult<T>) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(result);
    else queue.push(result);
  };
  return {
    next: () => {
      subscription ??= source.subscribe({
        next: (value) => settle({ done: false, value }),
        error: (error: unknown) => {
          failure = { error };
          for (const waiter of waiting.splice(0)) waiter.reject(error);
        },
        complete: () => {
          finished = true;
          settle({ done: true, value: undefined });
        },
      });
      const ready = queue.shift();
      if (ready) return Promise.resolve(ready);
      if (failure) return Promise.reject(failure.error);
      if (finished) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return: async () => {
      subscription?.unsubscribe();
      return { done: true, value: undefined };
    },
  };
}

/** Makes `stream` pulled from `source` when a response sends it (what `Multi.from` does for its own). */
export function pullFrom<T>(stream: Multi<T>, source: Iterable<T> | AsyncIterable<T>): void {
  Object.defineProperty(stream, PULLED, { value: source });
}

/** The iterable a `Multi.from` stream pulls; undefined for any other Observable. */
export function pulledSourceOf(value: Observable<unknown>): Iterable<unknown> | AsyncIterable<unknown> | undefined {
  return (value as Partial<Multi<unknown>>)[PULLED];
}

/** An Observable whose first value is the result (then unsubscribed); the default reading of an Observable. */
export type Uni<T> = Observable<T>;

/**
 * Marks `source` as a stream: every item is written, framed by the negotiated media type (SSE, NDJSON, a JSON array,
 * or raw chunks). `multi.from(iterable)` is `Multi.from`: a pulled stream.
 *
 * @example
 * \@GET @Produces('text/event-stream')
 * ticks(): Multi<number> { return multi(interval(1000)); }
 */
export function multi<T>(source: Observable<T>): Multi<T> {
  return new Multi(source);
}
multi.from = Multi.from;

/** Names `source` as a single result; only its first value is used. */
export function uni<T>(source: Observable<T>): Uni<T> {
  return source;
}

export function isMulti(value: unknown): value is Multi<unknown> {
  return value instanceof Observable && (value as unknown as Record<symbol, unknown>)[MULTI] === true;
}
