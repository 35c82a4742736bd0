/** Streaming decorators: the element type of a stream's items and a per-endpoint stream buffer. */
import type { OverflowPolicy } from '../streaming/bounded-buffer';
import { metaKey, methodMeta, ownerOf } from '../metadata/store';
import { memberName } from './decorator-types';
import type { MethodDecoratorFn } from './resource';

export const STREAM_ELEMENT_TYPE = metaKey<string>('stream-element-type');
export const STREAM_BUFFER = metaKey<{ size?: number; overflow?: OverflowPolicy }>('stream-buffer');

/**
 * The media type each item of a stream is serialized as (SSE `data:`); also sent as `X-SSE-Content-Type`.
 *
 * @example
 * \@GET @Produces('text/event-stream') @RestStreamElementType('application/json')
 * events(): Multi<Event> { return multi(this.events$); }
 */
export function RestStreamElementType(mediaType: string): MethodDecoratorFn {
  return (target, propertyKey) => methodMeta(ownerOf(target), memberName(propertyKey)).tags.set(STREAM_ELEMENT_TYPE, mediaType);
}

/**
 * This endpoint's stream buffer, over `framework.rest.stream.buffer-size` / `.overflow`: how many items
 * of an Observable may wait for a slow client, and what happens when more arrive.
 *
 * @example
 * \@GET @Produces('text/event-stream') @StreamBuffer({ size: 16, overflow: 'latest' })
 * prices(): Multi<Price> { return multi(this.prices$); }
 */
export function StreamBuffer(options: { size?: number; overflow?: OverflowPolicy }): MethodDecoratorFn {
  return (target, propertyKey) => methodMeta(ownerOf(target), memberName(propertyKey)).tags.set(STREAM_BUFFER, options);
}
