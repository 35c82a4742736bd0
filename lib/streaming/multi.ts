/** `Multi` and `Uni`: Observables marked as many-item streams or single results (DESIGN §4). */
import { Observable } from 'rxjs';

const MULTI = Symbol.for('rxrest.multi');

/** An Observable whose every item is part of the response body (a stream), not just the first. */
export type Multi<T> = Observable<T> & { readonly [MULTI]: true };

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
  const marked = new Observable<T>((subscriber) => source.subscribe(subscriber)) as Multi<T> & Record<symbol, boolean>;
  Object.defineProperty(marked, MULTI, { value: true });
  return marked;
}

/** Names `source` as a single result; only its first value is used. */
export function uni<T>(source: Observable<T>): Uni<T> {
  return source;
}

export function isMulti(value: unknown): value is Multi<unknown> {
  return value instanceof Observable && (value as unknown as Record<symbol, unknown>)[MULTI] === true;
}
