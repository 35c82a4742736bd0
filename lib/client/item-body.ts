/** A request body of many items from an Observable or async iterable, framed by the media type the endpoint consumes. */
import { isObservable } from 'rxjs/internal/util/isObservable';
import type { Observable } from 'rxjs';
import type { JsonMapper } from '../json/json-mapper';
import { multi } from '../streaming/multi';

interface Framing {
  readonly start?: string;
  readonly frame: (json: string, item: unknown, first: boolean) => string;
  readonly end?: string;
}

const LINE: Framing = { frame: (json) => `${json}\n` };

/**
 * How each item of a streamed body is framed, by media type (NDJSON when `@Consumes` names none of these). A `Map`: a
 * media type such as `constructor` must find nothing, not a member of `Object.prototype`.
 */
export const ITEM_FRAMES: ReadonlyMap<string, Framing> = new Map([
  ['application/x-ndjson', LINE],
  ['application/jsonl', LINE],
  ['application/stream+json', LINE],
  ['application/json-seq', { frame: (json) => `\x1e${json}\n` }],
  [
    'text/event-stream',
    { frame: (json, item) => `data:${typeof item === 'string' ? item.replace(/\n/g, '\ndata:') : json}\n\n` },
  ],
  ['application/json', { start: '[', frame: (json, _item, first) => (first ? json : `,${json}`), end: ']' }],
]);

/** An Observable (or async iterable) body as a stream of framed items, pulled one item per chunk as fetch sends it. */
export function itemStream(
  source: Observable<unknown> | AsyncIterable<unknown>,
  mediaType: string,
  mapper: JsonMapper,
): ReadableStream<Uint8Array> {
  const framing = ITEM_FRAMES.get(mediaType) ?? LINE;
  const items = Symbol.asyncIterator in source ? source : multi(source as Observable<unknown>);
  const iterator = items[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let first = true;
  return new ReadableStream<Uint8Array>({
    start: (controller) => {
      if (framing.start) controller.enqueue(encoder.encode(framing.start));
    },
    pull: async (controller) => {
      const step = await iterator.next();
      if (step.done) {
        if (framing.end) controller.enqueue(encoder.encode(framing.end));
        return controller.close();
      }
      controller.enqueue(encoder.encode(framing.frame(mapper.writeValueAsString(step.value), step.value, first)));
      first = false;
    },
    cancel: async () => {
      await iterator.return?.();
    },
  });
}

export function isItemSource(value: unknown): value is Observable<unknown> | AsyncIterable<unknown> {
  return (
    isObservable(value) ||
    (typeof value === 'object' && value !== null && Symbol.asyncIterator in value && !(value instanceof ReadableStream))
  );
}
