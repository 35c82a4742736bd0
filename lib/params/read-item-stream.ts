/**
 * A body parameter declared as a `Multi<T>` (or `@Body({ stream: true })`): the request's items, each bound and
 * validated like a JSON body, as a Multi the handler gets at once, before the body has arrived. Iterated
 * (`for await`, or returned as a pulled response) it reads the socket only as items are asked for, so the
 * client is held back through TCP and memory stays flat; subscribed as an Observable it reads as fast as the
 * subscriber takes each chunk's items.
 */
import { Observable, type Subscriber } from 'rxjs';
import type { ZodType } from 'zod';
import type { ParamOptions } from '../decorators/params';
import { httpProblem } from '../errors/http-problem';
import { WebApplicationException } from '../errors/web-application-exception';
import type { Violation } from '../errors/problem-details';
import { byteCounter, itemFormatOf, itemPlace, itemSplitter, ITEM_MEDIA_TYPES, type ItemLimits, type RawItem } from '../body/request-items';
import { DefaultJsonMapper } from '../json/default-json-mapper';
import type { JsonMapper } from '../json/json-mapper';
import { isJsonTypeToken } from '../json/json-values';
import { nodeRequestOf } from '../multipart/body-source';
import type { RequestContext } from '../pipeline/request-context';
import { Multi, pullFrom } from '../streaming/multi';
import { sseEvent } from '../streaming/sse-event';
import type { BodySettings } from './body-settings';
import { isUnknownDesignType } from './convert';
import { classSchema } from './read-body-argument';

const defaultMapper = new DefaultJsonMapper();

/** Whether a body parameter is a stream of items: declared `Multi<T>`, or marked `@Body({ stream: true })`. */
export function isItemStreamParameter(designType: unknown, options: ParamOptions): boolean {
  return options.stream === true || (typeof designType === 'function' && (designType === Multi || designType.prototype instanceof Multi));
}

/** Turns one raw item into the value the handler gets, or throws a 400 problem naming it. */
type ItemBinder = (item: RawItem) => unknown;

function itemBinder(options: ParamOptions, mapper: JsonMapper): ItemBinder {
  const type = typeof options.type === 'function' ? options.type : undefined;
  const schema: ZodType | undefined = options.schema ?? classSchema(type);
  const target = type === undefined || (isUnknownDesignType(type) && !isJsonTypeToken(type)) ? undefined : type;
  // An SSE event's data is text unless a type says it is JSON; a string type keeps every item as text.
  const asText = type === String;
  return (item) => {
    try {
      if (asText) return item.event ? item.text : (mapper.readValue(item.text) as unknown);
      if (item.event && !schema && !target) {
        const first = item.text.trimStart()[0];
        const data = first === '{' || first === '[' || first === '"' ? mapper.readValue(item.text) : item.text;
        return sseEvent({ data, id: item.event.id, event: item.event.event });
      }
      if (!schema) return mapper.readValue(item.text, target);
      const result = schema.safeParse(mapper.readValue(item.text));
      if (!result.success) {
        const violations: Violation[] = result.error.issues.map((issue) => ({ in: 'body', field: issue.path.map(String).join('.'), message: issue.message }));
        throw httpProblem('RXREST_VALIDATION_FAILED', `${itemPlace(item)} is invalid`, { violations });
      }
      return target ? mapper.readValue(JSON.stringify(result.data), target) : result.data;
    } catch (error) {
      if (error instanceof WebApplicationException && error.problem && !error.problem.detail.startsWith(itemPlace(item))) {
        // "The request body is not valid JSON: ..." becomes "Line 7 of the request body is not valid JSON: ...".
        const detail = error.problem.detail.replace(/^The request body\b/, '');
        throw httpProblem(error.problem.code, `${itemPlace(item)}${detail === error.problem.detail ? `: ${detail}` : detail}`, { violations: error.problem.violations });
      }
      throw error;
    }
  };
}

