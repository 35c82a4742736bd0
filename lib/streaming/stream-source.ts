/** Recognises the result values that are streams, and reads them as push (Observable) or pull (async iterable) sources. */
import { Observable } from 'rxjs';
import { isMulti } from './multi';

/** A stream to write: pushed by an Observable, or pulled from an async iterable. */
export type StreamSource =
  | { readonly kind: 'push'; readonly observable: Observable<unknown> }
  | { readonly kind: 'pull'; readonly iterable: AsyncIterable<unknown> };

/** True for async iterables: async generators, Web `ReadableStream`s and Node `Readable`s. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function';
}

/**
 * The stream source of `value`: a `Multi`, an async iterable, a `ReadableStream`, or (when
 * `observables` is true, i.e. the negotiated type is a streaming one) any Observable; otherwise undefined.
 */
export function toStreamSource(value: unknown, observables: boolean): StreamSource | undefined {
  if (value instanceof Observable) return observables || isMulti(value) ? { kind: 'push', observable: value } : undefined;
  if (isAsyncIterable(value)) return { kind: 'pull', iterable: value };
  // Node 20's ReadableStream is async-iterable; this covers implementations that are not.
  if (value instanceof ReadableStream) return { kind: 'pull', iterable: readAll(value as ReadableStream<unknown>) };
  return undefined;
}

async function* readAll(stream: ReadableStream<unknown>): AsyncGenerator<unknown> {
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
