/** `Multi` and `Uni`: Observables marked as many-item streams or single results (DESIGN §4). */
import { Observable } from 'rxjs';

const MULTI: unique symbol = Symbol.for('rxrest.multi') as never;

/**
 * An Observable whose every item is part of the response body (a stream), not just the first. A class
 * (not a type alias) so that a method declared `: Multi<T>` is recognised at build time from its
 * `design:returntype`: it runs on the event loop and streams even a plain Observable it returns.
 * Operators applied to a Multi give plain Observables: wrap the result again with `multi()`.
 */
export class Multi<T> extends Observable<T> {
  declare readonly [MULTI]: true;

  constructor(source: Observable<T>) {
    super((subscriber) => source.subscribe(subscriber));
    Object.defineProperty(this, MULTI, { value: true });
  }
}

/** An Observable whose first value is the result (then unsubscribed); the default reading of an Observable. */
export type Uni<T> = Observable<T>;

/**
 * Marks `source` as a stream: every item is written, framed by the negotiated media type (SSE,
 * NDJSON, a JSON array, or raw chunks).
 *
 * @example
 * \@GET @Produces('text/event-stream')
 * ticks(): Multi<number> { return multi(interval(1000)); }
 */
export function multi<T>(source: Observable<T>): Multi<T> {
  return new Multi(source);
}

/** Names `source` as a single result; only its first value is used. */
export function uni<T>(source: Observable<T>): Uni<T> {
  return source;
}

export function isMulti(value: unknown): value is Multi<unknown> {
  return value instanceof Observable && (value as unknown as Record<symbol, unknown>)[MULTI] === true;
}