/** The body's chunks, read only as they are asked for: the raw Node request when nothing has touched it, else the Web body. */
async function* chunksOf(ctx: RequestContext): AsyncGenerator<Uint8Array> {
  const incoming = nodeRequestOf(ctx);
  if (incoming) {
    for await (const chunk of incoming) yield chunk as Uint8Array;
    return;
  }
  const body = ctx.request.body;
  if (!body) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * The items of the request, chunk by chunk: each step reads one chunk and gives back the items it completed
 * (often several, sometimes none). Read once: the body is a stream.
 */
function itemBatches(ctx: RequestContext, limits: ItemLimits, bind: ItemBinder): AsyncGenerator<unknown[]> {
  const contentType = ctx.headers.get('content-type');
  const format = itemFormatOf(contentType);
  return (async function* () {
    if (!format) throw httpProblem('RXREST_UNSUPPORTED_MEDIA_TYPE', `A body of items is one of ${ITEM_MEDIA_TYPES.join(', ')}, not ${contentType ?? 'absent'}`);
    const splitter = itemSplitter(format, limits);
    const count = byteCounter(limits);
    const decoder = new TextDecoder();
    let batch: unknown[] = [];
    // A bad item fails the stream only after the good ones before it: the handler sees every item up to it.
    let failure: { error: unknown } | undefined;
    const emit = (item: RawItem) => {
      if (failure === undefined) batch.push(bind(item));
    };
    const attempt = (step: () => void) => {
      try {
        step();
      } catch (error) {
        failure ??= { error };
      }
    };
    const ready = () => {
      const items = batch;
      batch = [];
      return items;
    };
    for await (const chunk of chunksOf(ctx)) {
      attempt(() => {
        count(chunk);
        splitter.push(decoder.decode(chunk, { stream: true }), emit);
      });
      if (batch.length) yield ready();
      if (failure) throw failure.error;
    }
    attempt(() => {
      splitter.push(decoder.decode(), emit);
      splitter.end(emit);
    });
    if (batch.length) yield ready();
    if (failure) throw failure.error;
  })();
}

/** The request's items as a Multi: pulled item by item when iterated, pushed chunk by chunk when subscribed. */
class RequestItems<T> extends Multi<T> implements AsyncIterable<T> {
  readonly #open: () => AsyncGenerator<unknown[]>;
  #opened = false;

  constructor(open: () => AsyncGenerator<unknown[]>) {
    let self: RequestItems<T> | undefined;
    super(new Observable<T>((subscriber) => self!.#push(subscriber)));
    self = this;
    this.#open = open;
    // A handler that returns these items as its answer gets them pulled, at the pace of the response's client.
    pullFrom(this, { [Symbol.asyncIterator]: () => this[Symbol.asyncIterator]() });
  }

  #batches(): AsyncGenerator<unknown[]> {
    if (this.#opened) throw new Error('The items of a request body can be read once: subscribe to (or iterate) the Multi once, share() it for several consumers');
    this.#opened = true;
    return this.#open();
  }

  #push(subscriber: Subscriber<T>): () => void {
    let batches: AsyncGenerator<unknown[]>;
    try {
      batches = this.#batches();
    } catch (error) {
      subscriber.error(error);
      return () => undefined;
    }
    void (async () => {
      for await (const batch of batches) {
        for (const item of batch) {
          if (subscriber.closed) break;
          subscriber.next(item as T);
        }
        if (subscriber.closed) break;
      }
    })().then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    );
    // Unsubscribing stops the reading (the generator's `finally` releases the body).
    return () => void batches.return(undefined).catch(() => undefined);
  }

  override [Symbol.asyncIterator](): AsyncIterator<T> {
    const batches = this.#batches();
    let ready: unknown[] = [];
    let at = 0;
    return {
      next: async (): Promise<IteratorResult<T>> => {
        while (at >= ready.length) {
          const step = await batches.next();
          if (step.done) return { done: true, value: undefined };
          ready = step.value;
          at = 0;
        }
        return { done: false, value: ready[at++] as T };
      },
      return: async (): Promise<IteratorResult<T>> => {
        await batches.return(undefined);
        return { done: true, value: undefined };
      },
    };
  }
}

/** Compiles the reader of a stream-of-items body parameter: it answers the Multi at once, without reading. */
export function compileItemStreamReader(options: ParamOptions, settings: BodySettings): (ctx: RequestContext) => Multi<unknown> {
  const bind = itemBinder(options, settings.json ?? defaultMapper);
  const limits: ItemLimits = { maxBodySize: settings.maxBodySize, maxItemSize: settings.maxStreamItemSize ?? 1024 * 1024 };
  return (ctx) => new RequestItems<unknown>(() => itemBatches(ctx, limits, bind));
}
