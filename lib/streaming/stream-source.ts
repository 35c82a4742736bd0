/** Recognises the result values that are streams, and reads them as push (Observable) or pull (iterator) sources. */
import { Observable } from 'rxjs/internal/Observable';
import { isMulti, pulledSourceOf } from './multi';

/** A stream to write: pushed by an Observable, or pulled from an iterator (sync or async) that `open` returns. */
export type StreamSource =
  | { readonly kind: 'push'; readonly observable: Observable<unknown> }
  | { readonly kind: 'pull'; readonly open: () => Iterator<unknown> | AsyncIterator<unknown> };

/** True for async iterables: async generators, Web `ReadableStream`s and Node `Readable`s. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
  );
}

/** True for the object a `function*` returns; other iterables (arrays, sets) are values unless in `multi.from`. */
export function isGenerator(value: unknown): value is Generator<unknown> {
  return Object.prototype.toString.call(value) === '[object Generator]';
}

/** The iterator of an iterable, async first. */
export function iteratorOf(
  iterable: Iterable<unknown> | AsyncIterable<unknown>,
): Iterator<unknown> | AsyncIterator<unknown> {
  return isAsyncIterable(iterable) ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
}

/**
 * The stream source of `value`: a `Multi` (pulled from `multi.from`), an async iterable, a generator object, a
 * `ReadableStream`, or when `observables` (a streaming type was negotiated) any Observable; otherwise undefined.
 */
export function toStreamSource(value: unknown, observables: boolean): StreamSource | undefined {
  if (value instanceof Observable) {
    const pulled = pulledSourceOf(value);
    if (pulled) return { kind: 'pull', open: () => iteratorOf(pulled) };
    return observables || isMulti(value) ? { kind: 'push', observable: value } : undefined;
  }
  if (isAsyncIterable(value)) return { kind: 'pull', open: () => value[Symbol.asyncIterator]() };
  if (isGenerator(value)) return { kind: 'pull', open: () => value };
  // Node 20's ReadableStream is async-iterable; this covers implementations that are not.
  if (value instanceof ReadableStream) return { kind: 'pull', open: () => readAll(value as ReadableStream<unknown>) };
  return undefined;
}

/** Every chunk of a Web stream, read as the consumer asks; the stream is released however the loop ends. */
export async function* readAll<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
