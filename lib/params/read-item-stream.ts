/**
 * A `Multi<T>` body parameter, given before the body has arrived. Iterated, it reads the socket only as items are asked
 * for (TCP holds the client back, memory stays flat); subscribed, as fast as the subscriber takes them.
 */
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber } from 'rxjs';
import type { ParamOptions } from '../decorators/params';
import { httpProblem } from '../errors/http-problem';
import {
  byteCounter,
  itemFormatOf,
  itemSplitter,
  ITEM_MEDIA_TYPES,
  type EmitItem,
  type ItemLimits,
} from '../body/request-items';
import { nodeRequestOf, webBodyOf } from '../body/body-source';
import type { RequestContext } from '../context/request-context';
import { Multi, pullFrom } from '../streaming/multi';
import { readAll } from '../streaming/stream-source';
import type { BodySettings } from '../multipart/body-settings';
import { itemBinder, type ItemBinder } from './item-binder';

/** Declared `Multi<T>`, or marked `@Body({ stream: true })`. */
export function isItemStreamParameter(designType: unknown, options: ParamOptions): boolean {
  return (
    options.stream === true ||
    (typeof designType === 'function' && (designType === Multi || designType.prototype instanceof Multi))
  );
}

/** Read only as asked for: the raw Node request when nothing has touched it, else the Web body. */
async function* chunksOf(ctx: RequestContext): AsyncGenerator<Uint8Array> {
  const incoming = nodeRequestOf(ctx);
  if (incoming) {
    for await (const chunk of incoming) yield chunk as Uint8Array;
    return;
  }
  const body = webBodyOf(ctx);
  if (body) yield* readAll(body);
}

/** `take` hands a chunk's items to `emit` synchronously; a bad item throws after the good ones before it went. */
interface ItemReader {
  readonly chunks: AsyncGenerator<Uint8Array>;
  take(chunk: Uint8Array, emit: (value: unknown) => void): void;
  finish(emit: (value: unknown) => void): void;
}

function itemReader(ctx: RequestContext, limits: ItemLimits, bind: ItemBinder): ItemReader {
  const contentType = ctx.headers.get('content-type');
  const format = itemFormatOf(contentType);
  if (!format)
    throw httpProblem(
      'RXREST_UNSUPPORTED_MEDIA_TYPE',
      `A body of items is one of ${ITEM_MEDIA_TYPES.join(', ')}, not ${contentType ?? 'absent'}`,
    );
  const splitter = itemSplitter(format, limits);
  const count = byteCounter(limits);
  // A streaming decoder keeps a character split between two chunks whole (as Node's `setEncoding` does).
  const decoder = new TextDecoder('utf-8');
  let deliver: (value: unknown) => void = () => undefined;
  const emit: EmitItem = (text, index, line, event, suspect) => deliver(bind(text, index, line, event, suspect));
  return {
    chunks: chunksOf(ctx),
    take(chunk, to) {
      deliver = to;
      count(chunk);
      splitter.push(decoder.decode(chunk, { stream: true }), emit);
    },
    finish(to) {
      deliver = to;
      splitter.push(decoder.decode(), emit);
      splitter.end(emit);
    },
  };
}

class RequestItems<T> extends Multi<T> implements AsyncIterable<T> {
  readonly #open: () => ItemReader;
  #opened = false;

  constructor(open: () => ItemReader) {
    let self: RequestItems<T> | undefined;
    super(new Observable<T>((subscriber) => self!.#push(subscriber)));
    self = this;
    this.#open = open;
    // A handler that returns these items gets them pulled, at the pace of the response's client.
    pullFrom(this, { [Symbol.asyncIterator]: () => this[Symbol.asyncIterator]() });
  }

  #reader(): ItemReader {
    if (this.#opened)
      throw new Error(
        'The items of a request body can be read once: subscribe to (or iterate) the Multi once, share() it for several consumers',
      );
    this.#opened = true;
    return this.#open();
  }

  /** The next chunk is read after the subscriber took this one's items. */
  #push(subscriber: Subscriber<T>): () => void {
    let reader: ItemReader;
    try {
      reader = this.#reader();
    } catch (error) {
      subscriber.error(error);
      return () => undefined;
    }
    const next = (value: unknown) => subscriber.next(value as T);
    void (async () => {
      for await (const chunk of reader.chunks) {
        reader.take(chunk, next);
        if (subscriber.closed) return;
      }
      reader.finish(next);
    })().then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    );
    // Unsubscribing stops the reading (the chunk generator's `finally` releases the body).
    return () => void reader.chunks.return(undefined).catch(() => undefined);
  }

  override [Symbol.asyncIterator](): AsyncIterator<T> {
    const reader = this.#reader();
    let ready: unknown[] = [];
    let at = 0;
    let failure: { error: unknown } | undefined;
    let ended = false;
    const collect = (step: () => void) => {
      ready = [];
      at = 0;
      try {
        step();
      } catch (error) {
        // The items read before the bad one are still given, then the error.
        failure = { error };
      }
    };
    return {
      next: async (): Promise<IteratorResult<T>> => {
        while (at >= ready.length) {
          if (failure) throw failure.error;
          if (ended) return { done: true, value: undefined };
          const step = await reader.chunks.next();
          if (step.done) {
            ended = true;
            collect(() => reader.finish((value) => ready.push(value)));
          } else collect(() => reader.take(step.value, (value) => ready.push(value)));
        }
        return { done: false, value: ready[at++] as T };
      },
      return: async (): Promise<IteratorResult<T>> => {
        await reader.chunks.return(undefined);
        return { done: true, value: undefined };
      },
    };
  }
}

/** It answers the Multi at once, without reading. */
export function compileItemStreamReader(
  options: ParamOptions,
  settings: BodySettings,
): (ctx: RequestContext) => Multi<unknown> {
  const bind = itemBinder(options, settings.json);
  const limits: ItemLimits = { maxBodySize: settings.maxBodySize, maxItemSize: settings.maxStreamItemSize };
  return (ctx) => new RequestItems<unknown>(() => itemReader(ctx, limits, bind));
}
