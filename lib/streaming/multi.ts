/** `Multi` and `Uni`: Observables marked as many-item streams or single results (DESIGN §4). */
import { from, Observable } from 'rxjs';

const MULTI: unique symbol = Symbol.for('rxrest.multi') as never;
const PULLED: unique symbol = Symbol.for('rxrest.multi.pulled') as never;

/**
 * An Observable whose every item is part of the response body (a stream), not just the first. A class
 * (not a type alias) so that a method declared `: Multi<T>` is recognised at build time from its
 * `design:returntype`: it runs on the event loop and streams even a plain Observable it returns.
 * Operators applied to a Multi give plain Observables: wrap the result again with `multi()`.
 */
export class Multi<T> extends Observable<T> {
  declare readonly [MULTI]: true;
  declare readonly [PULLED]: Iterable<T> | AsyncIterable<T> | undefined;

  constructor(source: Observable<T>) {
    super((subscriber) => source.subscribe(subscriber));
    Object.defineProperty(this, MULTI, { value: true });
  }

  /**
   * A stream of the items of `source` (an array, a `Set`, `map.values()`, a generator, an async
   * generator, a database cursor...) that the response **pulls**: the next item is asked for only when
   * the client's connection takes more, so memory stays flat whatever the size. Subscribed as an
   * Observable (after `.pipe(...)`), it iterates as RxJS `from()` does, as fast as it can.
   *
   * @example
   * \@GET @Produces('application/x-ndjson')
   * export(): Multi<Row> { return Multi.from(this.db.cursor('select * from rows')); }
   */
  static from<T>(source: Iterable<T> | AsyncIterable<T>): Multi<T> {
    const pulled = new Multi(from(source));
    Object.defineProperty(pulled, PULLED, { value: source });
    return pulled;
  }
}

/** The iterable a `Multi.from` stream pulls; undefined for any other Observable. */
export function pulledSourceOf(value: Observable<unknown>): Iterable<unknown> | AsyncIterable<unknown> | undefined {
  return (value as Partial<Multi<unknown>>)[PULLED];
}

/** An Observable whose first value is the result (then unsubscribed); the default reading of an Observable. */
export type Uni<T> = Observable<T>;

/**
 * Marks `source` as a stream: every item is written, framed by the negotiated media type (SSE,
 * NDJSON, a JSON array, or raw chunks). `multi.from(iterable)` is `Multi.from`: a pulled stream.
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
