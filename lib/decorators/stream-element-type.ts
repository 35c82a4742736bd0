/** The element type of a stream's items; apart from the stream buffer, so the REST client can read it without the server. */
import { metaKey } from '../metadata/store';
import { methodTag, tagFactory, type MethodDecoratorFn } from './decorator-types';

export const STREAM_ELEMENT_TYPE = metaKey<string>('stream-element-type');

/**
 * The media type each item of a stream is serialized as (SSE `data:`); also sent as `X-SSE-Content-Type`.
 *
 * @example
 * \@GET @Produces('text/event-stream') @RestStreamElementType('application/json')
 * events(): Multi<Event> { return multi(this.events$); }
 */
export const RestStreamElementType: (mediaType: string) => MethodDecoratorFn = tagFactory(
  methodTag,
  STREAM_ELEMENT_TYPE,
);
